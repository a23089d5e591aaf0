import type {FollowUpAction, RecordNoun} from '../errors.js'

/** What messages call a batch's rows, and what names each: a purchase by its reference; a capture, its authorization's id. */
export interface RowWords {
  /** `purchase`, `refund`, `payment plan`, `capture`. */
  row: string
  key: 'reference' | 'id'
  action?: FollowUpAction
  /** What a row that gives no amount does (--dry-run's totals). */
  inFull: string
  /** When a row left in doubt is sent after all (--dry-run). */
  sentUnless: string
}

export function rowWords({noun, action}: {noun: RecordNoun; action?: FollowUpAction}): RowWords {
  if (action) return {row: action, key: 'id', action, inFull: `each ${action === 'capture' ? 'capturing' : `an ${action} of`} its authorization in full`, sentUnless: `the purchase shows no ${action}`}
  return {row: noun, key: 'reference', inFull: 'each refunding its purchase in full', sentUnless: 'the gateway has none'}
}
