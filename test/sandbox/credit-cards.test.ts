import {describe, expect, it} from 'vitest'
import {Card} from '../../src/api/schemas/card.js'
import {ACME_AUTH, CARD, call, sandbox} from './helpers.js'

const tokenize = async (gateway: Awaited<ReturnType<typeof sandbox>>, fields: Record<string, unknown> = {}, auth?: string) =>
  call(gateway, 'POST', '/v1.0/credit_cards', {body: {...CARD, ...fields}, auth})

const CARD_RECORD = {
  token: expect.stringMatching(/^[a-z0-9]{20}$/),
  card_holder: 'Jo Citizen',
  card_number: '512345XXXXXX2346',
  card_expiry: '2030-02-28',
  card_type: 'MasterCard',
  card_category: 'Credit',
  card_subcategory: 'Standard',
  card_issuer: 'Sandbox Bank',
  card_country: 'Australia',
  authorized: true,
  transaction_count: 0,
  alias: null,
}

describe('POST /v1.0/credit_cards', () => {
  it('tokenizes a card, answering the masked record and no CVV', async () => {
    const answer = await tokenize(await sandbox())
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({successful: true, response: CARD_RECORD, errors: [], test: true})
    expect(Card.parse(answer.body.response)).toEqual(answer.body.response)
    expect(answer.text).not.toContain('cvv')
  })

  it.each([
    ['4005550000000001', 'VISA', '400555XXXXXX0001'],
    ['4242424242424242', 'VISA', '424242XXXXXX4242'],
    ['5555555555554444', 'MasterCard', '555555XXXXXX4444'],
    ['378282246310005', 'AMEX', '378282XXXXX0005'],
  ])('knows %s as %s', async (number, type, masked) => {
    const answer = await tokenize(await sandbox(), {card_number: number, cvv: type === 'AMEX' ? '1234' : '123'})
    expect(answer.body.response).toMatchObject({card_type: type, card_number: masked})
  })

  it.each([
    [{card_number: '5123456789012345'}, ['Invalid Card Number']],
    [{card_expiry: '10/2026'}, ['Expiry date is invalid (expired)']],
    [{card_expiry: '13/2030'}, ['Expiry date is missing or invalid.']],
    [{card_holder: ''}, ["Card holder can't be blank"]],
    [{card_number: ''}, ["Card number can't be blank", ' is not an accepted card type']],
    [{card_expiry: undefined}, ['Expiry date is missing or invalid.']],
    [{cvv: undefined}, ['CVV is required']],
    [{cvv: ' ', is_billing: false}, ['CVV is required']],
  ])('%j is a 400, as the contract answers bad data (§7): %j', async (fields, errors) => {
    const answer = await tokenize(await sandbox(), fields)
    expect(answer.status).toBe(400)
    expect(answer.body.successful).toBe(false)
    expect(answer.body.errors).toEqual(errors)
    expect(answer.body.response.token).toBeNull()
  })

  it('is a 422 in the live dialect, as the live gateway answers a card it refuses', async () => {
    const answer = await tokenize(await sandbox({dialect: 'live'}), {card_number: '5123456789012345', cvv: undefined})
    expect(answer.status).toBe(422)
    expect(answer.body.errors).toEqual(['Card number is invalid', 'CVV is required'])
  })

  it('tokenizes a card without its CVV when it is stored for billing (is_billing)', async () => {
    const answer = await tokenize(await sandbox(), {cvv: undefined, is_billing: true})
    expect(answer.status).toBe(200)
    expect(answer.body.response).toStrictEqual(CARD_RECORD)
  })

  it('echoes the submitted card in a 400, masked and without the CVV', async () => {
    const answer = await tokenize(await sandbox(), {card_number: '4111111111111112', cvv: '321'})
    expect(answer.body.response).toStrictEqual({
      token: null,
      card_holder: 'Jo Citizen',
      card_number: '411111XXXXXX1112',
      card_expiry: '02/2030',
      card_type: null,
      card_category: null,
      card_subcategory: null,
      card_issuer: null,
      card_country: null,
      authorized: null,
      transaction_count: null,
      alias: null,
    })
  })

  it('answers a 400 naming a field of the wrong type', async () => {
    const answer = await tokenize(await sandbox(), {card_number: {digits: '5123456789012346'}})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(['Card number must be a string'])
  })
})

describe('GET and PUT /v1.0/credit_cards/{token_or_alias}', () => {
  it('updates the expiry, keeping the token, and assigns an alias that then finds the card', async () => {
    const gateway = await sandbox()
    const {token} = (await tokenize(gateway)).body.response

    const expiry = await call(gateway, 'PUT', `/v1.0/credit_cards/${token}`, {body: {card_expiry: '04/2031'}})
    expect(expiry.status).toBe(200)
    expect(expiry.body.response).toStrictEqual({...CARD_RECORD, token, card_expiry: '2031-04-30'})

    const alias = await call(gateway, 'PUT', `/v1.0/credit_cards/${token}.json`, {body: {alias: 'customer 42'}})
    expect(alias.body.response).toStrictEqual({...CARD_RECORD, token, card_expiry: '2031-04-30', alias: 'customer 42'})

    const byAlias = await call(gateway, 'GET', `/v1.0/credit_cards/${encodeURIComponent('customer 42')}`)
    expect(byAlias.status).toBe(200)
    expect(byAlias.body.response).toEqual(alias.body.response)

    const both = await call(gateway, 'PUT', '/v1.0/credit_cards/customer%2042', {body: {alias: 'customer 42', card_expiry: '05/2032'}})
    expect(both.status).toBe(200)
    expect(both.body.response).toMatchObject({token, alias: 'customer 42', card_expiry: '2032-05-31'})
  })

  it('refuses an alias another card of the merchant has, but not one another merchant has', async () => {
    const gateway = await sandbox()
    const first = (await tokenize(gateway)).body.response.token
    const second = (await tokenize(gateway)).body.response.token
    await call(gateway, 'PUT', `/v1.0/credit_cards/${first}`, {body: {alias: 'jo'}})

    const taken = await call(gateway, 'PUT', `/v1.0/credit_cards/${second}`, {body: {alias: 'jo'}})
    expect(taken.status).toBe(400)
    expect(taken.body.errors).toEqual(['Alias has already been taken'])
    expect(taken.body.response).toMatchObject({token: second, alias: null})

    const acmeCard = (await tokenize(gateway, {}, ACME_AUTH)).body.response.token
    const acme = await call(gateway, 'PUT', `/v1.0/credit_cards/${acmeCard}`, {body: {alias: 'jo'}, auth: ACME_AUTH})
    expect(acme.status).toBe(200)
    expect(acme.body.response.alias).toBe('jo')
  })

  it.each([
    [{}, ['Give card_expiry or alias to update']],
    [{card_expiry: '01/2020'}, ['Expiry date is invalid (expired)']],
    [{card_expiry: '2031-04'}, ['Expiry date is missing or invalid.']],
    [{alias: ' '}, ["Alias can't be blank"]],
  ])('refuses the update %j with a 400 (422 in the live dialect): %j', async (body, errors) => {
    const gateway = await sandbox()
    const {token} = (await tokenize(gateway)).body.response
    const answer = await call(gateway, 'PUT', `/v1.0/credit_cards/${token}`, {body})
    expect(answer.status).toBe(400)
    const live = await sandbox({dialect: 'live'})
    const liveToken = (await tokenize(live)).body.response.token
    expect((await call(live, 'PUT', `/v1.0/credit_cards/${liveToken}`, {body})).status).toBe(422)
    expect(answer.body.errors).toEqual(errors)
    expect((await call(gateway, 'GET', `/v1.0/credit_cards/${token}`)).body.response).toStrictEqual({...CARD_RECORD, token})
  })

  it.each(['GET', 'PUT'])('%s of an unknown token is a 404 Record not found', async (method) => {
    const answer = await call(await sandbox(), method, '/v1.0/credit_cards/nosuchtoken', {body: method === 'PUT' ? {alias: 'x'} : undefined})
    expect(answer.status).toBe(404)
    expect(answer.body).toStrictEqual({successful: false, response: null, errors: ['Record not found'], test: true})
  })

  it('answers 403 for another merchant’s token, and 404 for its alias', async () => {
    const gateway = await sandbox()
    const {token} = (await tokenize(gateway)).body.response
    await call(gateway, 'PUT', `/v1.0/credit_cards/${token}`, {body: {alias: 'jo'}})

    for (const method of ['GET', 'PUT']) {
      const answer = await call(gateway, method, `/v1.0/credit_cards/${token}`, {auth: ACME_AUTH, body: method === 'PUT' ? {alias: 'mine'} : undefined})
      expect(answer.status).toBe(403)
      expect(answer.body.errors).toEqual(['You do not have permissions to access this record'])
    }
    expect((await call(gateway, 'GET', '/v1.0/credit_cards/jo', {auth: ACME_AUTH})).status).toBe(404)
  })
})
