import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {RUN_BOUND_MS, until} from '../until.js'

export interface Delivery {
  event: string
  payload: Record<string, unknown>[]
  headers: IncomingHttpHeaders
}

/** A web hook receiver for a test: records every delivery it acknowledges, in arrival order. */
export interface Receiver {
  url: string
  port: number
  deliveries: Delivery[]
  /** Resolves once `count` deliveries arrived; fails with what did arrive after timeoutMs. */
  waitFor(count: number, timeoutMs?: number): Promise<Delivery[]>
  close(): Promise<void>
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const deliveries: Delivery[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const parsed = JSON.parse(body) as {event: string; payload: Record<string, unknown>[]}
      deliveries.push({event: parsed.event, payload: parsed.payload, headers: req.headers})
      res.writeHead(200, {'content-type': 'application/json'}).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const bound = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    port: bound,
    deliveries,
    waitFor: (count, timeoutMs = RUN_BOUND_MS) =>
      until(() => `${count} deliveries, got ${deliveries.length}: ${deliveries.map((d) => d.event).join(', ')}`, () => deliveries.length >= count && deliveries, timeoutMs, 25),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A port nothing listens on (for now): bound, then released. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
