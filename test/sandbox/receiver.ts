import {createServer, type IncomingHttpHeaders} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterThisTest} from '../after-each-test.js'
import {RUN_BOUND_MS, until} from '../until.js'

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
  received(count: number): Promise<Delivery[]>
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
    received: (count) => until(() => `${count} deliveries, received ${deliveries.length}`, () => deliveries.length >= count && deliveries, RUN_BOUND_MS, 10),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  afterThisTest(() => self.close())
  return self
}
