import {describe, expect, it} from 'vitest'
import {MAX_REFERENCE} from '../../../src/api/schemas/rules.js'
import {derivationBase, derivedFrom, derivedNumber, matchRefunds, refundReference} from '../../../src/lists/refund-match.js'
import {amountOffer} from '../../../src/output/refunds-of.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'

// Issue 29: a refund's record does not name its purchase (gateway-notes.md); gw derives a refund's
// default reference from its purchase's, and holds the refunds on a purchase's card against it.

describe('refundReference: <purchase-ref>-R<n>, within the length rule', () => {
  it('adds -R and the number to the purchase reference', () => {
    expect(refundReference('order-1042', 1)).toBe('order-1042-R1')
    expect(refundReference('order-1042', 12)).toBe('order-1042-R12')
  })

  it('cuts the purchase part, never the suffix, to the 255 characters the gateway takes', () => {
    const long = 'p'.repeat(300)
    expect(refundReference(long, 1)).toBe('p'.repeat(MAX_REFERENCE - 3) + '-R1')
    expect(refundReference(long, 1)).toHaveLength(MAX_REFERENCE)
    expect(refundReference(long, 100)).toBe('p'.repeat(MAX_REFERENCE - 5) + '-R100')
    expect(refundReference('p'.repeat(MAX_REFERENCE - 3), 1)).toHaveLength(MAX_REFERENCE)
    expect(refundReference('p'.repeat(MAX_REFERENCE - 3), 10)).toBe('p'.repeat(MAX_REFERENCE - 4) + '-R10')
  })

  it('never cuts a character in two (a surrogate pair)', () => {
    const reference = 'p'.repeat(MAX_REFERENCE - 4) + '😀' + 'tail'
    const derived = refundReference(reference, 1)
    expect(derived).toBe('p'.repeat(MAX_REFERENCE - 4) + '-R1')
    expect(derived.length).toBeLessThanOrEqual(MAX_REFERENCE)
    expect(refundReference('p'.repeat(MAX_REFERENCE - 5) + '😀' + 'tail', 1)).toBe('p'.repeat(MAX_REFERENCE - 5) + '😀-R1')
  })

  it('derivedNumber finds n only in a reference derived from this purchase reference, cut or not', () => {
    expect(derivedNumber('order-1042', 'order-1042-R3')).toBe(3)
    expect(derivedNumber('order-1042', 'order-1042-R03')).toBeUndefined()
    expect(derivedNumber('order-1042', 'order-1042-R0')).toBeUndefined()
    expect(derivedNumber('order-104', 'order-1042-R3')).toBeUndefined()
    expect(derivedNumber('order-1042', 'refund-1042-a')).toBeUndefined()
    expect(derivedNumber('order-1042', undefined)).toBeUndefined()
    const long = 'q'.repeat(400)
    expect(derivedNumber(long, refundReference(long, 7))).toBe(7)
    expect(derivedFrom('order-9-R2')).toBe('order-9')
    expect(derivedFrom('order-9')).toBeUndefined()
  })

  it('derives from the purchase id when the purchase has no reference', () => {
    expect(derivationBase(livePurchase)).toBe('order-1042')
    expect(derivationBase({...livePurchase, reference: ' '})).toBe(livePurchase.id)
    expect(derivationBase({})).toBeUndefined()
  })
})

// Live-shaped: positive amounts, nothing naming the purchase; made after it (10:31 +11:00).
const refund = (reference: string, amount: number, extra: Record<string, unknown> = {}) => ({...liveRefund, id: `071-R-${reference.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(-8)}`, reference, amount, ...extra})

describe('matchRefunds: best fit first, certain where gw made it', () => {
  const derived = refund('order-1042-R1', 2000)
  const journaled = refund('batch-row-7', 1000)
  const namesIt = refund('refund-for-order-1042', 500)
  const within = refund('anything', 700)
  const over = refund('too-big', 9000)
  const others = refund('order-2001-R1', 300)
  const unknownTime = refund('no-time', 100, {transaction_date: undefined})

  it('orders certain ones first, then fewer misfits and more fits, the order given among equals', () => {
    const {matched} = matchRefunds(livePurchase, [over, others, within, namesIt, journaled, unknownTime, derived], {journaled: new Set([journaled.id]), others: new Set(['order-2001'])})
    expect(matched.map(({refund}) => refund.reference)).toEqual(['order-1042-R1', 'batch-row-7', 'refund-for-order-1042', 'anything', 'no-time', 'order-2001-R1', 'too-big'])
    const byReference = Object.fromEntries(matched.map(({refund, match}) => [refund.reference, match]))
    expect(byReference['order-1042-R1']).toEqual({purchase: livePurchase.id, certain: true, by: 'derived_reference', fits: ['made_after', 'names_purchase'], against: []})
    expect(byReference['batch-row-7']).toEqual({purchase: livePurchase.id, certain: true, by: 'journal', fits: ['made_after'], against: []})
    // 10000 less the 3000 certain: 7000 may be of the possible ones.
    expect(byReference['refund-for-order-1042']).toEqual({purchase: livePurchase.id, certain: false, fits: ['made_after', 'within_balance', 'names_purchase'], against: []})
    expect(byReference['anything']).toEqual({purchase: livePurchase.id, certain: false, fits: ['made_after', 'within_balance'], against: []})
    expect(byReference['no-time']).toEqual({purchase: livePurchase.id, certain: false, fits: ['within_balance'], against: []})
    expect(byReference['too-big']).toEqual({purchase: livePurchase.id, certain: false, fits: ['made_after'], against: ['over_balance']})
    expect(byReference['order-2001-R1']).toEqual({purchase: livePurchase.id, certain: false, fits: ['made_after', 'within_balance'], against: ['names_other_purchase']})
  })

  it('a reference of the derived shape from a reference not known to be another purchase is no misfit', () => {
    const {matched} = matchRefunds(livePurchase, [others])
    expect(matched[0]!.match).toEqual({purchase: livePurchase.id, certain: false, fits: ['made_after', 'within_balance'], against: []})
  })

  it('what is refunded and left: exact from the certain ones, a range while possible ones are in doubt', () => {
    expect(matchRefunds(livePurchase, [derived]).state).toEqual({amount: 10000, currency: 'AUD', source: 'refunds', refunded: 2000, certain: 1, possible: 0, possibleAmount: 0, left: 8000, leftAtLeast: 8000})
    // The possible ones that may be of it (not over its balance, not another's) come to 1200 at most.
    const {state} = matchRefunds(livePurchase, [derived, within, namesIt, over, others], {journaled: new Set(), others: new Set(['order-2001'])})
    expect(state).toEqual({amount: 10000, currency: 'AUD', source: 'refunds', refunded: 2000, certain: 1, possible: 2, possibleAmount: 1200, left: 8000, leftAtLeast: 6800})
    // Never more than the purchase's balance, however many there are.
    const many = Array.from({length: 30}, (_, i) => refund(`maybe-${i}`, 1000))
    expect(matchRefunds(livePurchase, [derived, ...many]).state).toMatchObject({possible: 30, possibleAmount: 8000, left: 8000, leftAtLeast: 0})
    expect(matchRefunds(livePurchase, []).state).toMatchObject({refunded: 0, left: 10000, leftAtLeast: 10000})
  })

  it("the gateway's own refunded_amount is believed where its record has one", () => {
    const {state, matched} = matchRefunds({...livePurchase, refunded_amount: 4000}, [within, over])
    expect(state).toEqual({amount: 10000, currency: 'AUD', source: 'gateway', refunded: 4000, certain: 0, possible: 0, possibleAmount: 0, left: 6000, leftAtLeast: 6000})
    // Only what the gateway says was refunded can be possible refunds of it.
    expect(matched.map(({match}) => match.against)).toEqual([[], ['over_balance']])
  })

  it('only approved refunds count toward what was refunded; a declined purchase has nothing to refund', () => {
    expect(matchRefunds(livePurchase, [{...derived, successful: false, message: 'Declined'}]).state).toMatchObject({refunded: 0, left: 10000})
    expect(matchRefunds({...livePurchase, successful: false}, []).state).toMatchObject({amount: 10000, left: 0, leftAtLeast: 0})
  })
})

describe('amountOffer: what a refund prompt offers, never what the gateway would refuse', () => {
  const state = (over: Partial<ReturnType<typeof matchRefunds>['state']>) => ({amount: 1000, currency: 'AUD', source: 'refunds' as const, refunded: 0, certain: 0, possible: 0, possibleAmount: 0, left: 1000, leftAtLeast: 1000, ...over})

  it.each([
    ['nothing refunded: the purchase in full', {}, 1000, '; Enter for the purchase in full, 10.00 AUD'],
    ['refunded in part: what is left', {refunded: 400, certain: 1, left: 600, leftAtLeast: 600}, 600, '; Enter for what is left of it, 6.00 AUD (4.00 AUD of 10.00 AUD refunded)'],
    ["the gateway's figure", {source: 'gateway' as const, refunded: 400, left: 600, leftAtLeast: 600}, 600, '; Enter for what is left of it, 6.00 AUD (the gateway says 4.00 AUD of 10.00 AUD refunded)'],
    ['some may be of it: what is surely left', {possible: 1, possibleAmount: 300, leftAtLeast: 700}, 700, '; Enter for 7.00 AUD, what is surely left (1 refund on its card that may be of it comes to 3.00 AUD)'],
    ['nothing surely left: no offer', {possible: 2, possibleAmount: 1000, leftAtLeast: 0}, undefined, '; up to 10.00 AUD may be left (2 refunds on its card that may be of it come to 10.00 AUD)'],
    ['refunded in full: no offer', {refunded: 1000, certain: 2, left: 0, leftAtLeast: 0}, undefined, '; nothing is left of it to refund (10.00 AUD of 10.00 AUD refunded)'],
  ])('%s', (_, over, amount, words) => {
    expect(amountOffer(state(over))).toEqual({...(amount === undefined ? {} : {amount}), words})
  })
})
