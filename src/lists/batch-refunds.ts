import type {GwRecord} from '../api/schemas/record.js'
import type {RefundsOfRequest} from '../operations/purchase-refunds.js'
import type {RefundBook} from './refund-book.js'
import type {MadeFor} from './refund-match.js'

type Made = NonNullable<RefundsOfRequest['made']>

/**
 * A row's claim on its purchase, from the moment it is asked until its refund is decided: counted
 * by the rows asked after it that refund the same purchase.
 */
export interface RowHold {
  /**
   * Its purchase is known (looked up): it holds `amount` of it. `seenAfter`: counts the refunds of it
   * seen since it was asked (or since `seenSince`, seenCount() when its purchase was asked for), as before() says.
   */
  on(purchase: GwRecord, amount: number, options?: {seenAfter?: boolean; seenSince?: number}): void
  /**
   * What the rows asked before it may refund of its purchase: those still in flight and, with
   * `seenAfter`, the refunds of it this batch saw made since it was asked (its purchase's record,
   * the gateway's own figure, read before them, may lack them). Once every row asked before it
   * knows its purchase: one asked first may be looked up last.
   */
  before(): Promise<number>
  /** Decided, failed, or made already: no longer in flight (a refund it made is counted by saw()). */
  release(): void
}

/**
 * What a refund batch learns of its purchases' refunds as it goes, so that every row is held to
 * what is left after the rows before it, from the merchant's refunds as gw's index has them, read
 * once for the batch (`book`):
 * - saw(): a refund the batch saw made (approved now, or found done by an earlier run), added to
 *   the book (once, by its id) and to what gw says it made (made()), so that it counts as certain
 *   for its purchase in every later row;
 * - row(): the rows in flight, whose refunds are not made yet: a row counts those of its
 *   purchase asked before it as refunded, so two rows in flight together never both pass a hold
 *   that only one of them fits.
 */
export class BatchRefunds {
  constructor(readonly book: RefundBook) {}

  /** The refunds seen, in the order they were seen (never let go): a row counts those seen since it was asked. */
  private readonly seen = new Map<string, {madeFor: MadeFor; purchase?: string; amount: number}>()
  /** The rows asked and not yet let go, by the order they were asked in: their purchase once known. */
  private readonly rows = new Map<number, {known: Promise<void>; key?: string; amount: number}>()
  /** Rows asked so far: what a row's `before` compares. */
  private count = 0

  /**
   * What gw recorded making (its journals and records on disk), and what this batch saw made: the
   * disk's word first, where it was asked before the batch saw the refund. The disk is asked once a refund, for the whole batch: every row on a card
   * asks of the same refunds, and reading gw's journals for each row again grew with the rows twice over.
   */
  made(recorded: Made): Made {
    // Each refund asked, by the read that answers it.
    const disk = new Map<string, Promise<ReadonlyMap<string, MadeFor>>>()
    return async (ids) => {
      // A refund this batch saw made is its own: the disk is not asked of it.
      const unasked = new Set([...ids].filter((id) => !disk.has(id) && !this.seen.has(id)))
      if (unasked.size > 0) {
        // A read that fails fails this row, and is asked again by the next.
        const answer = recorded(unasked).catch((err: unknown) => (unasked.forEach((id) => disk.delete(id)), Promise.reject(err)))
        for (const id of unasked) disk.set(id, answer)
      }
      const reads = await Promise.all(new Set([...ids].flatMap((id) => disk.get(id) ?? [])))
      const made = new Map<string, MadeFor>()
      for (const id of ids) {
        const found = reads.find((read) => read.has(id))?.get(id) ?? this.seen.get(id)?.madeFor
        if (found) made.set(id, found)
      }
      return made
    }
  }

  /** How many refunds the batch has seen made so far: a purchase looked up now lacks those seen after. */
  seenCount(): number {
    return this.seen.size
  }

  /** A row asked, before its purchase is looked up: its hold, counted by the rows asked after it. */
  row(): RowHold {
    const order = this.count++
    // The refunds seen before it was asked: those after them in `seen` were seen since.
    const seenBefore = this.seen.size
    let known = () => {}
    const row: {known: Promise<void>; key?: string; amount: number} = {known: new Promise<void>((resolve) => (known = resolve)), amount: 0}
    this.rows.set(order, row)
    let seenAfter = false
    let seenFrom = seenBefore
    return {
      on: (purchase, amount, options = {}) => {
        row.key = purchaseKey(purchase)
        row.amount = amount
        seenAfter = options.seenAfter ?? false
        seenFrom = Math.min(seenBefore, options.seenSince ?? seenBefore)
        known()
      },
      before: async () => {
        const earlier = () => [...this.rows].filter(([other]) => other < order).map(([, other]) => other)
        await Promise.all(earlier().map((other) => other.known))
        const inFlight = earlier().filter((other) => other.key === row.key).reduce((sum, other) => sum + other.amount, 0)
        const seen = seenAfter ? [...this.seen.values()].slice(seenFrom).filter((made) => made.purchase === row.key).reduce((sum, made) => sum + made.amount, 0) : 0
        return inFlight + seen
      },
      release: () => {
        this.rows.delete(order)
        known()
      },
    }
  }

  /**
   * An approved refund the batch saw made for the purchase (as the request named it, `transactionId`): certain for it from now on.
   * `now`: made by this run, not found made by an earlier one (which any look-up of its purchase since holds).
   */
  saw(refund: GwRecord, transactionId: string, purchase: GwRecord | undefined, {now = true} = {}): void {
    if (typeof refund.id !== 'string' || this.seen.has(refund.id)) return
    const madeFor: MadeFor = {transactionId, ...named('purchaseId', purchase?.id), ...named('purchaseReference', purchase?.reference), by: 'journal'}
    const amount = typeof refund.amount === 'number' ? Math.abs(refund.amount) : 0
    this.seen.set(refund.id, {madeFor, purchase: purchase && now ? purchaseKey(purchase) : undefined, amount})
    this.book.add(refund)
  }
}

const purchaseKey = (purchase: GwRecord) => String(purchase.id ?? purchase.reference)
const named = (key: 'purchaseId' | 'purchaseReference', value: unknown) => (typeof value === 'string' ? {[key]: value} : {})
