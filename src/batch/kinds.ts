import type {PurchaseCreate} from '../api/schemas/purchase.js'
import type {RefundCreate} from '../api/schemas/refund.js'
import type {Deps, GwRecord} from '../operations/deps.js'
import {notLookedUpFirst, type Sent} from '../operations/money.js'
import type {Waiting} from '../money/window.js'
import {findEarlierPurchase, purchaseBody, sendPurchase, type PurchaseInput} from '../operations/purchases.js'
import {findEarlierRefund, refundBody, sendRefund, type RefundInput} from '../operations/refunds.js'
import {lookUp} from '../operations/look-up.js'
import {recordOf} from '../operations/resolve.js'
import {type FollowUpAction, GatewayError, GwError, InterruptedError, NotFoundError, NotSentError, RateLimitedError, type RecordNoun, ReferenceTakenError, RejectedError} from '../errors.js'
import type {RefundsOfRequest} from '../operations/purchase-refunds.js'
import {lookUpPurchase, refundable} from '../lists/refund-room.js'
import {madeRecords, type MadeRecordsPlace} from '../lists/refunds-of-purchase.js'
import {BatchRefunds, type RowHold} from '../lists/batch-refunds.js'
import {madeByMark} from './batch-name.js'
import {type DerivedReference, DerivedReferences} from './derived-references.js'
import {purchaseRows, refundRows, type RowSchema, type ValidRow} from './rows.js'

/**
 * How rows of one kind are sent, in terms of the operations: build the request (which may look
 * something up, a full refund's amount), send it once, or find what an earlier run sent under its
 * reference (a row left in doubt); both come back decided by the money module.
 */
export interface RowSender<Input, Body extends object> {
  noun: RecordNoun
  /** A follow-up's rows (a capture): what each does to the record its id names (rowWords). */
  action?: FollowUpAction
  /** `row`: the row's place among the batch's rows. */
  request(input: Input, row: number): Promise<Body>
  /** Whether request() asks the gateway (a full refund's amount), and so takes a request slot. */
  asksFirst(input: Input): boolean
  /** `onWait`: told when a lost answer's look-up waits for the gateway (a capture's; a purchase's or refund's recovery tells the client's own). */
  send(body: Body, options?: {onWait?: (waiting: Waiting | undefined) => void}): Promise<Sent>
  /**
   * What the gateway holds under the body's reference, decided; undefined when it holds nothing.
   * `answered`: the record an earlier run's answer gave, which its journal keeps (--verify), for a
   * kind the gateway finds by its id only (a direct debit).
   */
  findEarlier(body: Body, answered?: GwRecord): Promise<Sent | undefined>
  /** The row as the file asks for it, before anything is looked up: what an edited row is told apart by. */
  asked(input: Input): Record<string, unknown>
  money(body: Body, record?: GwRecord): {amount?: number; currency?: string}
  /** The money of a row that failed before its request was made (held to what is left, say), as far as it is known. */
  unsentMoney?(input: Input): {amount?: number; currency?: string}
}

/** One kind of batch: its command, its rows, and how a row runs through the operations. */
export interface BatchKind<Input, Body extends object> {
  noun: RecordNoun
  /** A follow-up's rows (a capture): what each does to the record its id names (rowWords). */
  action?: FollowUpAction
  commandId: string
  schema: RowSchema<Input>
  /**
   * How the same rows are made again as a batch of their own, said when a run finds them begun
   * under another journal; null where the gateway knows each row by what the file gives it (a
   * reference: the same rows are the same purchases). Absent: a journal of its own (--journal FILE).
   */
  anew?: string | null
  /** What a row would send, before anything is looked up: for --dry-run and the live confirmation. */
  preview(input: Input): Record<string, unknown> & {amount?: number; currency?: string}
  /**
   * For --dry-run: the reference the run would send for a row that gives none, derived as the run
   * derives it (looked up, nothing sent; none but `taken`, as the run's); undefined when gw cannot
   * tell (no profile, the purchase not found). None for kinds whose rows always give one.
   */
  dryReferences?(f: {deps(): Promise<Deps>}, taken: ReadonlySet<string>, batch: BatchAtGateway<Input>): Promise<(input: Input, row: number) => Promise<DerivedReference | undefined>>
  /**
   * For rows that may give no reference (a refund's is derived then): how many of those refund the
   * same purchase as a row, counted over the rows before any is sent (derived-references.ts).
   */
  alike?(rows: AsyncIterable<ValidRow<Input>>): Promise<(input: Input) => number>
  /**
   * For --dry-run: the currency of a row that names none, from the record it acts on (a refund's
   * or a capture's purchase), looked up once each; undefined when gw cannot tell.
   */
  dryCurrency?(f: {deps(): Promise<Deps>}): Promise<(input: Input) => Promise<string | undefined>>
  /**
   * `taken`: references a reference made for a row must not be (rows give them, or an earlier run
   * journaled them); `f`: where gw's records of refunds it made are, for what is left of a purchase;
   * `batch`: what the batch is at the gateway.
   */
  sender(deps: Pick<Deps, 'client'>, taken: Set<string>, f: MadeRecordsPlace, batch: BatchAtGateway<Input>): RowSender<Input, Body>
}

/** A batch at the gateway: its name (batch-name.ts), which a refund sent under a reference gw derived carries, and how many of its rows refund a row's purchase (BatchKind.alike; 1 where not counted). */
export interface BatchAtGateway<Input> {
  name: string
  alike(input: Input): number
}

/**
 * The currency of the purchase a row names (by id or reference), each purchase looked up once; a
 * look-up that fails leaves it untold, as a dry run sends nothing and stops for nothing but a signal.
 */
export async function purchaseCurrencies<Input>(f: {deps(): Promise<Deps>}, keyOf: (input: Input) => string): Promise<(input: Input) => Promise<string | undefined>> {
  const deps = await f.deps().catch((err: unknown) => (err instanceof GwError ? undefined : Promise.reject(err)))
  const found = new Map<string, Promise<string | undefined>>()
  const currencyOf = async (key: string) => {
    try {
      const {currency} = await lookUp('purchases', key, deps!)
      return typeof currency === 'string' ? currency : undefined
    } catch (err) {
      if (err instanceof GwError && !(err instanceof InterruptedError)) return undefined
      throw err
    }
  }
  return async (input) => {
    if (deps === undefined) return undefined
    const key = keyOf(input)
    if (!found.has(key)) found.set(key, currencyOf(key))
    return found.get(key)
  }
}

// No amount: the purchase's full amount, looked up when the row is sent.
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
  dryCurrency: (f) => purchaseCurrencies(f, (input) => input.transactionId),
  async dryReferences(f, taken, batch) {
    const deps = await f.deps().catch((err: unknown) => (err instanceof GwError ? undefined : Promise.reject(err)))
    const references = deps && new DerivedReferences(deps, batch.name, taken)
    return async (input, row) => {
      if (input.reference !== undefined || references === undefined) return undefined
      try {
        const purchase = await lookUp('purchases', input.transactionId, deps!)
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
    const references = new DerivedReferences(deps, batch.name, taken)
    // The cards' refunds, each walked once for the batch, kept right as its rows' refunds are made; and the rows in flight, by purchase.
    const batchRefunds = new BatchRefunds()
    const holds = new WeakMap<RefundCreate, RowHold>()
    // Which purchase gw made refunds for (and this batch, as it goes), read once the first row is held to what is left.
    let made: Promise<RefundsOfRequest['made']> | undefined
    // An approved refund of a row, made now or found made earlier: certain for its purchase in the rows after it.
    const seen = (body: RefundCreate, sent: Sent | undefined) => {
      if (sent?.decided.outcome === 'approved') batchRefunds.saw(sent.decided.record, body.transaction_id, purchases.get(body), {now: sent.decided.source !== 'earlier'})
      return sent
    }
    // Each row's purchase, as looked up: its money's currency where the gateway's answer says none, or where the row failed unsent.
    const purchases = new WeakMap<RefundInput | RefundCreate, GwRecord>()
    const bodyOf = async (input: RefundInput, row: number, purchase: GwRecord | undefined, amount: unknown, hold: RowHold): Promise<RefundCreate> => {
      // A reference given; or derived: the one an earlier run of this batch made the row's refund under (the gateway has the last word), or the first free.
      const derived = input.reference === undefined && typeof amount === 'number' ? await references.forRow(purchase!, row, amount, batch.alike(input)) : undefined
      const reference = derived?.reference ?? input.reference
      const given = {...input, purchase, reference, ...(derived ? {metadata: madeByMark(batch.name, row)} : {})}
      // As a single refund create: what is left is learned first, and a row asking more than is certainly left (in full: less than all) fails
      // unsent, exit 7; unless the row's own refund is at the gateway already, to be reported as made earlier (send). The walk of its refunds
      // is one request at a time: the row holds one of the batch's slots.
      const madeBefore = reference !== undefined && (derived ? derived.made : await held(reference, deps))
      if (!derived && reference !== undefined && !madeBefore) foundFree.add(reference)
      // Made already: counted as it is seen (send), not as in flight.
      if (madeBefore) hold.release()
      // A purchase not found (yet) is the gateway's to judge, unasked again. The rows before it in flight are counted before its refunds are read.
      const checked =
        madeBefore || purchase === undefined
          ? given
          : await refundable(given, {concurrency: 1, made: await (made ??= madeRecords(f, deps.client).then((disk) => batchRefunds.made(disk))), walks: batchRefunds.walks, inFlight: await hold.before()}, deps)
      const {body} = await refundBody(checked, deps, taken)
      if (purchase) purchases.set(body, purchase)
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
          const purchase = input.purchase ?? (input.reference === undefined ? await recordOf('purchases', input.transactionId, deps) : await lookUpPurchase(input, deps))
          if (purchase) purchases.set(input, purchase)
          const amount = input.amount ?? purchase?.amount
          if (purchase && typeof amount === 'number') hold.on(purchase, amount, {seenAfter: typeof purchase.refunded_amount === 'number'})
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

/** Whether the gateway holds a refund under the reference; a look-up that fails sends nothing, and says so. */
async function held(reference: string, {client}: Pick<Deps, 'client'>): Promise<boolean> {
  try {
    await client.refunds.get(reference)
    return true
  } catch (err) {
    if (err instanceof NotFoundError) return false
    throw err instanceof GatewayError ? notLookedUpFirst(reference, err) : err
  }
}

export const purchaseBatch: BatchKind<PurchaseInput, PurchaseCreate> = {
  noun: 'purchase',
  commandId: 'purchase create',
  schema: purchaseRows,
  anew: null,
  preview: (input) => purchaseBody(input),
  sender: (deps) => ({
    noun: 'purchase',
    request: async (input) => purchaseBody(input),
    asksFirst: () => false,
    // Looked up first: an earlier run of this batch, from any copy of its journal or none, may have made it (the gateway has the last word).
    send: (body) => sendPurchase(body, deps, {lookFirst: true}),
    findEarlier: (body) => findEarlierPurchase(body, deps),
    asked: (input) => purchaseBody(input),
    money: (body) => ({amount: body.amount, currency: body.currency}),
  }),
}
