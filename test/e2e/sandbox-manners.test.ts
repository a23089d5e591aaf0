import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {derivedFrom, refundReference} from '../../src/lists/refund-match.js'
import {ANSWERS, apiRequestsSince, CARDS, describeInBothDialects, describeOnce, DIALECT, type ProcessSandbox, purchasedAtGateway, ref, requestLogCursor, type Sandbox, sharedSandbox, startSandbox, startSandboxProcess} from './helpers.js'
import {until} from '../until.js'

// The live gateway's manners on the local gateway: a rate limit (gw sandbox start
// --rate-limit), answers that come back late (--latency), a fault that refuses as a rate limit
// does (gw sandbox fault add --action rate-limit), and a quick history (gw sandbox seed --purchases).
// Run against both dialects: a refusal for the rate
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

describeInBothDialects('gw sandbox start --rate-limit', () => {
  let sandbox: Sandbox
  sharedSandbox((started) => void (sandbox = started), ['--rate-limit', '3'], {asProcess: true})

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

// How late the gateway answers, and what it says of its window: no dialect changes either.
describeOnce('gw sandbox start --latency', () => {
  let sandbox: Sandbox
  sharedSandbox((started) => void (sandbox = started), ['--latency', '1500'], {asProcess: true})

  it('answers late, the request done as it arrives: a look-up sent while the purchase is still on its way back finds it', async () => {
    const reference = ref('late')
    let back = false
    const made = api(sandbox, 'POST', '/v1.0/purchases', purchase(reference)).finally(() => (back = true))
    // Look-ups sent one after another while the purchase's answer is on its way, each answered late too.
    const lookUps: Promise<Answered>[] = []
    while (!back) {
      lookUps.push(api(sandbox, 'GET', `/v1.0/purchases/${reference}`))
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const answer = await made
    expect(answer.status).toBe(200)
    // Only a lower bound on a time: the uniform quarter either way of 1500 ms, however loaded the machine.
    expect(answer.answeredAt - answer.sentAt).toBeGreaterThanOrEqual(1125)
    const found = (await Promise.all(lookUps)).filter((lookUp) => lookUp.status === 200)
    expect(found.length).toBeGreaterThan(0)
    expect(found[0]!.sentAt).toBeLessThan(answer.answeredAt)
    expect(found[0]!.answeredAt - found[0]!.sentAt).toBeGreaterThanOrEqual(1125)
  })

  it('says a processing window longer by the longest an answer waits (1500 ms and a quarter), and status shows the latency', async () => {
    const clock = (await sandbox.control('GET', '/_sandbox/clock')) as {response: {processing_window_ms: number}}
    expect(clock.response.processing_window_ms).toBe(2000 + 1875)
    const status = await sandbox.gw(['sandbox', 'status', '--json'])
    expect(status.json).toMatchObject({rateLimit: null, latencyMs: 1500})
  })
})

describeInBothDialects('gw sandbox fault add --action rate-limit', () => {
  let sandbox: Sandbox
  sharedSandbox((started) => void (sandbox = started))

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

interface Held {
  id: string
  reference: string
  amount: number
  card_number: string
  card_holder: string
  transaction_date: string
}

/** Every record of a list, read a page of 50 at a time straight from the gateway, newest first. */
async function everyRecord(sandbox: Sandbox, list: 'purchases' | 'refunds'): Promise<Held[]> {
  const held: Held[] = []
  for (let offset = 0; ; offset += 50) {
    const page = await api(sandbox, 'GET', `/v1.0/${list}?offset=${offset}&limit=50`)
    const records = page.body.response as Held[]
    if (records.length === 0) return held
    held.push(...records)
  }
}

/** A history's records as two gateways must both hold them: references, amounts, cards, and each date as seconds before the history's last. */
const shape = (records: Held[], to: string) =>
  records.map(({reference, amount, card_number, card_holder, transaction_date}) => ({reference, amount: Math.abs(amount), card_number, card_holder, before: (Date.parse(to) - Date.parse(transaction_date)) / 1000}))

describeInBothDialects('gw sandbox seed --purchases: a quick history', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-e2e-history-'))
  const stateFile = join(dir, 'gateway.db')
  const asked = ['--purchases', '40', '--refunds', '300', '--days', '20', '--cards', '5', '--reference-prefix', 'old']
  let sandbox: ProcessSandbox
  let made: {purchases: number; refunds: number; cards: number; reference_prefix: string; from: string; to: string}
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--state', stateFile])
    const seeded = await sandbox.gw(['sandbox', 'seed', ...asked])
    expect(seeded.code, seeded.stderr).toBe(0)
    made = seeded.json as typeof made
    expect(seeded.stderr).toMatch(/^40 purchases and 300 refunds on 5 cards, \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d \(old-p1 to old-p40\), made in \d+\.\d s\.\n$/)
  })
  afterAll(async () => {
    await sandbox?.stop()
  })

  it('makes what it was asked, each refund after its purchase, on its card, within what it left, named as gw derives a refund\'s reference, none after the gateway\'s now', async () => {
    expect(made).toEqual({purchases: 40, refunds: 300, cards: 5, reference_prefix: 'old', from: expect.any(String), to: expect.any(String)})
    const clock = (await sandbox.control('GET', '/_sandbox/clock')) as {response: {now: string}}
    const now = Date.parse(clock.response.now)
    const [purchases, refunds] = [await everyRecord(sandbox, 'purchases'), await everyRecord(sandbox, 'refunds')]
    expect([purchases.length, refunds.length]).toEqual([40, 300])
    expect(new Set(purchases.map((purchase) => `${purchase.card_number} ${purchase.card_holder}`)).size).toBe(5)
    const byReference = new Map(purchases.map((purchase) => [purchase.reference, purchase]))
    for (const purchase of purchases) {
      expect(purchase).toMatchObject({successful: true, message: 'Approved', currency: 'AUD'})
      expect(Date.parse(purchase.transaction_date)).toBeLessThanOrEqual(now)
      expect(Date.parse(purchase.transaction_date)).toBeGreaterThanOrEqual(Date.parse(made.from))
    }
    // Newest first: each purchase's refunds, oldest first, are R1, R2... of its reference.
    const ofPurchase = new Map<string, Held[]>()
    for (const refund of refunds.toReversed()) {
      const purchase = byReference.get(derivedFrom(refund.reference)!)!
      expect(purchase, refund.reference).toBeDefined()
      const earlier = ofPurchase.get(purchase.reference) ?? []
      ofPurchase.set(purchase.reference, [...earlier, refund])
      expect(refund.reference).toBe(refundReference(purchase.reference, earlier.length + 1))
      expect(Date.parse(refund.transaction_date)).toBeGreaterThan(Date.parse(purchase.transaction_date))
      expect(Date.parse(refund.transaction_date)).toBeLessThanOrEqual(now)
      expect([refund.card_number, refund.card_holder]).toEqual([purchase.card_number, purchase.card_holder])
      expect(refund).toMatchObject({successful: true, amount: ANSWERS.refundAmount(Math.abs(refund.amount))})
    }
    for (const list of [purchases, refunds]) {
      const times = list.map((record) => Date.parse(record.transaction_date))
      expect(times).toEqual(times.toSorted((a, b) => b - a))
    }
    for (const [reference, own] of ofPurchase) expect(own.reduce((sum, refund) => sum + Math.abs(refund.amount), 0)).toBeLessThanOrEqual(byReference.get(reference)!.amount)
  })

  it("makes refunds that are the gateway's own: gw finds those derived from a purchase likely its, none certain", async () => {
    const [oldest] = (await everyRecord(sandbox, 'purchases')).slice(-1)
    const listed = await sandbox.gw(['refund', 'list', '--purchase', oldest!.reference, '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    const derived = (listed.records as {reference: string; gw_match: {match: string}}[]).filter((refund) => derivedFrom(refund.reference) === oldest!.reference)
    expect(derived.length).toBeGreaterThan(0)
    for (const refund of derived) expect(refund.gw_match.match, refund.reference).toBe('likely')
    expect((listed.records as {gw_match: {match: string}}[]).filter((refund) => refund.gw_match.match === 'certain')).toEqual([])
  })

  it('refuses the same history twice, nothing made; the same arguments make the same history on another gateway', async () => {
    const again = await sandbox.gw(['sandbox', 'seed', ...asked])
    expect(again.code).toBe(7)
    expect(again.stderr).toContain('Reference old-p1 is already taken')
    expect((await everyRecord(sandbox, 'refunds')).length).toBe(300)

    // The other holds a purchase made before it, dated now: the history is filed before it, each list in date order.
    const other = await startSandbox()
    try {
      const now = await purchasedAtGateway(other)
      const seeded = await other.gw(['sandbox', 'seed', ...asked])
      expect(seeded.code, seeded.stderr).toBe(0)
      const twin = seeded.json as typeof made
      const purchases = await everyRecord(other, 'purchases')
      expect(purchases[0]!.reference).toBe(now.reference)
      const times = purchases.map((purchase) => Date.parse(purchase.transaction_date))
      expect(times).toEqual(times.toSorted((a, b) => b - a))
      expect(shape(purchases.slice(1), twin.to)).toEqual(shape(await everyRecord(sandbox, 'purchases'), made.to))
      expect(shape(await everyRecord(other, 'refunds'), twin.to)).toEqual(shape(await everyRecord(sandbox, 'refunds'), made.to))
    } finally {
      await other.stop()
    }
  })

  it('puts one purchase before it all with a fixtures file dated before its first day', async () => {
    // The day before the history's first, on the gateway's calendar.
    const [year, month, day] = made.from.slice(0, 10).split('-').map(Number) as [number, number, number]
    const before = new Date(Date.UTC(year, month - 1, day - 1)).toISOString().slice(0, 10)
    const fixtures = join(dir, 'early.json')
    writeFileSync(fixtures, JSON.stringify({steps: [{name: 'early', create: 'purchase', at: before, fields: {card_number: CARDS.visa, card_holder: 'Jane Citizen', card_expiry: '12/2030', cvv: '123', amount: 50_000, reference: 'early-1'}}]}))
    const seeded = await sandbox.gw(['sandbox', 'seed', fixtures])
    expect(seeded.code, seeded.stderr).toBe(0)
    const purchases = await everyRecord(sandbox, 'purchases')
    expect(purchases.at(-1)).toMatchObject({reference: 'early-1', transaction_date: expect.stringMatching(new RegExp(`^${before}T12:00`))})
    expect(purchases.length).toBe(41)
  })

  it('was saved to the --state file in one transaction, and is there after a kill -9', async () => {
    sandbox.process.kill('SIGKILL')
    await until('the gateway to be gone', () => (sandbox.process.exitCode !== null || sandbox.process.signalCode !== null ? true : undefined))
    const db = new DatabaseSync(stateFile, {readOnly: true})
    try {
      const batches = db.prepare('SELECT changes FROM changes ORDER BY batch').all() as {changes: string}[]
      const puts = batches.map((batch) => (JSON.parse(batch.changes) as {op: string; collection?: string}[]).filter((change) => change.op === 'put' && change.collection === 'refunds').length)
      expect(puts.filter((count) => count > 0)).toEqual([300])
    } finally {
      db.close()
    }
    sandbox = await startSandboxProcess(['--state', stateFile])
    expect((await everyRecord(sandbox, 'refunds')).length).toBe(300)
    expect((await everyRecord(sandbox, 'purchases')).length).toBe(41)
  })
})
