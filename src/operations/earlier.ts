import {declineReason} from '../api/outcome.js'
import {isApproved} from '../api/schemas/purchase.js'
import {DeclinedError, RejectedError, type GwError} from '../errors.js'
import {checkCommand} from '../output/hints.js'
import type {GwRecord} from './deps.js'

/**
 * The gateway's answer when a reference was used before: purchases say `Reference is already
 * taken` (with HTTP 200), refunds `Reference has already been taken` (400).
 */
export function isReferenceTaken(err: unknown): err is GwError {
  return err instanceof RejectedError && err.messages.some((message) => /reference (has already been|is already) taken/i.test(message))
}

/** What a purchase or refund sent earlier under a reference must share with the one asked for now. */
export interface Asked {
  noun: 'purchase' | 'refund'
  reference: string
  amount: number
  currency?: string
  /** The purchase refunded, or the card charged: the name asked for and the name the record gives. */
  target?: {label: string; asked: string; found?: unknown; sameAs?: () => Promise<boolean>}
}

/**
 * Whether the record found under a reference is the one asked for (design.md §5: what a recovery
 * finds is checked before it is believed). Only fields the record carries are compared, and the
 * amount always: refunds come back negative (the contract) or positive (the live gateway).
 * Throws RejectedError (exit 7) naming both when they differ.
 */
export async function checkSame(asked: Asked, record: GwRecord): Promise<void> {
  const differences: string[] = []
  const amount = typeof record.amount === 'number' ? Math.abs(record.amount) : undefined
  if (amount !== asked.amount) differences.push(`amount ${String(record.amount)} there, ${asked.amount} asked`)
  if (asked.currency && typeof record.currency === 'string' && record.currency.toUpperCase() !== asked.currency.toUpperCase()) {
    differences.push(`currency ${record.currency} there, ${asked.currency} asked`)
  }
  const target = asked.target
  if (target && typeof target.found === 'string' && target.found !== target.asked && !(await target.sameAs?.())) {
    differences.push(`${target.label} ${target.found} there, ${target.asked} asked`)
  }
  if (differences.length === 0) return
  const id = typeof record.id === 'string' ? ` ${record.id}` : ''
  throw new RejectedError(`Reference ${asked.reference} is already taken by another ${asked.noun}${id}: ${differences.join('; ')}. Nothing was sent.`, {
    hint: `Give this ${asked.noun} a reference of its own, or check the earlier one: ${checkCommand(asked)}`,
  })
}

/** A purchase found done earlier was declined then: it exits 3 as the decline did, its record shown. */
export function doneEarlierDecline(sent: {record: GwRecord; doneEarlier: boolean}): void {
  if (!sent.doneEarlier || isApproved(sent.record)) return
  const reason = declineReason(sent.record)
  throw new DeclinedError(`Purchase declined (earlier, under this reference): ${reason}`, {messages: [reason], record: sent.record})
}
