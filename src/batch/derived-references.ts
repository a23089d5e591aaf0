import {NotFoundError, OutcomeUnknownError} from '../errors.js'
import {refundReference} from '../lists/refund-match.js'
import type {Deps} from '../operations/deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {MOST_REFUNDS, noFreeReference, refundBase} from '../operations/refunds.js'
import {madeBy} from './batch-name.js'

/** The reference a row that gives none is sent under: one its batch made at the gateway earlier (`made`), or the first free. */
export interface DerivedReference {
  reference: string
  /** An earlier run of this batch made this row's refund under it: from any copy of its journal, or from none. */
  made: boolean
}

/**
 * The references a batch derives for its refund rows that give none (`order-1001-R1`, then -R2...),
 * walked at the gateway (design.md §5: the gateway has the last word). Each candidate is asked about
 * once a run, the rows of one purchase sharing the answer. A refund found under one is held to what
 * its metadata says made it (batch-name.ts): this row of this batch is the row's own, made earlier;
 * another batch, another row or a person leaves it to them, and the row goes on to the next; a free
 * one goes to the first row that claims it. `taken`: references the batch's rows give, or its
 * journal has for its rows, which no other row is given.
 *
 * A row's own refund may lie past free references: an earlier run gave the row the first free one
 * then, past those its other rows of the purchase had claimed and never sent (a failure, a stop),
 * and those its journal then held for them. So a row claims a free reference only once it has seen
 * as many free ones as those could be, each other row of the purchase leaving at most two (one
 * claimed, one its journal held): none more for a purchase the batch refunds once.
 */
export class DerivedReferences {
  private readonly asked = new Map<string, Promise<GwRecord | undefined>>()
  private readonly claimed = new Set<string>()

  /** `held`: what the gateway holds under a reference made from the purchase's (undefined: nothing): asked of it (askedOf), or of gw's index of refunds. */
  constructor(
    private readonly held: (reference: string, purchase: GwRecord) => Promise<GwRecord | undefined>,
    private readonly batch: string,
    private readonly taken: ReadonlySet<string>,
  ) {}

  /** The reference for row `row`, refunding `amount` of `purchase`; `alike`: how many of the batch's rows without a reference refund that purchase, this one too. */
  async forRow(purchase: GwRecord, row: number, amount: number, alike: number): Promise<DerivedReference> {
    const base = refundBase(purchase)
    const free: string[] = []
    for (let n = 1; n <= MOST_REFUNDS; n++) {
      const reference = refundReference(base, n)
      if (this.taken.has(reference)) continue
      const found = await this.lookUp(reference, purchase)
      if (found === undefined) {
        free.push(reference)
        // Seen enough: the first free one no other row of this run claimed meanwhile is this row's (none: it walks on).
        const first = free.length >= 2 * alike - 1 ? free.find((each) => !this.claimed.has(each)) : undefined
        if (first === undefined) continue
        this.claimed.add(first)
        return {reference: first, made: false}
      }
      const maker = madeBy(found, this.batch, row)
      if (maker === 'this row') return {reference, made: true}
      if (maker === 'untold' && refundAmount(found) === amount) {
        throw new OutcomeUnknownError(
          `The gateway has refund ${reference} of this purchase, for the same amount, and its record does not say which batch made it (it shows no metadata): an earlier run of this batch may have made it, so nothing was sent`,
          {noun: 'refund', reference},
        )
      }
    }
    throw noFreeReference(base)
  }

  /** What the gateway holds under a reference (undefined: nothing), asked once a run. */
  private lookUp(reference: string, purchase: GwRecord): Promise<GwRecord | undefined> {
    let asked = this.asked.get(reference)
    if (!asked) {
      asked = this.held(reference, purchase)
      this.asked.set(reference, asked)
    }
    return asked
  }
}

/** What the gateway answers for a reference: its refund, or undefined for none. */
export function askedOf(reference: string, {client}: Pick<Deps, 'client'>): Promise<GwRecord | undefined> {
  return client.refunds.get(reference).catch((err: unknown) => (err instanceof NotFoundError ? undefined : Promise.reject(err)))
}

/** A refund record's amount, positive (the contract writes it negative, the live gateway positive). */
function refundAmount(record: GwRecord): number | undefined {
  return typeof record.amount === 'number' ? Math.abs(record.amount) : undefined
}
