import {describe, expect, expectTypeOf, it} from 'vitest'
import {readPaging} from '../../../src/api/list-page.js'
import {envelopeOf} from '../../../src/api/responses.js'
import {listOf} from '../../../src/api/schemas/common.js'
import {Ping} from '../../../src/api/schemas/ping.js'
import {Purchase} from '../../../src/api/schemas/purchase.js'
import {Refund} from '../../../src/api/schemas/refund.js'
import {WebHook} from '../../../src/api/schemas/web-hook.js'
import * as recorded from '../../fixtures/beyond-records.js'

// Every kind of answer the live gateway gave beyond the contract is read whole: no schema error, no field lost.
describe("gw's client reads the recorded answers of the operations beyond the contract", () => {
  it.each([
    ['an authorization', recorded.authorization],
    ['a partial capture', recorded.captured],
    ['an increment, with the gateway\'s metadata', recorded.incremented],
    ['a void (2017: successful false)', recorded.voidedPurchase2017],
    ['a void (2019: successful true)', recorded.voidedPurchase2019],
    ['a settled decline', recorded.settledDecline],
    ['a purchase refused for its currency', recorded.currencyRefusal.response],
  ])('purchase: %s', (_, record) => {
    const parsed = Purchase.parse(record)
    expect(parsed).toEqual(record)
    expect(typeof parsed.captured_amount === 'number' || parsed.captured_amount === null).toBe(true)
  })

  it.each([
    ['a refund with an integer authorization', recorded.refund2018],
    ['a voided refund (code 99)', recorded.voidedRefund2018],
    ['a voided refund (code 00)', recorded.voidedRefund2019],
    ['the empty answer to an unknown original transaction', recorded.unknownOriginal.response],
  ])('refund: %s', (_, record) => {
    expect(Refund.parse(record)).toEqual(record)
  })

  it('types the fields the money rules read, so that a client reads them without a cast (checked by tsc)', () => {
    const purchase = Purchase.parse(recorded.captured)
    expectTypeOf(purchase.captured).toEqualTypeOf<boolean | null | undefined>()
    expectTypeOf(purchase.captured_amount).toEqualTypeOf<number | null | undefined>()
    expectTypeOf(purchase.rrn).toEqualTypeOf<string | null | undefined>()
    expectTypeOf(purchase.metadata).toEqualTypeOf<Record<string, unknown> | null | undefined>()
    const refund = Refund.parse(recorded.voidedRefund2019)
    expectTypeOf(refund.standalone).toEqualTypeOf<boolean | null | undefined>()
    expectTypeOf(refund.settlement_date).toEqualTypeOf<string | null | undefined>()
    expectTypeOf(refund.metadata).toEqualTypeOf<Record<string, unknown> | null | undefined>()
    expectTypeOf(WebHook.parse(recorded.updatedWebHook).is_active).toEqualTypeOf<boolean | null | undefined>()
    expectTypeOf(Ping.parse(recorded.ping).timestamp).toEqualTypeOf<number | null | undefined>()
    expect(purchase.captured_amount).toBe(4842)
  })

  it('a web hook updated, and a ping', () => {
    expect(WebHook.parse(recorded.updatedWebHook)).toEqual(recorded.updatedWebHook)
    expect(Ping.parse(recorded.ping)).toEqual(recorded.ping)
  })

  it.each([
    ['a capture refused', recorded.overCapture],
    ['an unknown original transaction', recorded.unknownOriginal],
    ['a currency refusal', recorded.currencyRefusal],
    ['the settlement look-up', recorded.settlement],
    ['a live list page', recorded.liveListPage],
  ])('envelope: %s', (_, body) => {
    expect(envelopeOf(body)).toEqual(body)
  })

  it('pages the settlement look-up and a live list as one page of one, and as page 0 of many', () => {
    expect(listOf<Purchase>().parse(recorded.settlement.response)).toEqual(recorded.settlement.response)
    expect(readPaging(recorded.settlement)).toEqual({page: 1, pages: 1, total: 3})
    expect(readPaging(recorded.liveListPage)).toEqual({page: 0, pages: 2373, total: 23730})
  })
})

describe('the endpoints beyond the contract', () => {
  it('reads /ping bare, without an envelope, and a refusal of it as the refusal', async () => {
    const {readRecord} = await import('../../../src/api/responses.js')
    const {endpoints} = await import('../../../src/api/endpoints.js')
    const text = JSON.stringify(recorded.ping)
    expect(readRecord(endpoints.health.ping, {status: 200, text}).record).toEqual(recorded.ping)
    expect(() => readRecord(endpoints.health.ping, {status: 401, text: '{}'})).toThrow(/HTTP 401/)
    expect(() => readRecord(endpoints.health.ping, {status: 200, text: 'pong'})).toThrow(/not JSON/)
  })

  it('reads a capture, a void, an increment and the settlement look-up through their endpoints', async () => {
    const {readRecord} = await import('../../../src/api/responses.js')
    const {endpoints} = await import('../../../src/api/endpoints.js')
    const ok = (response: unknown) => ({status: 200, text: JSON.stringify({successful: true, response, errors: [], test: true})})
    expect(readRecord(endpoints.purchases.capture, ok(recorded.captured)).record).toEqual(recorded.captured)
    expect(readRecord(endpoints.purchases.void, ok(recorded.voidedPurchase2017)).record).toEqual(recorded.voidedPurchase2017)
    expect(readRecord(endpoints.refunds.void, ok(recorded.voidedRefund2018)).record).toEqual(recorded.voidedRefund2018)
    expect(readRecord(endpoints.purchases.increment, ok(recorded.incremented)).record).toEqual(recorded.incremented)
    expect(readRecord(endpoints.purchases.settlement, {status: 200, text: JSON.stringify(recorded.settlement)}).record).toEqual(recorded.settlement.response)
    expect(readRecord(endpoints.webHooks.update, ok(recorded.updatedWebHook)).record).toEqual(recorded.updatedWebHook)
    expect(() => readRecord(endpoints.purchases.capture, {status: 200, text: JSON.stringify(recorded.overCapture)})).toThrow('Capture amount cannot be greater then the original authorised amount')
  })

  it('reads an extension, a capture of the 2018 build (milliseconds in its time), and refunds through both refund endpoints', async () => {
    const {readRecord} = await import('../../../src/api/responses.js')
    const {endpoints} = await import('../../../src/api/endpoints.js')
    const ok = (response: unknown) => ({status: 200, text: JSON.stringify({successful: true, response, errors: [], test: true})})
    // An extension answers the authorization as it was (gateway-beyond.md §4).
    expect(readRecord(endpoints.purchases.extend, ok(recorded.authorization)).record).toEqual(recorded.authorization)
    const captured2018 = {...recorded.captured, transaction_date: '2018-05-08T21:07:31.073+10:00'}
    expect(readRecord(endpoints.purchases.capture, ok(captured2018)).record).toEqual(captured2018)
    // A refund's answer, read as the answer to a refund of a purchase and to an unmatched one alike.
    expect(readRecord(endpoints.refunds.create, ok(recorded.refund2018)).record).toEqual(recorded.refund2018)
    expect(readRecord(endpoints.refunds.unmatched, ok({...recorded.refund2018, standalone: true})).record).toEqual({...recorded.refund2018, standalone: true})
    // An unknown original transaction is the gateway's refusal in its words, never a schema error.
    for (const endpoint of [endpoints.refunds.create, endpoints.refunds.unmatched]) {
      expect(() => readRecord(endpoint, {status: 200, text: JSON.stringify(recorded.unknownOriginal)})).toThrow(expect.objectContaining({exitCode: 7, messages: ['Original transaction could not be found']}))
    }
  })

  it("adds up the recorded settlement look-up as gw report --settlement does: what was captured settles, a void is counted apart, a decline not at all", async () => {
    const {settlingOf} = await import('../../../src/operations/settlement.js')
    expect(recorded.settlement.response.map((record) => settlingOf(record))).toEqual([
      undefined,
      {day: recorded.voidedPurchase2017.settlement_date, currency: 'AUD', counts: 'voided', amount: 0},
      {day: '2017-12-01', currency: 'AUD', counts: 'settling', amount: 4842},
    ])
    // The 2019 void (successful true) is a void all the same; a record without captured_amount settles its amount; one without a settlement date is not counted.
    expect(settlingOf(recorded.voidedPurchase2019)).toMatchObject({counts: 'voided'})
    expect(settlingOf({successful: true, amount: -700, currency: 'jpy', settlement_date: '2026-11-27'})).toEqual({day: '2026-11-27', currency: 'JPY', counts: 'settling', amount: 700})
    expect(settlingOf(recorded.authorization)).toBeUndefined()
    expect(settlingOf({successful: true, settlement_date: '2026-11-27'})).toBeUndefined()
  })

  it('finds a hand-written settlement path as the settlement look-up, not a purchase named settlement', async () => {
    const {endpointAt, endpoints} = await import('../../../src/api/endpoints.js')
    expect(endpointAt('GET', '/v1.0/purchases/settlement?from=2026/01/01&to=2026/01/02')).toBe(endpoints.purchases.settlement)
    expect(endpointAt('POST', '/v1.0/purchases/void')).toBe(endpoints.purchases.void)
    expect(endpointAt('POST', '/v1.0/purchases/071-P-1/capture')).toBe(endpoints.purchases.capture)
  })
})
