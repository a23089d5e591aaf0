import type {ProxySettings} from '../api/proxy.js'
import {GatewayError, UsageError} from '../errors.js'
import {NotYoursError, readOwnFile} from '../lib/own-file.js'
import {toNdjsonLine} from '../output/json.js'
import type {Io} from '../output/io.js'
import {redact} from '../safety/redact.js'
import {eventFilter} from './events.js'
import {parseEventLog} from './event-log.js'
import {eventLine} from './format.js'
import {createForwarder} from './forward.js'

export interface ReplayOptions {
  file: string
  forwardTo: string
  forwardTimeoutMs: number
  proxy?: ProxySettings
  /** gw listen's signing secret: a replay is signed as gw listen signs its forwards. */
  signingSecret?: string
  events: string[]
  json: boolean
}

/** The text of a file gw listen --save wrote, the user's own; checked as opened (lib/own-file.ts). */
function readSaved(file: string): string {
  let text: string | undefined
  try {
    text = readOwnFile(file)
  } catch (err) {
    if (err instanceof NotYoursError) throw new UsageError(`${file} cannot be replayed: ${err.message}`, err.hint)
    const {code, message} = err as NodeJS.ErrnoException
    throw new UsageError(`Cannot read ${file} (${code ?? message})`, SAVED_HINT)
  }
  if (text === undefined) throw new UsageError(`Cannot read ${file} (ENOENT)`, SAVED_HINT)
  return text
}

const SAVED_HINT = 'Give the file gw listen --save wrote.'

/**
 * `gw listen replay FILE`: sends saved events to the app again, one after another in the order
 * they were received, each with the headers the gateway sent. A failed event is reported and the
 * rest still go; the command then exits 1 (design.md §4: a batch exits with its worst row).
 */
export async function replay(options: ReplayOptions, io: Io): Promise<void> {
  // What is replayed is signed: never what another user could have written (lib/own-file.ts).
  const text = readSaved(options.file)
  const wanted = eventFilter(options.events)
  const entries = parseEventLog(text, options.file).filter((entry) => wanted(entry.event))
  if (entries.length === 0) {
    io.err(`No events in ${options.file}${options.events.length > 0 ? ' match --events' : ''}; nothing sent.\n`)
    return
  }
  const forwarder = createForwarder(options.forwardTo, options.forwardTimeoutMs, options.proxy, options.signingSecret)
  let failed = 0
  try {
    for (const entry of entries) {
      const body = JSON.stringify({event: entry.event, payload: entry.payload})
      const forward = await forwarder.send(body, {'content-type': 'application/json', ...entry.headers})
      if ('error' in forward || forward.status < 200 || forward.status >= 300) failed++
      // A file saved by hand, or by a gw from before card numbers inside text were masked, may hold one: shown masked (design.md §3).
      const shown = redact(entry)
      if (options.json) io.out(toNdjsonLine({event: shown.event, received_at: shown.received_at, ...('error' in forward ? {status: null, error: forward.error} : {status: forward.status}), ms: forward.ms}))
      else io.out(eventLine(shown, {color: io.color, forward}))
    }
  } finally {
    await forwarder.close()
  }
  if (failed > 0) {
    throw new GatewayError('network', `${failed} of ${entries.length} events were not accepted by ${options.forwardTo}`, {hint: 'Fix the app and replay again; --events picks which events to send.'})
  }
  io.err(`Replayed ${entries.length} event${entries.length === 1 ? '' : 's'} to ${options.forwardTo}.\n`)
}
