import type {QueuedDelivery} from './delivery-queue.js'
import type {AnyRecord, Collection, DatedCollection} from './collections.js'

/** The expiry notices a card has had, so each is sent once. */
export type CardNotice = 'card:expiring' | 'card:expired'

/**
 * One change to the state, as the journal writes it. Every change goes through `Store.apply`, so
 * replaying the journal rebuilds the state (and the indexes) that answered requests: exactly, but
 * for card numbers inside text, which the file holds masked (storable.ts).
 */
export type Change =
  /** `nameHash`: the keyed hash the record is found by, when its name holds a card number (storable.ts keyedName). */
  | {op: 'put'; collection: Collection; merchant: string; record: AnyRecord; nameHash?: string}
  | {op: 'remove'; collection: Collection; merchant: string; key: string}
  /** A record put again with another date (a fixture dated in the past), filed among the others by it. */
  | {op: 'dated'; collection: DatedCollection; merchant: string; record: AnyRecord}
  | {op: 'today'; date: string}
  | {op: 'notice'; key: string; notices: CardNotice[]}
  | {op: 'enqueue'; delivery: QueuedDelivery}
  | {op: 'attempted'; id: string; attempts: number; last_error: string | null}
  | {op: 'dequeue'; id: string}
  /** The key names are hashed with, made when the first name that holds a card number is saved. */
  | {op: 'nameSecret'; secret: string}
  /** `instance`: the name of the data from then on. */
  | {op: 'reset'; instance: string}

/** The changes made since the last `take`, and how to take each back, latest last. */
export interface Batch {
  changes: Change[]
  undo: (() => void)[]
}

/**
 * The changes the journal has not yet taken. The journal saves a batch before the requests that
 * made it are answered; a batch it could not save is taken back whole, so nothing is answered
 * that a restart would lose.
 */
export class ChangeLog {
  private batch: Batch = {changes: [], undo: []}
  /** While replaying a journal, changes are not recorded again. */
  private recording = true

  record(change: Change, undo: () => void): void {
    if (!this.recording) return
    this.batch.changes.push(change)
    this.batch.undo.push(undo)
  }

  /** The changes since the last call, for the journal; a new batch starts. */
  take(): Batch {
    const taken = this.batch
    this.batch = {changes: [], undo: []}
    return taken
  }

  /** Takes back a batch's changes, latest first. */
  revert(batch: Batch): void {
    this.unrecorded(() => {
      for (const undo of [...batch.undo].reverse()) undo()
    })
  }

  /** Runs `make`, whose changes are not recorded: they come from the journal, or take back what it could not save. */
  unrecorded(make: () => void): void {
    this.recording = false
    try {
      make()
    } finally {
      this.recording = true
    }
  }
}
