import {describe, expect, it} from 'vitest'
import {Customer} from '../../src/api/schemas/customer.js'
import {formatDateTime} from '../../src/sandbox/domain/clock.js'
import {ACME_AUTH, NOW, call, sandbox} from './helpers.js'
import {CUSTOMER, createCustomer, subscribed} from './recurring-helpers.js'

const customer = (fields: Record<string, unknown> = {}) => ({
  id: expect.stringMatching(/^071-C-[A-Z0-9]{8}$/),
  reference: 'jo',
  first_name: 'Jo',
  last_name: 'Citizen',
  email: 'jo@example.com',
  // The request's ip_address is kept, but no recorded answer shows one.
  created_at: formatDateTime(NOW),
  card_token: expect.stringMatching(/^[a-z0-9]{20}$/),
  // What every live customer record carries where the contract is silent (gateway-notes.md).
  card_number: '512345XXXXXX2346',
  bank_account: null,
  metadata: null,
  // As the latest recorded build sends it (Rb:PaymentPlan/_create/perpetual_subscription, 2022-10-06).
  sdk_ready: true,
  ...fields,
})

const refused = (fields: Record<string, unknown>) => ({
  id: null,
  reference: null,
  first_name: null,
  last_name: null,
  email: null,
  created_at: null,
  card_token: null,
  card_number: null,
  bank_account: null,
  metadata: null,
  ...fields,
})

describe('POST /v1.0/customers', () => {
  it('creates a customer: 201, with the address, and tokenizes the card', async () => {
    const gateway = await sandbox()
    const answer = await createCustomer(gateway)
    expect(answer.status).toBe(201)
    expect(answer.body).toStrictEqual({successful: true, response: customer({address: CUSTOMER.address}), errors: [], test: true})
    expect(Customer.parse(answer.body.response)).toEqual(answer.body.response)
    expect(answer.text).not.toContain('5123456789012346')
    expect(answer.text).not.toContain('cvv')

    const card = await call(gateway, 'GET', `/v1.0/credit_cards/${answer.body.response.card_token}`)
    expect(card.body.response).toMatchObject({card_number: '512345XXXXXX2346', card_holder: 'Jo Citizen', card_expiry: '2030-02-28'})
  })

  it('takes an email of any shape: the gateway does not check it', async () => {
    const answer = await createCustomer(await sandbox(), {email: 'jo at example'})
    expect(answer.status).toBe(201)
    expect(answer.body.response.email).toBe('jo at example')
  })

  it('names the card after the customer when no holder is given, and fills a missing address with nulls', async () => {
    const gateway = await sandbox()
    const {address: _address, ...withoutAddress} = CUSTOMER
    const answer = await call(gateway, 'POST', '/v1.0/customers', {
      body: {...withoutAddress, card: {card_number: '4242424242424242', expiry_date: '01/2030', cvv: '123'}},
    })
    expect(answer.status).toBe(201)
    expect(answer.body.response.address).toStrictEqual({address: null, city: null, state: null, postcode: null, country: null})
    const card = await call(gateway, 'GET', `/v1.0/credit_cards/${answer.body.response.card_token}`)
    expect(card.body.response.card_holder).toBe('Jo Citizen')
  })

  it.each([
    ['first_name', "First name can't be blank"],
    ['last_name', "Last name can't be blank"],
    ['reference', "Reference can't be blank"],
    ['email', "Email can't be blank"],
  ])('refuses a customer without %s: 400, id and created_at null', async (field, message) => {
    const gateway = await sandbox()
    const answer = await createCustomer(gateway, {[field]: ''})
    expect(answer.status).toBe(400)
    expect(answer.body.successful).toBe(false)
    expect(answer.body.errors).toStrictEqual([message])
    expect(answer.body.response).toMatchObject({id: null, created_at: null, card_token: null, [field]: ''})
  })

  it.each([
    [{card_number: '5123456789012345'}, 'Invalid Card Number'],
    [{expiry_date: '02/2020'}, 'Expiry date is invalid (expired)'],
    [{expiry_date: '2030-02'}, 'Expiry date is missing or invalid.'],
    [{cvv: ''}, "CVV can't be blank"],
  ])('checks the card as a purchase does: %o', async (card, message) => {
    const gateway = await sandbox()
    const answer = await createCustomer(gateway, {card: {...CUSTOMER.card, ...card}})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toStrictEqual([message])
  })

  it('refuses a customer without a card, every problem at once, echoing the request', async () => {
    const gateway = await sandbox()
    const answer = await call(gateway, 'POST', '/v1.0/customers', {body: {first_name: 'Jo', email: 'not-an-email'}})
    expect(answer.status).toBe(400)
    expect(answer.body).toStrictEqual({
      successful: false,
      response: {
        ...refused({first_name: 'Jo', email: 'not-an-email'}),
        address: {address: null, city: null, state: null, postcode: null, country: null},
      },
      // No card at all is one problem, in the interface's form (the live dialect's words: test/e2e/recorded-differences.test.ts).
      errors: ["Last name can't be blank", "Reference can't be blank", "Card can't be blank"],
      test: true,
    })
  })

  it('refuses a reference the merchant already used', async () => {
    const gateway = await sandbox()
    await createCustomer(gateway)
    const again = await createCustomer(gateway)
    expect(again.status).toBe(400)
    expect(again.body.errors).toStrictEqual(['Reference has already been taken'])
    expect(again.body.response.id).toBeNull()
    expect((await createCustomer(gateway, {}, ACME_AUTH)).status).toBe(201)
  })
})

describe('GET /v1.0/customers/{id}.json', () => {
  it('finds a customer by id or reference, without the address', async () => {
    const gateway = await sandbox()
    const created = (await createCustomer(gateway)).body.response
    const {address: _address, ...expected} = created
    for (const key of [created.id, 'jo']) {
      const answer = await call(gateway, 'GET', `/v1.0/customers/${key}.json`)
      expect(answer.status).toBe(200)
      expect(answer.body.response).toStrictEqual(expected)
      expect(answer.body.response).toMatchObject({card_number: '512345XXXXXX2346', bank_account: null, metadata: null})
    }
  })

  it('answers 404 Record not found, and 403 for another merchant customer', async () => {
    const gateway = await sandbox()
    const created = (await createCustomer(gateway)).body.response
    const unknown = await call(gateway, 'GET', '/v1.0/customers/nobody.json')
    expect(unknown.status).toBe(404)
    expect(unknown.body.errors).toStrictEqual(['Record not found'])
    expect((await call(gateway, 'GET', `/v1.0/customers/${created.id}.json`, {auth: ACME_AUTH})).status).toBe(403)
  })
})

describe('PUT /v1.0/customers/{id}.json', () => {
  it('changes any field', async () => {
    const gateway = await sandbox()
    const created = (await createCustomer(gateway)).body.response
    const answer = await call(gateway, 'PUT', `/v1.0/customers/${created.id}.json`, {
      body: {first_name: 'Joanne', email: 'joanne@example.com', reference: 'joanne'},
    })
    expect(answer.status).toBe(200)
    const {address: _address, ...before} = created
    expect(answer.body.response).toStrictEqual({...before, first_name: 'Joanne', email: 'joanne@example.com', reference: 'joanne'})
    expect((await call(gateway, 'GET', '/v1.0/customers/joanne.json')).body.response).toStrictEqual(answer.body.response)
  })

  it('refuses a blank first name with 400 and the record holding the blank value, and saves nothing', async () => {
    const gateway = await sandbox()
    const created = (await createCustomer(gateway)).body.response
    const {address: _address, ...before} = created
    const answer = await call(gateway, 'PUT', `/v1.0/customers/${created.id}.json`, {body: {first_name: '', last_name: 'Changed'}})
    expect(answer.status).toBe(400)
    expect(answer.body).toStrictEqual({
      successful: false,
      response: {...before, first_name: '', last_name: 'Changed'},
      errors: ["First name can't be blank"],
      test: true,
    })
    expect((await call(gateway, 'GET', '/v1.0/customers/jo.json')).body.response).toStrictEqual(before)
  })

  it('refuses a reference another of the merchant customers has', async () => {
    const gateway = await sandbox()
    await createCustomer(gateway)
    await createCustomer(gateway, {reference: 'sam'})
    const answer = await call(gateway, 'PUT', '/v1.0/customers/sam.json', {body: {reference: 'jo'}})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toStrictEqual(['Reference has already been taken'])
  })

  it('tokenizes a new card, checked as on creation', async () => {
    const gateway = await sandbox()
    const created = (await createCustomer(gateway)).body.response
    const bad = await call(gateway, 'PUT', '/v1.0/customers/jo.json', {body: {card: {card_number: '4242424242424241', expiry_date: '01/2030', cvv: '123'}}})
    expect(bad.status).toBe(400)
    expect(bad.body.errors).toStrictEqual(['Invalid Card Number'])

    const answer = await call(gateway, 'PUT', '/v1.0/customers/jo.json', {body: {card: {card_number: '4242424242424242', expiry_date: '01/2030', cvv: '123'}}})
    expect(answer.status).toBe(200)
    expect(answer.body.response.card_token).not.toBe(created.card_token)
    const card = await call(gateway, 'GET', `/v1.0/credit_cards/${answer.body.response.card_token}`)
    expect(card.body.response).toMatchObject({card_number: '424242XXXXXX4242', card_holder: 'Jo Citizen'})
  })

  it('answers 404 for an unknown customer and 403 for another merchant customer', async () => {
    const gateway = await sandbox()
    const created = (await createCustomer(gateway)).body.response
    expect((await call(gateway, 'PUT', '/v1.0/customers/nobody.json', {body: {first_name: 'X'}})).status).toBe(404)
    expect((await call(gateway, 'PUT', `/v1.0/customers/${created.id}.json`, {body: {first_name: 'X'}, auth: ACME_AUTH})).status).toBe(403)
  })
})

describe('DELETE /v1.0/customers/{id}.json', () => {
  it('answers with the deleted record, which is then gone, and stops its subscriptions', async () => {
    const gateway = await sandbox()
    const {customer: created} = await subscribed(gateway)
    const {address: _address, ...expected} = created.body.response
    const answer = await call(gateway, 'DELETE', `/v1.0/customers/${expected.id}.json`)
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({successful: true, response: expected, errors: [], test: true})
    expect((await call(gateway, 'GET', `/v1.0/customers/${expected.id}.json`)).status).toBe(404)
    expect((await call(gateway, 'DELETE', `/v1.0/customers/${expected.id}.json`)).body.errors).toStrictEqual(['Record not found'])
    expect((await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold.json')).body.response.is_active).toBe(false)
  })

  it('answers 403 for another merchant customer and keeps it', async () => {
    const gateway = await sandbox()
    const created = (await createCustomer(gateway)).body.response
    expect((await call(gateway, 'DELETE', `/v1.0/customers/${created.id}.json`, {auth: ACME_AUTH})).status).toBe(403)
    expect((await call(gateway, 'GET', `/v1.0/customers/${created.id}.json`)).status).toBe(200)
  })
})
