import type {SandboxContext} from '../context.js'
import {addDirectDebit, deleteDirectDebit, directDebitView, findDirectDebit} from '../domain/direct-debit.js'
import {SandboxError} from '../domain/errors.js'
import {pageOf} from '../domain/paging.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'

/** 201 in both dialects, as recorded. */
export function createDirectDebit({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 201, response: directDebitView(addDirectDebit(ctx, merchant, input))}
}

/** Newest first, deleted debits among them, paged as the gateway's other lists. */
export function listDirectDebits({merchant, query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {records, fields} = pageOf(ctx.store.ordered('direct_debits', merchant), query, (debit) => debit.created_at)
  return {status: 200, response: records.map(directDebitView), fields}
}

/** By id or reference; unknown: 404 with an empty record, as recorded. */
export function getDirectDebit(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const key = pathParam(request, 'key')
  const debit = findDirectDebit(ctx, request.merchant, key, () => new SandboxError(404, ['Could not find Direct Entry'], {}))
  return {status: 200, response: directDebitView(debit)}
}

/** Unknown: 404 with a null record and the key in the message, as recorded. */
export function removeDirectDebit(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const key = pathParam(request, 'key')
  const debit = findDirectDebit(ctx, request.merchant, key, () => new SandboxError(404, [`Direct Debit ${key} could not be found.`], null))
  return {status: 200, response: directDebitView(deleteDirectDebit(ctx, request.merchant, debit))}
}
