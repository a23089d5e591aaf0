import {HISTORY_LIMITS, type HistoryMade, type HistoryRequest} from '../api/schemas/sandbox-control.js'
import {NotFoundError, RejectedError, UsageError} from '../errors.js'

/** gw sandbox seed's flags of a quick history, as given (undefined: left out). */
export interface HistoryFlags {
  purchases?: number
  refunds?: number
  days?: number
  cards?: number
  'reference-prefix'?: string
}

/** The flags that make a history besides --purchases, which say nothing without it. */
const WITH_PURCHASES = ['refunds', 'days', 'cards', 'reference-prefix'] as const

/**
 * A quick history's request from the flags, each checked against the bounds the local gateway
 * keeps (HISTORY_LIMITS): a UsageError naming the flag and its bounds. What is left out the
 * gateway makes as it is told to by default (HISTORY_DEFAULTS).
 */
export function historyRequest(flags: HistoryFlags): HistoryRequest {
  const {records, days, cards, prefixLength} = HISTORY_LIMITS
  const stray = WITH_PURCHASES.find((flag) => flags[flag] !== undefined)
  if (flags.purchases === undefined) throw new UsageError(`--${stray} makes a quick history with --purchases`, 'Give --purchases N too, or leave it out.')
  const outOf = (flag: string, least: number, most: number, value: number | undefined) =>
    value !== undefined && (value < least || value > most) ? new UsageError(`--${flag} must be from ${least} to ${most}, got ${value}`, most === records ? 'Run it again with another --reference-prefix for more.' : undefined) : undefined
  const problem =
    outOf('purchases', 1, records, flags.purchases) ??
    outOf('refunds', 0, records, flags.refunds) ??
    outOf('days', 1, days, flags.days) ??
    outOf('cards', 1, cards, flags.cards)
  if (problem) throw problem
  const prefix = flags['reference-prefix']
  if (prefix !== undefined && (prefix.trim() === '' || prefix.length > prefixLength)) {
    throw new UsageError(`--reference-prefix must be 1 to ${prefixLength} characters, got ${prefix.length}`, 'For example --reference-prefix hist.')
  }
  return {
    purchases: flags.purchases,
    ...(flags.refunds === undefined ? {} : {refunds: flags.refunds}),
    ...(flags.days === undefined ? {} : {days: flags.days}),
    ...(flags.cards === undefined ? {} : {cards: flags.cards}),
    ...(prefix === undefined ? {} : {reference_prefix: prefix}),
  }
}

const counted = (count: number, one: string) => `${count.toLocaleString('en-US')} ${count === 1 ? one : `${one}s`}`

/** The one line said on stderr once a history is made: `10,000 purchases and 100,000 refunds on 4 cards, 2026-09-29 to 2026-11-28 (hist-p1 to hist-p10000), made in 3.2 s.` */
export function historySummary(made: HistoryMade, ms: number): string {
  const references = made.purchases === 1 ? `${made.reference_prefix}-p1` : `${made.reference_prefix}-p1 to ${made.reference_prefix}-p${made.purchases}`
  return `${counted(made.purchases, 'purchase')} and ${counted(made.refunds, 'refund')} on ${counted(made.cards, 'card')}, ${made.from.slice(0, 10)} to ${made.to.slice(0, 10)} (${references}), made in ${(ms / 1000).toFixed(1)} s.\n`
}

/**
 * Why a history was not made, in gw's terms: a gateway with no such control is not the local
 * gateway (404); a refusal (its references are taken: a history with this prefix was made
 * already) says what to give instead.
 */
export function historyFailure(err: unknown): unknown {
  if (err instanceof NotFoundError) {
    return new UsageError('A quick history is made by the local gateway only, and this gateway has no such control: nothing was made', 'Start one with gw sandbox start --detach, and seed it with gw sandbox seed --purchases N.')
  }
  if (!(err instanceof RejectedError)) return err
  const {status, messages, requestId} = err
  return new RejectedError(err.message, {status, messages, requestId, hint: 'Give another --reference-prefix, or seed a local gateway started afresh.'})
}
