import type {SandboxContext} from '../context.js'
import {badRequest} from '../domain/errors.js'
import {makeHistory} from '../domain/history.js'
import {HISTORY_DEFAULTS, HISTORY_LIMITS} from '../../api/schemas/sandbox-control.js'
import {isBlank, readFields} from '../domain/input.js'
import type {MerchantRequest, RouteResult} from './route.js'

/**
 * `POST /_sandbox/history` `{"purchases": N, "refunds": M, "days": D, "cards": K, "reference_prefix": "hist"}`:
 * a quick history of the merchant's (gw sandbox seed --purchases), every record made in this one
 * request and so saved to the --state file in one transaction (domain/history.ts). What it made
 * is answered: the counts, and the dates of its first and last records.
 */
export function makeHistoryRoute({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const fields = readFields(input, {purchases: 'integer', refunds: 'integer', days: 'integer', cards: 'integer', reference_prefix: 'string'})
  const {purchases, refunds, days, cards, reference_prefix: prefix} = {...HISTORY_DEFAULTS, ...withoutUndefined(fields)}
  const {records, prefixLength} = HISTORY_LIMITS
  const problems = [
    purchases === undefined || purchases < 1 || purchases > records ? `Purchases must be from 1 to ${records}` : undefined,
    refunds < 0 || refunds > records ? `Refunds must be from 0 to ${records}` : undefined,
    days < 1 || days > HISTORY_LIMITS.days ? `Days must be from 1 to ${HISTORY_LIMITS.days}` : undefined,
    cards < 1 || cards > HISTORY_LIMITS.cards ? `Cards must be from 1 to ${HISTORY_LIMITS.cards}` : undefined,
    isBlank(prefix) || prefix.length > prefixLength ? `Reference prefix must be 1 to ${prefixLength} characters` : undefined,
  ].filter((problem) => problem !== undefined)
  if (problems.length > 0 || purchases === undefined) throw badRequest(problems)
  return {status: 200, response: makeHistory(ctx, merchant, {purchases, refunds, days, cards, prefix})}
}

const withoutUndefined = <T extends object>(fields: T): Partial<T> => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>
