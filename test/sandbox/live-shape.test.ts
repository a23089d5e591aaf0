import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {livePurchase, liveRefund} from '../fixtures/live-records.js'
import {aPurchase} from '../unit/sandbox/fixtures.js'
import {CENTS_CARD, call, purchase, sandbox} from './helpers.js'
import {runSql, stateIn} from './state-file.js'

/**
 * The local gateway's records have the recorded live records' fields, no more: a purchase made
 * through the API has no `source` (no recording has one); only a subscription's charge has the
 * contract's `source` Recurring (§2.3). Anything else is a difference an integrator's code would
 * meet only on one of the two.
 */
const fieldSet = (record: object) => [...Object.keys(record)].sort()
const expectedPurchaseFields = Object.keys(livePurchase).sort()
const expectedChargeFields = [...Object.keys(livePurchase), 'source'].sort()
const expectedRefundFields = Object.keys(liveRefund).sort()

describe("the local gateway's records have the live gateway's fields", () => {
  it('a purchase, approved or declined, by card or by token, created, fetched and listed', async () => {
    const gateway = await sandbox()
    const approved = (await purchase(gateway, {reference: 'by-card'})).body.response
    const byToken = (await call(gateway, 'POST', '/v1.0/purchases', {body: {card_token: approved.card_token, amount: 2500, reference: 'by-token'}})).body.response
    const declined = (await purchase(gateway, {...CENTS_CARD, reference: 'declined', amount: 10051})).body.response
    const fetched = (await call(gateway, 'GET', '/v1.0/purchases/by-card')).body.response
    const listed = (await call(gateway, 'GET', '/v1.0/purchases')).body.response

    for (const record of [approved, byToken, declined, fetched, ...listed]) expect(fieldSet(record)).toStrictEqual(expectedPurchaseFields)
    expect(approved).toMatchObject({
      card_category: 'Credit',
      card_subcategory: 'Standard',
      captured: true,
      captured_amount: 1000,
      rrn: approved.id.replaceAll('-', ''),
      cvv_match: 'M',
      metadata: {},
      addendum_data: {},
    })
    expect(approved.rrn).toMatch(/^071P[A-Z0-9]{8}$/)
    // No CVV came with the token: the match is unknown.
    expect(byToken).toMatchObject({cvv_match: 'U', captured_amount: 2500})
    expect(declined).toMatchObject({successful: false, captured: false, captured_amount: 0})
    expect(fetched).toStrictEqual(approved)
  })

  it("a subscription's charge, in the charge:successful event", async () => {
    const gateway = await sandbox()
    const triggered = await call(gateway, 'POST', '/_sandbox/trigger', {body: {event: 'charge:successful', webhook: 'http://127.0.0.1:9/hooks'}, auth: null})
    const charge = triggered.body.response.payload[0].response.response
    expect(fieldSet(charge)).toStrictEqual(expectedChargeFields)
    expect(charge).toMatchObject({source: 'Recurring', cvv_match: 'U', card_category: 'Credit'})
  })

  it('a refund, created, fetched and listed', async () => {
    const gateway = await sandbox()
    const paid = (await purchase(gateway)).body.response
    const made = (await call(gateway, 'POST', '/v1.0/refunds', {body: {transaction_id: paid.id, amount: 400, reference: 'refund-1'}})).body.response
    const fetched = (await call(gateway, 'GET', '/v1.0/refunds/refund-1')).body.response
    const listed = (await call(gateway, 'GET', '/v1.0/refunds')).body.response

    for (const record of [made, fetched, ...listed]) expect(fieldSet(record)).toStrictEqual(expectedRefundFields)
    // helpers.ts's fixed clock: 2026-11-22 here, whatever the machine's zone puts it at.
    expect(made).toMatchObject({settlement_date: shiftedDay(made.transaction_date), metadata: {}, standalone: false, rrn: made.id.replaceAll('-', '')})
    expect(fetched).toStrictEqual(made)
  })

  it('a refused purchase or refund echoes every field of the record, live ones too', async () => {
    const gateway = await sandbox()
    const refusedPurchase = (await purchase(gateway, {card_number: '4242424242424241'})).body.response
    const refusedRefund = (await call(gateway, 'POST', '/v1.0/refunds', {body: {transaction_id: 'nothing', amount: 1, reference: ''}})).body.response
    expect(fieldSet(refusedPurchase)).toStrictEqual(expectedPurchaseFields)
    expect(fieldSet(refusedRefund)).toStrictEqual(expectedRefundFields)
  })

  it('a record without them is no record a gateway wrote: the state file is refused, naming it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-live-shape-')), 'state.json')
    stateIn(file)
    const {rrn: _rrn, ...withoutRrn} = aPurchase('071-P-AAAA1111', 'order-1', 1000)
    runSql(file, 'UPDATE snapshot SET state = ?', JSON.stringify({merchants: {TEST: {purchases: {'071-P-AAAA1111': withoutRrn}}}}))
    expect(() => stateIn(file)).toThrow(`${file} is not a gw sandbox state file (snapshot, merchants.TEST.purchases.071-P-AAAA1111.rrn: Invalid input: expected string, received undefined)`)
  })
})

/** The calendar day after a `2026-11-22T19:31:05+11:00` date-time's own day. */
function shiftedDay(dateTime: string): string {
  const day = new Date(`${dateTime.slice(0, 10)}T00:00:00Z`)
  day.setUTCDate(day.getUTCDate() + 1)
  return day.toISOString().slice(0, 10)
}

