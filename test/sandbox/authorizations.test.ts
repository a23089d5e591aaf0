import {describe, expect, it} from 'vitest'
import {Purchase} from '../../src/api/schemas/purchase.js'
import {formatDate} from '../../src/sandbox/domain/clock.js'
import {authorization as recordedAuthorization} from '../fixtures/beyond-records.js'
import {ACME_AUTH, approvedPurchase, CENTS_CARD, NOW, call, purchase, sandbox, type Answer} from './helpers.js'
import {advance} from './recurring-helpers.js'

type Gateway = Awaited<ReturnType<typeof sandbox>>

/** An authorization of 10000 as the recordings show one: approved, not captured, no settlement date, the id as its retrieval number. */
const authorized = (fields: Record<string, unknown> = {}) =>
  approvedPurchase({amount: 10000, decimal_amount: 100, settlement_date: null, captured: false, captured_amount: 0, ...fields})

const authorize = async (gateway: Gateway, fields: Record<string, unknown> = {}) => {
  const answer = await purchase(gateway, {amount: 10000, capture: false, ...fields})
  if (answer.status !== 200) throw new Error(answer.text)
  return answer.body.response
}
const capture = (gateway: Gateway, id: string, body: Record<string, unknown>, auth?: string): Promise<Answer> =>
  call(gateway, 'POST', `/v1.0/purchases/${id}/capture`, {body, auth})
const update = (gateway: Gateway, id: string, body: Record<string, unknown>): Promise<Answer> => call(gateway, 'PUT', `/v1.0/purchases/${id}`, {body})
const fetched = async (gateway: Gateway, id: string) => (await call(gateway, 'GET', `/v1.0/purchases/${id}`)).body.response
const refusedWith = (response: unknown, error: string) => ({successful: false, response, errors: [error], test: true})

describe('POST /v1.0/purchases with capture false: an authorization', () => {
  it('approves without capturing: the recorded fields, no settlement date, listed among the purchases', async () => {
    const gateway = await sandbox()
    const answer = await purchase(gateway, {amount: 10000, capture: false})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({successful: true, response: authorized(), errors: [], test: true})
    const record = answer.body.response
    expect(record.rrn).toBe(record.id.replaceAll('-', ''))
    expect(Object.keys(record).sort()).toStrictEqual(Object.keys(recordedAuthorization).sort())
    expect(Purchase.parse(record)).toEqual(record)
    expect((await call(gateway, 'GET', '/v1.0/purchases')).body.response).toStrictEqual([record])
  })

  it('declines as a purchase does: no authorization code, no retrieval number, nothing to settle', async () => {
    const record = await authorize(await sandbox(), {...CENTS_CARD, amount: 10051})
    expect(record).toStrictEqual(
      authorized({amount: 10051, decimal_amount: 100.51, authorization: null, successful: false, message: 'Insufficient Funds', response_code: '51', rrn: null, card_number: '424242XXXXXX4242', card_type: 'VISA'}),
    )
  })

  it('takes the flag as the PHP library sends it, "false" as text', async () => {
    expect(await authorize(await sandbox(), {capture: 'false'})).toMatchObject({captured: false, settlement_date: null})
  })
})

describe('POST /v1.0/purchases/{id}/capture', () => {
  it('captures in full: captured, the amount, settled today, 12 hex digits of retrieval number; the rest as authorized', async () => {
    const gateway = await sandbox()
    const authorization = await authorize(gateway)
    const answer = await capture(gateway, authorization.id, {amount: 10000})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({
      successful: true,
      response: {...authorization, captured: true, captured_amount: 10000, settlement_date: formatDate(NOW), rrn: expect.stringMatching(/^[0-9a-f]{12}$/)},
      errors: [],
      test: true,
    })
    expect(await fetched(gateway, authorization.id)).toStrictEqual(answer.body.response)
  })

  it('captures in part, as ActiveMerchant does (amount - 1), in the currency it sends; the authorised amount stays', async () => {
    const gateway = await sandbox()
    const authorization = await authorize(gateway, {currency: 'USD'})
    const answer = await capture(gateway, authorization.id, {amount: 9999, currency: 'USD', test: true})
    expect(answer.body.response).toMatchObject({amount: 10000, captured_amount: 9999, captured: true, currency: 'USD', message: 'Approved'})
  })

  it('settles on the day it is captured, the authorization keeping its own date', async () => {
    const gateway = await sandbox()
    const authorization = await authorize(gateway)
    await advance(gateway, {days: 2})
    const captured = (await capture(gateway, authorization.id, {amount: 5000})).body.response
    expect(captured).toMatchObject({transaction_date: authorization.transaction_date, settlement_date: '2026-11-24', captured_amount: 5000})
  })

  it('refuses more than authorized with HTTP 200, the recorded words and the authorization unchanged', async () => {
    const gateway = await sandbox()
    const authorization = await authorize(gateway)
    const answer = await capture(gateway, authorization.id, {amount: 1000000000, test: true})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual(refusedWith(authorization, 'Capture amount cannot be greater then the original authorised amount'))
    expect(await fetched(gateway, authorization.id)).toStrictEqual(authorization)
  })

  it('captures once: a second capture, or one of a purchase captured at once, is refused with the record as it is', async () => {
    const gateway = await sandbox()
    const authorization = await authorize(gateway)
    const first = (await capture(gateway, authorization.id, {amount: 4000})).body.response
    expect((await capture(gateway, authorization.id, {amount: 6000})).body).toStrictEqual(refusedWith(first, 'Transaction has already been captured'))
    const paid = (await purchase(gateway, {reference: 'paid'})).body.response
    expect((await capture(gateway, paid.id, {amount: 1000})).body).toStrictEqual(refusedWith(paid, 'Transaction has already been captured'))
    expect(await fetched(gateway, authorization.id)).toStrictEqual(first)
  })

  it('refuses a declined authorization, and a voided one', async () => {
    const gateway = await sandbox()
    const declined = await authorize(gateway, {...CENTS_CARD, amount: 10051})
    expect((await capture(gateway, declined.id, {amount: 100})).body).toStrictEqual(refusedWith(declined, 'Transaction was not successful'))
    const authorization = await authorize(gateway, {reference: 'order-2'})
    const voided = (await call(gateway, 'POST', '/v1.0/purchases/void', {body: {id: authorization.id}})).body.response
    expect((await capture(gateway, authorization.id, {amount: 100})).body).toStrictEqual(refusedWith(voided, 'Transaction has been voided'))
  })

  it.each<[Record<string, unknown>, string]>([
    [{}, "Amount can't be blank"],
    [{amount: 0}, 'Amount must be greater than 0'],
    [{amount: -5}, 'Amount must be greater than 0'],
    [{amount: '10.00'}, 'Amount must be an integer'],
  ])('refuses %j with a 400: %s', async (body, error) => {
    const gateway = await sandbox()
    const authorization = await authorize(gateway)
    const answer = await capture(gateway, authorization.id, body)
    expect(answer.status).toBe(400)
    expect(answer.body).toStrictEqual({successful: false, response: null, errors: [error], test: true})
  })

  it.each([
    ['contract', 'Purchase not found', null],
    ['live', 'Could not find Purchase', {}],
  ] as const)('names the purchase by its id only: an unknown id or a reference is a 404 (%s: %s); another merchant\'s a 403', async (dialect, notFound, response) => {
    const gateway = await sandbox({dialect})
    const authorization = await authorize(gateway)
    for (const key of ['071-P-NOTHERE0', 'order-1']) {
      const answer = await capture(gateway, key, {amount: 100})
      expect(answer.status, key).toBe(404)
      expect(answer.body, key).toStrictEqual({successful: false, response, errors: [notFound], test: true})
    }
    const foreign = await capture(gateway, authorization.id, {amount: 100}, ACME_AUTH)
    expect(foreign.status).toBe(403)
    expect(foreign.body.errors).toStrictEqual(['You do not have permissions to access this record'])
    expect(await fetched(gateway, authorization.id)).toStrictEqual(authorization)
  })
})

describe('PUT /v1.0/purchases/{id}: increment and extend', () => {
  it('raises an authorization to the new total, keeping the first amount in metadata.original_amount, as recorded', async () => {
    const gateway = await sandbox()
    const authorization = await authorize(gateway, {metadata: {order: '42'}})
    const answer = await update(gateway, authorization.id, {amount: 10200, test: true})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({
      successful: true,
      response: {...authorization, amount: 10200, decimal_amount: 102, metadata: {order: '42', original_amount: '10000'}},
      errors: [],
      test: true,
    })
    expect(answer.text).toContain('"decimal_amount":102.0,')
    const again = (await update(gateway, authorization.id, {amount: 10500})).body.response
    expect(again).toMatchObject({amount: 10500, metadata: {order: '42', original_amount: '10000'}})
    // The raised amount is what may be captured.
    expect((await capture(gateway, authorization.id, {amount: 10500})).body.response).toMatchObject({captured_amount: 10500, amount: 10500})
  })

  it.each([10000, 9000])('refuses a total of %i, not above the authorised amount, with the record as it is', async (amount) => {
    const gateway = await sandbox()
    const authorization = await authorize(gateway)
    expect((await update(gateway, authorization.id, {amount})).body).toStrictEqual(refusedWith(authorization, 'Amount must be greater than the authorised amount'))
  })

  it('extends an authorization: the record comes back as it was', async () => {
    const gateway = await sandbox()
    const authorization = await authorize(gateway)
    const answer = await update(gateway, authorization.id, {extend: true, test: true})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({successful: true, response: authorization, errors: [], test: true})
    expect(await fetched(gateway, authorization.id)).toStrictEqual(authorization)
  })

  it.each<[Record<string, unknown>, string]>([
    [{amount: 20000}, 'increment'],
    [{extend: true}, 'extension'],
  ])('refuses %j of a captured purchase (an %s)', async (body) => {
    const gateway = await sandbox()
    const paid = (await purchase(gateway)).body.response
    expect((await update(gateway, paid.id, body)).body).toStrictEqual(refusedWith(paid, 'Transaction has already been captured'))
  })

  it.each<[Record<string, unknown>, string]>([
    [{}, 'Give amount (the new total) or extend'],
    [{extend: false}, 'Give amount (the new total) or extend'],
    [{amount: 20000, extend: true}, 'Give amount or extend, not both'],
    [{amount: 0}, 'Amount must be greater than 0'],
  ])('refuses %j with a 400: %s', async (body, error) => {
    const gateway = await sandbox()
    const authorization = await authorize(gateway)
    const answer = await update(gateway, authorization.id, body)
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toStrictEqual([error])
  })
})
