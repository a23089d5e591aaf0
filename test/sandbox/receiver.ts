import {createServer, type IncomingHttpHeaders} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterThisTest} from '../after-each-test.js'

export interface Delivery {
  event: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read whatever the sandbox sent
  payload: any[]
  headers: IncomingHttpHeaders
  /** The body as it came. */
  text: string
}

export interface Receiver {
  url: string
  deliveries: Delivery[]
  /** Answers this status to every delivery until changed; 200 by default. */
  status: number
  /** Waits this long before answering. */
  delayMs: number
  /** Resolves once `count` deliveries were received (accepted ones only). */
  received(count: number, timeoutMs?: number): Promise<Delivery[]>
  close(): Promise<void>
}

export const eventsOf = (deliveries: {event: string}[]) => deliveries.map((delivery) => delivery.event)

/** A web hook receiver on a free port that records every delivery it accepts, closed after the test. */
export async function receiver(port = 0): Promise<Receiver> {
  const deliveries: Delivery[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const {status} = self
      setTimeout(() => {
        if (status === 200) {
          const text = Buffer.concat(chunks).toString('utf8')
          const body = JSON.parse(text) as {event: string; payload: unknown[]}
          deliveries.push({event: body.event, payload: body.payload, headers: req.headers, text})
        }
        if (!res.destroyed) res.writeHead(status).end()
      }, self.delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  const self: Receiver = {
    url,
    deliveries,
    status: 200,
    delayMs: 0,
    async received(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs
      while (deliveries.length < count) {
        if (Date.now() > deadline) throw new Error(`received ${deliveries.length} deliveries, expected ${count}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      return deliveries
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  afterThisTest(() => self.close())
  return self
}
