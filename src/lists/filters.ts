import {UsageError} from '../errors.js'
import {outcomeOf, sameCard} from '../money/decide.js'
import {isVoided} from '../money/follow-up.js'
import {looksLikeCardNumber, maskCardNumber} from '../safety/redact.js'
import type {GwRecord} from '../api/schemas/record.js'

/**
 * What a list command may ask of its records beyond their time. Every one is applied here, to
 * each record as it arrives: the gateway's lists take only `from`/`to` (gateway-notes.md), so
 * nothing else is sent.
 */
export interface RecordFilters {
  /** Exactly, the merchant's reference. */
  reference?: string
  status?: RecordStatus
  card?: ResolvedCardFilter
  /** Minor units; a refund's either sign. */
  amount?: number
  currency?: string
  /** Part of the card holder's name, in any case. */
  holder?: string
  email?: string
  /** Subscriptions: the customer and plan, each by its id or reference as given and as the gateway knows it. */
  customer?: string[]
  plan?: string[]
  active?: boolean
  /** Refunds on this purchase's card, since it was made: a live refund names no purchase. */
  purchase?: GwRecord
}

/** What --status picks: a voided purchase or refund is neither approved nor declined, whatever its `successful` says. */
export type RecordStatus = 'approved' | 'declined' | 'voided'

/** A record's status as --status reads it; undefined when it says neither approved nor declined. */
export function statusOf(record: GwRecord): RecordStatus | undefined {
  if (isVoided(record)) return 'voided'
  const outcome = outcomeOf(record)
  return outcome === undefined ? undefined : outcome ? 'approved' : 'declined'
}

/** A card named as support staff have it to hand: its last four digits, its masked number, or its token or alias. */
export type CardFilter = {lastFour: string} | {masked: string} | {token: string}

/** The card filter once a token or alias is looked up: every name the stored card goes by. */
export type ResolvedCardFilter = {lastFour: string} | {masked: string} | {token: string[]}

export function parseCard(input: string): CardFilter {
  const compact = input.trim().replace(/[\s-]/g, '')
  if (/^\d{4}$/.test(compact)) return {lastFour: compact}
  if (looksLikeCardNumber(compact)) {
    throw new UsageError(`--card ${maskCardNumber(compact)} is a whole card number: it would stay in shell history`, 'Give its last four digits (--card 4242) or its masked number (424242XXXXXX4242).')
  }
  if (/^\d+[Xx*•]+\d{4}$/.test(compact)) return {masked: compact}
  return {token: input.trim()}
}

/** Whether a record is one the filters ask for. */
export function matchesFilters(filters: RecordFilters, record: GwRecord): boolean {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
  if (filters.reference !== undefined && record.reference !== filters.reference) return false
  if (filters.status !== undefined && statusOf(record) !== filters.status) return false
  if (filters.amount !== undefined && (typeof record.amount !== 'number' || Math.abs(record.amount) !== filters.amount)) return false
  if (filters.currency !== undefined && text(record.currency)?.toUpperCase() !== filters.currency.toUpperCase()) return false
  if (filters.holder !== undefined && !text(record.card_holder)?.toLowerCase().includes(filters.holder.toLowerCase())) return false
  if (filters.email !== undefined && text(record.email)?.toLowerCase() !== filters.email.toLowerCase()) return false
  if (filters.customer !== undefined && !filters.customer.includes(String(record.customer))) return false
  if (filters.plan !== undefined && !filters.plan.includes(String(record.plan))) return false
  if (filters.active !== undefined && record.is_active !== filters.active) return false
  if (filters.card !== undefined && !cardMatches(filters.card, record)) return false
  if (filters.purchase !== undefined && !onPurchaseCard(filters.purchase, record)) return false
  return true
}

function cardMatches(card: ResolvedCardFilter, record: GwRecord): boolean {
  // Some gateways send the number as a JSON number; its digits are matched all the same.
  const number = typeof record.card_number === 'string' || typeof record.card_number === 'number' ? String(record.card_number).replace(/[\s-]/g, '') : undefined
  if ('lastFour' in card) return number?.endsWith(card.lastFour) ?? false
  if ('masked' in card) return sameCard(card.masked, number)
  return [record.card_token, record.token, record.alias].some((name) => typeof name === 'string' && card.token.includes(name))
}

/** A refund that can be of this purchase: its card, its holder, no more than it, and made since. */
function onPurchaseCard(purchase: GwRecord, refund: GwRecord): boolean {
  if (!sameCard(purchase.card_number, refund.card_number)) return false
  if (String(purchase.card_holder ?? '').toLowerCase() !== String(refund.card_holder ?? '').toLowerCase()) return false
  if (typeof purchase.amount === 'number' && typeof refund.amount === 'number' && Math.abs(refund.amount) > purchase.amount) return false
  const since = Date.parse(String(purchase.transaction_date))
  const at = Date.parse(String(refund.transaction_date))
  return Number.isNaN(since) || Number.isNaN(at) || at >= since
}
