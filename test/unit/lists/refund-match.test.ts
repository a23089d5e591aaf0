import {describe, expect, it} from 'vitest'
import {MAX_REFERENCE} from '../../../src/api/schemas/rules.js'
import {derivationBase, derivedFrom, derivedNumber, type MadeFor, matchRefunds, refundReference} from '../../../src/lists/refund-match.js'
import {amountOffer} from '../../../src/output/refund-match-text.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'

// A refund's record does not name its purchase (gateway-notes.md): gw derives a refund's default
// reference from its purchase's, records what it makes, and holds the refunds on a purchase's card
// against it, one matcher for every command (design.md §3).

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
    // A reference that holds a card number (any separator of the masker's table) is none to derive from: gw makes no reference that holds one.
    for (const reference of ['ord-4929123456789015', 'ord 4929.1234.5678.9015']) expect(derivationBase({...livePurchase, reference})).toBe(livePurchase.id)
    expect(derivationBase({...livePurchase, reference: 'ord-492912XXXXXX9015'})).toBe('ord-492912XXXXXX9015')
    expect(derivationBase({})).toBeUndefined()
  })
})

// Live-shaped: positive amounts, nothing naming the purchase; made after it (10:31 +11:00).
const refund = (reference: string, amount: number, extra: Record<string, unknown> = {}) => ({...liveRefund, id: `071-R-${reference.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(-8)}`, reference, amount, ...extra})

const made = (transactionId: string, by: 'journal' | 'refund_create' = 'journal', more: Record<string, string> = {}) => ({transactionId, by, ...more})
const known = (entries: Array<[string, MadeFor]> = [], others: Array<[string, Record<string, unknown>]> = []) => ({made: new Map(entries), others: new Map(others)})
// Another purchase on the same card, made before the refunds.
const order2001 = {...livePurchase, id: '071-P-OTHER001', reference: 'order-2001', amount: 5000}

describe('matchRefunds: certain, likely, possible, or another purchase\'s; best fit first', () => {
  const derived = refund('order-1042-R1', 2000)
  const journaled = refund('batch-row-7', 1000)
  const single = refund('my-own-ref', 400)
  const namesIt = refund('refund-for-order-1042', 500)
  const within = refund('anything', 700)
  const over = refund('too-big', 9500)
  const others = refund('order-2001-R1', 300)
  const madeForOther = refund('order-1042-R2', 600)
  const unknownTime = refund('no-time', 100, {transaction_date: undefined})

  it('certain only where gw recorded making it for this purchase; a derived reference is likely; another purchase\'s names it', () => {
    const {matched} = matchRefunds(
      livePurchase,
      [over, others, within, namesIt, journaled, unknownTime, derived, single, madeForOther],
      known(
        [
          [journaled.id, made(livePurchase.id)],
          [single.id, made('order-1042', 'refund_create')],
          // Derived from this purchase's reference, yet gw recorded making it for another: that one's, for certain.
          [madeForOther.id, made('order-2001', 'refund_create', {purchaseId: order2001.id, purchaseReference: 'order-2001'})],
        ],
        [['order-2001', order2001]],
      ),
    )
    expect(matched.map(({refund}) => refund.reference)).toEqual(['batch-row-7', 'my-own-ref', 'order-1042-R1', 'refund-for-order-1042', 'anything', 'no-time', 'order-2001-R1', 'order-1042-R2', 'too-big'])
    const byReference = Object.fromEntries(matched.map(({refund, match}) => [refund.reference, match]))
    const purchase = livePurchase.id
    expect(byReference['batch-row-7']).toEqual({purchase, match: 'certain', by: 'journal', fits: ['made_after'], against: []})
    expect(byReference['my-own-ref']).toEqual({purchase, match: 'certain', by: 'refund_create', fits: ['made_after'], against: []})
    // 10000 less the 1400 certain: 8600 may be of the others.
    expect(byReference['order-1042-R1']).toEqual({purchase, match: 'likely', by: 'derived_reference', fits: ['made_after', 'within_balance', 'names_purchase'], against: []})
    expect(byReference['refund-for-order-1042']).toEqual({purchase, match: 'possible', fits: ['made_after', 'within_balance', 'names_purchase'], against: []})
    expect(byReference['anything']).toEqual({purchase, match: 'possible', fits: ['made_after', 'within_balance'], against: []})
    expect(byReference['no-time']).toEqual({purchase, match: 'possible', fits: ['within_balance'], against: []})
    expect(byReference['too-big']).toEqual({purchase, match: 'possible', fits: ['made_after'], against: ['over_balance']})
    expect(byReference['order-2001-R1']).toEqual({purchase, match: 'other_purchase', by: 'derived_reference', other_purchase: 'order-2001', other_match: 'likely', fits: ['made_after', 'within_balance'], against: []})
    expect(byReference['order-1042-R2']).toEqual({purchase, match: 'other_purchase', by: 'refund_create', other_purchase: 'order-2001', other_match: 'certain', fits: ['made_after'], against: []})
  })

  it('a record of the purchase by id decides over the name it was asked by; one asked by the id alone is this purchase\'s', () => {
    const byId = known([[single.id, made('order-1042', 'refund_create', {purchaseId: '071-P-SOMEONE0'})]])
    expect(matchRefunds(livePurchase, [single], byId).matched[0]!.match).toMatchObject({match: 'other_purchase', other_purchase: 'order-1042', other_match: 'certain'})
    expect(matchRefunds(livePurchase, [single], known([[single.id, made(livePurchase.id)]])).matched[0]!.match.match).toBe('certain')
    expect(matchRefunds({...livePurchase, reference: ''}, [single], known([[single.id, made('')]])).matched[0]!.match).toMatchObject({purchase: livePurchase.id, match: 'other_purchase'})
    expect(matchRefunds({...livePurchase, id: undefined}, [single], known([[single.id, made('order-1042')]])).matched[0]!.match).toMatchObject({purchase: 'order-1042', match: 'certain'})
  })

  it('a derived reference is only likely after the purchase and within its balance; a derived shape from no purchase looked up is possible', () => {
    const before = refund('order-1042-R1', 100, {transaction_date: '2026-11-17T10:00:00+11:00'})
    expect(matchRefunds(livePurchase, [before]).matched[0]!.match).toMatchObject({match: 'possible', fits: ['within_balance', 'names_purchase']})
    expect(matchRefunds(livePurchase, [refund('order-1042-R1', 20000)]).matched[0]!.match).toMatchObject({match: 'possible', against: ['over_balance']})
    expect(matchRefunds(livePurchase, [others]).matched[0]!.match).toEqual({purchase: livePurchase.id, match: 'possible', fits: ['made_after', 'within_balance'], against: []})
    // Another purchase's only after that purchase was made, and never when it names this one.
    const later = {...order2001, transaction_date: '2026-11-18T10:00:00+11:00'}
    expect(matchRefunds(livePurchase, [others], known([], [['order-2001', later]])).matched[0]!.match.match).toBe('possible')
    expect(matchRefunds(livePurchase, [others], known([], [['order-2001', {...order2001, transaction_date: undefined}]])).matched[0]!.match.match).toBe('possible')
    const naming = refund('order-1042-order-2001-R1', 100)
    expect(matchRefunds(livePurchase, [naming], known([], [['order-1042-order-2001', order2001]])).matched[0]!.match.match).toBe('possible')
    expect(matchRefunds({...livePurchase, transaction_date: undefined}, [derived]).matched[0]!.match).toMatchObject({match: 'possible', fits: ['within_balance', 'names_purchase']})
  })

  it('what is refunded and left: exact from the certain ones, a range while any may be of it, likely another\'s included', () => {
    const certain = known([[journaled.id, made(livePurchase.id)]])
    expect(matchRefunds(livePurchase, [journaled], certain).state).toEqual({
      amount: 10000, currency: 'AUD', source: 'refunds', refunded: 1000, certain: 1, possible: 0, possibleAmount: 0, likely: 0, likelyOthers: 0, exact: 0, exactLikely: 0, over: 0, certainOthers: 0, others: {certain: [], likely: []}, left: 9000, leftAtLeast: 9000, voided: 0, unmatched: 0,
    })
    // Likely 2000, possible 700 + 500, likely another's 300: 3500 may be of it; the one over its balance cannot be, and gw made the 600 for another.
    const all = known([[journaled.id, made(livePurchase.id)], [madeForOther.id, made('order-2001')]], [['order-2001', order2001]])
    expect(matchRefunds(livePurchase, [journaled, derived, within, namesIt, over, others, madeForOther], all).state).toEqual({
      amount: 10000, currency: 'AUD', source: 'refunds', refunded: 1000, certain: 1, possible: 4, possibleAmount: 3500, likely: 1, likelyOthers: 1, exact: 0, exactLikely: 0, over: 1, certainOthers: 1, others: {certain: ['order-2001'], likely: ['order-2001']}, left: 9000, leftAtLeast: 5500, voided: 0, unmatched: 0,
    })
    // Never more than the purchase's balance, however many there are.
    const many = Array.from({length: 30}, (_, i) => refund(`maybe-${i}`, 1000))
    expect(matchRefunds(livePurchase, [journaled, ...many], certain).state).toMatchObject({possible: 30, possibleAmount: 9000, left: 9000, leftAtLeast: 0})
    expect(matchRefunds(livePurchase, []).state).toMatchObject({refunded: 0, certain: 0, possible: 0, left: 10000, leftAtLeast: 10000})
  })

  it("the gateway's own refunded_amount is believed where its record has one", () => {
    const {state, matched} = matchRefunds({...livePurchase, refunded_amount: 4000}, [within, over, derived])
    expect(state).toEqual({amount: 10000, currency: 'AUD', source: 'gateway', refunded: 4000, certain: 0, possible: 0, possibleAmount: 0, likely: 0, likelyOthers: 0, exact: 0, exactLikely: 0, over: 0, certainOthers: 0, others: {certain: [], likely: []}, left: 6000, leftAtLeast: 6000, voided: 0, unmatched: 0})
    // Only what the gateway says was refunded can be refunds of it.
    expect(matched.map(({match}) => match.against)).toEqual([[], [], ['over_balance']])
    expect(matchRefunds({...livePurchase, refunded_amount: 1.5}, []).state.source).toBe('refunds')
  })

  it('only approved refunds count; a declined purchase has nothing to refund; a refund of either sign counts by its size', () => {
    const declined = {...journaled, successful: false, message: 'Declined'}
    expect(matchRefunds(livePurchase, [declined, {...within, successful: false}], known([[journaled.id, made(livePurchase.id)]])).state).toMatchObject({refunded: 0, certain: 0, possible: 0, left: 10000})
    expect(matchRefunds({...livePurchase, successful: false}, []).state).toMatchObject({amount: 10000, left: 0, leftAtLeast: 0})
    expect(matchRefunds(livePurchase, [{...journaled, amount: -1000}], known([[journaled.id, made(livePurchase.id)]])).state).toMatchObject({refunded: 1000, left: 9000})
    expect(matchRefunds({...livePurchase, amount: undefined, currency: undefined}, []).state).toEqual(expect.not.objectContaining({currency: expect.anything()}))
  })
})

// What a refund is: a voided one gave nothing back, an unmatched one is of no purchase,
// and a voided purchase has nothing left to refund.
describe('matchRefunds: voided refunds, voided purchases, unmatched refunds', () => {
  // The refund record after a void, as each build of the gateway wrote it (gateway-beyond.md §6).
  const voided2019 = {refunded: 'Voided', message: 'Voided', successful: true, response_code: '00'}
  const voided2017 = {refunded: 'Voided', message: 'Voided', successful: false, response_code: '99'}

  it('a voided refund keeps its word, is marked voided and counts for nothing, certain or not; the next refund has the whole purchase as its room', () => {
    const mine = refund('mine', 4000, voided2019)
    const full = refund('ext-full', 10000)
    const {matched, state} = matchRefunds(livePurchase, [mine, full], known([[mine.id, made(livePurchase.id, 'refund_create')]]))
    expect(matched.map(({refund, match}) => [refund.reference, match])).toEqual([
      ['ext-full', {purchase: livePurchase.id, match: 'possible', fits: ['made_after', 'within_balance', 'whole_balance'], against: []}],
      ['mine', {purchase: livePurchase.id, match: 'certain', by: 'refund_create', fits: ['made_after'], against: [], voided: true}],
    ])
    expect(state).toMatchObject({refunded: 0, certain: 0, possible: 1, possibleAmount: 10000, exact: 1, over: 0, left: 10000, leftAtLeast: 0, voided: 1, unmatched: 0})
    expect(state.gone).toBeUndefined()
    // Any build's voided record, and one whose `message` alone says it.
    for (const shape of [voided2017, {message: 'Voided'}, {refunded: 'Voided'}]) {
      const it = refund('mine', 4000, shape)
      expect(matchRefunds(livePurchase, [it], known([[it.id, made(livePurchase.id)]])).state).toMatchObject({refunded: 0, certain: 0, left: 10000, voided: 1})
    }
    const maybe = refund('maybe', 3000, voided2019)
    expect(matchRefunds(livePurchase, [maybe]).state).toMatchObject({possible: 0, possibleAmount: 0, over: 0, left: 10000, leftAtLeast: 10000, voided: 1})
    expect(matchRefunds(livePurchase, [refund('too-big', 20000, voided2019)]).state).toMatchObject({over: 0, voided: 1})
  })

  it('a voided refund ranks after every other, another purchase\'s too; one gw made for another purchase is not counted as this one\'s voided', () => {
    const voidedMine = refund('order-1042-R1', 1000, voided2019)
    const forOther = refund('for-other', 500)
    const voidedForOther = refund('void-for-other', 500, voided2019)
    const over = refund('too-big', 20000)
    const {matched, state} = matchRefunds(livePurchase, [voidedMine, voidedForOther, over, forOther], known([[forOther.id, made('order-2001')], [voidedForOther.id, made('order-2001')]]))
    expect(matched.map(({refund}) => refund.reference)).toEqual(['for-other', 'too-big', 'order-1042-R1', 'void-for-other'])
    expect(state).toMatchObject({voided: 1, certainOthers: 1, others: {certain: ['order-2001'], likely: []}})
  })

  it('a voided purchase has nothing left to refund, whatever refunds its card shows; a declined one says so too', () => {
    const voidedPurchase = {...livePurchase, message: 'Voided', captured_amount: 0}
    const {matched, state} = matchRefunds(voidedPurchase, [refund('later', 1000)])
    expect(state).toMatchObject({gone: 'voided', refunded: 0, possible: 0, over: 1, left: 0, leftAtLeast: 0})
    expect(matched[0]!.match.against).toEqual(['over_balance'])
    // A 2017-2018 build's voided purchase says successful false: voided all the same, not declined.
    expect(matchRefunds({...livePurchase, message: 'Voided', successful: false}, []).state).toMatchObject({gone: 'voided', left: 0})
    expect(matchRefunds({...livePurchase, successful: false}, []).state.gone).toBe('declined')
    // The gateway's own figure leaves nothing of a voided purchase either.
    expect(matchRefunds({...voidedPurchase, refunded_amount: 0}, []).state).toMatchObject({source: 'gateway', gone: 'voided', left: 0})
  })

  it('an unmatched refund is of no purchase: by gw\'s record of sending it with a card alone, or by the gateway\'s standalone; never counted', () => {
    const recorded = refund('credit-1', 3000, {standalone: undefined})
    const standalone = refund('credit-2', 2000, {standalone: true})
    const mine = refund('mine', 1000)
    const {matched, state} = matchRefunds(livePurchase, [standalone, recorded, mine], known([[recorded.id, {transactionId: '', by: 'refund_create', unmatched: true}], [mine.id, made(livePurchase.id)]]))
    expect(matched.map(({refund, match}) => [refund.reference, match])).toEqual([
      ['mine', {purchase: livePurchase.id, match: 'certain', by: 'journal', fits: ['made_after'], against: []}],
      ['credit-2', {purchase: livePurchase.id, match: 'unmatched', by: 'standalone', fits: ['made_after'], against: []}],
      ['credit-1', {purchase: livePurchase.id, match: 'unmatched', by: 'refund_create', fits: ['made_after'], against: []}],
    ])
    expect(state).toMatchObject({refunded: 1000, certain: 1, possible: 0, possibleAmount: 0, over: 0, exact: 0, left: 9000, leftAtLeast: 9000, unmatched: 2, voided: 0})
    // Below another purchase's; a voided unmatched one is unmatched, not this purchase's voided one.
    const forOther = refund('for-other', 500)
    const voidedCredit = refund('credit-3', 100, {standalone: true, ...voided2019})
    const ranked = matchRefunds(livePurchase, [voidedCredit, standalone, forOther], known([[forOther.id, made('order-2001')]]))
    expect(ranked.matched.map(({refund}) => refund.reference)).toEqual(['for-other', 'credit-2', 'credit-3'])
    expect(ranked.state).toMatchObject({unmatched: 2, voided: 0})
  })

  it('standalone only when the gateway says true; gw\'s record of making it for a purchase outweighs it', () => {
    for (const standalone of [false, 'true', 1, null]) expect(matchRefunds(livePurchase, [refund('x', 100, {standalone})]).matched[0]!.match.match).toBe('possible')
    const mine = refund('mine', 100, {standalone: true})
    expect(matchRefunds(livePurchase, [mine], known([[mine.id, made(livePurchase.id)]])).matched[0]!.match).toMatchObject({match: 'certain', by: 'journal'})
    expect(matchRefunds(livePurchase, [mine], known([[mine.id, made('order-2001')]])).matched[0]!.match).toMatchObject({match: 'other_purchase', other_match: 'certain'})
  })
})

describe('matchRefunds: what each record holds, read as data', () => {
  const single = refund('refund-for-order-1042', 400)

  it('reads derived shapes exactly: digits only, to the end', () => {
    expect(derivedFrom('order-9-R23')).toBe('order-9')
    expect(derivedFrom('order-9-R2x')).toBeUndefined()
    expect(derivedFrom(42)).toBeUndefined()
    expect(derivationBase({id: ''})).toBeUndefined()
    expect(derivationBase({id: 42})).toBeUndefined()
  })

  it('a record by the purchase id is this purchase\'s, whatever name it was asked by; a certain one names it too', () => {
    const byId = known([[single.id, made('some-alias', 'refund_create', {purchaseId: livePurchase.id})]])
    expect(matchRefunds(livePurchase, [single], byId).matched[0]!.match).toEqual({purchase: livePurchase.id, match: 'certain', by: 'refund_create', fits: ['made_after', 'names_purchase'], against: []})
  })

  it('made at the very instant of the purchase is after it; amounts, references and figures that are not numbers or text are none', () => {
    const same = refund('x', 100, {transaction_date: livePurchase.transaction_date})
    expect(matchRefunds(livePurchase, [same]).matched[0]!.match.fits).toEqual(['made_after', 'within_balance'])
    expect(matchRefunds(livePurchase, [refund('x', 100, {amount: '100'})]).matched[0]!.match.fits).toEqual(['made_after'])
    expect(matchRefunds({...livePurchase, refunded_amount: '4000'}, []).state.source).toBe('refunds')
    expect(matchRefunds({...livePurchase, amount: '10000'}, []).state).toMatchObject({amount: 0, left: 0})
    expect(matchRefunds({...livePurchase, reference: 1042}, [single]).matched[0]!.match).toMatchObject({purchase: livePurchase.id, fits: ['made_after', 'within_balance']})
    expect(matchRefunds({...livePurchase, id: undefined, reference: undefined}, [single]).matched[0]!.match.purchase).toBe('')
  })
})

describe('matchRefunds: the edges of each rule', () => {
  it('a reference short enough to keep whole is never cut, even when it ends in half a surrogate pair', () => {
    expect(refundReference('ab\uD83D', 1)).toBe('ab\uD83D-R1')
  })

  it('derivedFrom reads text only: a list holding a derived reference is none', () => {
    expect(derivedFrom(['order-7-R2'])).toBeUndefined()
  })

  it('a refund with no time, or one before the purchase, is not made after it, and so never likely', () => {
    const noTime = refund('order-1042-R1', 100, {transaction_date: undefined})
    const before = refund('order-1042-R2', 100, {transaction_date: '2017-01-01T00:00:00+11:00'})
    const matched = matchRefunds(livePurchase, [noTime, before]).matched
    expect(matched.map(({match}) => [match.match, match.fits])).toEqual([
      ['possible', ['within_balance', 'names_purchase']],
      ['possible', ['within_balance', 'names_purchase']],
    ])
    // A purchase with no time has nothing after it.
    expect(matchRefunds({...livePurchase, transaction_date: undefined}, [refund('x', 100)]).matched[0]!.match.fits).toEqual(['within_balance'])
  })

  it('a refund of exactly what is left is within the balance, and the whole of it; one with no amount is neither within nor over it', () => {
    const all = refund('all-of-it', Math.abs(livePurchase.amount as number))
    expect(matchRefunds(livePurchase, [all]).matched[0]!.match).toMatchObject({fits: ['made_after', 'within_balance', 'whole_balance'], against: []})
    expect(matchRefunds(livePurchase, [refund('no-amount', 0, {amount: undefined})]).matched[0]!.match).toMatchObject({fits: ['made_after'], against: []})
  })

  it('names_purchase only for a reference that names it as a word of its own, wherever it comes in the text', () => {
    const fits = (reference: unknown) => matchRefunds(livePurchase, [refund('x', 100, {reference})]).matched[0]!.match.fits
    expect(fits('refund-order-1042')).toContain('names_purchase')
    expect(fits('order-1042')).toContain('names_purchase')
    expect(fits('xorder-1042')).not.toContain('names_purchase')
    expect(fits('order-10420')).not.toContain('names_purchase')
    // The first place it comes is no word of its own; a later one is.
    expect(fits('order-10420 then order-1042')).toContain('names_purchase')
    expect(fits('something else')).not.toContain('names_purchase')
    expect(fits(1042)).not.toContain('names_purchase')
  })

  it('a reference derived from this purchase is never another purchase\'s, even when gw knows a purchase of that name; nor one that names this purchase', () => {
    const over = refund('order-1042-R1', 999_999)
    expect(matchRefunds(livePurchase, [over], known([], [['order-1042', order2001]])).matched[0]!.match.match).toBe('possible')
    const naming = refund('order-2001-R1 order-1042', 100)
    expect(matchRefunds(livePurchase, [refund('order-1042 order-2001-R1', 100), naming], known([], [['order-2001', order2001]])).matched.map(({match}) => match.match)).toEqual(['possible', 'possible'])
  })

  it('refunds that fit alike keep the order they came in', () => {
    const [a, b, c] = [refund('first', 100), refund('second', 100), refund('third', 100)]
    expect(matchRefunds(livePurchase, [a, b, c]).matched.map(({refund}) => refund.reference)).toEqual(['first', 'second', 'third'])
  })

  it('a refund over the balance is no refund that may be of it; a purchase with no currency gives none', () => {
    const state = matchRefunds({...livePurchase, currency: undefined}, [refund('too-big', 999_999)]).state
    expect(state).toMatchObject({possible: 0, possibleAmount: 0})
    expect('currency' in state).toBe(false)
  })

  it('an amount and a refunded_amount that are not whole numbers are none', () => {
    expect(matchRefunds({...livePurchase, refunded_amount: 2.5}, []).state.source).toBe('refunds')
    expect(matchRefunds({...livePurchase, amount: '10000'}, [refund('x', 100)]).state).toMatchObject({amount: 0, left: 0, leftAtLeast: 0})
  })
})

describe('matchRefunds: ranked as a person would look, what is left first', () => {
  // Three purchases on one card, refunds made past gw: a full 100.00 and a partial 20.00, the partial one newer.
  const full = refund('ext-full', 10000, {transaction_date: '2026-11-17T11:00:00+11:00'})
  const part = refund('ext-part', 2000, {transaction_date: '2026-11-17T12:00:00+11:00'})

  it('a refund of exactly what is left comes first, though a newer one that fits came before it; then those that fit; then the rest', () => {
    const {matched, state} = matchRefunds(livePurchase, [part, refund('no-amount', 0, {amount: undefined}), refund('too-big', 10001), full])
    expect(matched.map(({refund, match}) => [refund.reference, match.fits, match.against])).toEqual([
      ['ext-full', ['made_after', 'within_balance', 'whole_balance'], []],
      ['ext-part', ['made_after', 'within_balance'], []],
      ['no-amount', ['made_after'], []],
      ['too-big', ['made_after'], ['over_balance']],
    ])
    expect(state).toMatchObject({possible: 3, exact: 1, exactLikely: 0, over: 1, possibleAmount: 10000, leftAtLeast: 0})
  })

  it('what is left is the purchase less what is certain: a refund of that is the whole of it, a refund of the full amount then is over', () => {
    const certain = refund('made-by-gw', 4000)
    const rest = refund('the-rest', 6000)
    const {matched, state} = matchRefunds(livePurchase, [full, rest, certain], known([[certain.id, made(livePurchase.id)]]))
    expect(matched.map(({refund, match}) => [refund.reference, match.match, match.fits.includes('whole_balance'), match.against])).toEqual([
      ['made-by-gw', 'certain', false, []],
      ['the-rest', 'possible', true, []],
      ['ext-full', 'possible', false, ['over_balance']],
    ])
    expect(state).toMatchObject({refunded: 4000, exact: 1, exactLikely: 0, over: 1, possible: 1, left: 6000, leftAtLeast: 0})
  })

  it('the exact one keeps its kind: a likely one of exactly what is left counts as likely, above a possible one; one likely another\'s is not counted', () => {
    const derived = refund('order-1042-R1', 10000, {transaction_date: '2026-11-17T11:30:00+11:00'})
    const {matched, state} = matchRefunds(livePurchase, [full, derived])
    expect(matched.map(({refund, match}) => [refund.reference, match.match])).toEqual([['order-1042-R1', 'likely'], ['ext-full', 'possible']])
    expect(state).toMatchObject({exact: 2, exactLikely: 1, likely: 1, possible: 2})
    const others = refund('order-2001-R1', 10000)
    expect(matchRefunds(livePurchase, [others], known([], [['order-2001', order2001]])).state).toMatchObject({possible: 1, likelyOthers: 1, exact: 0, exactLikely: 0})
  })

  it("of what is left, a rank: the exact one above one that fits and names the purchase; never with the gateway's figure, and never of nothing left", () => {
    const naming = refund('refund-order-1042', 500)
    expect(matchRefunds(livePurchase, [naming, full]).matched.map(({refund}) => refund.reference)).toEqual(['ext-full', 'refund-order-1042'])
    const gateway = matchRefunds({...livePurchase, refunded_amount: 10000}, [full])
    expect(gateway.matched[0]!.match.fits).toEqual(['made_after', 'within_balance'])
    expect(gateway.state).toMatchObject({exact: 0, over: 0})
    const declined = matchRefunds({...livePurchase, successful: false}, [refund('nothing', 0)])
    expect(declined.matched[0]!.match.fits).toEqual(['made_after', 'within_balance'])
  })

  it('only approved refunds are counted as exact or over; a certain one or another\'s certain one is neither', () => {
    const declined = {...full, successful: false, message: 'Declined'}
    const tooBig = refund('too-big', 20000)
    const forOther = refund('for-other', 20000)
    const {state} = matchRefunds(livePurchase, [declined, {...tooBig, successful: false}, forOther], known([[forOther.id, made('order-2001')]]))
    expect(state).toMatchObject({exact: 0, over: 0, certainOthers: 1})
    const mine = refund('mine', 20000)
    expect(matchRefunds(livePurchase, [mine], known([[mine.id, made(livePurchase.id)]])).state).toMatchObject({over: 0, certain: 1})
  })
})

describe('amountOffer: what a refund prompt offers, never what the gateway would refuse', () => {
  const state = (over: Partial<ReturnType<typeof matchRefunds>['state']>) => ({amount: 1000, currency: 'AUD', source: 'refunds' as const, refunded: 0, certain: 0, possible: 0, possibleAmount: 0, likely: 0, likelyOthers: 0, exact: 0, exactLikely: 0, over: 0, certainOthers: 0, others: {certain: [], likely: []}, left: 1000, leftAtLeast: 1000, voided: 0, unmatched: 0, ...over})

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
