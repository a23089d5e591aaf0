import {afterEach, describe, expect, it} from 'vitest'
import {GatewayClient, type RateLimitWait, type RecoveryEvent} from '../../../src/api/client.js'
import {GwError, ModeMismatchError, type MoneyInFlight, RateLimitedError} from '../../../src/errors.js'
import {hintFor} from '../../../src/output/hints.js'
import {envelope, type MisbehavingGateway, misbehavingGateway, purchaseRecord, type Reply} from '../../misbehaving-gateway.js'

let gateway: MisbehavingGateway | undefined
afterEach(async () => {
  await gateway?.close()
  gateway = undefined
})

const CARD = {card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '987'}
const purchase = {...CARD, amount: 1000, reference: 'order-1', currency: 'AUD'}
const approved: Reply = {body: envelope(purchaseRecord(purchase))}
const START = Date.parse('2026-11-28T10:00:00Z')

/** The live gateway's 429: its envelope, and Retry-After when `retryAfter` is given. */
const limited = (retryAfter?: string, status = 429): Reply => ({
  status,
  headers: retryAfter === undefined ? {} : {'retry-after': retryAfter},
  body: envelope(null, {successful: false, errors: ['Too Many Requests']}),
})

/** A client whose wall clock moves only when it pauses, by the pause's length; what it was told, kept. */
function clientOf(url: string) {
  const waits: RateLimitWait[] = []
  const recoveries: RecoveryEvent[] = []
  const resent: MoneyInFlight[] = []
  const paused: number[] = []
  let now = START
  const client = new GatewayClient({
    baseUrl: url,
    username: 'TEST',
    token: 'TEST',
    userAgent: 'test',
    onRateLimit: (wait) => waits.push(wait),
    onRecovery: (event) => recoveries.push(event),
    beforeResend: async (inFlight) => void resent.push(inFlight),
    sleep: async (ms) => {
      paused.push(ms)
      now += ms
    },
    now: () => now,
  })
  return {client, waits, recoveries, resent, paused, now: () => now}
}

async function failure(promise: Promise<unknown>): Promise<GwError> {
  try {
    await promise
  } catch (err) {
    if (err instanceof GwError) return err
    throw err
  }
  throw new Error('expected a failure')
}

const requests = () => gateway!.received.map((request) => `${request.method} ${request.path}`)

describe('a read the gateway rate limits waits and tries again', () => {
  it('429 with Retry-After: 2 waits 2 s, then the record; the wait is told before it begins', async () => {
    gateway = await misbehavingGateway((_, index) => (index === 0 ? limited('2') : approved))
    const {client, waits, paused} = clientOf(gateway.url)
    expect(await client.purchases.get('order-1')).toMatchObject({reference: 'order-1'})
    expect(paused).toEqual([2000])
    expect(waits).toEqual([{method: 'GET', path: '/v1.0/purchases/order-1', status: 429, waitMs: 2000, endsAt: START + 2000}])
    expect(requests()).toEqual(['GET /v1.0/purchases/order-1', 'GET /v1.0/purchases/order-1'])
    expect(client.rateLimits).toEqual({limited: 1, waitedMs: 2000})
  })

  it('a Retry-After date is read against the answer’s own Date: 12 s', async () => {
    const said = new Date(START - 300_000)
    const headers = {'retry-after': new Date(said.getTime() + 12_000).toUTCString(), date: said.toUTCString()}
    gateway = await misbehavingGateway((_, index) => (index === 0 ? {status: 429, headers, body: envelope(null, {successful: false, errors: ['Too Many Requests']})} : approved))
    const {client, paused} = clientOf(gateway.url)
    await client.purchases.get('order-1')
    expect(paused).toEqual([12_000])
  })

  it('no Retry-After: gw’s own backoff, jittered within 0.5 to 1 s, then 1 to 2 s', async () => {
    gateway = await misbehavingGateway((_, index) => (index < 2 ? limited() : approved))
    const {client, paused} = clientOf(gateway.url)
    await client.purchases.get('order-1')
    expect(paused).toHaveLength(2)
    expect(paused[0]).toBeGreaterThanOrEqual(500)
    expect(paused[0]).toBeLessThanOrEqual(1000)
    expect(paused[1]).toBeGreaterThanOrEqual(1000)
    expect(paused[1]).toBeLessThanOrEqual(2000)
  })

  it('a 503 with Retry-After is a rate limit too, and uses none of the three tries a failing read has', async () => {
    gateway = await misbehavingGateway((_, index) => (index < 5 ? limited('1', 503) : approved))
    const {client, paused, waits} = clientOf(gateway.url)
    await client.purchases.get('order-1')
    expect(paused).toEqual(Array(5).fill(1000))
    expect(waits.map((wait) => wait.status)).toEqual(Array(5).fill(503))
  })

  it('limited for 60 s, it gives up: exit 9, kind rate_limited, nothing more sent', async () => {
    gateway = await misbehavingGateway(() => ({status: 429, headers: {'retry-after': '10', 'x-request-id': 'req-9'}, body: envelope(null, {successful: false, errors: ['Too Many Requests']})}))
    const {client, paused} = clientOf(gateway.url)
    const error = await failure(client.purchases.get('order-1'))
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({kind: 'rate_limited', exitCode: 9, status: 429, requestId: 'req-9', retryAfterMs: 10_000})
    expect(error.message).toBe('Rate limited by the gateway for 60 s, and it asks gw to wait 10 s more: past the 60 s gw waits')
    expect(hintFor(error)).toBe('Run the same command again later (the gateway asked for 10 s).')
    expect(paused).toEqual(Array(6).fill(10_000))
    expect(gateway.received).toHaveLength(7)
  })

  it('asked for longer than gw waits, it gives up at once, and holds every other request of the client until then, unsent', async () => {
    gateway = await misbehavingGateway(() => limited('120'))
    const {client, paused} = clientOf(gateway.url)
    const error = await failure(client.purchases.get('order-1'))
    expect(error.message).toBe('Rate limited by the gateway: it asks gw to wait 2 min, longer than the 60 s gw waits')
    expect(hintFor(error)).toBe('Run the same command again later (the gateway asked for 2 min).')
    const next = await failure(client.refunds.get('refund-1'))
    expect(next).toMatchObject({kind: 'rate_limited', exitCode: 9, retryAfterMs: 120_000})
    expect(paused).toEqual([])
    expect(gateway.received).toHaveLength(1)
  })
})

describe('a purchase the gateway answers 429 was not processed: sent again, made once', () => {
  it('two 429s, then approved: three POSTs under one reference, the one made reported; the journal hook runs before each resend', async () => {
    gateway = await misbehavingGateway((_, index) => (index < 2 ? limited('1') : approved))
    const {client, resent, recoveries, paused} = clientOf(gateway.url)
    const {record} = await client.purchases.create(purchase)
    expect(record).toMatchObject({reference: 'order-1', successful: true})
    expect(requests()).toEqual(Array(3).fill('POST /v1.0/purchases'))
    expect(gateway.received.every((request) => request.text === gateway!.received[0]!.text)).toBe(true)
    expect(resent).toEqual([
      {noun: 'purchase', reference: 'order-1'},
      {noun: 'purchase', reference: 'order-1'},
    ])
    expect(recoveries).toEqual([])
    expect(paused).toEqual([1000, 1000])
  })

  it('past the bound: exit 9, saying the purchase was not made, and not looked up', async () => {
    gateway = await misbehavingGateway(() => limited('90'))
    const {client} = clientOf(gateway.url)
    const error = await failure(client.purchases.create(purchase))
    expect(error).toMatchObject({kind: 'rate_limited', exitCode: 9, notMade: {noun: 'purchase', reference: 'order-1'}})
    expect(error.message).toBe('Rate limited by the gateway: it asks gw to wait 90 s, longer than the 60 s gw waits; the purchase with reference order-1 was not made')
    expect(hintFor(error)).toBe('Nothing was made: run the same command again later (the gateway asked for 90 s); it sends the purchase once.')
    expect(requests()).toEqual(['POST /v1.0/purchases'])
  })

  it('a hook that fails (a journal that cannot be written) sends nothing more', async () => {
    gateway = await misbehavingGateway((_, index) => (index === 0 ? limited('1') : approved))
    const {client} = clientOf(gateway.url)
    const forget = client.beforeResend(() => Promise.reject(new Error('EIO')))
    await expect(client.purchases.create(purchase)).rejects.toThrow('EIO')
    forget()
    expect(gateway.received).toHaveLength(1)
    // The gate let the request go: the next one is sent.
    expect(await client.purchases.get('order-1')).toMatchObject({reference: 'order-1'})
  })

  it('a 503 with Retry-After may come after the charge: never sent again, looked up by its reference once the wait is over', async () => {
    gateway = await misbehavingGateway((request) => (request.method === 'POST' ? limited('3', 503) : approved))
    const {client, recoveries, paused} = clientOf(gateway.url)
    const {record} = await client.purchases.create(purchase)
    expect(record).toMatchObject({reference: 'order-1', successful: true})
    expect(requests()).toEqual(['POST /v1.0/purchases', 'GET /v1.0/purchases/order-1'])
    expect(paused).toEqual([3000])
    expect(recoveries.map((event) => event.step)).toEqual(['looking_up', 'found'])
    expect(recoveries[0]).toMatchObject({why: 'the gateway answered HTTP 503'})
  })

  it('an answer lost after a resend: the processing window counts from when it last left', async () => {
    gateway = await misbehavingGateway((request, index) => {
      if (request.method === 'POST') return index === 0 ? limited('30') : 'drop'
      return {status: 404, body: envelope(null, {successful: false, errors: ['Purchase not found']})}
    })
    const {client, recoveries} = clientOf(gateway.url)
    await failure(client.purchases.create(purchase))
    expect(recoveries[1]).toMatchObject({step: 'waiting', since: START + 30_000, endsAt: START + 30_000 + 60_000})
  })
})

describe('an answer from the other environment', () => {
  it('stops the client (exit 6) though it is a rate limit past the bound', async () => {
    gateway = await misbehavingGateway(() => ({status: 429, headers: {'retry-after': '120', 'x-service-mode': 'Live'}, body: envelope(null, {successful: false, errors: ['Too Many Requests'], test: false})}))
    const client = new GatewayClient({baseUrl: gateway.url, username: 'TEST', token: 'TEST', userAgent: 'test', environment: 'sandbox'})
    const error = await failure(client.purchases.get('order-1'))
    expect(error).toBeInstanceOf(ModeMismatchError)
    expect(error.exitCode).toBe(6)
  })
})

describe('watchers', () => {
  it('a watcher (a progress line) is told in place of the client’s own listener, until it stops watching', async () => {
    gateway = await misbehavingGateway((_, index) => (index % 2 === 0 ? limited('1') : approved))
    const {client, waits} = clientOf(gateway.url)
    const watched: RateLimitWait[] = []
    const forget = client.watchRateLimits((wait) => watched.push(wait))
    await client.purchases.get('order-1')
    forget()
    await client.purchases.get('order-1')
    expect([watched.length, waits.length]).toEqual([1, 1])
  })
})
