import {createServer, request as httpRequest, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

/** A request the proxy passed on: its method, raw path, the `reference` of a JSON body (when it had one), and when it arrived. */
export interface Counted {
  method: string
  path: string
  reference?: string
  /** performance.now() as it arrived. */
  at: number
}

export interface CountingProxy {
  /** The proxy's own base URL: point gw at it instead of the gateway. */
  url: string
  /** The proxy's port: it listens on every address, IPv6 too, so `http://localhost:PORT` reaches it as well. */
  port: number
  /** The gateway each request goes on to, read as it arrives: set it to put another gateway at the proxy's address (a restart). */
  target: string
  /** Every request passed on, in arrival order (counted when it arrives, before the gateway answers). */
  seen: Counted[]
  /** How many POSTs carried this reference, to any path: a purchase or refund must be sent once. */
  posts(reference: string): number
  /** How many POSTs were passed on, to any path, with a reference or without. */
  postCount(): number
  /** Each reference POSTed, with how many times, in the order each was first sent. */
  references(): Map<string, number>
  /** Every reference POSTed more than once, with its count: `{}` when each went once. */
  repeats(): Record<string, number>
  /** The paths of the GETs passed on, from the `from`-th request seen (`seen.length` before a run: that run's). */
  gets(from?: number): string[]
  /** Resolves with the n-th POST (1 for the first) once it has arrived: where a test kills the gw that sent it. */
  post(n: number): Promise<Counted>
  /** Resolves with the first request that matches, once it has arrived (it is then on its way to the gateway, or held). */
  arrived(match: (request: Counted) => boolean): Promise<Counted>
  /** Resolves with the first request that matches once the gateway's answer to it has been passed back whole. */
  answered(match: (request: Counted) => boolean): Promise<Counted>
  close(): Promise<void>
}

/**
 * A reverse proxy in front of a real gateway (the local one) that counts what gw sends through it.
 * It changes nothing but what `strip` names: headers, bodies and status pass both ways as they are,
 * so gw cannot tell it is there, and a count of POSTs per reference is the test of "never sent twice"
 * whatever gw believes. The count survives gw being killed: it is the proxy's, not gw's.
 */
export async function countingProxy(upstream: string, {hold, strip = []}: ProxyOptions = {}): Promise<CountingProxy> {
  const seen: Counted[] = []
  const done: Counted[] = []
  const waiting: Waiter[] = []
  const waitingAnswers: Waiter[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const counted = {method: req.method!, path: req.url!, reference: referenceOf(body), at: performance.now()}
      seen.push(counted)
      const passOn = () => {
        const target = new URL(proxy.target)
        // A connection of its own each time (agent: false). A kept-alive one that the gateway closes
        // as the proxy reuses it would lose a request already counted, and a test would blame gw.
        const onward = httpRequest(
          {hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: {...req.headers, host: target.host}, agent: false},
          (answer) => {
            const headers = {...answer.headers}
            for (const name of strip) delete headers[name.toLowerCase()]
            res.writeHead(answer.statusCode ?? 502, headers)
            answer.pipe(res)
            answer.on('end', () => {
              done.push(counted)
              notify(waitingAnswers, counted)
            })
          },
        )
        onward.on('error', () => res.destroy())
        // gw killed while its answer is on the way: nothing is left to answer.
        res.on('error', () => {})
        // gw gone (killed) mid-request: the gateway still gets the whole request, as a real one would.
        onward.end(body)
      }
      const held = hold?.(counted)
      if (held) void held.then(passOn)
      else passOn()
      notify(waiting, counted)
    })
  })
  // Every address, IPv6 too where there is one, so that localhost reaches it whichever it resolves to first.
  await new Promise<void>((resolve) => {
    server.once('error', () => server.listen(0, '127.0.0.1', resolve))
    server.listen({port: 0, host: '::', ipv6Only: false}, resolve)
  })
  const port = (server.address() as AddressInfo).port
  const sentPosts = () => seen.filter((r) => r.method === 'POST')
  const references = () => {
    const counts = new Map<string, number>()
    for (const r of sentPosts()) if (r.reference !== undefined) counts.set(r.reference, (counts.get(r.reference) ?? 0) + 1)
    return counts
  }
  const proxy: CountingProxy = {
    url: `http://127.0.0.1:${port}`,
    port,
    target: upstream,
    seen,
    posts: (reference) => references().get(reference) ?? 0,
    postCount: () => sentPosts().length,
    references,
    repeats: () => Object.fromEntries([...references()].filter(([, n]) => n > 1)),
    gets: (from = 0) => seen.slice(from).flatMap((r) => (r.method === 'GET' ? [r.path] : [])),
    post: (n) => firstOf(seen, waiting, (request) => request.method === 'POST' && sentPosts().indexOf(request) === n - 1),
    arrived: (match) => firstOf(seen, waiting, match),
    answered: (match) => firstOf(done, waitingAnswers, match),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return proxy
}

interface ProxyOptions {
  /**
   * Holds a request before it goes on to the gateway until the promise returned for it settles (as
   * a gateway still processing it would: no record of it yet); undefined passes it on at once.
   */
  hold?: (request: Counted) => Promise<void> | undefined
  /** Response headers dropped on the way back: `X-Sandbox-Instance` makes a gateway that names no run of its data, as the live one. */
  strip?: string[]
}

interface Waiter {
  match: (request: Counted) => boolean
  resolve: (request: Counted) => void
}

function notify(waiters: Waiter[], counted: Counted): void {
  for (const waiter of waiters.filter((w) => w.match(counted))) {
    waiters.splice(waiters.indexOf(waiter), 1)
    waiter.resolve(counted)
  }
}

function firstOf(list: Counted[], waiters: Waiter[], match: (request: Counted) => boolean): Promise<Counted> {
  return new Promise((resolve) => {
    const already = list.find(match)
    if (already) resolve(already)
    else waiters.push({match, resolve})
  })
}

function referenceOf(body: Buffer): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'))
    const reference = (parsed as {reference?: unknown} | null)?.reference
    return typeof reference === 'string' ? reference : undefined
  } catch {
    return undefined
  }
}
