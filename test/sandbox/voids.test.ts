import {describe, expect, it} from 'vitest'
import {Refund} from '../../src/api/schemas/refund.js'
import {voidedRefund2019} from '../fixtures/beyond-records.js'
import {ACME_AUTH, CENTS_CARD, call, purchase, sandbox, type Answer} from './helpers.js'
import {advance} from './recurring-helpers.js'

type Gateway = Awaited<ReturnType<typeof sandbox>>

const voidPurchase = (gateway: Gateway, id: string, {inQuery = false, auth}: {inQuery?: boolean; auth?: string} = {}): Promise<Answer> =>
  inQuery ? call(gateway, 'POST', `/v1.0/purchases/void?id=${encodeURIComponent(id)}`, {body: {}, auth}) : call(gateway, 'POST', '/v1.0/purchases/void', {body: {id, test: true}, auth})
const voidRefund = (gateway: Gateway, id: string, {inQuery = false} = {}): Promise<Answer> =>
  inQuery ? call(gateway, 'POST', `/v1.0/refunds/void?id=${encodeURIComponent(id)}`, {body: {}}) : call(gateway, 'POST', '/v1.0/refunds/void', {body: {id, test: true}})
const refund = (gateway: Gateway, body: Record<string, unknown>): Promise<Answer> => call(gateway, 'POST', '/v1.0/refunds', {body})
const fetched = async (gateway: Gateway, path: string) => (await call(gateway, 'GET', path)).body.response
const refusedWith = (response: unknown, error: string) => ({successful: false, response, errors: [error], test: true})

describe('POST /v1.0/purchases/void', () => {
  it.each([false, true])('voids a captured purchase (id in the query: %s): the record stays, Voided, nothing captured, the rest as it was', async (inQuery) => {
    const gateway = await sandbox()
    const paid = (await purchase(gateway)).body.response
    const answer = await voidPurchase(gateway, paid.id, {inQuery})
    expect(answer.status).toBe(200)
    // `successful` and `captured` stay as they were (the 2019 build); `response_code`, `settlement_date`, `rrn` too.
    expect(answer.body).toStrictEqual({successful: true, response: {...paid, message: 'Voided', captured_amount: 0}, errors: [], test: true})
    expect(await fetched(gateway, `/v1.0/purchases/${paid.id}`)).toStrictEqual(answer.body.response)
  })

  it('voids an uncaptured authorization, which then cannot be captured', async () => {
    const gateway = await sandbox()
    const authorization = (await purchase(gateway, {capture: false})).body.response
    const voided = (await voidPurchase(gateway, authorization.id)).body.response
    expect(voided).toStrictEqual({...authorization, message: 'Voided'})
    expect(voided).toMatchObject({captured: false, captured_amount: 0, settlement_date: null})
    const capture = await call(gateway, 'POST', `/v1.0/purchases/${authorization.id}/capture`, {body: {amount: 1000}})
    expect(capture.body).toStrictEqual(refusedWith(voided, 'Transaction has been voided'))
  })

  it('refuses a second void with HTTP 200 and the voided record, so a rerun can tell it is done', async () => {
    const gateway = await sandbox()
    const paid = (await purchase(gateway)).body.response
    const voided = (await voidPurchase(gateway, paid.id)).body.response
    const again = await voidPurchase(gateway, paid.id, {inQuery: true})
    expect(again.status).toBe(200)
    expect(again.body).toStrictEqual(refusedWith(voided, 'Transaction has already been voided'))
  })

  it('refuses a declined purchase, one past its settlement date, and one with refunds until they are voided', async () => {
    const gateway = await sandbox()
    const declined = (await purchase(gateway, {...CENTS_CARD, amount: 10051, reference: 'declined'})).body.response
    expect((await voidPurchase(gateway, declined.id)).body).toStrictEqual(refusedWith(declined, 'Transaction was not successful'))

    const refunded = (await purchase(gateway, {reference: 'refunded'})).body.response
    const made = (await refund(gateway, {transaction_id: refunded.id, amount: 100, reference: 'refund-1'})).body.response
    expect((await voidPurchase(gateway, refunded.id)).body).toStrictEqual(refusedWith(refunded, 'Transaction has been refunded'))
    expect((await voidRefund(gateway, made.id)).status).toBe(200)
    expect((await voidPurchase(gateway, refunded.id)).body.response).toMatchObject({message: 'Voided'})

    const settled = (await purchase(gateway, {reference: 'settled'})).body.response
    await advance(gateway, {days: 1})
    expect((await voidPurchase(gateway, settled.id)).body).toStrictEqual(refusedWith(settled, 'Transaction has already been settled'))
    const authorization = (await purchase(gateway, {reference: 'authorized', capture: false})).body.response
    await advance(gateway, {days: 30})
    expect((await voidPurchase(gateway, authorization.id)).body.response).toMatchObject({message: 'Voided', captured: false})
  })

  it('refuses a refund of a voided purchase, and of an authorization never captured; a partial capture bounds its refunds', async () => {
    const gateway = await sandbox()
    const paid = (await purchase(gateway)).body.response
    await voidPurchase(gateway, paid.id)
    const ofVoided = await refund(gateway, {transaction_id: paid.id, amount: 100, reference: 'refund-1'})
    expect(ofVoided.status).toBe(400)
    expect(ofVoided.body.errors).toStrictEqual(['Original transaction has been voided'])

    const authorization = (await purchase(gateway, {reference: 'authorized', capture: false, amount: 10000})).body.response
    const ofUncaptured = await refund(gateway, {transaction_id: authorization.id, amount: 100, reference: 'refund-2'})
    expect(ofUncaptured.status).toBe(400)
    expect(ofUncaptured.body.errors).toStrictEqual(['Original transaction has not been captured'])

    await call(gateway, 'POST', `/v1.0/purchases/${authorization.id}/capture`, {body: {amount: 6000}})
    const over = await refund(gateway, {transaction_id: authorization.id, amount: 6001, reference: 'refund-3'})
    expect(over.body.errors).toStrictEqual(['Amount exceeds the refundable balance of 6000 (purchase 6000, already refunded 0)'])
    expect((await refund(gateway, {transaction_id: authorization.id, amount: 6000, reference: 'refund-3'})).status).toBe(200)
  })

  it.each([
    ['contract', 'Purchase not found'],
    ['live', 'Could not find Purchase'],
  ] as const)('needs the id (%s dialect): none is a 400, an unknown one or a reference a 404 (%s), another merchant\'s a 403', async (dialect, notFound) => {
    const gateway = await sandbox({dialect})
    const paid = (await purchase(gateway)).body.response
    const blank = await call(gateway, 'POST', '/v1.0/purchases/void', {body: {}})
    expect(blank.status).toBe(400)
    expect(blank.body).toStrictEqual({successful: false, response: null, errors: ["Id can't be blank"], test: true})
    for (const key of ['071-P-NOTHERE0', 'order-1']) {
      const answer = await voidPurchase(gateway, key)
      expect(answer.status, key).toBe(404)
      expect(answer.body.errors, key).toStrictEqual([notFound])
    }
    expect((await voidPurchase(gateway, paid.id, {auth: ACME_AUTH})).status).toBe(403)
    expect(await fetched(gateway, `/v1.0/purchases/${paid.id}`)).toStrictEqual(paid)
  })
})

describe('POST /v1.0/refunds/void', () => {
  it.each([
    ['contract', false, -400],
    ['live', true, 400],
  ] as const)('voids a refund (%s dialect, id in the query: %s): Voided, code 00, the amount %i; the purchase may be refunded again', async (dialect, inQuery, amount) => {
    const gateway = await sandbox({dialect})
    const paid = (await purchase(gateway)).body.response
    const made = (await refund(gateway, {transaction_id: paid.id, amount: 400, reference: 'refund-1'})).body.response
    const answer = await voidRefund(gateway, made.id, {inQuery})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({successful: true, response: {...made, amount, refunded: 'Voided', message: 'Voided', response_code: '00'}, errors: [], test: true})
    expect(Object.keys(answer.body.response).sort()).toStrictEqual(Object.keys(voidedRefund2019).sort())
    expect(Refund.parse(answer.body.response)).toEqual(answer.body.response)
    expect(await fetched(gateway, `/v1.0/refunds/${made.id}`)).toStrictEqual(answer.body.response)
    expect((await refund(gateway, {transaction_id: paid.id, amount: 1000, reference: 'refund-2'})).status).toBe(200)
  })

  it('refuses a second void, and one past the refund\'s settlement date (the day after it), with the refund as it is', async () => {
    const gateway = await sandbox()
    const paid = (await purchase(gateway, {amount: 5000})).body.response
    const first = (await refund(gateway, {transaction_id: paid.id, amount: 100, reference: 'refund-1'})).body.response
    const voided = (await voidRefund(gateway, first.id)).body.response
    expect((await voidRefund(gateway, first.id)).body).toStrictEqual(refusedWith(voided, 'Transaction has already been voided'))

    const second = (await refund(gateway, {transaction_id: paid.id, amount: 100, reference: 'refund-2'})).body.response
    await advance(gateway, {days: 1})
    const onItsDay = (await refund(gateway, {transaction_id: paid.id, amount: 100, reference: 'refund-3'})).body.response
    expect((await voidRefund(gateway, second.id)).body.response).toMatchObject({refunded: 'Voided'})
    await advance(gateway, {days: 2})
    expect((await voidRefund(gateway, onItsDay.id)).body).toStrictEqual(refusedWith(onItsDay, 'Transaction has already been settled'))
  })

  it('names the refund by its id only: none is a 400, an unknown id or a reference a 404, another merchant\'s a 403', async () => {
    const gateway = await sandbox()
    const paid = (await purchase(gateway)).body.response
    const made = (await refund(gateway, {transaction_id: paid.id, amount: 100, reference: 'refund-1'})).body.response
    expect((await call(gateway, 'POST', '/v1.0/refunds/void', {body: {}})).body.errors).toStrictEqual(["Id can't be blank"])
    for (const key of ['071-R-NOTHERE0', 'refund-1']) {
      const answer = await voidRefund(gateway, key)
      expect(answer.status, key).toBe(404)
      expect(answer.body, key).toStrictEqual({successful: false, response: null, errors: ['Purchase not found'], test: true})
    }
    expect((await call(gateway, 'POST', '/v1.0/refunds/void', {body: {id: made.id}, auth: ACME_AUTH})).status).toBe(403)
  })
})
