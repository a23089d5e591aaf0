import {randomBytes} from 'node:crypto'
import {hostPlatform, type Platform} from '../../lib/platform.js'
import {catchUp} from '../domain/billing.js'
import {VirtualClock, systemClock, type Clock} from '../domain/clock.js'
import type {SandboxContext} from '../context.js'
import type {Mode} from '../domain/mode.js'
import {removeRuntimeFile, writeRuntimeFile} from './runtime-file.js'
import {ownProcess} from './gateway-process.js'
import {Deliveries} from './delivery.js'
import {DisposerStack} from './disposer-stack.js'
import {SandboxError} from '../domain/errors.js'
import {FaultList} from './faults.js'
import {jittered, RateLimit} from './manners.js'
import {sandboxGuard} from './guard.js'
import {createRequestListener} from './http.js'
import {credentialsByUsername, merchantPrefixes, newRecordId, newUuid, prefixOf, type MerchantCredentials} from '../domain/ids.js'
import {Journal} from './journal.js'
import type {OpenState} from './persist.js'
import {reasonOf, StateFileError, unsavedAnswer} from './state-file-error.js'
import {RequestLog} from './request-log.js'
import {listen} from './socket.js'
import {routes} from '../routes/route-table.js'
import {Store} from '../domain/store.js'
import type {StateWrite} from './state-database.js'
import {registerStartHook} from '../domain/web-hook.js'
import type {WebHookOrder} from '../domain/web-hook-order.js'
import type {Dialect} from '../dialect.js'

export interface SandboxOptions {
  /** 0 picks a free port. */
  port: number
  host: string
  /** Names besides loopback's and `host` that requests may address it by (--allow-host): guard.ts. */
  allowedHosts?: string[]
  /** Web pages let in, by origin (--allow-origin): guard.ts. */
  allowedOrigins?: string[]
  /** Where records are kept between runs; without it they live in memory only. */
  stateFile?: string
  mode: Mode
  /** The contract's answers (the default) or the live gateway's: dialect.ts. */
  dialect?: Dialect
  /** Merchants besides TEST/TEST, which always exists. */
  merchants: MerchantCredentials[]
  /** Written once the server listens and removed on close, for `gw sandbox status` and `stop`; it keeps this run's control token. */
  runtimeFile?: string
  /** Its --name as given, kept in the runtime file. */
  name?: string
  /** The secret its stop, and beyond loopback its controls, take (guard.ts); a random one when not given. */
  controlToken?: string
  /** Beyond loopback, let merchant TEST in with its published token (--open-test-merchant). */
  openTestMerchant?: boolean
  /** The system it runs on: what it writes of its own process in the runtime file (lib/processes.ts). */
  platform?: Platform
  /** The most it takes to process a request, faults aside: DEFAULT_PROCESSING_WINDOW_MS unless given. */
  processingWindowMs?: number
  /** Each merchant's API requests a second, past which they are answered 429 (manners.ts); none unless given. */
  rateLimit?: number
  /** How long each API answer waits once its request is done (give or take a quarter), as over a network; none unless given. */
  latencyMs?: number
  /** The order its lists of web hooks come in: oldest first unless given. */
  webHookOrder?: WebHookOrder
  /** The real clock; the sandbox's virtual date starts at its date. */
  clock?: Clock
  /** Addresses that receive every event of merchant TEST from the start (`gw sandbox start --webhook`). */
  webhooks?: string[]
  /** The wait after a failed web hook delivery, doubled after each further failure. */
  webhookBackoffMs?: number
  /** Attempts of one delivery before it is given up. */
  webhookAttempts?: number
  /** How long a receiver may take to answer. */
  webhookTimeoutMs?: number
  /** One line per request, and the details of internal errors. */
  log?: (line: string) => void
  /** How long a client may take to send its headers, and its whole request; then it gets a 408. */
  headersTimeoutMs?: number
  requestTimeoutMs?: number
  /** How each write to the state file is run; tests inject a disk that fails. */
  stateWrite?: StateWrite
  /**
   * The log of the requests answered (`gw sandbox logs`): kept in memory, and appended to `file`
   * when one is given, rotated past `maxBytes`. false turns it off. On, in memory, by default.
   */
  requestLog?: false | {file?: string; maxBytes?: number}
}

export interface RunningSandbox {
  url: string
  port: number
  /** What its stop, and beyond loopback its controls, take (Authorization: Bearer). */
  controlToken: string
  /** Resolves once its control API was asked to stop it (POST /_sandbox/stop): whoever runs it then closes it, as on SIGTERM. */
  stopAsked: Promise<void>
  /**
   * Stops deliveries and accepting connections, ends idle keep-alive ones, folds the state file's
   * changes into a snapshot, then lets go of the rest: everything the start opened, in the reverse
   * order, once.
   */
  close(): Promise<void>
}

/**
 * The local gateway answers as soon as it has read a request: its processing window (design.md §5)
 * is short, to let a fault test end in seconds, not the live gateway's minute. A fault's delay adds
 * to it, and so does --latency (control.ts showClock).
 */
export const DEFAULT_PROCESSING_WINDOW_MS = 2000

/** How long queue changes made by deliveries may wait to be saved. */
const DELIVERY_SAVE_MS = 200

/** Eight attempts wait 1 + 2 + ... + 64 s in all: a receiver may be down for two minutes and miss nothing. */
const WEBHOOK_DEFAULTS = {backoffMs: 1000, attempts: 8, timeoutMs: 10_000}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const log = options.log ?? (() => {})
  const unreleased = (error: unknown) => log(`could not let go of what the gateway had opened: ${String(error)}`)
  const opened = new DisposerStack(unreleased)
  const controlToken = options.controlToken ?? randomBytes(32).toString('base64url')
  let askToStop = () => {}
  const stopAsked = new Promise<void>((resolve) => (askToStop = resolve))
  try {
    const {url, port} = await openGateway({...options, controlToken}, askToStop, log, opened)
    return {url, port, controlToken, stopAsked, close: () => opened.unwind()}
  } catch (error) {
    // The error says why the start failed; a release that fails as well is only logged.
    await opened.unwind().catch(unreleased)
    throw error
  }
}

/**
 * Opens the gateway: its state file (held under its lock), its request log, its journal, its
 * socket, its web hook deliveries, its runtime file, in that order, each registering its release
 * with `opened` as it opens. Unwound, they go in the reverse order, but for the runtime file, which
 * goes last: deliveries stop and requests end before the journal becomes one snapshot, and the
 * file is held until that is on disk.
 */
async function openGateway(options: SandboxOptions & {controlToken: string}, askToStop: () => void, log: (line: string) => void, opened: DisposerStack): Promise<{url: string; port: number}> {
  const {host, mode, stateFile, runtimeFile, clock = systemClock} = options
  const {
    webhookBackoffMs = WEBHOOK_DEFAULTS.backoffMs,
    webhookAttempts = WEBHOOK_DEFAULTS.attempts,
    webhookTimeoutMs = WEBHOOK_DEFAULTS.timeoutMs,
  } = options
  const tokens = credentialsByUsername(options.merchants)
  const prefixes = merchantPrefixes([...tokens.keys()])
  const state = stateFile ? (await import('./persist.js')).openState(stateFile, options.stateWrite) : undefined
  if (state) opened.defer(() => state.close())
  const store = state?.store ?? new Store()
  const requests = options.requestLog === false ? undefined : await openRequestLog(options.requestLog ?? {}, log)
  if (requests) opened.defer(() => requests.close())

  let journal: Journal | undefined
  /** Resolves once the store's changes are durable; without a state file they are simply kept. */
  const commit = (): Promise<void> => {
    if (journal) return journal.commit()
    store.takeBatch()
    return Promise.resolve()
  }
  // Deliveries change the queue outside requests, often: one commit covers a burst of them.
  let deliverySave: NodeJS.Timeout | undefined
  const saveDeliveries = () => {
    deliverySave = undefined
    commit().catch((error: unknown) => log(`could not save the delivery queue: ${String(error)}`))
  }
  const deliveries = new Deliveries({
    store,
    mode,
    backoffMs: webhookBackoffMs,
    maxAttempts: webhookAttempts,
    timeoutMs: webhookTimeoutMs,
    onChange() {
      deliverySave ??= setTimeout(saveDeliveries, DELIVERY_SAVE_MS).unref()
    },
  })
  const ctx: SandboxContext = {
    store,
    clock: new VirtualClock(clock, store),
    faults: new FaultList(),
    deliveries,
    mode,
    merchants: [...tokens.keys()],
    requests,
    processingWindowMs: options.processingWindowMs ?? DEFAULT_PROCESSING_WINDOW_MS,
    latencyMs: options.latencyMs ?? 0,
    webHookOrder: options.webHookOrder ?? 'oldest',
    controlToken: options.controlToken,
    url: '',
    process: {pid: process.pid, requestStop: askToStop},
    newId: (merchant, type) => newRecordId(prefixOf(prefixes, merchant), type),
  }
  catchUp(ctx)
  // Before the first snapshot, which keeps it: the same --state file holds this run next time.
  store.beginRun(newUuid())
  for (const address of options.webhooks ?? []) registerStartHook(ctx, address)
  if (state) {
    const started = startJournal(state)
    journal = started
    // Deliveries have stopped and requests are over by the time this runs: what they changed is saved, and the file becomes one snapshot.
    opened.defer(() => started.close())
  } else store.takeBatch()

  const closing = new AbortController()
  const listening = await listen(
    createRequestListener({
      routes,
      ctx,
      mode,
      dialect: options.dialect ?? 'contract',
      faults: ctx.faults,
      ...(options.rateLimit === undefined ? {} : {rateLimit: new RateLimit(options.rateLimit)}),
      ...(options.latencyMs ? {answerDelayMs: () => jittered(ctx.latencyMs)} : {}),
      authenticate: (username, token) => tokens.get(username) === token,
      beforeHandle: () => catchUp(ctx),
      async afterHandle() {
        try {
          await commit()
        } catch (error) {
          const answer = unsavedAnswer(error)
          log(`could not save a change to ${stateFile}: ${answer.join(' ')}`)
          throw new SandboxError(500, answer)
        }
      },
      signal: closing.signal,
      log,
      answered: requests && ((exchange) => requests.add(exchange)),
      instance: () => store.instance,
      guard: sandboxGuard({
        listenHost: host,
        allowedHosts: options.allowedHosts ?? [],
        allowedOrigins: options.allowedOrigins ?? [],
        mode,
        controlToken: options.controlToken,
        openTestMerchant: options.openTestMerchant,
      }),
    }),
    {port: options.port, host, mode, headersTimeoutMs: options.headersTimeoutMs, requestTimeoutMs: options.requestTimeoutMs, log},
  )
  opened.defer(() => {
    // Requests a fault is delaying are cut short, rather than hold the close up.
    closing.abort()
    return listening.close()
  })

  deliveries.start()
  opened.defer(async () => {
    await deliveries.close()
    clearTimeout(deliverySave)
  })

  const {url, port} = listening
  ctx.url = url
  if (runtimeFile) {
    writeRuntimeFile(runtimeFile, {
      pid: process.pid,
      url,
      host,
      port,
      mode,
      dialect: options.dialect ?? 'contract',
      processingWindowMs: ctx.processingWindowMs,
      rateLimit: options.rateLimit ?? null,
      latencyMs: ctx.latencyMs,
      webHookOrder: ctx.webHookOrder,
      stateFile: stateFile ?? null,
      startedAt: new Date().toISOString(),
      webhooks: options.webhooks ?? [],
      merchants: options.merchants.map((merchant) => merchant.username),
      requestLog: options.requestLog === false ? null : (options.requestLog?.file ?? null),
      ...(options.allowedHosts?.length ? {allowedHosts: options.allowedHosts} : {}),
      ...(options.allowedOrigins?.length ? {allowedOrigins: options.allowedOrigins} : {}),
      ...(options.name === undefined ? {} : {name: options.name}),
      controlToken: options.controlToken,
      ...ownProcess(options.platform ?? hostPlatform()),
      ...(options.openTestMerchant ? {openTestMerchant: true} : {}),
    })
    // While it is there, gw sandbox status says the gateway runs: it goes once the rest is let go.
    opened.deferLast(() => removeRuntimeFile(runtimeFile, process.pid))
  }
  return {url, port}
}

async function openRequestLog(options: {file?: string; maxBytes?: number}, log: (line: string) => void): Promise<RequestLog> {
  try {
    return await RequestLog.open({...options, report: log})
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    throw new StateFileError(`Cannot write the request log ${options.file} (${reason})`, 'Start it with --state in a folder gw can write to, or with --no-request-log.')
  }
}

function startJournal(state: OpenState): Journal {
  try {
    return Journal.start(state)
  } catch (error) {
    throw new StateFileError(`Cannot write the state file ${state.path} (${reasonOf(error)})`)
  }
}
