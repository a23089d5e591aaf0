import type {WebhookEvent} from '../api/schemas/recurring-rules.js'
import type {Deps, GwRecord} from './deps.js'

/** The local gateway's date. */
export async function sandboxClock({client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.sandbox.clock()
}

/** Moves the local gateway's clock forward by days or to a date, running each day in between. */
export async function advanceClock(by: {days: number} | {to: string}, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.sandbox.advanceClock(by)
}

/** A sample web hook event from the local gateway, to the registered web hooks or to one URL. */
export async function triggerEvent(input: {event: WebhookEvent; webhook?: string}, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.sandbox.trigger({event: input.event, ...(input.webhook ? {webhook: input.webhook} : {})})
}
