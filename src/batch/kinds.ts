import type {PurchaseCreate} from '../api/schemas/purchase.js'
import type {Deps} from '../operations/deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import type {Sent} from '../operations/money.js'
import type {Waiting} from '../money/window.js'
import {findEarlierPurchase, purchaseBody, sendPurchase, type PurchaseInput} from '../operations/purchases.js'
import {lookUp} from '../operations/look-up.js'
import {type FollowUpAction, GwError, InterruptedError, type RecordNoun} from '../errors.js'
import type {MadeRecordsPlace} from '../lists/refunds-of-purchase.js'
import type {ExpectedReferences} from '../lists/guarded-index.js'
import type {DerivedReference} from './derived-references.js'
import type {Intent} from './journal-entries.js'
import {openBatch} from './read.js'
import {purchaseRows, type RowSchema, type Scan, type ValidRow, validRows} from './rows.js'

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

/** A dry run's reference for a row that gives none: the one the run would send, or why the run would refuse the row. */
export type DryReference = DerivedReference | {refused: GwError}

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
   * tell (no profile, the purchase not found); why, for a row the run would refuse unsent. None for
   * kinds whose rows always give one.
   */
  dryReferences?(f: {deps(): Promise<Deps>}, taken: ReadonlySet<string>, batch: BatchAtGateway<Input>): Promise<(input: Input, row: number) => Promise<DryReference | undefined>>
  /**
   * For rows that may give no reference (a refund's is derived then): how many of those refund the
   * same purchase as a row, counted over the rows before any is sent (derived-references.ts).
   */
  alike?(rows: AsyncIterable<ValidRow<Input>>): Promise<(input: Input) => number>
  /** The records the rows act on (a refund's purchase), by the names the rows give them, each once: read ahead in pages of a list, not one look-up a row. */
  named?(rows: AsyncIterable<ValidRow<Input>>): Promise<ReadonlySet<string>>
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
  /** The records the rows act on, by the names they give them (BatchKind.named): read ahead for them, in pages of a list. */
  named?: ReadonlySet<string>
  /** The references the rows give, in their order: a refund batch reads which of them gw's index holds at once. */
  references?: ExpectedReferences
  /** An earlier run's rows that this input no longer has (journal-state.ts setAside): a row naming one's record another way may be it. */
  setAside?: readonly Intent[]
}

/**
 * The batch at the gateway: its name, its rows that give no reference counted by purchase (read
 * again, when more than one gives none), the records its rows name, and the rows set aside.
 */
export async function atGateway<Input>(kind: BatchKind<Input, object>, name: string, path: string, scan: Scan<Input>, setAside: readonly Intent[]): Promise<BatchAtGateway<Input>> {
  const alike = scan.unreferenced > 1 ? await kind.alike?.(validRows(await openBatch(path), scan)) : undefined
  return {name, alike: alike ?? (() => 1), named: await kind.named?.(validRows(await openBatch(path), scan)), references: scan.references, setAside}
}

/** What a row asks for, as an earlier run journaled it: by which that run's reference is found for it (journaled-references.ts). */
export function askedOf<Input>(kind: BatchKind<Input, object>): (input: Input) => Record<string, unknown> {
  return (input) => kind.preview(input)
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
