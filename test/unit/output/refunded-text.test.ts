import {describe, expect, it} from 'vitest'
import {matchRefunds, type MadeFor} from '../../../src/lists/refund-match.js'
import {amountOffer, beyondLeft, matchText, refundedText, refundsOfNote, refusedBeyondLeft} from '../../../src/output/refund-match-text.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'

// What purchase get says of a purchase's refunds (gw_refunded's says, the Refunded line): what the
// evidence suggests first, one line however many refunds share its card, the others counted.

const refund = (reference: string, amount: number, extra: Record<string, unknown> = {}) => ({...liveRefund, id: `071-R-${reference.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(-8)}`, reference, amount, ...extra})
const madeFor = (refunds: Array<{id: string}>, purchase: string): Array<[string, MadeFor]> => refunds.map((made) => [made.id, {transactionId: purchase, purchaseReference: purchase, by: 'refund_create'}])
const says = (refunds: Record<string, unknown>[], made: Array<[string, MadeFor]> = [], others: Array<[string, Record<string, unknown>]> = [], purchase: Record<string, unknown> = livePurchase) =>
  refundedText(purchase, matchRefunds(purchase, refunds, {made: new Map(made), others: new Map(others)}).state).refunded

describe('refundedText', () => {
  it('one refund on its card of exactly what the purchase had: said first, in one line, as possibly refunded in full', () => {
    expect(says([refund('ext-part', 2000), refund('ext-full', 10000)])).toBe(
      "one refund on its card since it, of exactly 100.00 AUD: possibly refunded in full; 0.00 AUD for certain, and 2 refunds on its card since it that may be of it (2 possible), up to 100.00 AUD more: gw refund list --purchase order-1042",
    )
  })

  it('likely where the exact one derives from its reference; several exact ones each; what it had left once some is certain', () => {
    expect(says([refund('order-1042-R1', 10000)])).toMatch(/^one refund on its card since it, of exactly 100\.00 AUD: likely refunded in full; 0\.00 AUD for certain, and 1 refund/)
    expect(says([refund('a', 10000), refund('b', 10000)])).toMatch(/^2 refunds on its card since it, each of exactly 100\.00 AUD: possibly refunded in full; /)
    const certain = refund('made-by-gw', 4000)
    expect(says([certain, refund('the-rest', 6000)], madeFor([certain], 'order-1042'))).toBe(
      'one refund on its card since it, of exactly 60.00 AUD, what it had left: possibly refunded in full; 40.00 AUD for certain (1 refund gw made for it), and 1 refund on its card since it that may be of it (1 possible), up to 60.00 AUD more: gw refund list --purchase order-1042',
    )
  })

  it('no exact one: the range alone, as before', () => {
    expect(says([refund('ext-part', 2000)])).toBe('0.00 AUD for certain, and 1 refund on its card since it that may be of it (1 possible), up to 20.00 AUD more: gw refund list --purchase order-1042')
  })

  it("refunds gw made for other purchases are counted, not listed, with the command that lists them; one other purchase is named", () => {
    const others = Array.from({length: 52}, (_, i) => refund(`other-${i}`, 100))
    const made = others.map((other, i): [string, MadeFor] => [other.id, {transactionId: `order-${3000 + i}`, purchaseReference: `order-${3000 + i}`, by: 'journal'}])
    const mine = refund('mine', 1000)
    const text = says([...others, mine], [...made, ...madeFor([mine], 'order-1042')])
    expect(text).toBe('10.00 AUD for certain (1 refund gw made for it); gw made 52 other refunds on its card for 52 other purchases: gw refund list --purchase order-1042')
    expect(text).not.toContain('order-3000')
    expect(says(others, made)).toBe('0.00 AUD: gw made all 52 refunds on its card since it for 52 other purchases: gw refund list --purchase order-1042')
    expect(says([others[0]!], [made[0]!])).toBe('0.00 AUD: gw made the one refund on its card since it for another purchase (order-3000)')
    const order2001 = {...livePurchase, id: '071-P-OTHER001', reference: 'order-2001', transaction_date: '2026-11-17T09:00:00+11:00'}
    const order2002 = {...order2001, id: '071-P-OTHER002', reference: 'order-2002'}
    expect(says([refund('order-2001-R1', 100), refund('order-2002-R1', 100)], [], [['order-2001', order2001], ['order-2002', order2002]])).toBe(
      '0.00 AUD for certain, and 2 refunds on its card since it that may be of it (2 likely of 2 other purchases), up to 2.00 AUD more: gw refund list --purchase order-1042',
    )
  })

  it('refunds on its card that are more than it had left are none of it: nothing refunded, and why', () => {
    expect(says([refund('too-big', 20000)])).toBe('0.00 AUD: the one refund on its card since it is more than it had left')
    expect(says([refund('too-big', 20000), refund('bigger', 30000)])).toBe('0.00 AUD: all 2 refunds on its card since it are each more than it had left')
    const other = refund('other', 100)
    expect(says([other, refund('too-big', 20000), refund('bigger', 30000)], [[other.id, {transactionId: 'order-3000', by: 'journal'}]])).toBe(
      '0.00 AUD: of all 3 refunds on its card since it, gw made 1 for another purchase (order-3000) and 2 more than it had left',
    )
    expect(says([other, refund('too-big', 20000)], [[other.id, {transactionId: 'order-3000', by: 'journal'}]])).toBe(
      '0.00 AUD: of all 2 refunds on its card since it, gw made 1 for another purchase (order-3000) and 1 more than it had left',
    )
    expect(says([])).toBe('nothing: no refund on its card since it was made')
  })

  it("the gateway's own figure is said as the gateway's", () => {
    expect(refundedText(livePurchase, matchRefunds({...livePurchase, refunded_amount: 2500}, []).state)).toEqual({refunded: "25.00 AUD (the gateway's refunded_amount)", left: '75.00 AUD'})
  })
})

describe('matchText: a possible one says why', () => {
  it.each([
    [['made_after', 'within_balance'], 'possible (same card, after it)'],
    [['made_after', 'within_balance', 'whole_balance'], 'possible (exactly what it had left; same card, after it)'],
    [['made_after', 'within_balance', 'whole_balance', 'names_purchase'], 'possible (names it; exactly what it had left; same card, after it)'],
  ] as const)('%j', (fits, text) => {
    expect(matchText({purchase: 'p', match: 'possible', fits: [...fits], against: []})).toBe(text)
  })
})

describe('beyondLeft and refusedBeyondLeft: more than is left, refused as the gateway would refuse it', () => {
  const certain = refund('made-by-gw', 4000)
  const state = matchRefunds(livePurchase, [certain], {made: new Map(madeFor([certain], 'order-1042')), others: new Map()}).state

  it('up to what is left is taken; more is refused, saying what is left and what was refunded', () => {
    expect(beyondLeft(state, 6000)).toBeUndefined()
    expect(beyondLeft(state, 6001)).toBe('60.01 AUD is more than is left of it, 60.00 AUD (40.00 AUD of 100.00 AUD refunded for certain: 1 refund gw made for it)')
    expect(refusedBeyondLeft('order-1042', state, 6000)).toBeUndefined()
    expect(refusedBeyondLeft('order-1042', state, 10000, {inFull: true})).toMatchObject({
      exitCode: 7,
      message: 'Refunding purchase order-1042 in full: 100.00 AUD is more than is left of it, 60.00 AUD (40.00 AUD of 100.00 AUD refunded for certain: 1 refund gw made for it): nothing was sent',
      hint: 'Refund 60.00 AUD (6000 in the minor unit) or less.',
    })
    expect(refusedBeyondLeft('order-1042', state, 7000)?.message).toBe('A refund of purchase order-1042: 70.00 AUD is more than is left of it, 60.00 AUD (40.00 AUD of 100.00 AUD refunded for certain: 1 refund gw made for it): nothing was sent')
  })

  it('while some refunds only may be of it, only more than can be left at most is refused', () => {
    const range = matchRefunds(livePurchase, [certain, refund('maybe', 1000)], {made: new Map(madeFor([certain], 'order-1042')), others: new Map()}).state
    expect(beyondLeft(range, 6000)).toBeUndefined()
    expect(beyondLeft(range, 6001)).toBe('60.01 AUD is more than can be left of it, 60.00 AUD at most (40.00 AUD of 100.00 AUD refunded for certain: 1 refund gw made for it)')
  })

  it('more than the purchase, with no refund gw made for it: refused on the purchase\'s own amount, saying gw made none', () => {
    const maybe = matchRefunds(livePurchase, [refund('maybe', 1000)]).state
    expect(beyondLeft(maybe, 10000)).toBeUndefined()
    expect(refusedBeyondLeft('order-1042', maybe, 10001)?.message).toBe('A refund of purchase order-1042: 100.01 AUD is more than can be left of it, 100.00 AUD at most (none of 100.00 AUD refunded for certain: gw made no refund for it): nothing was sent')
  })

  it('nothing left: every amount is refused, naming what was refunded; the gateway\'s figure as the gateway\'s', () => {
    const all = matchRefunds({...livePurchase, refunded_amount: 10000}, []).state
    expect(beyondLeft(all, 1)).toBe("nothing is left of it to refund (the gateway says 100.00 AUD of 100.00 AUD refunded)")
    expect(refusedBeyondLeft('order-1042', all, 1)).toMatchObject({exitCode: 7, message: "Nothing is left of purchase order-1042 to refund (the gateway says 100.00 AUD of 100.00 AUD refunded): nothing was sent", hint: 'gw purchase get order-1042 shows what was refunded of it.'})
  })
})

// A voided refund and an unmatched one are said, and counted for nothing; a voided purchase has nothing left.
describe('what a refund is, in words: voided, unmatched, and a voided purchase', () => {
  const voided = {refunded: 'Voided', message: 'Voided'}
  const unmatched: MadeFor = {transactionId: '', by: 'refund_create', unmatched: true}

  it('purchase get: nothing refunded where the refunds on its card are voided or of no purchase, each said; added after what is counted', () => {
    const mine = refund('mine', 4000, voided)
    expect(says([mine], madeFor([mine], 'order-1042'))).toBe('nothing: 1 voided refund on its card since it, not counted')
    const credit = refund('credit', 100)
    expect(says([credit], [[credit.id, unmatched]])).toBe('nothing: 1 unmatched refund (of no purchase) on its card since it, not counted')
    expect(says([refund('a', 100, voided), refund('b', 200, voided), refund('c', 300, {standalone: true})])).toBe('nothing: 2 voided refunds and 1 unmatched refund (of no purchase) on its card since it, not counted')
    const kept = refund('kept', 1000)
    expect(says([kept, mine], madeFor([kept, mine], 'order-1042'))).toBe('10.00 AUD for certain (1 refund gw made for it); 1 voided refund on its card since it, not counted')
    expect(says([refund('too-big', 20000), refund('c', 300, {standalone: true})])).toBe('0.00 AUD: the one refund on its card since it is more than it had left; 1 unmatched refund (of no purchase) on its card since it, not counted')
    expect(says([refund('maybe', 1000), mine], madeFor([mine], 'order-1042'))).toBe(
      '0.00 AUD for certain, and 1 refund on its card since it that may be of it (1 possible), up to 10.00 AUD more; 1 voided refund on its card since it, not counted: gw refund list --purchase order-1042',
    )
  })

  it('a voided purchase: nothing left, said so by purchase get, a refund\'s question and its refusal', () => {
    const voidedPurchase = {...livePurchase, message: 'Voided', captured_amount: 0}
    expect(says([refund('later', 1000)], [], [], voidedPurchase)).toBe('nothing: it was voided, so it took nothing and nothing of it can be refunded')
    const state = matchRefunds(voidedPurchase, []).state
    expect(refundedText(voidedPurchase, state).left).toBe('0.00 AUD')
    expect(beyondLeft(state, 1)).toBe('nothing is left of it to refund (it was voided)')
    expect(amountOffer(state)).toEqual({words: '; nothing is left of it to refund (it was voided)'})
    expect(refusedBeyondLeft('order-1042', state, 10000, {inFull: true})).toMatchObject({exitCode: 7, message: 'Purchase order-1042 was voided, so nothing of it is left to refund: nothing was sent', hint: 'gw purchase get order-1042 shows it.'})
    // A declined one keeps its own words.
    expect(refusedBeyondLeft('order-1042', matchRefunds({...livePurchase, successful: false}, []).state, 1)?.message).toBe('Purchase order-1042 took nothing (it was declined), so nothing of it can be refunded: nothing was sent')
  })

  it('the Match column and the note above refund list --purchase', () => {
    expect(matchText({purchase: 'p', match: 'certain', by: 'refund_create', fits: [], against: [], voided: true})).toBe("certain (made by gw), voided: not counted")
    expect(matchText({purchase: 'p', match: 'unmatched', by: 'standalone', fits: [], against: []})).toBe("of no purchase (unmatched: the gateway's standalone)")
    expect(matchText({purchase: 'p', match: 'unmatched', by: 'refund_create', fits: [], against: []})).toBe("of no purchase (unmatched: made by gw)")
    const mine = refund('mine', 4000, voided)
    const credit = refund('credit', 100, {standalone: true})
    const note = (refunds: Record<string, unknown>[], made: Array<[string, MadeFor]> = [], narrowed = false) =>
      refundsOfNote(livePurchase, matchRefunds(livePurchase, refunds, {made: new Map(made), others: new Map()}).matched, {narrowed}).split('\n')[1]
    expect(note([mine, credit], madeFor([mine], 'order-1042'))).toBe('1 certain (gw recorded making it for this purchase); 1 of no purchase (unmatched, sent with a card alone); 1 voided (not counted): it has not been refunded.')
    expect(note([mine, credit], madeFor([mine], 'order-1042'), true)).toBe('1 certain (gw recorded making it for this purchase); 1 of no purchase (unmatched, sent with a card alone); 1 voided (not counted).')
    const other = refund('other', 100)
    expect(note([credit, other], [[other.id, {transactionId: 'order-3000', by: 'journal'}]])).toBe('1 of another purchase (order-3000); 1 of no purchase (unmatched, sent with a card alone): it has not been refunded.')
    expect(note([credit, refund('maybe', 100)])).toBe('1 possible (on its card, after it); 1 of no purchase (unmatched, sent with a card alone).')
  })
})
