import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

/** A request as the gateway received it: the raw path (still encoded) and the body parsed when it is JSON. */
export interface Received {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown> | undefined
  /** The body as it came. */
  text: string
}

/** What the gateway does with a request: answer with these bytes, or drop the connection after reading it. */
export type Reply = {status?: number; headers?: Record<string, string>; body?: string | object | null} | 'drop'

export interface MisbehavingGateway {
  url: string
  received: Received[]
  /** How many POSTs to `path` carried this reference: a purchase or refund must never be sent twice. */
  posts(path: string, reference: string): number
  close(): Promise<void>
}

/** The envelope the gateway wraps every answer in, in sandbox mode unless `test` says otherwise. */
export function envelope(response: unknown, {successful = true, errors = [] as string[], test = true} = {}): object {
  return {successful, response, errors, test}
}

/**
 * A gateway of a test's own, over real HTTP: each request is answered as `reply` says, so a test
 * can send what the real gateway sometimes does (a 200 with broken JSON, a record with another
 * reference, a Live mode) and count what the client sent.
 */
export async function misbehavingGateway(reply: (request: Received, index: number) => Reply | Promise<Reply>): Promise<MisbehavingGateway> {
  const received: Received[] = []
  const server: Server = createServer(async (req, res) => {
    let text = ''
    for await (const chunk of req) text += chunk
    let body: Record<string, unknown> | undefined
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined
    } catch {
      body = undefined
    }
    const request = {method: req.method!, path: req.url!, headers: req.headers, body, text}
    received.push(request)
    const answer = await reply(request, received.length - 1)
    if (answer === 'drop') return void req.socket.destroy()
    const payload = typeof answer.body === 'string' ? answer.body : answer.body === undefined ? '' : JSON.stringify(answer.body)
    res.writeHead(answer.status ?? 200, {'content-type': 'application/json', ...answer.headers})
    res.end(payload)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    posts: (path, reference) => received.filter((request) => request.method === 'POST' && request.path === path && request.body?.reference === reference).length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Passes a request on to a real gateway (the local one) and hands back its answer, for a test to pass on or to lose. */
export async function forward(upstream: string, request: Received): Promise<{status: number; headers: Record<string, string>; body: string}> {
  const response = await fetch(upstream + request.path, {
    method: request.method,
    headers: {authorization: String(request.headers.authorization ?? ''), 'content-type': 'application/json', accept: 'application/json'},
    body: request.text === '' ? undefined : request.text,
  })
  const mode = response.headers.get('x-service-mode')
  return {status: response.status, headers: mode ? {'x-service-mode': mode} : {}, body: await response.text()}
}

/** An approved purchase record as the gateway answers it, for the body that was sent. */
export function purchaseRecord(sent: Record<string, unknown>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const number = typeof sent.card_number === 'string' ? sent.card_number : '4242424242424242'
  return {
    id: '071-P-ABCDEFGH',
    authorization: '12345',
    card_number: number.slice(0, 6) + 'X'.repeat(number.length - 10) + number.slice(-4),
    card_holder: sent.card_holder ?? 'Jane Citizen',
    card_expiry: '2030-12-31',
    card_token: typeof sent.card_token === 'string' ? sent.card_token : 'abcdefghij0123456789',
    amount: sent.amount,
    decimal_amount: Number(sent.amount) / 100,
    successful: true,
    message: 'Approved',
    reference: sent.reference,
    currency: sent.currency ?? 'AUD',
    transaction_date: '2026-11-22T10:00:00+11:00',
    ...overrides,
  }
}
