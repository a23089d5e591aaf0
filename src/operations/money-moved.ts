import {outcomeOf} from '../money/decide.js'
import {isVoided} from '../money/follow-up.js'
import type {GwRecord} from '../api/schemas/record.js'

/**
 * What a purchase moved, as gw report and the settlement look-up add it up (gateway-beyond.md
 * §1-2, §5):
 * - `captured`: it took money, what was captured of it (`captured_amount`; a record without one,
 *   as the contract writes a purchase, was captured at once for its `amount`);
 * - `uncaptured`: an approved authorization (`captured` false) holds `amount` on the card and has
 *   taken nothing yet;
 * - `voided`: it took nothing (`message` `Voided`, whatever its `successful` says: builds differ);
 * - `declined`: it took nothing.
 * Undefined for a record that says neither approved nor declined, or has no amount.
 */
export type PurchaseMoved = {as: 'captured' | 'uncaptured'; amount: number} | {as: 'voided' | 'declined'}

export function purchaseMoved(record: GwRecord): PurchaseMoved | undefined {
  if (isVoided(record)) return {as: 'voided'}
  const outcome = outcomeOf(record)
  if (outcome === false) return {as: 'declined'}
  if (outcome !== true || typeof record.amount !== 'number') return undefined
  if (record.captured === false) return {as: 'uncaptured', amount: Math.abs(record.amount)}
  return {as: 'captured', amount: Math.abs(typeof record.captured_amount === 'number' ? record.captured_amount : record.amount)}
}

/**
 * What a refund moved: `refunded`, its amount (positive from the live gateway, negative in the
 * contract: either counts the same); `voided` (`refunded` or `message` `Voided`), nothing; `declined`,
 * nothing. Undefined for a record that says neither, or has no amount.
 */
export type RefundMoved = {as: 'refunded'; amount: number} | {as: 'voided' | 'declined'}

export function refundMoved(record: GwRecord): RefundMoved | undefined {
  if (isVoided(record)) return {as: 'voided'}
  const outcome = outcomeOf(record)
  if (outcome === false) return {as: 'declined'}
  if (outcome !== true || typeof record.amount !== 'number') return undefined
  return {as: 'refunded', amount: Math.abs(record.amount)}
}
