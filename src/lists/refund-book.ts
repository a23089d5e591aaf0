import {GwError, InterruptedError, ModeMismatchError, NotFoundError} from '../errors.js'
import {inOrder} from '../lib/in-order.js'
import type {Deps} from '../operations/deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {isMaskedAtRest} from '../safety/at-rest.js'
import {runOf} from '../batch/instance.js'
import {journalTarget} from '../batch/journal-identity.js'
import {EARLIEST, fillIndex, type FillOptions} from './refund-index.js'
import {indexCard, type NamedPurchase, RefundIndexFile} from './refund-index-file.js'
import {MemoryIndex, type RefundIndexStore} from './refund-index-memory.js'
import {describeFailure, type ExpectedReferences, guarded, heldOf, IndexFailure} from './guarded-index.js'
import {recordInstant} from './window.js'
import {CardLedger, type Made} from './card-ledger.js'
import type {RefundedState} from './refund-match.js'

/** Where gw's index of refunds is kept, and for which gateway and merchant; told once when it cannot be used. */
export interface BookPlace {
  readonly dataDir: string
  target(): Promise<{baseUrl: string; username: string}>
  /** A warning's words (`renderWarning`'s message): what could not be done, and what that costs. */
  warn?(message: string): void
}

/**
 * A command's view of the merchant's refunds (design.md §5, costs that do not grow with history):
 * gw's index of them, brought up to date once a command and walked back as far as a purchase asks,
 * and the refunds the command made itself since (a batch's rows). Every purchase of the command on
 * one card reads the same refunds; the pages are read once, whoever asks first. Where the index
 * cannot be opened or written, the command walks the list into one of its own, saying so once.
 */
export class RefundBook {
  private store?: Promise<RefundIndexStore>
  private topped = false
  /** Since when the store holds every refund, as far as this command filled it. */
  private since = Infinity
  private filling: Promise<unknown> = Promise.resolve()
  private readonly added = new Map<string, GwRecord>()
  /** Those, by their reference. */
  private readonly addedUnder = new Map<string, GwRecord[]>()
  /** Each card's ledger, once a purchase on it was decided: the refunds the command saw since wait in `pending`. */
  private readonly ledgers = new Map<string, {ledger: CardLedger; pending: GwRecord[]; ready: Promise<void>}>()
  /** The purchases under references this command asked for or looked up, as they came (or are coming). */
  private readonly named = new Map<string, Promise<NamedPurchase | undefined>>()
  /** The records of each card read so far, newest first, and since when they are whole. */
  private readonly cards = new Map<string, {since: number; records: GwRecord[]}>()
  /** A batch's references (expect()), and those of them the index holds a refund under, once read: each walk's pages add theirs. */
  private expected?: {references: ExpectedReferences; held?: Set<string>}

  constructor(
    private readonly place: BookPlace,
    private readonly deps: Pick<Deps, 'client'>,
  ) {}

  /** The refunds on the purchase's card (its last four digits and holder: the matcher holds them to the rest) made at `since` or after, newest first. */
  async onCard(purchase: GwRecord, since: number | undefined, fill: Omit<FillOptions, 'topUp'>): Promise<GwRecord[]> {
    const from = since ?? EARLIEST
    const card = indexCard(purchase)
    let read = this.cards.get(card)
    if (!read || read.since > from) {
      read = {since: from, records: await this.read(from, fill, (store) => store.onCard(card, from))}
      this.cards.set(card, read)
    }
    // What the command saw itself is the newer word on a refund the index holds too (one read again, voided since).
    const seen = [...this.added.values()].filter((record) => indexCard(record) === card)
    const at = (record: GwRecord) => recordInstant(record.transaction_date) ?? -Infinity
    return [...seen, ...read.records.filter((record) => !this.added.has(record.id as string))].filter((record) => at(record) >= from).sort((a, b) => at(b) - at(a))
  }

  /**
   * The refunds the gateway holds under a reference, as far as the index holds every refund since
   * `since`; undefined when it cannot tell (a reference that holds a card number is kept masked).
   */
  async underReference(reference: string, since: number | undefined, fill: Omit<FillOptions, 'topUp'>): Promise<GwRecord[] | undefined> {
    if (isMaskedAtRest(reference)) return undefined
    const held = await this.read(since ?? EARLIEST, fill, (store) => this.heldUnder(store, reference))
    const seen = this.addedUnder.get(reference) ?? []
    return [...seen, ...held.filter((record) => !this.added.has(record.id as string))]
  }

  /**
   * The references a batch's rows give, each asked about by underReference once its row is sent:
   * which of them the index holds is read once, a few hundred a query, not in a query of each row's
   * own (a batch's rows give fresh references, which the index mostly holds none of).
   */
  expect(references: ExpectedReferences): void {
    this.expected = {references}
  }

  /** The refunds the store holds under a reference: none, unasked, for one of the batch's that it was found not to hold. */
  private heldUnder(store: RefundIndexStore, reference: string): GwRecord[] {
    const expected = this.expected
    if (expected?.references.has(reference)) {
      expected.held ??= heldOf(store, expected.references.keys())
      if (!expected.held.has(reference)) return []
    }
    return store.byReference(reference)
  }

  /** A refund this command made, found made, or read afresh: counted by the queries after it, over the index's copy, which the next walk puts right. */
  add(refund: GwRecord): void {
    if (typeof refund.id !== 'string') return
    const before = this.added.get(refund.id)
    this.added.set(refund.id, refund)
    // Under its reference, once: the newer word on it replaces the one seen before.
    const under = (reference: unknown) => (typeof reference === 'string' ? (this.addedUnder.get(reference) ?? []) : [])
    if (typeof before?.reference === 'string') this.addedUnder.set(before.reference, under(before.reference).filter((one) => one !== before))
    if (typeof refund.reference === 'string') this.addedUnder.set(refund.reference, [...under(refund.reference), refund])
    this.ledgers.get(indexCard(refund))?.pending.push(refund)
  }

  /** A refund the gateway changed at gw's hand (voided): kept so in the index too, which reads only newer pages after its first walk. */
  async keep(refund: GwRecord): Promise<void> {
    this.add(refund)
    const store = await this.opened()
    try {
      store.keep([refund])
    } catch (err) {
      this.failed(new IndexFailure(describeFailure(err)))
    }
  }

  /**
   * What is left of the purchase, decided from the refunds that decide it (lists/card-ledger.ts):
   * its card's refunds since `since` read once a command, each with what gw made it for (`made`).
   */
  async decide(purchase: GwRecord, since: number | undefined, made: Made | undefined, fill: Omit<FillOptions, 'topUp'>): Promise<RefundedState> {
    const from = since ?? EARLIEST
    const card = indexCard(purchase)
    let held = this.ledgers.get(card)
    if (!held || held.ledger.since > from) {
      const ledger = new CardLedger(from)
      const ready = this.onCard(purchase, from, fill).then((refunds) => ledger.add(refunds, made))
      held = {ledger, pending: [], ready}
      this.ledgers.set(card, held)
      // One that failed (a page not read) is made again by the next purchase on the card, not kept failed.
      ready.catch(() => this.ledgers.get(card)?.ready === ready && this.ledgers.delete(card))
    }
    await held.ready
    const pending = held.pending.splice(0)
    if (pending.length > 0) await held.ledger.add(pending, made)
    return held.ledger.decide(purchase, from)
  }

  /**
   * The purchases the gateway has under each reference (`wanted`: the newest refund that may be
   * theirs, by the reference it derives from), each asked of the gateway once and kept in the index:
   * a purchase made after a refund cannot be its own, so "none" holds for the refunds made before it
   * was asked. Those the command looked up itself (knowPurchase) are not asked again.
   */
  async purchasesNamed(wanted: ReadonlyMap<string, number>, concurrency: number): Promise<Map<string, GwRecord>> {
    const store = await this.opened()
    const fresh = (named: NamedPurchase | undefined, newest: number) => named !== undefined && (named.record !== null || newest < named.before)
    const unknown = [...wanted.keys()].filter((reference) => !this.named.has(reference))
    // A cache that cannot be read tells nothing: the gateway is asked.
    const kept = orElse(() => store.namedPurchases(unknown), new Map<string, NamedPurchase>())
    const before = (orElse(() => store.walked(), undefined)?.newest ?? EARLIEST) - (await this.deps.client.processingWindow())
    const asked = new Map<string, NamedPurchase>()
    const ask = async (reference: string): Promise<NamedPurchase | undefined> => {
      try {
        const named = {record: await this.deps.client.purchases.get(reference), before}
        asked.set(reference, named)
        return named
      } catch (err) {
        if (err instanceof NotFoundError) return asked.set(reference, {record: null, before}).get(reference)
        // Stopped, or talking to the wrong gateway: that is the answer. Anything else tells nothing, and is asked again next time.
        if (err instanceof InterruptedError || err instanceof ModeMismatchError || !(err instanceof GwError)) throw err
        this.named.delete(reference)
        return undefined
      }
    }
    const stale: string[] = []
    for (const [reference, newest] of wanted) {
      const held = this.named.get(reference)
      if (held) continue
      const named = kept.get(reference)
      if (fresh(named, newest)) this.named.set(reference, Promise.resolve(named))
      else stale.push(reference)
    }
    // Each asked once, whichever purchase asks first: the others wait for its answer.
    const asking = new Map(stale.map((reference) => [reference, answerLater<NamedPurchase | undefined>()]))
    for (const [reference, {answer}] of asking) this.named.set(reference, answer)
    for await (const _ of inOrder(stale[Symbol.iterator](), concurrency, (reference) => asking.get(reference)!.settle(ask(reference)))) void _
    // A cache not written is asked again next time: what was learned still serves this command.
    if (asked.size > 0) orElse(() => store.keepNamedPurchases(asked), undefined)
    const found = new Map<string, GwRecord>()
    for (const [reference, newest] of wanted) {
      const named = await this.named.get(reference)
      if (named?.record && fresh(named, newest)) found.set(reference, named.record)
    }
    return found
  }

  /** A purchase the command looked up itself: another purchase's refunds that derive from its reference need not ask for it. */
  knowPurchase(purchase: GwRecord): void {
    if (typeof purchase.reference === 'string' && !this.named.has(purchase.reference)) this.named.set(purchase.reference, Promise.resolve({record: purchase, before: EARLIEST}))
  }

  close(): void {
    void this.store?.then((store) => store.close()).catch(() => undefined)
  }

  /**
   * What `query` reads of the index once it holds every refund since `from`: brought up to date the
   * first time a command asks, walked back when a purchase asks further. A file that fails is left
   * for one in memory, filled the same way; the gateway's failures (and a stop) are the command's.
   */
  private read<T>(from: number, fill: Omit<FillOptions, 'topUp'>, query: (store: RefundIndexStore) => T): Promise<T> {
    const run = this.filling.then(async () => {
      const windowMs = () => this.deps.client.processingWindow()
      const store = await this.opened()
      try {
        // Brought up to date once, and held whole from `since` on: a batch's rows ask nothing more of it than its query.
        if (!this.topped || from < this.since) await fillIndex(guarded(store, this.noteKept), from, windowMs, {...fill, topUp: !this.topped}, this.deps)
        this.topped = true
        this.since = Math.min(this.since, from)
        return query(guarded(store))
      } catch (err) {
        if (!(err instanceof IndexFailure)) throw err
        const memory = this.failed(err)
        await fillIndex(guarded(memory, this.noteKept), from, windowMs, {...fill, topUp: false}, this.deps)
        this.topped = true
        this.since = from
        return query(memory)
      }
    })
    this.filling = run.catch(() => undefined)
    return run
  }

  private opened(): Promise<RefundIndexStore> {
    this.store ??= (async () => {
      const {baseUrl, username} = await this.place.target()
      try {
        // A local gateway's data: its run, which its changes since leave the same (a reset, or a copy of its file, is another).
        const instance = this.deps.client.gatewayInstance
        return RefundIndexFile.open(this.place.dataDir, journalTarget(baseUrl, username), instance === undefined ? undefined : runOf(instance))
      } catch (err) {
        return this.failed(new IndexFailure(describeFailure(err)))
      }
    })()
    return this.store
  }

  /** A walk's page kept: the batch's references it holds, once the index was read for them (expect()), are held now. */
  private readonly noteKept = (records: readonly GwRecord[]): void => {
    const {references, held} = this.expected ?? {}
    for (const {reference} of records) if (typeof reference === 'string' && references?.has(reference)) held?.add(reference)
  }

  /** The file cannot be used: the rest of the command keeps an index in memory, and says so once. */
  private failed(err: Error): RefundIndexStore {
    const memory = new MemoryIndex()
    this.store = Promise.resolve(memory)
    this.cards.clear()
    // Read again from the one in memory, as its walk fills it.
    if (this.expected) this.expected.held = undefined
    this.place.warn?.(`gw could not use its index of refunds (${err.message}): it reads them from the gateway for this command, which takes more requests.`)
    return memory
  }
}

/** An answer promised now and settled later by `settle`, which hands back what it was given. */
function answerLater<T>(): {answer: Promise<T>; settle(given: Promise<T>): Promise<T>} {
  let settle!: (given: Promise<T>) => void
  const answer = new Promise<T>((resolve) => (settle = resolve))
  // A failure is its asker's to report; the others waiting on it see it too, and none is left unhandled.
  answer.catch(() => undefined)
  return {answer, settle: (given) => (settle(given), given)}
}

function orElse<T>(read: () => T, otherwise: T): T {
  try {
    return read()
  } catch {
    return otherwise
  }
}
