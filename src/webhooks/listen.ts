import {randomBytes} from 'node:crypto'
import type {IncomingHttpHeaders} from 'node:http'
import type {ProxySettings} from '../api/proxy.js'
import {GwError, UsageError} from '../errors.js'
import {isLoopbackHost, reachableUrl} from '../lib/loopback.js'
import {stopMeaning, type StopSignalName} from '../lib/platform.js'
import {maskCardNumbersIn, redact} from '../safety/redact.js'
import {paint} from '../output/colors.js'
import type {Io} from '../output/io.js'
import {sanitize, sanitizeLine} from '../safety/sanitize.js'
import {eventFilter, InvalidDelivery, isKnownEvent, parseDelivery} from './events.js'
import {openEventLog} from './event-log.js'
import {describeForward, type EventEntry, eventJsonLine, eventLine, selectHeaders} from './format.js'
import {bytesMayHoldCardData} from '../safety/card-bytes.js'
import {createForwarder} from './forward.js'
import {SIGNATURE_HEADER} from './signing.js'
import {type Credentials, type RawDelivery, startReceiver} from './receiver.js'

export const MAX_DELIVERY_BYTES = 1024 * 1024

export interface Registration {
  /** Registers the receiver's address with the gateway, deliveries to carry `auth`; resolves with the web hook's id. */
  create(address: string, auth: Credentials): Promise<string>
  remove(id: string): Promise<void>
  /** Removes what earlier gw listens left registered when they were killed (this one listening at `address` now): the hooks removed. */
  removeAbandoned?(address: string): Promise<Record<string, unknown>[]>
  /**
   * Not asked for: gw listen registers itself with a local gateway, as stripe listen does. A
   * registration that fails is then a warning, and gw listen listens on.
   */
  automatic?: {gateway: string}
}

export interface ListenOptions {
  host: string
  port: number
  path: string
  /** Names and web pages let in beyond loopback's (browser-guard.ts). */
  allowedHosts: string[]
  allowedOrigins: string[]
  /** The credentials of a registration made elsewhere (--auth); a registration made here gets its own. */
  auth?: Credentials
  events: string[]
  json: boolean
  forwardTo?: string
  /** The secret each forward is signed with (signing.ts). */
  signingSecret?: string
  forwardTimeoutMs: number
  /** The proxy settings forwarding goes by; loopback apps are always reached directly. */
  proxy?: ProxySettings
  ackAlways: boolean
  save?: string
  receiveTimeoutMs: number
  /** The profile's environment; deliveries of the other mode are flagged. Unknown without a profile. */
  environment?: 'sandbox' | 'live'
  register?: Registration
  /** The signals that stop it here (lib/platform.ts: Ctrl-Break on Windows, as SIGTERM); SIGINT and SIGTERM when not given. */
  stopSignals?: readonly StopSignalName[]
}

/**
 * `gw listen` from start to stop: receive, print, save, forward; on SIGINT or SIGTERM (or when
 * stdout's reader goes away) stop accepting, finish the deliveries in flight and remove the
 * registration. Resolves with the exit code: 130 for Ctrl-C (design.md §4), otherwise 0, the way
 * a service manager expects a stopped service to exit.
 */
export async function listen(options: ListenOptions, io: Io): Promise<number> {
  let webHookId: string | undefined
  // Handlers go in first: a signal without one kills the process at once, registration left behind.
  let quitAtOnce!: (error: GwError) => void
  const quit = new Promise<never>((_, reject) => (quitAtOnce = reject))
  quit.catch(() => {})
  const stopSignal = nextSignal(() => {
    const left = webHookId ? `; web hook ${webHookId} is still registered: remove it with gw webhook delete ${webHookId}` : ''
    // Deliveries still in flight would hold the process open: the reporter leaves once it has said so.
    quitAtOnce(new GwError('interrupted', 130, `Stopped at once${left}.`, {abandonsPendingCall: true}))
  }, options.stopSignals)
  let outClosed = false
  const readerGone = new Promise<'output closed'>((resolve) => io.onOutClosed(() => ((outClosed = true), resolve('output closed'))))
  const log = options.save ? await openEventLog(options.save) : undefined
  const forwarder = options.forwardTo ? createForwarder(options.forwardTo, options.forwardTimeoutMs, options.proxy, options.signingSecret) : undefined
  // Only the gateway learns these: a delivery carrying them came from it.
  let ownCredentials = options.register && !options.auth ? freshCredentials() : undefined
  const credentialsChecked = () => options.auth !== undefined || ownCredentials !== undefined
  const counts = {printed: 0, filtered: 0, refused: 0}
  const wanted = eventFilter(options.events)
  const warning = paint(io.errColor, 'yellow', 'Warning:')
  // Warnings quote what was posted to the receiver (a path, an event name, a body JSON could not
  // read): shown with its control characters made visible and its card numbers masked (design.md §3).
  const warn = (text: string) => io.err(`${warning} ${sanitize(maskCardNumbersIn(text))}\n`)

  async function handle({body, headers}: RawDelivery): Promise<number> {
    const receivedAt = new Date().toISOString()
    let delivery
    try {
      delivery = parseDelivery(body.toString('utf8'))
    } catch (err) {
      if (!(err instanceof InvalidDelivery)) throw err
      counts.refused++
      warn(`refused a delivery (400): ${err.message}`)
      return 400
    }
    const mode = typeof headers['x-service-mode'] === 'string' ? headers['x-service-mode'] : null
    // Printed and saved as every record is (design.md §3): card numbers masked, whole fields and
    // digits inside text alike, a CVV left out. What is forwarded is the delivery as it came.
    const payload = bytesMayHoldCardData(body) ? redact(delivery.payload) : delivery.payload
    const shownMode = mode === null ? null : maskCardNumbersIn(mode)
    const entry: EventEntry = {received_at: receivedAt, event: maskCardNumbersIn(delivery.event), mode: shownMode, payload, headers: redact(selectHeaders(headers))}
    const line = eventJsonLine(entry, body)
    if (log) await log.append(line)
    if (!wanted(delivery.event)) {
      counts.filtered++
      return 200
    }
    if (!isKnownEvent(delivery.event)) warn(`unknown event "${delivery.event}": not one of the gateway's web hook events`)
    if (mode && options.environment && !modeMatches(mode, options.environment)) {
      warn(`a ${entry.event} delivery in ${mode} mode, but the profile in force is ${options.environment}`)
    }
    // Credentials of gw listen's own mean nothing to the app; those of --auth are the app's to check.
    // Signed only when it carried the gateway's credentials: a signature then says the gateway sent it.
    const forward = forwarder && (await forwarder.send(body, ownCredentials ? withoutAuthorization(headers) : headers, credentialsChecked()))
    if (outClosed) return 503
    const shown = options.json ? line : eventLine(entry, {color: io.color, forward})
    const written = io.outWritten(shown)
    if (options.json && forward) io.err(`${sanitizeLine(entry.event)} forwarded ${describeForward(forward, io.errColor)}\n`)
    // Acknowledged once the line is out; when nobody read it (the pipe's reader went away), left
    // unacknowledged, so the gateway delivers it again.
    if (!(await written) || outClosed) return 503
    counts.printed++
    if (!forward || options.ackAlways) return 200
    return 'error' in forward ? 502 : forward.status
  }

  let receiver
  try {
    receiver = await startReceiver({
      host: options.host,
      port: options.port,
      path: options.path,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      auth: options.auth ?? ownCredentials,
      maxBodyBytes: MAX_DELIVERY_BYTES,
      receiveTimeoutMs: options.receiveTimeoutMs,
      handle,
      refused(status, reason) {
        counts.refused++
        warn(`refused a request (${status}): ${reason}`)
      },
    })
  } catch (err) {
    await Promise.all([log?.close(), forwarder?.close()])
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') throw new UsageError(`Port ${options.port} on ${options.host} is already in use`, 'Pick another --port, or 0 for any free one.')
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new UsageError(`Cannot listen on ${options.host}:${options.port} (${code})`, 'Pick another --host or --port.')
    throw err
  }

  let notice = ''
  const {register} = options
  if (register) {
    try {
      notice += await removeAbandoned(register, reachableUrl(receiver.url), warning)
      webHookId = await register.create(reachableUrl(receiver.url), options.auth ?? ownCredentials!)
    } catch (err) {
      if (!register.automatic || !(err instanceof GwError) || err.kind === 'interrupted') {
        await Promise.all([receiver.close(), log?.close(), forwarder?.close()])
        throw err
      }
      // Nobody knows the credentials it was to be registered with: a registration made by hand must reach it.
      ownCredentials = undefined
      receiver.requireCredentials(undefined)
      notice += `${warning} could not register with the local gateway at ${register.automatic.gateway} (${sanitizeLine(err.message)}); deliveries come here only once ${reachableUrl(receiver.url)} is registered.\n`
    }
  }

  // One write, so whoever waits for the notice sees all of it at once.
  notice = `Listening for web hooks on ${receiver.url} (Ctrl-C stops)\n${notice}`
  if (options.save) notice += `Saving every event to ${options.save}\n`
  if (options.forwardTo && options.signingSecret && credentialsChecked()) {
    notice += `Forwarding to ${options.forwardTo}, each delivery signed: header ${SIGNATURE_HEADER} t=TIME,v1=HMAC-SHA256 of "TIME.BODY". Your signing secret is ${options.signingSecret} (gw listen --print-secret prints it).\n`
  } else if (options.forwardTo && options.signingSecret) {
    notice += `Forwarding to ${options.forwardTo} unsigned: gw listen signs only deliveries that carried the gateway's credentials (--register, or --auth), so that a signature says the gateway sent it.\n`
  }
  if (webHookId && register?.automatic) {
    notice += `Registered as web hook ${webHookId} with the local gateway at ${register.automatic.gateway}, as stripe listen does; it is removed when gw listen stops (--no-register leaves the gateway alone).\n`
  } else if (webHookId) notice += `Registered as web hook ${webHookId} with the gateway; it is removed when gw listen stops.\n`
  else if (!register) notice += `To have the gateway deliver here, run with --register, or register ${reachableUrl(receiver.url)} yourself.\n`
  const beyondLoopback = !isLoopbackHost(options.host)
  if (webHookId && ownCredentials) notice += 'Only deliveries carrying the credentials it was registered with (fresh for this run) are taken; anything else is refused (401), never forwarded.\n'
  else if (options.auth) notice += 'Only deliveries carrying the --auth credentials are taken; anything else is refused (401), never forwarded.\n'
  else {
    const anyone = beyondLoopback ? `who can reach ${options.host}, other machines too` : 'on this machine'
    notice += `${warning} gw listen takes deliveries from anyone ${anyone}: --register has it registered with credentials of its own, and --auth - (USER:PASS read from stdin, or --auth-file FILE) takes only those of a registration made elsewhere, with no password in argv.\n`
  }
  if (beyondLoopback && (options.auth || webHookId)) notice += `${warning} listening on ${options.host} lets other machines reach gw listen, and plain HTTP shows them the credentials deliveries carry.\n`
  io.err(notice)

  const signal = await Promise.race([stopSignal, readerGone])
  io.err('Stopping: finishing the deliveries in flight (Ctrl-C again to quit at once).\n')
  await Promise.race([receiver.close(), quit])
  await Promise.all([log?.close(), forwarder?.close()])
  if (webHookId && options.register) {
    await options.register.remove(webHookId).then(
      () => io.err(`Removed web hook ${webHookId}.\n`),
      (err: Error) =>
        err instanceof GwError && err.kind === 'not_found'
          ? io.err(`Web hook ${webHookId} was removed already.\n`)
          : warn(`could not remove web hook ${webHookId} (${err.message}): remove it with gw webhook delete ${webHookId}`),
    )
  }
  const notPrinted = counts.filtered > 0 ? ` (${counts.filtered} more not shown: not in --events)` : ''
  io.err(`Stopped. ${counts.printed} event${counts.printed === 1 ? '' : 's'} shown${notPrinted}, ${counts.refused} request${counts.refused === 1 ? '' : 's'} refused.\n`)
  return signal === 'SIGINT' ? 130 : 0
}

/** What earlier gw listens left registered, removed: said in the notice; a gateway that cannot tell is only warned about. */
async function removeAbandoned(register: Registration, address: string, warning: string): Promise<string> {
  try {
    const removed = (await register.removeAbandoned?.(address)) ?? []
    return removed.map((hook) => `Removed web hook ${sanitizeLine(String(hook.id))}: a gw listen no longer running left it registered for ${sanitizeLine(String(hook.address))}.\n`).join('')
  } catch (err) {
    if (!(err instanceof GwError) || err.kind === 'interrupted') throw err
    return `${warning} could not look for web hooks left by earlier gw listens (${sanitizeLine(err.message)}).\n`
  }
}

/** Credentials for a registration made here: random, used for this run only, never shown. */
function freshCredentials(): Credentials {
  return {username: `gw-listen-${randomBytes(4).toString('hex')}`, password: randomBytes(24).toString('base64url')}
}

function withoutAuthorization(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const {authorization: _authorization, ...rest} = headers
  return rest
}

/** The gateway says Sandbox (or Test) or Live; profiles say sandbox or live. */
function modeMatches(mode: string, environment: 'sandbox' | 'live'): boolean {
  const live = mode.toLowerCase() === 'live'
  return environment === 'live' ? live : !live
}

/** Resolves with the first of `signals` (Ctrl-Break as SIGTERM); a second one runs `again` (quit at once). */
function nextSignal(again: () => void, signals: readonly StopSignalName[] = ['SIGINT', 'SIGTERM']): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: StopSignalName) => {
      for (const each of signals) {
        process.off(each, onSignal)
        process.once(each, again)
      }
      resolve(stopMeaning(signal))
    }
    for (const each of signals) process.on(each, onSignal)
  })
}
