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
