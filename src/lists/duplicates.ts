import type {ListOrder} from '../api/list-order.js'
import {madeAt} from '../api/list-order.js'
import type {GwRecord} from '../api/schemas/record.js'

/** Likely one charge made more than once: purchases with one key, each close after the one before, in the order read. */
export interface DuplicateGroup {
  records: GwRecord[]
}

/**
 * What two charges share when one is likely the other made again: the card (its masked number, as
 * the gateway shows it), the amount and the currency. None for a record without a card number or
 * an amount, which cannot be told apart from another.
 */
export function chargeKey(record: GwRecord): string | undefined {
  const number = typeof record.card_number === 'string' || typeof record.card_number === 'number' ? String(record.card_number).replace(/[\s-]/g, '') : ''
  if (!/\d{4}$/.test(number) || typeof record.amount !== 'number') return undefined
  const currency = typeof record.currency === 'string' ? record.currency.trim().toUpperCase() : ''
  // A mask is written with X, * or •: one card whichever the gateway used.
  return `${number.replace(/\D/g, '*')} ${Math.abs(record.amount)} ${currency}`
}

interface Chain {
  records: GwRecord[]
  /** When the record added last was made. */
  last: number
  closed: boolean
}

/**
 * Groups likely duplicate charges as a list's records arrive, in the order they are read (newest or
 * oldest first): records of one key (chargeKey) each at most `withinMs` from the one before are a
 * group. A group is handed over once no record still to come can join it, in the order its first
 * record was read, so only the charges of the last `withinMs` are held, however long the list.
 * Records without a date or a key join none.
 */
export class DuplicateFinder {
  private readonly open = new Map<string, Chain>()
  /** Every chain not yet handed over, in the order its first record was read. */
  private readonly queue: Chain[] = []
  /** The time of the record read last, as far as the reading has come. */
  private frontier: number | undefined

  constructor(
    private readonly withinMs: number,
    private readonly order: ListOrder,
  ) {}

  /** Takes records as they are read; returns the groups no later record can join. */
  add(records: readonly GwRecord[]): DuplicateGroup[] {
    for (const record of records) {
      const time = madeAt(record)
      const key = chargeKey(record)
      if (time === undefined || key === undefined) continue
      this.frontier = this.frontier === undefined ? time : this.order === 'newest' ? Math.min(this.frontier, time) : Math.max(this.frontier, time)
      const chain = this.open.get(key)
      if (chain && Math.abs(time - chain.last) <= this.withinMs) {
        chain.records.push(record)
        chain.last = time
        continue
      }
      if (chain) chain.closed = true
      const started: Chain = {records: [record], last: time, closed: false}
      this.open.set(key, started)
      this.queue.push(started)
    }
    // Chains the reading has left more than withinMs behind: no record still to come is close enough.
    for (const [key, chain] of this.open) {
      if (Math.abs((this.frontier ?? chain.last) - chain.last) <= this.withinMs) continue
      chain.closed = true
      this.open.delete(key)
    }
    return this.handOver(false)
  }

  /** The list has ended: every group left. */
  end(): DuplicateGroup[] {
    this.open.clear()
    return this.handOver(true)
  }

  private handOver(all: boolean): DuplicateGroup[] {
    const groups: DuplicateGroup[] = []
    while (this.queue.length > 0 && (all || this.queue[0]!.closed)) {
      const {records} = this.queue.shift()!
      if (records.length > 1) groups.push({records})
    }
    return groups
  }
}
