import {GATEWAY_EVENTS} from '../../api/schemas/recurring-rules.js'
import type {SandboxContext} from '../context.js'
import {formatDateTime} from './clock.js'
import {TEST_MERCHANT} from './ids.js'
import type {Mode} from './mode.js'
import {blankMessage, isBlank} from './input.js'
import type {WebHookRecord} from './records.js'

interface WebHookInput {
  name?: string
  address?: string
  events?: unknown
  mode?: string
  authentication_username?: string
  authentication_password?: string
}

const MODES = ['Test', 'Live'] as const

export const modeOfHooks = (mode: Mode): WebHookRecord['mode'] => (mode === 'live' ? 'Live' : 'Test')

export function isHttpUrl(address: string): boolean {
  try {
    const {protocol} = new URL(address)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}

/** `*`, or a list of the event names the gateway sends. */
function readEvents(events: unknown): WebHookRecord['events'] | undefined {
  if (events === '*') return events
  const known: readonly unknown[] = GATEWAY_EVENTS
  const isList = Array.isArray(events) && events.length > 0 && events.every((event) => known.includes(event))
  return isList ? (events as string[]) : undefined
}

/** The messages of gateway-notes.md for missing fields, all at once; a new hook when there are none. */
export function checkWebHook(
  input: WebHookInput,
  newHook: () => Pick<WebHookRecord, 'id' | 'created_at'>,
): {errors: string[]; hook?: WebHookRecord} {
  const {name, address, mode, authentication_username: username, authentication_password: password} = input
  const events = readEvents(input.events)
  const errors = [
    isBlank(address) ? blankMessage('address') : undefined,
    !isBlank(address) && !isHttpUrl(address.trim()) ? 'Address must be an http or https URL' : undefined,
    events === undefined ? 'Events is not included in the list' : undefined,
    !(MODES as readonly unknown[]).includes(mode) ? 'Mode is not included in the list' : undefined,
  ].filter((error) => error !== undefined)
  if (errors.length > 0 || isBlank(address) || events === undefined) return {errors}
  const hook: WebHookRecord = {
    ...newHook(),
    name: name ?? null,
    address: address.trim(),
    events,
    mode: mode as WebHookRecord['mode'],
    authentication_username: isBlank(username) ? null : username,
    authentication_password: isBlank(username) ? null : (password ?? ''),
  }
  return {errors, hook}
}

/**
 * A hook as the live gateway answers it (gateway-notes.md): with its password (`""` when none) and
 * `is_active` null, as every hook made through the API shows it, on creation, update and delete
 * and in lists (Rb:WebHook/_search, 2018-07-25: only a hook made elsewhere says true); without the
 * `created_at` the gateway keeps, which no recorded answer shows. Only its merchant's credentials read it.
 */
export function webHookView(hook: WebHookRecord): Omit<WebHookRecord, 'created_at'> & {is_active: null} {
  const {created_at: _kept, ...shown} = hook
  return {...shown, authentication_password: hook.authentication_password ?? '', is_active: null}
}

/** A start hook is TEST's, takes every event and matches the sandbox's mode; a state file may already have it. */
export function registerStartHook(ctx: SandboxContext, address: string): void {
  if (ctx.store.list('webhooks', TEST_MERCHANT).some((hook) => hook.address === address)) return
  const input = {name: 'gw sandbox start', address, events: '*', mode: modeOfHooks(ctx.mode)}
  const newHook = () => ({id: ctx.newId(TEST_MERCHANT, 'WH'), created_at: formatDateTime(ctx.clock.now())})
  const {errors, hook} = checkWebHook(input, newHook)
  if (!hook) throw new Error(`Web hook ${address}: ${errors.join('; ')}`)
  ctx.store.save('webhooks', TEST_MERCHANT, hook)
}
