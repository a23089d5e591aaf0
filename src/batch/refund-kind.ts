import type {RefundCreate} from '../api/schemas/refund.js'
import type {Deps} from '../operations/deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {notLookedUpFirst, type Sent} from '../operations/money.js'
import {findEarlierRefund, refundBody, sendRefund, type RefundInput} from '../operations/refunds.js'
import {lookUp} from '../operations/look-up.js'
import {recordOf} from '../operations/resolve.js'
import {GatewayError, GwError, InterruptedError, NotFoundError, NotSentError, RateLimitedError, ReferenceTakenError, RejectedError, UsageError} from '../errors.js'
import {DEFAULT_CONCURRENCY} from '../operations/deps.js'
import type {RefundBook} from '../lists/refund-book.js'
import {recordInstant} from '../lists/window.js'
import type {RefundsOfRequest} from '../operations/purchase-refunds.js'
import {refundable} from '../lists/refund-room.js'
import {derivationBase, derivedFrom} from '../lists/refund-match.js'
import {madeRecords, refundBook} from '../lists/refunds-of-purchase.js'
import {BatchRefunds, type RowHold} from '../lists/batch-refunds.js'
import {madeByMark} from './batch-name.js'
import {askedOf, DerivedReferences} from './derived-references.js'
import {MOST_NAMED, purchasesFromPages} from './purchase-pages.js'
import type {Intent} from './journal-entries.js'
import {type BatchKind, purchaseCurrencies} from './kinds.js'
import {refundRows} from './rows.js'

const refundAsked = (input: RefundInput) => ({transaction_id: input.transactionId, amount: input.amount, reference: input.reference})

export const refundBatch: BatchKind<RefundInput, RefundCreate> = {
  noun: 'refund',
  commandId: 'refund create',
  schema: refundRows,
  anew: 'To refund these rows again as a new batch, give it --new-batch and a journal of its own (--journal FILE).',
  preview: refundAsked,
  async alike(rows) {
    const count = new Map<string, number>()
    for await (const {input} of rows) if (input.reference === undefined) count.set(input.transactionId, (count.get(input.transactionId) ?? 0) + 1)
    return (input) => count.get(input.transactionId) ?? 1
  },
  async named(rows) {
    const names = new Set<string>()
    for await (const {input} of rows) if (names.size < MOST_NAMED) names.add(input.transactionId)
    return names
  },
  dryCurrency: (f) => purchaseCurrencies(f, (input) => input.transactionId),
  async dryReferences(f, taken, batch) {
    const deps = await f.deps().catch((err: unknown) => (err instanceof GwError ? undefined : Promise.reject(err)))
    const references = deps && new DerivedReferences((reference) => askedOf(reference, deps), batch.name, taken)
    const setAside = setAsideByPurchase(batch.setAside)
    return async (input, row) => {
      if (input.reference !== undefined || references === undefined) return undefined
      try {
        const purchase = await lookUp('purchases', input.transactionId, deps!)
        // Refused as the run would refuse it.
        const refused = setAsideRefusal(setAside, purchase, input.transactionId)
        if (refused) return {refused}
        const amount = input.amount ?? purchase.amount
        return typeof amount === 'number' ? await references.forRow(purchase, row, amount, batch.alike(input)) : undefined
      } catch (err) {
        // Stopped is stopped; any other failure of a look-up leaves the reference untold, as the run would find it then.
        if (err instanceof GwError && !(err instanceof InterruptedError)) return undefined
        throw err
      }
    }
  },
  sender: (deps, taken, f, batch) => {
    // References derived by this run and found free a moment before: sent without a look-up, and one the gateway says is taken was taken meanwhile.
    const fresh = new Set<string>()
    // References rows give, found free a moment before (held): sent without a second look-up; one the gateway says is taken is looked up then.
    const foundFree = new Set<string>()
    // The merchant's refunds as gw's index has them, read once for the batch and kept right as its rows' refunds are made; and the rows in flight, by purchase.
    const batchRefunds = new BatchRefunds(refundBook(f, deps.client))
    const book = batchRefunds.book
    if (batch.references) book.expect(batch.references)
    const references = new DerivedReferences(async (reference, purchase) => (await heldSince(book, reference, purchase, deps))?.[0], batch.name, taken)
    const setAside = setAsideByPurchase(batch.setAside)
    // Each purchase the rows name, looked up once for all of them (design.md §5: a batch tends to one request a row).
    const purchaseOf = purchaseLookUps(deps, batchRefunds, batch.named)
    const holds = new WeakMap<RefundCreate, RowHold>()
    // Which purchase gw made refunds for (and this batch, as it goes), read once the first row is held to what is left.
    let made: Promise<RefundsOfRequest['made']> | undefined
    // An approved refund of a row, made now or found made earlier: certain for its purchase in the rows after it.
    const seen = (body: RefundCreate, sent: Sent | undefined) => {
      if (sent?.decided.outcome === 'approved') batchRefunds.saw(sent.decided.record, body.transaction_id, purchases.get(body), {now: sent.decided.source !== 'earlier'})
      return sent
    }
    // Each row's purchase, as looked up: its money's currency where the gateway's answer says none, or where the row failed unsent.
    const purchases = new WeakMap<RefundInput | RefundCreate, GwRecord | undefined>()
    const bodyOf = async (input: RefundInput, row: number, purchase: GwRecord | undefined, amount: unknown, hold: RowHold): Promise<RefundCreate> => {
      const refused = input.reference === undefined && purchase ? setAsideRefusal(setAside, purchase, input.transactionId) : undefined
      if (refused) throw refused
      // A reference given; or derived: the one an earlier run of this batch made the row's refund under (the gateway has the last word), or the first free.
      const derived = input.reference === undefined && typeof amount === 'number' ? await references.forRow(purchase!, row, amount, batch.alike(input)) : undefined
      const reference = derived?.reference ?? input.reference
      const given = {...input, purchase, reference, ...(derived ? {metadata: madeByMark(batch.name, row)} : {})}
      // As a single refund create: what is left is learned first, and a row asking more than is certainly left (in full: less than all) fails
      // unsent, exit 7; unless the row's own refund is at the gateway already, to be reported as made earlier (send). The walk of its refunds
      // is one request at a time: the row holds one of the batch's slots.
      const madeBefore = reference !== undefined && (derived ? derived.made : await held(reference, purchase, book, deps))
      if (!derived && reference !== undefined && !madeBefore) foundFree.add(reference)
      // Made already: counted as it is seen (send), not as in flight.
      if (madeBefore) hold.release()
      // A purchase not found (yet) is the gateway's to judge, unasked again. The rows before it in flight are counted before its refunds are read.
      const checked =
        madeBefore || purchase === undefined
          ? given
          : await refundable(given, {concurrency: 1, made: await (made ??= madeRecords(f, deps.client).then((disk) => batchRefunds.made(disk))), book: batchRefunds.book, inFlight: await hold.before()}, deps)
      const {body} = await refundBody(checked, deps, taken)
      purchases.set(body, purchase)
      if (derived) {
        if (!derived.made) fresh.add(body.reference)
        // The row's reference from now on (rows.ts): its journal entries and its line name it.
        input.reference = body.reference
      }
      return body
    }
    return {
      noun: 'refund',
      async request(input, row) {
        // Its claim on its purchase, counted by the rows of it asked after it, until its refund is decided (send).
        const hold = batchRefunds.row()
        try {
          // Looked up for what is left of it; with an amount and a reference given, one not found yet is the gateway's to judge (refundable).
          const {found: purchase, missing, seen} = input.purchase ? {found: input.purchase, seen: undefined} : await purchaseOf(input.transactionId)
          if (missing && (input.reference === undefined || input.amount === undefined)) throw missing
          purchases.set(input, purchase)
          const amount = input.amount ?? purchase?.amount
          // The gateway's own figure was read before the refunds of it this batch saw since.
          if (purchase && typeof amount === 'number') hold.on(purchase, amount, {seenAfter: typeof purchase.refunded_amount === 'number', seenSince: seen})
          else hold.release()
          const body = await bodyOf(input, row, purchase, amount, hold)
          holds.set(body, hold)
          return body
        } catch (err) {
          hold.release()
          throw err
        }
      },
      // What is left of the purchase (and with it a full refund's amount and a derived reference) is looked up first.
      asksFirst: () => true,
      // Any reference but one found free a moment before is looked up first: an earlier run of this batch, from any copy of its journal or none, may have made it.
      // Decided, its hold is let go (an approved refund is seen first); in doubt, it stays: the rows after it count it as made.
      send: async (body) => {
        const release = () => holds.get(body)?.release()
        try {
          const sent = seen(body, await sendRefund({body, purchase: purchases.get(body), derived: fresh.has(body.reference)}, deps, {lookFirst: !fresh.has(body.reference) && !foundFree.has(body.reference)}))!
          if (sent.decided.outcome !== 'unknown') release()
          return sent
        } catch (err) {
          if (err instanceof NotSentError || err instanceof RejectedError || err instanceof ReferenceTakenError || err instanceof RateLimitedError) release()
          throw err
        }
      },
      findEarlier: async (body) => seen(body, await findEarlierRefund({body}, deps)),
      asked: refundAsked,
      money: (body, record) => ({amount: body.amount, currency: currencyOf(record) ?? currencyOf(purchases.get(body))}),
      // A row failed before its request was made: the amount it asked (a full refund's, its purchase's), in its purchase's currency where the purchase was found.
      unsentMoney: (input) => {
        const purchase = purchases.get(input)
        return {amount: input.amount ?? (typeof purchase?.amount === 'number' ? purchase.amount : undefined), currency: currencyOf(purchase)}
      },
    }
  },
}

const currencyOf = (record: GwRecord | undefined) => (typeof record?.currency === 'string' ? record.currency : undefined)

/** The refunds an earlier run sent from rows this input no longer has, under references it derived, by what those derive from (the purchase's reference, else its id). */
function setAsideByPurchase(intents: readonly Intent[] | undefined): Map<string, Intent[]> {
  const byPurchase = new Map<string, Intent[]>()
  for (const intent of intents ?? []) {
    const base = derivedFrom(intent.intent)
    if (base !== undefined) byPurchase.set(base, [...(byPurchase.get(base) ?? []), intent])
  }
  return byPurchase
}

/**
 * A row that gives no reference, of a purchase an earlier run refunded from a row this input no
 * longer has: that row, named another way (its id, its reference), maybe. It is refused unsent, as
 * an edited row is; each such refund refuses one row, and the rows after it are new refunds.
 */
function setAsideRefusal(setAside: Map<string, Intent[]>, purchase: GwRecord, named: string): UsageError | undefined {
  const base = derivationBase(purchase)
  const intent = base === undefined ? undefined : setAside.get(base)?.shift()
  if (intent === undefined) return undefined
  const then = String((intent.asked ?? intent.request).transaction_id)
  return new UsageError(
    `Purchase ${named} is the one an earlier run of this batch sent refund ${intent.intent} of, from line ${intent.line}, where it was named ${then}: this row may be that one, so it was not sent`,
    `To finish that row, name the purchase ${then} as line ${intent.line} did. To make another refund of it, give this row a reference of its own.`,
  )
}

/**
 * The refunds under a reference that the rows' purchase may have, from gw's index (every refund
 * since the purchase, brought up to date for the batch); asked of the gateway where the index
 * cannot tell (no purchase found, a reference that holds a card number).
 */
async function heldSince(book: RefundBook, reference: string, purchase: GwRecord | undefined, deps: Pick<Deps, 'client'>): Promise<GwRecord[]> {
  const since = purchase && recordInstant(purchase.transaction_date)
  const indexed = since === undefined ? undefined : await book.underReference(reference, since, {concurrency: DEFAULT_CONCURRENCY})
  if (indexed) return indexed
  const asked = await askedOf(reference, deps)
  return asked ? [asked] : []
}

/** Whether the gateway holds a refund under the reference; a look-up that fails sends nothing, and says so. */
async function held(reference: string, purchase: GwRecord | undefined, book: RefundBook, deps: Pick<Deps, 'client'>): Promise<boolean> {
  try {
    return (await heldSince(book, reference, purchase, deps)).length > 0
  } catch (err) {
    throw err instanceof GatewayError ? notLookedUpFirst(reference, err) : err
  }
}

/** A purchase a row names, as looked up, or the miss; `seen`: how many refunds the batch had seen made when it was asked for. */
interface PurchaseLookUp {
  found?: GwRecord
  missing?: NotFoundError
  seen?: number
}

/**
 * Each purchase the rows name (by id or reference) found once, the rows of one purchase sharing
 * the answer: in the pages of the purchases list read ahead for them (`named`), else looked up; a
 * miss too, which the rows judge each as they ask (a reference and an amount given: the gateway's
 * to judge). A look-up that fails otherwise fails its row, and is asked again by the next.
 */
function purchaseLookUps(deps: Pick<Deps, 'client'>, batch: BatchRefunds, named: ReadonlySet<string> | undefined): (key: string) => Promise<PurchaseLookUp> {
  const asked = new Map<string, Promise<PurchaseLookUp>>()
  const paged = named && purchasesFromPages(named, deps)
  return (key) => {
    let answer = asked.get(key)
    if (!answer) {
      const seen = batch.seenCount()
      answer = (async () => (await paged?.(key)) ?? recordOf('purchases', key, deps))().then(
        (found): PurchaseLookUp => (batch.book.knowPurchase(found), {found, seen}),
        (err: unknown) => (err instanceof NotFoundError ? {missing: err, seen} : Promise.reject(err)),
      )
      asked.set(key, answer)
      answer.catch(() => asked.delete(key))
    }
    return answer
  }
}
