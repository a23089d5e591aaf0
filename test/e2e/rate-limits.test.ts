import {expect, it} from 'vitest'
import {rowsOf, writeTemp} from './batch-helpers.js'
import {terminal} from './auth-helpers.js'
import {apiRequestsSince, cardArgs, describeInBothDialects, describeOnce, errorJson, GW, type LoggedRequest, purchasedAtGateway, ref, requestLogCursor, type Sandbox} from './helpers.js'
import {startedInTest} from './identity-helpers.js'

// Rate limits honoured (design.md §5): a 429 (or a 503 with Retry-After) is the gateway
// asking to wait, never a refusal. The local gateway's fault `rate-limit` refuses the next requests
// it matches so, with nothing done; `gw sandbox start --rate-limit N` holds a merchant to N a second.
// Each test has a gateway of its own, its faults its own: they run at once, most of each being waits.

/** The next `times` requests of `method` under `path` answered 429 (or 503), nothing done: Retry-After in seconds, as a date, or none. */
async function rateLimit(at: Sandbox, method: string, path: string, {times = 1, retryAfter, httpDate = false, unavailable = false}: {times?: number; retryAfter?: number; httpDate?: boolean; unavailable?: boolean} = {}): Promise<void> {
  await at.control('POST', '/_sandbox/faults', {method, path, action: 'rate-limit', times, httpDate, unavailable, ...(retryAfter === undefined ? {} : {retryAfter})})
}

const statuses = (logged: LoggedRequest[]) => logged.map(({method, path, status}) => `${status} ${method} ${path}`)

const createPurchase = (at: Sandbox, reference: string, extra: string[] = []) => at.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--json', ...extra])

describeInBothDialects.concurrent('a read the gateway rate limits is waited out and tried again', () => {
  it('a 429 with Retry-After: 1: exit 0, the record, and the request log shows the 429, then the 200', async ({onTestFinished}) => {
    const sandbox = await startedInTest(onTestFinished).gateway()
    const made = await purchasedAtGateway(sandbox)
    await rateLimit(sandbox, 'GET', '/v1.0/purchases', {retryAfter: 1})
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(['purchase', 'get', made.id, '--json', '--verbose'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({id: made.id, reference: made.reference})
    expect(statuses(await apiRequestsSince(sandbox, cursor))).toEqual([`429 GET /v1.0/purchases/${made.id}`, `200 GET /v1.0/purchases/${made.id}`])
    expect(result.stderr).toContain('* rate limited by the gateway (HTTP 429): trying again in 1.0 s')
  })

  it('Retry-After as an HTTP date: waited out as the date says, then the record', async ({onTestFinished}) => {
    const sandbox = await startedInTest(onTestFinished).gateway()
    const made = await purchasedAtGateway(sandbox)
    await rateLimit(sandbox, 'GET', '/v1.0/purchases', {retryAfter: 1, httpDate: true})
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(['purchase', 'get', made.reference, '--json', '--verbose'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({id: made.id})
    // The date is a whole second, rounded up: 1 or 2 s after the answer's own Date.
    expect(result.stderr).toMatch(/\* rate limited by the gateway \(HTTP 429\): trying again in [12]\.0 s/)
    expect(statuses(await apiRequestsSince(sandbox, cursor))).toEqual([`429 GET /v1.0/purchases/${made.reference}`, `200 GET /v1.0/purchases/${made.reference}`])
  })

  it('no Retry-After: gw’s own backoff (half a second to a second, the first time), then the record', async ({onTestFinished}) => {
    const sandbox = await startedInTest(onTestFinished).gateway()
    const made = await purchasedAtGateway(sandbox)
    await rateLimit(sandbox, 'GET', '/v1.0/purchases', {times: 2})
    const result = await sandbox.gw(['purchase', 'get', made.id, '--json', '--verbose'])
    expect(result.code, result.stderr).toBe(0)
    const waits = [...result.stderr.matchAll(/\* rate limited by the gateway \(HTTP 429, no Retry-After\): trying again in (\d\.\d) s/g)].map((match) => Number(match[1]))
    expect(waits).toHaveLength(2)
    expect(waits[0]).toBeGreaterThanOrEqual(0.5)
    expect(waits[0]).toBeLessThanOrEqual(1)
    expect(waits[1]).toBeGreaterThanOrEqual(1)
    expect(waits[1]).toBeLessThanOrEqual(2)
  })

  it('a 503 with Retry-After is a wait too, not the gateway failing: more than the 3 tries a failing read has', async ({onTestFinished}) => {
    const sandbox = await startedInTest(onTestFinished).gateway()
    const made = await purchasedAtGateway(sandbox)
    await rateLimit(sandbox, 'GET', '/v1.0/purchases', {retryAfter: 1, unavailable: true, times: 4})
    const result = await sandbox.gw(['purchase', 'get', made.id, '--json', '--verbose'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({id: made.id})
    expect(result.stderr.match(/\* rate limited by the gateway \(HTTP 503\): trying again in 1\.0 s/g)).toHaveLength(4)
  })

  it('a list --all (and gw api --paginate) waits its pages out, every record read once', async ({onTestFinished}) => {
    const own = await startedInTest(onTestFinished).gateway()
    const references = new Set<string>()
    for (let start = 0; start < 70; start += 10) for (const made of await Promise.all(Array.from({length: 10}, () => purchasedAtGateway(own)))) references.add(made.reference)
    await rateLimit(own, 'GET', '/v1.0/purchases', {retryAfter: 1, times: 2})
    const cursor = await requestLogCursor(own)
    const listed = await own.gw(['purchase', 'list', '--all', '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    const read = (listed.records as {reference: string}[]).map((record) => record.reference)
    expect(read.toSorted()).toEqual([...references].toSorted())
    expect((await apiRequestsSince(own, cursor)).filter((request) => request.status === 429)).toHaveLength(2)
    await rateLimit(own, 'GET', '/v1.0/purchases', {retryAfter: 1})
    const paged = await own.gw(['api', '/v1.0/purchases', '--paginate'])
    expect(paged.code, paged.stderr).toBe(0)
    expect(paged.stdout.trim().split('\n')).toHaveLength(70)
  })
})

describeInBothDialects.concurrent('a purchase or refund answered 429 was not processed: sent again once allowed, made once', () => {
  it('purchase create: the POST answered 429, then made: exit 0, one purchase under the reference', async ({onTestFinished}) => {
    const sandbox = await startedInTest(onTestFinished).gateway()
    await rateLimit(sandbox, 'POST', '/v1.0/purchases', {retryAfter: 1})
    const cursor = await requestLogCursor(sandbox)
    const reference = ref('limited')
    const result = await createPurchase(sandbox, reference)
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({reference, successful: true, message: 'Approved'})
    expect(statuses(await apiRequestsSince(sandbox, cursor))).toEqual(['429 POST /v1.0/purchases', '200 POST /v1.0/purchases'])
    expect((await sandbox.gw(['purchase', 'get', reference, '--json'])).json).toMatchObject({id: (result.json as {id: string}).id})
  })

  it('refund create: the same, one refund under the reference', async ({onTestFinished}) => {
    const sandbox = await startedInTest(onTestFinished).gateway()
    const purchase = await purchasedAtGateway(sandbox)
    await rateLimit(sandbox, 'POST', '/v1.0/refunds', {retryAfter: 1})
    const cursor = await requestLogCursor(sandbox)
    const reference = ref('limited-r')
    const result = await sandbox.gw(['refund', 'create', '--transaction-id', purchase.id, '--amount', '1000', '--reference', reference, '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({reference, successful: true})
    const posts = (await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')
    expect(statuses(posts)).toEqual(['429 POST /v1.0/refunds', '200 POST /v1.0/refunds'])
    expect((await sandbox.gw(['refund', 'get', reference, '--json'])).json).toMatchObject({id: (result.json as {id: string}).id})
  })

  it('a purchase answered 503 with Retry-After may have been made: never sent again, looked up by its reference once the wait is over (here: nothing, exit 8)', async ({onTestFinished}) => {
    const own = await startedInTest(onTestFinished).gateway()
    await rateLimit(own, 'POST', '/v1.0/purchases', {retryAfter: 2, unavailable: true})
    const cursor = await requestLogCursor(own)
    const reference = ref('unavailable')
    const result = await createPurchase(own, reference)
    expect(result.code, result.stderr).toBe(8)
    expect(result.stderr).toContain(`looking reference ${reference} up at the gateway`)
    const logged = (await apiRequestsSince(own, cursor)) as (LoggedRequest & {time: string})[]
    expect(statuses(logged.filter((request) => request.method === 'POST'))).toEqual(['503 POST /v1.0/purchases'])
    // Nothing was sent while the gateway said wait: the look-up came 2 s (the whole seconds of the log's clock aside) after.
    const lookUp = logged.find((request) => request.method === 'GET')!
    expect(Date.parse(lookUp.time) - Date.parse(logged[0]!.time)).toBeGreaterThanOrEqual(1900)
  })
})

describeInBothDialects.concurrent('past the bound: exit 9, nothing made, and what to run later', () => {
  it('a wait asked longer than the minute gw waits: exit 9 at once, the words, and --json’s error object', async ({onTestFinished}) => {
    const sandbox = await startedInTest(onTestFinished).gateway()
    await rateLimit(sandbox, 'POST', '/v1.0/purchases', {retryAfter: 120})
    const reference = ref('later')
    const started = performance.now()
    const result = await createPurchase(sandbox, reference)
    expect(performance.now() - started).toBeLessThan(30_000)
    expect(result.code).toBe(9)
    expect(result.stdout).toBe('')
    const [error, hint] = result.stderr.split('\n')
    expect(error).toMatch(new RegExp(`^Error: Rate limited by the gateway: it asks gw to wait 2 min, longer than the 60 s gw waits; the purchase with reference ${reference} was not made \\(HTTP 429, request-id [\\w-]+\\)$`))
    expect(hint).toBe('Hint: Nothing was made: run the same command again later (the gateway asked for 2 min); it sends the purchase once.')
    expect(errorJson(result)).toEqual({
      error: {
        kind: 'rate_limited',
        status: 429,
        messages: [`Rate limited by the gateway: it asks gw to wait 2 min, longer than the 60 s gw waits; the purchase with reference ${reference} was not made`],
        request_id: expect.any(String),
        exit_code: 9,
        hint: 'Nothing was made: run the same command again later (the gateway asked for 2 min); it sends the purchase once.',
      },
    })
    // Nothing was made: run again, it is made once.
    expect((await sandbox.gw(['purchase', 'get', reference])).code).toBe(5)
    expect((await createPurchase(sandbox, reference)).code).toBe(0)
  })
})

/** A purchase batch of `count` rows under references `prefix-N`, paid with a stored card. */
async function purchaseBatch(at: Sandbox, count: number, prefix: string): Promise<string> {
  const token = ((await at.gw(['card', 'tokenize', ...cardArgs(), '--json'])).json as {token: string}).token
  return writeTemp(`${prefix}.csv`, ['card_token,amount,reference,currency', ...Array.from({length: count}, (_, i) => `${token},1000,${prefix}-${i},AUD`)].join('\n') + '\n')
}

/** How many purchases the gateway holds under each reference starting `prefix-`. */
async function madeAt(at: Sandbox, prefix: string): Promise<Map<string, number>> {
  const listed = await at.gw(['purchase', 'list', '--all', '--json'])
  expect(listed.code, listed.stderr).toBe(0)
  const made = new Map<string, number>()
  for (const {reference} of listed.records as {reference: string}[]) if (reference.startsWith(`${prefix}-`)) made.set(reference, (made.get(reference) ?? 0) + 1)
  return made
}

describeInBothDialects.concurrent('a batch slows down for the gateway', () => {
  it('against gw sandbox start --rate-limit 20: every row made once, none failed, and the summary names the rate and the wait', async ({onTestFinished}) => {
    const own = await startedInTest(onTestFinished).gateway(['--rate-limit', '20'])
    const prefix = ref('paced')
    const input = await purchaseBatch(own, 40, prefix)
    const cursor = await requestLogCursor(own)
    const result = await own.gw(['purchase', 'create', '--input', input, '--concurrency', '8'])
    expect(result.code, result.stderr).toBe(0)
    const rows = rowsOf(result.stdout)
    expect(rows.map((row) => row.status)).toEqual(Array(40).fill('approved'))
    expect(result.stderr).toMatch(/\n40 purchases: 40 approved in \d+\.\d s\nRate limited by the gateway: \d+ answers? asked gw to wait, \d+\.\d s in all; ran at \d+\.\d purchases a second(, paced to \d+ requests a second)?\.\n/)
    const logged = await apiRequestsSince(own, cursor)
    expect(logged.some((request) => request.status === 429)).toBe(true)
    // Each row's purchase made once: one POST answered 200 for each reference, and the gateway holds one.
    expect(logged.filter((request) => request.method === 'POST' && request.status === 200)).toHaveLength(40)
    const made = await madeAt(own, prefix)
    expect([...made.values()]).toEqual(Array(40).fill(1))
  })

  it('rate limited past gw’s wait: exit 9, the rows not made, and the next run sends them once, looking up none in doubt', async ({onTestFinished}) => {
    const own = await startedInTest(onTestFinished).gateway()
    const prefix = ref('held')
    const input = await purchaseBatch(own, 5, prefix)
    await rateLimit(own, 'POST', '/v1.0/purchases', {retryAfter: 600, times: 100})
    const first = await own.gw(['purchase', 'create', '--input', input, '--concurrency', '2'])
    expect(first.code, first.stderr).toBe(9)
    const rows = rowsOf(first.stdout)
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(row).toMatchObject({status: 'failed', exit_code: 9, error: {kind: 'rate_limited', status: 429}})
    expect(first.stderr).toContain('Error: The gateway kept rate limiting the purchases past the wait gw allows each one: no more rows were started (HTTP 429)')
    expect(first.stderr).toContain('Hint: Nothing was made for the rows it held back: run the same command again later (the gateway asked for 10 min); it sends them then, and nothing twice.')
    expect(first.stderr).toMatch(new RegExp(`Not finished: 0 rows answered, 0 in doubt, 5 not started \\(${rows.length} of them failed with nothing made, and (is|are) tried again\\)`))
    await own.control('DELETE', '/_sandbox/faults')
    const cursor = await requestLogCursor(own)
    const second = await own.gw(['purchase', 'create', '--input', input, '--concurrency', '2'])
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).toContain('(resuming: 0 rows answered, 0 in doubt, 5 not started)')
    expect(rowsOf(second.stdout).map((row) => row.status)).toEqual(Array(5).fill('approved'))
    expect((await apiRequestsSince(own, cursor)).filter((request) => request.method === 'POST').map((request) => request.status)).toEqual(Array(5).fill(200))
    expect([...(await madeAt(own, prefix)).values()]).toEqual(Array(5).fill(1))
  })
})

describeOnce.concurrent('a wait at a terminal whose stdout is a pipe', () => {
  it('is said in a line of its own, not drawn at the foot of the screen the pipe’s reader writes on', async ({onTestFinished}) => {
    const sandbox = await startedInTest(onTestFinished).gateway()
    const made = await purchasedAtGateway(sandbox)
    await rateLimit(sandbox, 'GET', '/v1.0/purchases', {retryAfter: 1})
    const t = terminal([], sandbox.env({NO_COLOR: '1'}), {program: ['bash', '-c', `"${process.execPath}" "${GW}" purchase get ${made.id} | cat`]})
    onTestFinished(() => t.close())
    const screen = await t.waitFor(/\[exit \d+\]/)
    const lines = screen.split('\n').filter(Boolean)
    expect(lines[0]).toBe('Rate limited by the gateway: trying again in 1 s')
    expect(lines[1]).toMatch(new RegExp(`^\\{"id":"${made.id}"`))
    expect(lines.at(-1)).toBe('[exit 0]')
  })
})
