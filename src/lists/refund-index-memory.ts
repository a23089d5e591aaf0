import {indexCard, type NamedPurchase, type RefundIndexFile, type Walked} from './refund-index-file.js'
import {recordInstant} from './window.js'
import type {GwRecord} from '../api/schemas/record.js'

/** What gw asks of an index of refunds: its file, or, where the file cannot be used, one held in memory for the command alone. */
export type RefundIndexStore = Pick<RefundIndexFile, 'walked' | 'ranks' | 'keep' | 'cover' | 'onCard' | 'byReference' | 'heldReferences' | 'namedPurchases' | 'keepNamedPurchases' | 'close'>

/**
 * An index held by one command, where gw's file cannot be opened or written (a full disk, a data
 * folder it may not write): the same walks fill it, and it is gone when the command ends.
 */
export class MemoryIndex implements RefundIndexStore {
  private readonly refunds = new Map<string, {record: GwRecord; rank: number}>()
  private readonly named = new Map<string, NamedPurchase>()
  private span?: Walked

  walked(): Walked | undefined {
    return this.span && {...this.span}
  }

  ranks(): {top: number; bottom: number} | undefined {
    const ranks = [...this.refunds.values()].map(({rank}) => rank)
    return ranks.length === 0 ? undefined : {top: Math.max(...ranks), bottom: Math.min(...ranks)}
  }

  keep(records: readonly GwRecord[], walked?: Walked, rank = 0): void {
    for (const [index, record] of records.entries()) {
      if (typeof record.id === 'string') this.refunds.set(record.id, {record, rank: this.refunds.get(record.id)?.rank ?? rank - index})
    }
    if (walked) this.span = {...walked}
  }

  cover(walked: Walked): void {
    this.span = {...walked}
  }

  onCard(card: string, since: number): GwRecord[] {
    const at = (record: GwRecord) => recordInstant(record.transaction_date) ?? -Infinity
    const held = [...this.refunds.values()].filter(({record}) => indexCard(record) === card && at(record) >= since)
    return held.sort((a, b) => at(b.record) - at(a.record) || b.rank - a.rank).map(({record}) => record)
  }

  byReference(reference: string): GwRecord[] {
    return [...this.refunds.values()].map(({record}) => record).filter((record) => record.reference === reference)
  }

  heldReferences(references: readonly string[]): string[] {
    const wanted = new Set(references)
    return [...new Set([...this.refunds.values()].map(({record}) => record.reference).filter((reference): reference is string => typeof reference === 'string' && wanted.has(reference)))]
  }

  namedPurchases(references: readonly string[]): Map<string, NamedPurchase> {
    return new Map(references.flatMap((reference) => (this.named.has(reference) ? [[reference, this.named.get(reference)!] as const] : [])))
  }

  keepNamedPurchases(named: ReadonlyMap<string, NamedPurchase>): void {
    for (const [reference, purchase] of named) this.named.set(reference, purchase)
  }

  close(): void {}
}
