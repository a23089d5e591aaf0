import {describe, expect, it} from 'vitest'
import {Refund} from '../../src/api/schemas/refund.js'
import {addDays, formatDate, formatDateTime} from '../../src/sandbox/domain/clock.js'
import {refund2018} from '../fixtures/beyond-records.js'
import {ACME_AUTH, CARD, NOW, call, sandbox, type Answer} from './helpers.js'

type Gateway = Awaited<ReturnType<typeof sandbox>>

const refund = (gateway: Gateway, body: Record<string, unknown>, auth?: string): Promise<Answer> => call(gateway, 'POST', '/v1.0/refunds', {body, auth})

/** A refund that names no purchase but a card (gateway-beyond.md §7), as the Python library sends one. */
const unmatched = (fields: Record<string, unknown> = {}) => ({...CARD, customer_ip: '203.0.113.9', amount: 2500, reference: 'credit-1', ...fields})

const standalone = (fields: Record<string, unknown> = {}) => ({
  id: expect.stringMatching(/^071-R-[A-Z0-9]{8}$/),
  authorization: String(Math.floor(NOW.getTime() / 1000)),
  amount: -2500,
  refunded: 'Approved',
  message: 'Approved',
  card_holder: 'Jo Citizen',
  card_number: '512345XXXXXX2346',
  card_expiry: '2030-02-28',
  card_type: 'MasterCard',
  successful: true,
  transaction_date: formatDateTime(NOW),
  response_code: '00',
  reference: 'credit-1',
  transaction_id: expect.stringMatching(/^071-R-[A-Z0-9]{8}$/),
  currency: 'AUD',
  settlement_date: formatDate(addDays(NOW, 1)),
  metadata: {},
  standalone: true,
  rrn: expect.stringMatching(/^071R[A-Z0-9]{8}$/),
  ...fields,
})

describe('POST /v1.0/refunds without transaction_id: an unmatched refund', () => {
  it('refunds to card details: standalone, the card masked, no CVV kept, the card not stored', async () => {
    const gateway = await sandbox()
    const answer = await refund(gateway, unmatched({metadata: {ticket: 'T-9'}}))
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({successful: true, response: standalone({metadata: {ticket: 'T-9'}}), errors: [], test: true})
    expect(Object.keys(answer.body.response).sort()).toStrictEqual(Object.keys(refund2018).sort())
    expect(Refund.parse(answer.body.response)).toEqual(answer.body.response)
    expect(answer.text).not.toMatch(/5123456789012346|"cvv"/)
    expect((await call(gateway, 'GET', '/v1.0/credit_cards')).body.response).toStrictEqual([])
    expect((await call(gateway, 'GET', '/v1.0/refunds/credit-1')).body.response).toStrictEqual(answer.body.response)
  })

  it('refunds to a stored card by token or alias, without a CVV, in the currency asked; positive in the live dialect', async () => {
    const gateway = await sandbox({dialect: 'live'})
    const {cvv: _cvv, ...details} = CARD
    const token = (await call(gateway, 'POST', '/v1.0/credit_cards', {body: {...details, card_holder: 'Sam Stored', is_billing: true}})).body.response.token
    await call(gateway, 'PUT', `/v1.0/credit_cards/${token}`, {body: {alias: 'sam'}})
    for (const [key, reference] of [[token, 'credit-1'], ['sam', 'credit-2']] as const) {
      const answer = await refund(gateway, {card_token: key, amount: 2500, reference, currency: 'usd'})
      expect(answer.body.response, key).toStrictEqual(standalone({amount: 2500, card_holder: 'Sam Stored', currency: 'USD', reference}))
    }
  })

  it.each<[Record<string, unknown>, string[]]>([
    [{card_number: undefined, card_holder: undefined, card_expiry: undefined, cvv: undefined}, ['Invalid credit card for unmatched refund']],
    [{transaction_id: '', card_number: '', card_holder: ' ', card_expiry: ''}, ['Invalid credit card for unmatched refund']],
    [{card_number: undefined, card_token: 'no-such-card'}, ['Card no-such-card could not be found']],
    [{cvv: undefined}, ['CVV is required']],
    [{card_number: '4111111111111112'}, ['Invalid Card Number']],
    [{card_expiry: '01/2020'}, ['Expiry date is invalid (expired)']],
    [{amount: 0, reference: ''}, ['Amount must be greater than 0', "Reference can't be blank"]],
    [{currency: 'XYZ'}, ['Currency XYZ is not valid for this merchant. Permitted currencies: USD, AUD, NZD, GBP, EUR, JPY, CHF, CAD, HKD, and SGD']],
    [{customer_ip: ''}, ["Customer ip can't be blank"]],
  ])('%j is a 400: %j', async (fields, errors) => {
    const answer = await refund(await sandbox(), unmatched(fields))
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toStrictEqual(errors)
    expect(answer.body.response).toMatchObject({id: null, successful: false, standalone: null})
    expect(answer.text).not.toMatch(/"cvv"|4111111111111112/)
  })

  it('refuses a reference the merchant already used for a refund; another merchant\'s token is not found', async () => {
    const gateway = await sandbox()
    await refund(gateway, unmatched())
    expect((await refund(gateway, unmatched())).body.errors).toStrictEqual(['Reference has already been taken'])
    const token = (await call(gateway, 'POST', '/v1.0/credit_cards', {body: CARD})).body.response.token
    const foreign = await refund(gateway, {card_token: token, amount: 100, reference: 'x'}, ACME_AUTH)
    expect(foreign.status).toBe(400)
    expect(foreign.body.errors).toStrictEqual([`Card ${token} could not be found`])
  })

  it('is voided as any refund is', async () => {
    const gateway = await sandbox()
    const made = (await refund(gateway, unmatched())).body.response
    const voided = await call(gateway, 'POST', '/v1.0/refunds/void', {body: {id: made.id}})
    expect(voided.body.response).toStrictEqual({...made, refunded: 'Voided', message: 'Voided'})
  })
})
