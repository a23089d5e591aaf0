import {formatDateTime} from '../domain/clock.js'
import type {SandboxContext} from '../context.js'
import {unprocessable} from '../domain/errors.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'
import {readFields} from '../domain/input.js'
import {WEB_HOOK_FIELDS, echo} from '../domain/records.js'
import {checkWebHook, webHookView} from '../domain/web-hook.js'

const WEB_HOOK_INPUT = {
  name: 'string',
  address: 'string',
  mode: 'string',
  authentication_username: 'string',
  authentication_password: 'string',
} as const

/** gateway-notes.md: 200 on creation, 422 for missing fields (echoing no password); the password is kept for deliveries. */
export function createWebHook({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const fields = {...readFields(input, WEB_HOOK_INPUT), events: input.events}
  const newHook = () => ({id: ctx.newId(merchant, 'WH'), created_at: formatDateTime(ctx.clock.now())})
  const {errors, hook} = checkWebHook(fields, newHook)
  if (!hook) {
    const {authentication_password: _password, ...shown} = fields
    throw unprocessable(errors, echo(WEB_HOOK_FIELDS, shown))
  }
  ctx.store.save('webhooks', merchant, hook)
  return {status: 200, response: webHookView(hook)}
}

/**
 * `PUT /v1.0/web_hooks/{id}`: the hook with the fields given changed, checked as on creation. The
 * Ruby library sends the whole record; a field left out keeps its value, and `is_active` is not
 * changed by an update (gateway-beyond.md §12).
 */
export function updateWebHook(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {merchant, input} = request
  const hook = ctx.store.get('webhooks', merchant, pathParam(request, 'key'), 'Record not found')
  const given = {...readFields(input, WEB_HOOK_INPUT), events: input.events ?? undefined}
  const fields = {
    name: given.name ?? hook.name ?? undefined,
    address: given.address ?? hook.address,
    events: given.events ?? hook.events,
    mode: given.mode ?? hook.mode,
    authentication_username: given.authentication_username ?? hook.authentication_username ?? undefined,
    authentication_password: given.authentication_password ?? hook.authentication_password ?? undefined,
  }
  const {errors, hook: updated} = checkWebHook(fields, () => ({id: hook.id, created_at: hook.created_at}))
  if (!updated) {
    const {authentication_password: _password, ...shown} = fields
    throw unprocessable(errors, echo(WEB_HOOK_FIELDS, {...shown, id: hook.id}))
  }
  ctx.store.save('webhooks', merchant, updated)
  return {status: 200, response: webHookView(updated)}
}

/** Every hook of the merchant, in one answer, oldest first unless the gateway was started to list them newest first. */
export function listWebHooks({merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const hooks = ctx.store.list('webhooks', merchant).map((hook) => webHookView(hook))
  return {status: 200, response: ctx.webHookOrder === 'newest' ? hooks.reverse() : hooks}
}

export function deleteWebHook(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const hook = ctx.store.get('webhooks', request.merchant, pathParam(request, 'key'), 'Record not found')
  ctx.store.remove('webhooks', request.merchant, hook)
  ctx.deliveries.forgetHook(hook.id)
  return {status: 200, response: webHookView(hook)}
}
