import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {CardLedger} from '../../../src/lists/card-ledger.js'
import {matchesFilters} from '../../../src/lists/filters.js'
import {type MadeFor, matchRefunds} from '../../../src/lists/refund-match.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'

// A card's ledger decides what is left of a purchase from the few refunds that decide it; what it
// decides is what the one matcher decides over every refund on the card (design.md §3, §5).

type Rec = Record<string, unknown>
const T0 = Date.parse('2026-11-01T00:00:00Z')
const at = (minute: number) => new Date(T0 + minute * 60_000).toISOString()

/** What a refund on the card may be: gw made it for the purchase, for another, as unmatched, or not at all; approved, declined or voided; before or after the purchase. */
const refundArb = fc.record({
  minute: fc.integer({min: 0, max: 40}),
  amount: fc.integer({min: 1, max: 6000}),
  outcome: fc.constantFrom('approved', 'declined', 'voided'),
  made: fc.constantFrom('none', 'ours', 'ours-by-reference', 'other', 'unmatched'),
  standalone: fc.boolean(),
  holder: fc.constantFrom('Jane Citizen', 'JANE CITIZEN', 'Someone Else'),
})

type Spec = typeof refundArb extends fc.Arbitrary<infer S> ? S : never

function build(specs: Spec[]): {refunds: Rec[]; made: Map<string, MadeFor>} {
  const made = new Map<string, MadeFor>()
  const refunds = specs.map((spec, n) => {
    const id = `R-${n}`
    if (spec.made === 'ours') made.set(id, {transactionId: String(livePurchase.id), purchaseId: String(livePurchase.id), by: 'journal'})
    if (spec.made === 'ours-by-reference') made.set(id, {transactionId: String(livePurchase.reference), by: 'refund_create'})
    if (spec.made === 'other') made.set(id, {transactionId: 'order-other', purchaseId: '071-P-OTHER', by: 'journal'})
    if (spec.made === 'unmatched') made.set(id, {transactionId: '', by: 'refund_create', unmatched: true})
    return {
      ...liveRefund,
      id,
      reference: `ref-${n}`,
      amount: spec.amount,
      card_holder: spec.holder,
      transaction_date: at(spec.minute),
      successful: spec.outcome !== 'declined',
      message: spec.outcome === 'voided' ? 'Voided' : spec.outcome === 'declined' ? 'Declined' : 'Approved',
      ...(spec.outcome === 'voided' ? {refunded: 'Voided'} : {}),
      ...(spec.standalone ? {standalone: true} : {}),
    }
  })
  return {refunds, made}
}

describe('a card’s ledger', () => {
  it('decides what is left as the matcher does over every refund on the card', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(refundArb, {maxLength: 30}), fc.integer({min: 0, max: 20}), fc.integer({min: 1, max: 12_000}), async (specs, minute, amount) => {
        const purchase = {...livePurchase, amount, transaction_date: at(minute)}
        const {refunds, made} = build(specs)
        const ledger = new CardLedger(T0)
        // Some come in when the ledger is made, the rest as the command sees them.
        const half = Math.floor(refunds.length / 2)
        const ask = async (ids: ReadonlySet<string>) => new Map([...made].filter(([id]) => ids.has(id)))
        await ledger.add(refunds.slice(0, half), ask)
        await ledger.add(refunds.slice(half), ask)
        const since = Date.parse(purchase.transaction_date)
        // As refund list --purchase matches them: the refunds on its card (number and holder), of no more than it, since it.
        const onCard = refunds.filter((refund) => matchesFilters({purchase}, refund)).sort((a, b) => Date.parse(String(b.transaction_date)) - Date.parse(String(a.transaction_date)))
        const whole = matchRefunds(purchase, onCard, {made, others: new Map()}).state
        const decided = ledger.decide(purchase, since)
        const fields = ({left, leftAtLeast, refunded, certain, source, gone, amount: of}: typeof whole) => ({left, leftAtLeast, refunded, certain, source, gone, amount: of})
        expect(fields(decided)).toEqual(fields(whole))
      }),
      {numRuns: 400},
    )
  })

  it('reads only the newest of the refunds that may be the purchase’s, enough to cover what it could have left', async () => {
    const refunds = Array.from({length: 5000}, (_, n) => ({...liveRefund, id: `R-${n}`, amount: 1000, transaction_date: at(n / 100)}))
    const ledger = new CardLedger(T0)
    await ledger.add(refunds, async () => new Map())
    const purchase = {...livePurchase, amount: 3000, transaction_date: at(0)}
    let read = 0
    const counted = new Proxy(purchase, {get: (target, key) => (key === 'card_number' && read++, Reflect.get(target, key))})
    const state = ledger.decide(counted, T0)
    expect(state).toMatchObject({left: 3000, leftAtLeast: 0, possibleAmount: 3000})
    // Three refunds cover all it could have left: a few reads of the purchase's card each, not five thousand.
    expect(read).toBeLessThan(50)
  })

  it('a newer refund of more than the purchase can have left is passed over: the older ones that fit still count', async () => {
    const ledger = new CardLedger(T0)
    const purchase = {...livePurchase, amount: 5000, transaction_date: at(0)}
    const ours = new Map<string, MadeFor>([['R-1', {transactionId: String(livePurchase.id), purchaseId: String(livePurchase.id), by: 'journal'}]])
    const refunds = [{...liveRefund, id: 'R-1', amount: 3000, transaction_date: at(1)}, {...liveRefund, id: 'R-2', amount: 1000, transaction_date: at(2)}, {...liveRefund, id: 'R-3', amount: 2500, transaction_date: at(3)}]
    await ledger.add(refunds, async () => ours)
    expect(ledger.decide(purchase, T0)).toMatchObject({refunded: 3000, left: 2000, leftAtLeast: 1000, possibleAmount: 1000})
  })

  const purchaseOf = (amount: number, minute = 0) => ({...livePurchase, amount, transaction_date: at(minute)})
  const approvedAt = (id: string, amount: number, minute: number, extra: Rec = {}) => ({...liveRefund, id, amount, transaction_date: at(minute), ...extra})
  const none = async () => new Map<string, MadeFor>()

  it('refunds that gave nothing back (declined, voided) and those the gateway says were of no purchase never count toward what may be its own', async () => {
    const ledger = new CardLedger(T0)
    await ledger.add(
      [
        approvedAt('R-5', 4000, 50, {successful: false, message: 'Declined'}),
        approvedAt('R-4', 4000, 40, {message: 'Voided', refunded: 'Voided'}),
        approvedAt('R-3', 4000, 30, {standalone: true}),
        approvedAt('R-2', 3000, 20),
        approvedAt('R-1', 3000, 10),
      ],
      none,
    )
    expect(ledger.decide(purchaseOf(5000), T0)).toMatchObject({left: 5000, leftAtLeast: 0, possibleAmount: 5000})
  })

  it('one of exactly what the purchase can have left may be its own', async () => {
    const ledger = new CardLedger(T0)
    await ledger.add([approvedAt('R-1', 5000, 10)], none)
    expect(ledger.decide(purchaseOf(5000), T0)).toMatchObject({leftAtLeast: 0, possibleAmount: 5000})
  })

  it('refunds added out of order are held in order of time: those before the purchase are passed over, however they came', async () => {
    const ledger = new CardLedger(T0)
    await ledger.add([approvedAt('R-20', 400, 20)], none)
    await ledger.add([approvedAt('R-5', 400, 5)], none)
    await ledger.add([approvedAt('R-30', 400, 30), approvedAt('R-12', 400, 12)], none)
    await ledger.add([approvedAt('R-25', 400, 25)], none)
    await ledger.add([approvedAt('R-1', 400, 1), approvedAt('R-12b', 400, 12)], none)
    // Since minute 10: and R-12b, 2,000 in all; none of those before.
    expect(ledger.decide(purchaseOf(10_000, 10), T0 + 10 * 60_000)).toMatchObject({possibleAmount: 2000, leftAtLeast: 8000})
    expect(ledger.decide(purchaseOf(10_000, 22), T0 + 22 * 60_000)).toMatchObject({possibleAmount: 800, leftAtLeast: 9200})
  })

  it('asks what gw made of refunds new to it only: the same record given again asks nothing', async () => {
    const asked: string[][] = []
    const ledger = new CardLedger(T0)
    const refund = approvedAt('R-1', 400, 1)
    const ask = async (ids: ReadonlySet<string>) => (asked.push([...ids]), new Map<string, MadeFor>())
    await ledger.add([refund, {...liveRefund, id: undefined}], ask)
    await ledger.add([refund], ask)
    await ledger.add([{...refund, message: 'Voided'}], ask)
    expect(asked).toEqual([['R-1'], ['R-1']])
    // Added without knowing what gw made: counted as one that may be its own.
    const blind = new CardLedger(T0)
    await blind.add([refund], undefined)
    expect(blind.decide(purchaseOf(1000), T0)).toMatchObject({possibleAmount: 400})
  })

  it('a refund that may be its own, read again voided, is dropped from those that may be: nothing else of it is held', async () => {
    const ledger = new CardLedger(T0)
    await ledger.add([approvedAt('R-1', 400, 1), approvedAt('R-2', 300, 2)], none)
    await ledger.add([approvedAt('R-1', 400, 1, {message: 'Voided', refunded: 'Voided'})], none)
    expect(ledger.decide(purchaseOf(1000), T0)).toMatchObject({possibleAmount: 300, leftAtLeast: 700})
  })

  it('a refund gw made for it, known by the reference it was asked by, counts as certain; read again as made for another, it counts for that one', async () => {
    const ledger = new CardLedger(T0)
    const byReference = new Map<string, MadeFor>([['R-1', {transactionId: String(livePurchase.reference), by: 'refund_create'}]])
    await ledger.add([approvedAt('R-1', 4000, 1)], async () => byReference)
    expect(ledger.decide(purchaseOf(5000), T0)).toMatchObject({refunded: 4000, certain: 1, left: 1000})
    const other = new Map<string, MadeFor>([['R-1', {transactionId: 'order-other', purchaseId: '071-P-OTHER', by: 'journal'}]])
    await ledger.add([approvedAt('R-1', 4000, 1, {rrn: 'again'})], async () => other)
    expect(ledger.decide(purchaseOf(5000), T0)).toMatchObject({refunded: 0, certain: 0, left: 5000, leftAtLeast: 5000})
  })

  it('a refund with no date, or on another card with the same last four digits, is none the purchase can have: not counted', async () => {
    const ledger = new CardLedger(T0)
    const ours = new Map<string, MadeFor>([['R-2', {transactionId: String(livePurchase.id), purchaseId: String(livePurchase.id), by: 'journal'}]])
    await ledger.add([approvedAt('R-1', 400, 1, {transaction_date: undefined}), approvedAt('R-2', 400, 2, {card_number: '411111XXXXXX2346'}), approvedAt('R-3', 400, 3, {card_number: '411111XXXXXX2346'})], async () => ours)
    expect(ledger.decide(purchaseOf(1000), T0)).toMatchObject({refunded: 0, certain: 0, left: 1000, leftAtLeast: 1000})
  })

  it('reads none of the refunds made before the purchase', async () => {
    const refunds = Array.from({length: 5000}, (_, n) => ({...liveRefund, id: `R-${n}`, amount: 1, transaction_date: at(n / 100)}))
    const ledger = new CardLedger(T0)
    await ledger.add(refunds, async () => new Map())
    let read = 0
    const purchase = new Proxy({...livePurchase, amount: 10_000, transaction_date: at(45)}, {get: (target, key) => (key === 'card_number' && read++, Reflect.get(target, key))})
    // The 500 refunds of 1.00 since minute 45 may be its own: each is read, and none before.
    expect(ledger.decide(purchase, T0 + 45 * 60_000)).toMatchObject({possibleAmount: 500})
    expect(read).toBeLessThan(600)
  })

  it('a refund with no amount it can count is passed over: the scan goes on to those it can', async () => {
    const ledger = new CardLedger(T0)
    await ledger.add([approvedAt('R-2', '12' as unknown as number, 2), approvedAt('R-1', 500, 1)], none)
    expect(ledger.decide(purchaseOf(1000), T0)).toMatchObject({possibleAmount: 500, leftAtLeast: 500})
  })

  it('a refund that may be no purchase’s, read again, takes nothing else with it', async () => {
    const ledger = new CardLedger(T0)
    await ledger.add([approvedAt('R-1', 500, 1), approvedAt('R-2', 300, 2, {successful: false, message: 'Declined'})], none)
    await ledger.add([approvedAt('R-2', 300, 2, {successful: false, message: 'Declined', rrn: 'again'})], none)
    expect(ledger.decide(purchaseOf(1000), T0)).toMatchObject({possibleAmount: 500})
  })

  it('a refund read again (voided since) replaces the one it held', async () => {
    const ledger = new CardLedger(T0)
    const made = new Map<string, MadeFor>([['R-1', {transactionId: String(livePurchase.id), purchaseId: String(livePurchase.id), by: 'journal'}]])
    const ask = async () => made
    const refund = {...liveRefund, id: 'R-1', amount: 10_000, transaction_date: at(5)}
    await ledger.add([refund], ask)
    const purchase = {...livePurchase, amount: 10_000, transaction_date: at(0)}
    expect(ledger.decide(purchase, T0).left).toBe(0)
    await ledger.add([{...refund, message: 'Voided', refunded: 'Voided'}], ask)
    expect(ledger.decide(purchase, T0).left).toBe(10_000)
  })
})
