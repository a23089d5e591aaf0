import type {GatewayEvent} from '../api/schemas/recurring-rules.js'
import type {Environment} from '../auth/config.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {listRecords} from './lists.js'

export interface WebHookInput {
  address: string
  /** None means every event. */
  events: GatewayEvent[]
  name?: string
  /** The profile's environment: a sandbox profile registers Test hooks, a live one Live hooks. */
  environment: Environment
  auth?: {username: string; password: string}
}

/** Registers an address for the gateway's web hooks (gateway-notes.md: POST /v1.0/web_hooks). */
export async function createWebHook(input: WebHookInput, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.webHooks.create({
    name: input.name ?? input.address,
    address: input.address,
    events: input.events.length === 0 ? '*' : [...new Set(input.events)],
    mode: input.environment === 'live' ? 'Live' : 'Test',
    ...(input.auth ? {authentication_username: input.auth.username, authentication_password: input.auth.password} : {}),
  })
}

/** What a web hook update changes; what is left out is kept. */
export interface WebHookChanges {
  address?: string
  events?: GatewayEvent[]
  name?: string
  auth?: {username: string; password: string}
}

/** Changes a web hook (gateway-beyond.md §12: PUT /v1.0/web_hooks/{id}): only the fields given are sent. */
export async function updateWebHook(id: string, changes: WebHookChanges, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.webHooks.update(id, {
    ...(changes.address === undefined ? {} : {address: changes.address}),
    ...(changes.events === undefined ? {} : {events: [...new Set(changes.events)] as [string, ...string[]]}),
    ...(changes.name === undefined ? {} : {name: changes.name}),
    ...(changes.auth ? {authentication_username: changes.auth.username, authentication_password: changes.auth.password} : {}),
  })
}

export async function deleteWebHook(id: string, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.webHooks.delete(id)
}

/** Removes every registered web hook that `chosen` picks, one page of the list at a time: those removed. */
export async function removeWebHooksWhere(chosen: (hook: GwRecord) => Promise<boolean>, deps: Pick<Deps, 'client'>): Promise<GwRecord[]> {
  const picked: GwRecord[] = []
  const {pages} = listRecords({resource: 'webHooks', window: {}, filters: {}, concurrency: 1}, deps)
  for await (const page of pages) for (const hook of page) if (await chosen(hook)) picked.push(hook)
  for (const hook of picked) await deleteWebHook(String(hook.id), deps)
  return picked
}
