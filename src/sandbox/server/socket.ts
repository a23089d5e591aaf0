import {STATUS_CODES, createServer, type RequestListener, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {Duplex} from 'node:stream'
import {envelope} from '../domain/envelope.js'
import type {Mode} from '../domain/mode.js'

export interface SocketOptions {
  /** 0 picks a free port. */
  port: number
  host: string
  mode: Mode
  /** How long a client may take to send its headers, and its whole request; then it gets a 408. */
  headersTimeoutMs?: number
  requestTimeoutMs?: number
  log(line: string): void
}

/** The gateway's socket, once it listens. */
export interface Listening {
  url: string
  port: number
  /** Stops accepting connections, ends idle keep-alive ones, and resolves once all are closed; requests in progress get CLOSE_GRACE_MS. */
  close(): Promise<void>
}

/** How long requests in progress get to finish when the sandbox closes. */
const CLOSE_GRACE_MS = 2000

/**
 * A connection that sends its headers slowly holds a socket, so it is cut off, at Node's own
 * limits: 60 s for the headers, 5 minutes for the whole request. They are counted on the gateway's
 * event loop, so a loaded machine that stalls it between two reads must not trip them.
 */
const TIMEOUTS = {headersMs: 60_000, requestMs: 300_000}

/** Listens for `listener`'s requests; rejects with the socket's error (EADDRINUSE, EACCES) when it cannot. */
export async function listen(listener: RequestListener, options: SocketOptions): Promise<Listening> {
  const {host, mode, log, headersTimeoutMs = TIMEOUTS.headersMs, requestTimeoutMs = TIMEOUTS.requestMs} = options
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Node looks for late connections every 30 s by default: a limit set short (a test's) would pass by that much.
      connectionsCheckingInterval: Math.min(1000, headersTimeoutMs),
    },
    listener,
  )
  server.on('clientError', clientErrorListener(mode))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  // Once listening, a server error (an accept failing for want of file descriptors) is logged, and the gateway carries on.
  server.on('error', (error) => log(`server error: ${error.message}`))
  const {port} = server.address() as AddressInfo
  return {url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, port, close: () => closeGracefully(server)}
}

async function closeGracefully(server: Server): Promise<void> {
  const stopped = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
  server.closeIdleConnections()
  const forceClose = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
  try {
    await stopped
  } finally {
    clearTimeout(forceClose)
  }
}

/**
 * What the server answers when a connection breaks the protocol before a request exists: too
 * slow to send its headers or body (408), headers too large (431), or not HTTP (400). Node's own
 * answers to these have no body; clients of this gateway expect its JSON envelope.
 */
function clientErrorListener(mode: Mode): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    const message = socket as Duplex & {_httpMessage?: {headersSent?: boolean}}
    if (error.code === 'ECONNRESET' || !socket.writable || message._httpMessage?.headersSent) return void socket.destroy()
    const [status, text] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timed out: the request was not received in time']
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'Request headers are too large']
          : [400, 'Request is not valid HTTP']
    const body = JSON.stringify(envelope(mode, false, null, [text]))
    const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`
    socket.end(head + body)
  }
}
