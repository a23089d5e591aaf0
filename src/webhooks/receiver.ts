import {createHash, timingSafeEqual} from 'node:crypto'
import {createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo, Socket} from 'node:net'
import {browserGuard} from '../lib/browser-guard.js'

/** A delivery as it arrived: the exact bytes (to forward them untouched) and the headers. */
export interface RawDelivery {
  body: Buffer
  headers: IncomingHttpHeaders
}

export interface ReceiverOptions {
  host: string
  port: number
  path: string
  /** Names besides loopback's and `host` that senders may address it by, and web pages let in: browser-guard.ts. */
  allowedHosts: readonly string[]
  allowedOrigins: readonly string[]
  /** The Basic credentials every delivery must carry; none, and anyone who can reach it may deliver. */
  auth?: Credentials
  maxBodyBytes: number
  /** How long a sender may take to send one whole delivery before it is cut off with 408. */
  receiveTimeoutMs: number
  /** Turns a well-formed POST into the status to answer; runs concurrently for concurrent deliveries. */
  handle: (delivery: RawDelivery) => Promise<number>
  /** A request refused before it reached handle: wrong method, credentials, size, a stalled sender. */
  refused: (status: number, reason: string) => void
}

export interface Credentials {
  username: string
  password: string
}

export interface Receiver {
  url: string
  /** From now on, deliveries must carry these credentials, or (undefined) none. */
  requireCredentials(auth: Credentials | undefined): void
  /** Stops accepting, lets the deliveries in flight finish, then drops every connection. */
  close(): Promise<void>
}

/** The node:http edge of `gw listen`: who may send (browser-guard.ts), method, path, credentials, size and time limits. */
export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  // Compared as digests of equal length, in constant time: how long a refusal takes tells nothing of the password.
  const digestOf = (auth: Credentials | undefined) => auth && digest('Basic ' + Buffer.from(`${auth.username}:${auth.password}`).toString('base64'))
  let expectedAuth = digestOf(options.auth)
  const guard = browserGuard({listenHost: options.host, allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins, server: 'web hook receiver', command: 'gw listen'})
  // A count, not a set of promises: a Set's table is reallocated as deliveries come and go, and
  // those tables outlive young-generation GCs, so memory crept up until a full GC.
  let inFlight = 0
  let lastOneDone: (() => void) | undefined
  const server = createServer({
    requestTimeout: options.receiveTimeoutMs,
    headersTimeout: options.receiveTimeoutMs,
    // Node checks the two timeouts above only this often (30 s by default).
    connectionsCheckingInterval: Math.min(1000, options.receiveTimeoutMs),
  })

  server.on('request', (req: IncomingMessage, res: ServerResponse) => void serve(req, res))
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    options.refused(timedOut ? 408 : 400, timedOut ? `a sender took more than ${options.receiveTimeoutMs} ms to send its delivery; cut off` : `a request could not be read as HTTP (${err.code ?? err.message})`)
    socket.end(`HTTP/1.1 ${timedOut ? '408 Request Timeout' : '400 Bad Request'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
    socket.destroySoon()
  })

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    inFlight++
    try {
      const verdict = guard(req.method ?? 'GET', req.headers)
      for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value)
      if (verdict.status === 204) return void res.writeHead(204, {'content-length': 0}).end()
      if (verdict.error !== undefined) return refuse(res, 403, verdict.error, {}, {successful: false, errors: [verdict.error], response: null})
      const path = (req.url ?? '/').split('?')[0]
      if (path !== options.path) return refuse(res, 404, `${req.method} ${path}: not the path gw listens on (${options.path})`)
      if (req.method !== 'POST') return refuse(res, 405, `${req.method} ${path}: deliveries are POSTs`, {allow: 'POST'})
      if (expectedAuth && !timingSafeEqual(expectedAuth, digest(req.headers.authorization ?? ''))) {
        return refuse(res, 401, `POST ${path} without the credentials of this receiver's web hook (HTTP Basic): not taken, not forwarded`, {'www-authenticate': 'Basic realm="gw listen"'})
      }
      const declared = Number(req.headers['content-length'] ?? 0)
      if (declared > options.maxBodyBytes) return refuse(res, 413, `a delivery of ${declared} bytes is over the ${options.maxBodyBytes}-byte limit`)
      const body = await readBody(req, options.maxBodyBytes)
      if (body === 'too-large') return refuse(res, 413, `a delivery is over the ${options.maxBodyBytes}-byte limit`)
      if (body === 'aborted') return
      let status
      try {
        status = await options.handle({body, headers: req.headers})
      } catch (err) {
        // Not acknowledged, so the gateway delivers it again (a full disk under --save, say).
        options.refused(500, `a delivery could not be handled: ${(err as Error).message}`)
        status = 500
      }
      res.writeHead(status, {'content-length': 0}).end()
    } finally {
      if (--inFlight === 0) lastOneDone?.()
    }
  }

  function refuse(res: ServerResponse, status: number, reason: string, headers: Record<string, string> = {}, body?: unknown): void {
    options.refused(status, reason)
    const text = body === undefined ? '' : JSON.stringify(body)
    const type = body === undefined ? {} : {'content-type': 'application/json'}
    // The rest of a refused body is not worth reading: close rather than drain it.
    res.writeHead(status, {...headers, ...type, connection: 'close', 'content-length': Buffer.byteLength(text)}).end(text)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}${options.path}`,
    requireCredentials: (auth) => void (expectedAuth = digestOf(auth)),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      if (inFlight > 0) await new Promise<void>((resolve) => (lastOneDone = resolve))
      server.closeAllConnections()
      await closed
    },
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.removeAllListeners('data')
        req.pause()
        resolve('too-large')
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks, size)))
    req.on('close', () => {
      if (!req.complete) resolve('aborted')
    })
  })
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}
