import type {ListOrder} from '../api/list-order.js'
import {runOf} from '../batch/instance.js'
import {journalTarget, type JournalTarget} from '../batch/journal-identity.js'
import type {MadeRecordsPlace} from '../lists/refunds-of-purchase.js'
import type {GwRecord} from '../api/schemas/record.js'
import type {Io} from '../output/io.js'
import {renderWarning} from '../output/warning.js'
import {sanitizeLine} from '../safety/sanitize.js'
import {forgetHook, hookFacts, keepHookOrder, type Making, recordHookMade} from './hooks-made.js'

/**
 * The order a list shows hooks in, by where those gw made stand on it: two it made one after the
 * other (the first answered before the second was asked for) listed in that order say oldest
 * first, the other way round newest first. Pairs whose makings overlap (two gw at once) tell
 * nothing. Pairs that disagree: the gateway lists by something else, and no order is told.
 */
export function orderShown(listed: readonly string[], made: ReadonlyMap<string, Making>): ListOrder | undefined {
  const known = listed.flatMap((id) => {
    const making = made.get(id)
    return making ? [making] : []
  })
  let oldest = 0
  let newest = 0
  for (let i = 0; i < known.length; i++) {
    for (let j = i + 1; j < known.length; j++) {
      if (known[i]!.answeredAt < known[j]!.sentAt) oldest++
      else if (known[j]!.answeredAt < known[i]!.sentAt) newest++
    }
  }
  if (oldest > 0 && newest === 0) return 'oldest'
  if (newest > 0 && oldest === 0) return 'newest'
  return undefined
}

/** The gateway and merchant the record keeps hooks under, and the run of a local gateway's data that answered last. */
async function recordTarget(place: MadeRecordsPlace, client: {readonly gatewayInstance?: string}): Promise<{target: JournalTarget; gatewayRun?: string}> {
  const {baseUrl, username} = await place.target()
  const instance = client.gatewayInstance
  return {target: journalTarget(baseUrl, username), ...(instance === undefined ? {} : {gatewayRun: runOf(instance)})}
}

/**
 * The order the gateway lists web hooks in, for a walk's `undatedOrder` (api/paging.ts), asked
 * with the first page: what the hooks gw made on it show (orderShown), kept for the next list;
 * else what this gateway and merchant were last seen to do; else nothing (the list assumes one).
 * Nothing is asked of the gateway: gw's record alone, in its data directory.
 */
export function hookOrderReader(place: MadeRecordsPlace, client: {readonly gatewayInstance?: string}): (first: readonly GwRecord[]) => Promise<ListOrder | undefined> {
  return async (first) => {
    const {target, gatewayRun} = await recordTarget(place, client)
    const ids = first.flatMap((hook) => (typeof hook.id === 'string' ? [hook.id] : []))
    const {made, seen} = hookFacts(place.dataDir, target, ids, gatewayRun)
    const shown = orderShown(ids, made)
    if (shown === undefined) return seen
    if (shown !== seen) keepHookOrder(place.dataDir, target, shown)
    return shown
  }
}

/**
 * Makes a web hook (`make`) and records when, for gw webhook list to read the gateway's order by.
 * The hook is made whatever the disk says: a record that cannot be written is a warning.
 */
export async function makeRecorded(place: MadeRecordsPlace & {readonly io: Io}, client: {readonly gatewayInstance?: string}, make: () => Promise<GwRecord>): Promise<GwRecord> {
  const sentAt = Date.now()
  const hook = await make()
  const answeredAt = Date.now()
  if (typeof hook.id !== 'string') return hook
  try {
    const {target, gatewayRun} = await recordTarget(place, client)
    recordHookMade(place.dataDir, target, {id: hook.id, sentAt, answeredAt, ...(gatewayRun === undefined ? {} : {gatewayRun})})
  } catch (err) {
    const why = sanitizeLine(err instanceof Error ? err.message : String(err))
    renderWarning(place.io, `gw could not record making web hook ${sanitizeLine(hook.id)} (${why}): gw webhook list cannot tell the gateway's order by it.`)
  }
  return hook
}

/** Forgets a hook gw removed (record keeping only: nothing is said of it). */
export async function forgetRemoved(place: MadeRecordsPlace, id: string): Promise<void> {
  const {baseUrl, username} = await place.target()
  forgetHook(place.dataDir, journalTarget(baseUrl, username), id)
}
