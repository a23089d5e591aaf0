import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {systemClock, type Clock} from './clock.js'
import type {Mode, SandboxContext} from './context.js'
import {removeRuntimeFile, writeRuntimeFile} from './daemon.js'
import {FaultList} from './faults.js'
import {createRequestListener} from './http.js'
import {TEST_MERCHANT, merchantPrefixes, newRecordId} from './ids.js'
import {loadState, saveState} from './persist.js'
import {routes} from './routes/index.js'
import {Store} from './store.js'

export interface MerchantCredentials {
  username: string
  token: string
}

export interface SandboxOptions {
  /** 0 picks a free port. */
  port: number
  host: string
  /** Where records are kept between runs; without it they live in memory only. */
  stateFile?: string
  mode: Mode
  /** Merchants besides TEST/TEST, which always exists. */
  merchants: MerchantCredentials[]
  /** Written once the server listens and removed on close, for `gw sandbox status` and `stop`. */
  runtimeFile?: string
  clock?: Clock
  /** One line per request, and the details of internal errors. */
  log?: (line: string) => void
}

export interface RunningSandbox {
  url: string
  port: number
  /** Stops accepting connections, ends idle keep-alive ones, and resolves once all are closed. */
  close(): Promise<void>
}

/** How long requests in progress get to finish when the sandbox closes. */
const CLOSE_GRACE_MS = 2000

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const {host, mode, stateFile, runtimeFile, clock = systemClock, log = () => {}} = options
  const tokens = credentialsByUsername(options.merchants)
  const prefixes = merchantPrefixes([...tokens.keys()])
  const store = new Store(stateFile ? loadState(stateFile) : undefined)
  const closing = new AbortController()
  const ctx: SandboxContext = {
    store,
    clock,
    faults: new FaultList(),
    mode,
    merchants: [...tokens.keys()],
    url: '',
    newId: (merchant, type) => newRecordId(prefixOf(prefixes, merchant), type),
  }

  let savedRevision = store.revision
  const server = createServer(
    createRequestListener({
      routes,
      ctx,
      mode,
      faults: ctx.faults,
      authenticate: (username, token) => tokens.get(username) === token,
      afterHandle() {
        if (!stateFile || store.revision === savedRevision) return
        saveState(stateFile, store.snapshot())
        savedRevision = store.revision
      },
      signal: closing.signal,
      log,
    }),
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })

  const {port} = server.address() as AddressInfo
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  ctx.url = url
  if (runtimeFile) {
    const startedAt = new Date().toISOString()
    try {
      writeRuntimeFile(runtimeFile, {pid: process.pid, url, host, port, mode, stateFile: stateFile ?? null, startedAt})
    } catch (error) {
      server.close()
      throw error
    }
  }

  let closed: Promise<void> | undefined
  const shutdown = async () => {
    closing.abort()
    const stopped = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    server.closeIdleConnections()
    const forceClose = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
    try {
      await stopped
    } finally {
      clearTimeout(forceClose)
      if (runtimeFile) removeRuntimeFile(runtimeFile, process.pid)
    }
  }
  return {url, port, close: () => (closed ??= shutdown())}
}

/** TEST/TEST is the vendor's public demo merchant (gateway-notes.md) and is always there. */
function credentialsByUsername(merchants: MerchantCredentials[]): Map<string, string> {
  const tokens = new Map([[TEST_MERCHANT, TEST_MERCHANT]])
  for (const {username, token} of merchants) {
    if (tokens.has(username)) throw new Error(`Merchant ${username} is given twice (TEST/TEST is built in)`)
    tokens.set(username, token)
  }
  return tokens
}

function prefixOf(prefixes: Map<string, string>, merchant: string): string {
  const prefix = prefixes.get(merchant)
  if (prefix === undefined) throw new Error(`No id prefix for merchant ${merchant}`)
  return prefix
}
