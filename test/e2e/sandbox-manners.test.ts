import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {apiRequestsSince, CARDS, DIALECT, ref, requestLogCursor, type Sandbox, startSandbox, until} from './helpers.js'

// The live gateway's manners on the local gateway (issue 67): a rate limit (gw sandbox start
// --rate-limit), answers that come back late (--latency), and a fault that refuses as a rate limit
// does (gw sandbox fault add --action rate-limit). Run against both dialects: a refusal for the rate
// is in the envelope each dialect writes (docs/sandbox-dialects.md).

const AUTH = `Basic ${Buffer.from('TEST:TEST').toString('base64')}`

/** The envelope of a refusal for the rate, as this run's dialect writes it: the live one has no `test`, as its 401 has none. */
const refusedFor = (words: string) => (DIALECT === 'live' ? {successful: false, response: null, errors: [words]} : {successful: false, response: null, errors: [words], test: true})

interface Answered {
  status: number
  headers: Headers
  body: {successful: boolean; response: unknown; errors: string[]}
  /** When it was sent and when its answer had been read (performance.now()). */
  sentAt: number
  answeredAt: number
}

async function api(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<Answered> {
  const sentAt = performance.now()
  const response = await fetch(sandbox.url + path, {method, headers: {authorization: AUTH, 'content-type': 'application/json'}, body: body === undefined ? undefined : JSON.stringify(body)})
  const parsed = (await response.json()) as Answered['body']
  return {status: response.status, headers: response.headers, body: parsed, sentAt, answeredAt: performance.now()}
}

const purchase = (reference: string) => ({card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', amount: 1000, reference})

describe('gw sandbox start --rate-limit', () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await startSandbox(['--rate-limit', '3'])
  })
  afterAll(async () => {
    await sandbox?.stop()
  })

  it('answers the one request over the limit 429 with Retry-After, in the envelope of its dialect, and makes nothing of it; after Retry-After it passes', async () => {
    const cursor = await requestLogCursor(sandbox)
    const references = [ref('limit'), ref('limit'), ref('limit'), ref('limit')]
    const answers = await Promise.all(references.map((reference) => api(sandbox, 'POST', '/v1.0/purchases', purchase(reference))))

    const refused = answers.flatMap((answer, index) => (answer.status === 429 ? [{answer, reference: references[index]!}] : []))
    expect(answers.map((answer) => answer.status).toSorted()).toEqual([200, 200, 200, 429])
    const [{answer, reference}] = refused as [{answer: Answered; reference: string}]
    expect(answer.body).toStrictEqual(refusedFor('Too Many Requests'))
    expect(answer.headers.get('retry-after')).toBe('1')
    for (const made of answers.filter((each) => each.status === 200)) expect(made.body).toMatchObject({successful: true, response: {message: 'Approved'}})

    // Its controls are never limited, the merchant at its limit or not.
    const controls = await Promise.all(Array.from({length: 10}, () => fetch(`${sandbox.url}/_sandbox/clock`)))
    expect(controls.map((control) => control.status)).toEqual(Array.from({length: 10}, () => 200))

    // The log shows it, and what was done: nothing.
    const logged = (await apiRequestsSince(sandbox, cursor)) as unknown as {status: number; error: string | null}[]
    expect(logged.filter((entry) => entry.status === 429)).toEqual([expect.objectContaining({error: 'over the rate limit of 3 requests a second: answered 429, Retry-After 1, nothing done'})])

    // Waited out as Retry-After says, a look-up finds nothing under its reference: the refused purchase was not made.
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after')) * 1000))
    const lookUp = await api(sandbox, 'GET', `/v1.0/purchases/${reference}`)
    expect(lookUp.status).toBe(404)
    const again = await api(sandbox, 'POST', '/v1.0/purchases', purchase(reference))
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({successful: true, response: {reference, message: 'Approved'}})
  })

  it('is a setting gw sandbox status shows', async () => {
    const status = await sandbox.gw(['sandbox', 'status', '--json'])
    expect(status.code, status.stderr).toBe(0)
    expect(status.json).toMatchObject({rateLimit: 3, latencyMs: 0})
  })
})

describe('gw sandbox start --latency', () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await startSandbox(['--latency', '1500'])
  })
  afterAll(async () => {
    await sandbox?.stop()
  })

  it('answers late, the request done as it arrives: a look-up sent while the purchase is still on its way back finds it', async () => {
    const reference = ref('late')
    const made = api(sandbox, 'POST', '/v1.0/purchases', purchase(reference))
    const found = await until('a look-up that finds the purchase', async () => {
      const lookUp = await api(sandbox, 'GET', `/v1.0/purchases/${reference}`)
      return lookUp.status === 200 ? lookUp : undefined
    }, 30_000)
    const answer = await made
    expect(answer.status).toBe(200)
    // Only a lower bound on a time: the uniform quarter either way of 1500 ms, however loaded the machine.
    expect(answer.answeredAt - answer.sentAt).toBeGreaterThanOrEqual(1125)
    expect(found.answeredAt - found.sentAt).toBeGreaterThanOrEqual(1125)
    expect(found.sentAt).toBeLessThan(answer.answeredAt)
  })

  it('says a processing window longer by the longest an answer waits (1500 ms and a quarter), and status shows the latency', async () => {
    const clock = (await sandbox.control('GET', '/_sandbox/clock')) as {response: {processing_window_ms: number}}
    expect(clock.response.processing_window_ms).toBe(2000 + 1875)
    const status = await sandbox.gw(['sandbox', 'status', '--json'])
    expect(status.json).toMatchObject({rateLimit: null, latencyMs: 1500})
  })
})

describe('gw sandbox fault add --action rate-limit', () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await startSandbox()
  })
  afterAll(async () => {
    await sandbox?.stop()
  })

  async function refusedOnce(args: string[]): Promise<Answered> {
    const added = await sandbox.gw(['sandbox', 'fault', 'add', '--method', 'POST', '--path', '/v1.0/purchases', '--action', 'rate-limit', ...args, '--json'])
    expect(added.code, added.stderr).toBe(0)
    const reference = ref('fault')
    const answer = await api(sandbox, 'POST', '/v1.0/purchases', purchase(reference))
    // Nothing was done: the reference is free, and the same purchase sent again is made.
    expect((await api(sandbox, 'GET', `/v1.0/purchases/${reference}`)).status).toBe(404)
    expect((await api(sandbox, 'POST', '/v1.0/purchases', purchase(reference))).status).toBe(200)
    return answer
  }

  it('without --retry-after: 429 and no Retry-After, for the client\'s own backoff', async () => {
    const answer = await refusedOnce([])
    expect(answer.status).toBe(429)
    expect(answer.headers.get('retry-after')).toBeNull()
    expect(answer.body).toStrictEqual(refusedFor('Too Many Requests'))
  })

  it('--retry-after 2: Retry-After 2', async () => {
    const answer = await refusedOnce(['--retry-after', '2'])
    expect(answer.status).toBe(429)
    expect(answer.headers.get('retry-after')).toBe('2')
  })

  it('--retry-after 2 --http-date: Retry-After the HTTP date two seconds on, rounded up to a second', async () => {
    const answer = await refusedOnce(['--retry-after', '2', '--http-date'])
    expect(answer.status).toBe(429)
    const date = answer.headers.get('retry-after')!
    expect(date).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/)
    const ahead = Date.parse(date) - Date.parse(answer.headers.get('date')!)
    expect(ahead).toBeGreaterThanOrEqual(2000)
    expect(ahead).toBeLessThanOrEqual(3000)
  })

  it('--retry-after 1 --unavailable: 503 with Retry-After, in the same envelope', async () => {
    const answer = await refusedOnce(['--retry-after', '1', '--unavailable'])
    expect(answer.status).toBe(503)
    expect(answer.headers.get('retry-after')).toBe('1')
    expect(answer.body).toStrictEqual(refusedFor('Service Unavailable'))
  })

  it('lists the fault with its parameters, and refuses a form the table does not take', async () => {
    await sandbox.gw(['sandbox', 'fault', 'add', '--method', 'GET', '--path', '/v1.0/refunds', '--action', 'rate-limit', '--retry-after', '5', '--times', '2'])
    const listed = await sandbox.gw(['sandbox', 'fault', 'list', '--json'])
    expect(listed.records).toEqual([{method: 'GET', path: '/v1.0/refunds', times: 2, action: 'rate-limit', retryAfter: 5, httpDate: false, unavailable: false}])
    const dateAlone = await sandbox.gw(['sandbox', 'fault', 'add', '--method', 'GET', '--path', '/v1.0/refunds', '--action', 'rate-limit', '--http-date'])
    expect(dateAlone.code).toBe(2)
    expect(dateAlone.stderr).toContain('--http-date needs --retry-after, which it changes')
    const atTheGateway = (await sandbox.control('POST', '/_sandbox/faults', {method: 'GET', path: '/v1.0/refunds', action: 'rate-limit', unavailable: true})) as {errors: string[]}
    expect(atTheGateway.errors).toEqual(['Unavailable needs retryAfter'])
  })
})
