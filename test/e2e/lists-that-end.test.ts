import {spawn} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it, type TestContext} from 'vitest'
import {envelope} from '../misbehaving-gateway.js'
import {listedRecord, type PagedGateway, pagedGateway, type PagedList} from '../paged-gateway.js'
import {terminal, type Terminal} from './auth-helpers.js'
import {baseEnv, GW, isolatedHome, ndjson, runGw, type RunOptions} from './helpers.js'
import {runsInCiOr} from './slow-gates.js'
import {POSIX_PIPES} from '../only-on.js'

// Lists, gw report and gw api --paginate end, keep their memory and say what they are
// doing, against a gateway that misbehaves (a gateway of the test's own, over real HTTP) and a
// reader that is slow. Each run is held to a bound on the requests it sends and on its time.
// Each test has a gateway (and terminal) of its own, closed when it finishes: the tests run at once,
// most of each waiting on a slow page, a slow reader or gw's own pauses.
const home = isolatedHome()

type Finished = TestContext['onTestFinished']

async function serve(finished: Finished, list: PagedList): Promise<PagedGateway> {
  const gateway = await pagedGateway(list)
  finished(() => gateway.close())
  return gateway
}

/** A terminal of the test's own, closed when it finishes. */
function terminalOf(finished: Finished, ...args: Parameters<typeof terminal>): Terminal {
  const t = terminal(...args)
  finished(() => t.close())
  return t
}

const env = (url: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({...home, GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', TZ: 'UTC', ...extra})

/** gw against the test's gateway, bounded in time (RunOptions.timeoutMs fails a run that does not end). */
const gwAt = (url: string, args: string[], options: RunOptions = {}) => runGw(args, {...options, env: env(url, options.env)})

const ORDERS = ['newest', 'oldest'] as const

const references = (records: unknown[]) => records.map((record) => (record as {reference: string}).reference)
const paged = (from: number, to: number) => Array.from({length: to - from}, (_, i) => `paged-${from + i}`)

// gw reads the order a gateway lists in from the records' dates; each case runs against
// a gateway that lists newest first (as the live one does) and one that lists oldest first.
describe.concurrent.each(ORDERS)('case 1: a total that lies (1e9 claimed, 120 held), listed %s first', (order) => {
  it('purchase list --limit 30 prints the 30 newest and ends', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, {hold: 120, total: 1e9, order})
    const result = await gwAt(url, ['purchase', 'list', '--limit', '30'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe('')
    expect(references(result.records)).toEqual(paged(90, 120).reverse())
    // The first page, the claimed last, forward to the first empty page, and what was in flight.
    expect(listRequests().length).toBeLessThanOrEqual(10)
  })

  it('--all --oldest-first prints the 120 and stops at the first empty page', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, {hold: 120, total: 1e9, order})
    const result = await gwAt(url, ['purchase', 'list', '--all', '--oldest-first'])
    expect(result.code, result.stderr).toBe(0)
    expect(references(result.records)).toEqual(paged(0, 120))
    expect(listRequests().length).toBeLessThanOrEqual(10)
  })

  it("gw api --paginate prints the 120 in the gateway's order and ends", async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, {hold: 120, total: 1e9, order})
    const result = await gwAt(url, ['api', '/v1.0/purchases', '--paginate'])
    expect(result.code, result.stderr).toBe(0)
    expect(references(result.records)).toEqual(order === 'newest' ? paged(0, 120).reverse() : paged(0, 120))
    expect(listRequests().length).toBeLessThanOrEqual(10)
  })

  it('gw report adds up the 120 purchases and the 120 refunds and ends', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, {hold: 120, total: 1e9, order})
    const result = await gwAt(url, ['report', '--from', '2026-11-17', '--to', '2026-11-17'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.records).toEqual([
      {day: '2026-11-17', currency: 'AUD', purchases_approved: 120, purchases_approved_amount: 120_000, purchases_uncaptured: 0, purchases_uncaptured_amount: 0, purchases_voided: 0, purchases_declined: 0, refunds: 120, refunds_amount: 120_000, refunds_voided: 0, plan_payments: 0, plan_payments_amount: 0, direct_debits: 0, direct_debits_amount: 0, net: 0},
    ])
    expect(listRequests().length).toBeLessThanOrEqual(20)
  })
})


describe.concurrent.each(ORDERS)('the order read from the dates, the gateway listing %s first', (order) => {
  it('purchase list: the 5 newest by default, the 5 oldest with --oldest-first, every one with --all', async ({onTestFinished}) => {
    const {url} = await serve(onTestFinished, {hold: 123, order})
    expect(references((await gwAt(url, ['purchase', 'list', '--limit', '5'])).records)).toEqual(paged(118, 123).reverse())
    expect(references((await gwAt(url, ['purchase', 'list', '--limit', '5', '--oldest-first'])).records)).toEqual(paged(0, 5))
    expect(references((await gwAt(url, ['purchase', 'list', '--all'])).records)).toEqual(paged(0, 123).reverse())
    expect(references((await gwAt(url, ['purchase', 'list', '--all', '--oldest-first'])).records)).toEqual(paged(0, 123))
  })

  it('refund list the same way', async ({onTestFinished}) => {
    const {url} = await serve(onTestFinished, {hold: 123, order})
    const newest = await gwAt(url, ['refund', 'list', '--limit', '3'])
    expect(newest.records.map((record) => (record as {id: string}).id)).toEqual(['071-R-00000122', '071-R-00000121', '071-R-00000120'])
    const oldest = await gwAt(url, ['refund', 'list', '--limit', '3', '--oldest-first'])
    expect(oldest.records.map((record) => (record as {id: string}).id)).toEqual(['071-R-00000000', '071-R-00000001', '071-R-00000002'])
  })
})

describe.concurrent('case 2: no total, and a full page wherever asked', () => {
  it('--oldest-first --limit 30 prints 30 after one page', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, {hold: Infinity, total: 'none'})
    const result = await gwAt(url, ['purchase', 'list', '--oldest-first', '--limit', '30'])
    expect(result.code, result.stderr).toBe(0)
    expect(references(result.records)).toEqual(paged(0, 30))
    expect(listRequests()).toHaveLength(1)
  })

  it('newest first, the end cannot be found: stops at --max-pages, exit 1 saying why and what to do', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, {hold: Infinity, total: 'none'})
    const result = await gwAt(url, ['purchase', 'list', '--limit', '30', '--max-pages', '60'])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      'Error: The list had not ended after 60 pages, and the walk stops there: 60 pages is the most it was to read\nHint: If the list is really that long, raise --max-pages, or ask for fewer days of it.\n',
    )
    expect(listRequests()).toHaveLength(60)
  })

  it('--all --oldest-first prints every page it read before stopping at the most pages', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, {hold: Infinity, total: 'none'})
    const result = await gwAt(url, ['purchase', 'list', '--all', '--oldest-first', '--max-pages', '60'])
    expect(result.code).toBe(1)
    expect(references(result.stdout.trim().split('\n').map((line) => JSON.parse(line)))).toEqual(paged(0, 60 * 50))
    expect(result.stderr).toContain('Error: The list had not ended after 60 pages')
    expect(listRequests()).toHaveLength(60)
  })

  it('a gateway that answers every page with the first: exit 1 naming the page, after the first page printed', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, {hold: 500, ignoresOffset: true})
    const result = await gwAt(url, ['purchase', 'list', '--all', '--oldest-first'])
    expect(result.code).toBe(1)
    expect(references(result.stdout.trim().split('\n').map((line) => JSON.parse(line)))).toEqual(paged(0, 50))
    expect(result.stderr).toBe(
      'Error: Page 3 of the list (records from 101), like page 2 before it, held only records already read: the gateway repeats its pages, and the walk stops here\n' +
        'Hint: Read its pages one at a time with gw api PATH --query offset=N --query limit=50.\n',
    )
    expect(listRequests().length).toBeLessThanOrEqual(3 + 4)
  })
})

describe.concurrent('case 3: a reader that falls behind is waited for', () => {
  const time = existsSync('/usr/bin/time')
  it.runIf(!time)('skipped: /usr/bin/time measures the peak memory (Debian package time; CI installs it)', () => {})

  it.skipIf(!time)('asks for no page while nothing is read, and stays under 150 MiB however far behind its reader is', async ({onTestFinished}) => {
    // 400 pages of 50 fat records (~2 KB each): ~40 MB of output, which gw would hold were it not waiting.
    const hold = 400 * 50
    const {url, listRequests} = await serve(onTestFinished, {hold, pad: 2000})
    const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, GW, 'purchase', 'list', '--all', '--oldest-first'], {env: baseEnv(env(url)), stdio: ['ignore', 'pipe', 'pipe']})
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    // Nothing is read: the pipe fills, then gw waits. While it waits it must ask for no page, so
    // the pages asked for stay within what the pipe and the pages ahead hold; a gw that does not
    // wait asks for every page in a second or two.
    const bound = 12
    const stalled = await new Promise<number>((resolve, reject) => {
      let seen = 0
      let quietSince = Date.now()
      const watch = setInterval(() => {
        const asked = listRequests().length
        if (asked > bound) return (clearInterval(watch), reject(new Error(`gw asked for ${asked} pages while its reader read nothing`)))
        if (asked !== seen) [seen, quietSince] = [asked, Date.now()]
        // Quiet for a second after its first pages: gw is waiting for its reader.
        else if (asked > 0 && Date.now() - quietSince > 1000) return (clearInterval(watch), resolve(asked))
      }, 50)
    })
    expect(stalled).toBeLessThanOrEqual(bound)
    // Now read it all: every record, once, in order, and the peak memory under 150 MiB.
    let lines = 0
    let tail = ''
    child.stdout.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1')
      const parts = text.split('\n')
      tail = parts.pop()!
      lines += parts.length
    })
    expect(await exited).toBe(0)
    expect(lines).toBe(hold)
    expect(listRequests()).toHaveLength(400)
    const peakKiB = Number(stderr.trim().split('\n').at(-1))
    expect(peakKiB / 1024).toBeLessThan(150)
  })

  it.skipIf(!time)('a reader that goes away after 100 bytes: exit 141 at once, the pages left unasked', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, {hold: 400 * 50, pad: 2000})
    const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, GW, 'purchase', 'list', '--all', '--oldest-first'], {env: baseEnv(env(url)), stdio: ['ignore', 'pipe', 'pipe']})
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    child.stdout.once('data', () => child.stdout.destroy())
    expect(await exited).toBe(141)
    expect(listRequests().length).toBeLessThanOrEqual(12)
    // Silent, as gh and coreutils are: only /usr/bin/time's own lines.
    expect(stderr.trim().split('\n').slice(0, -1)).toEqual(['Command exited with non-zero status 141'])
    expect(Number(stderr.trim().split('\n').at(-1)) / 1024).toBeLessThan(150)
  })

  it('a reader that goes away while a page is awaited: exit 141 then, not once the page comes', async ({onTestFinished}) => {
    let release: () => void = () => {}
    const held = new Promise<undefined>((resolve) => (release = () => resolve(undefined)))
    // Pages after the first are answered only when the test ends: gw must not wait for them once its reader has gone.
    // A first page of ~1 MB: gw is still writing it when its reader goes, and hears so while it waits for the next.
    const {url} = await serve(onTestFinished, {hold: 400 * 50, pad: 20_000, before: (_, page) => (page > 1 ? held : undefined)})
    try {
      const child = spawn(process.execPath, [GW, 'purchase', 'list', '--all', '--oldest-first'], {env: baseEnv(env(url)), stdio: ['ignore', 'pipe', 'pipe']})
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
      child.stdout.once('data', () => child.stdout.destroy())
      expect(await exited).toBe(141)
      expect(stderr).toBe('')
    } finally {
      release()
    }
  })

  it.skipIf(POSIX_PIPES.skip)(`| head -1 at a terminal: exit 141 and nothing on stderr, no count of what was not shown${POSIX_PIPES.note}`, async ({onTestFinished}) => {
    const {url} = await serve(onTestFinished, {hold: 400 * 50, pad: 2000})
    const line = `"${process.execPath}" "${GW}" purchase list --all | head -1 | cut -c1-30; exit \${PIPESTATUS[0]}`
    const t = terminalOf(onTestFinished, [], env(url, {GW_PAGER: 'cat'}), {width: 150, program: ['bash', '-c', line]})
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 141]')
    expect(screen.trim().split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^\{"id":"071-P-/), '[exit 141]'])
  })
})

// One after the other, and alone: the page of 40 MB is made and sent by this process, which also
// answers the other tests' gateways, and would hold them up for as long.
describe.skipIf(!runsInCiOr('GW_TEST_SLOW', 'the peak memory of lists whose one page holds 20,000 and 100,000 records (about 30 s)'))('one page of every record, from a gateway that ignores limit', () => {
  const time = existsSync('/usr/bin/time')
  it.runIf(!time)('skipped: /usr/bin/time measures the peak memory (Debian package time; CI installs it)', () => {})
  // 20,000 records of ~2 KB in one answer: ~40 MB of JSON, which gw would hold several times over were it to read the page as one value.
  const fat = {hold: 20_000, pageSize: 20_000, order: 'newest' as const, pad: 2000}
  const peakMiB = (stderr: string) => Number(stderr.trim().split('\n').at(-1)) / 1024
  const timed = (url: string, args: string[]) =>
    new Promise<{code: number | null; stdout: string; stderr: string}>((resolve) => {
      const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, GW, ...args], {env: baseEnv(env(url)), stdio: ['ignore', 'pipe', 'pipe']})
      const out: Buffer[] = []
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      child.on('close', (code) => resolve({code, stdout: Buffer.concat(out).toString(), stderr}))
    })

  it.skipIf(!time)('purchase list -L 50 prints the 50 newest from the first records read, and leaves the rest of the page unread', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, fat)
    const result = await timed(url, ['purchase', 'list', '-L', '50'])
    expect(result.code, result.stderr).toBe(0)
    expect(references(result.stdout.trim().split('\n').map((line) => JSON.parse(line)))).toEqual(paged(19_950, 20_000).reverse())
    expect(listRequests()).toHaveLength(1)
    expect(peakMiB(result.stderr)).toBeLessThan(100)
  })

  it.skipIf(!time)('purchase list --all prints every record of the page, once, in order, as it reads them, under 150 MiB', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, fat)
    const result = await timed(url, ['purchase', 'list', '--all'])
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(20_000)
    expect(JSON.parse(lines[0]!)).toEqual(listedRecord(19_999, {pad: 2000}))
    expect(JSON.parse(lines.at(-1)!)).toEqual(listedRecord(0, {pad: 2000}))
    expect(listRequests()).toHaveLength(1)
    expect(peakMiB(result.stderr)).toBeLessThan(150)
  })

  // 100,000 records in one answer, oldest first, so that newest first is the answer read
  // backwards and every record is read before the first is printed. Held as their texts (packed),
  // only the newest N for -L N; was 298 MiB for --all, 192 for -L 50 and 457 MB with --jq.
  const oldestFirst = {hold: 100_000, pageSize: 100_000, order: 'oldest' as const}
  const newestOf = (from: number) => paged(from, 100_000).reverse()

  it.skipIf(!time)('oldest first: purchase list -L 50 prints the 50 newest, keeping only those as it reads the page, under 100 MiB', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, oldestFirst)
    const result = await timed(url, ['purchase', 'list', '-L', '50'])
    expect(result.code, result.stderr).toBe(0)
    expect(references(result.stdout.trim().split('\n').map((line) => JSON.parse(line)))).toEqual(newestOf(99_950))
    expect(listRequests()).toHaveLength(1)
    expect(peakMiB(result.stderr)).toBeLessThan(100)
  })

  it.skipIf(!time)('oldest first: purchase list --all prints all 100,000 newest first, once each, under 150 MiB', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, oldestFirst)
    const result = await timed(url, ['purchase', 'list', '--all'])
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(100_000)
    expect(JSON.parse(lines[0]!)).toEqual(listedRecord(99_999))
    expect(JSON.parse(lines[50_000]!)).toEqual(listedRecord(49_999))
    expect(JSON.parse(lines.at(-1)!)).toEqual(listedRecord(0))
    expect(listRequests()).toHaveLength(1)
    expect(peakMiB(result.stderr)).toBeLessThan(150)
  })

  it.skipIf(!time)('oldest first: --jq gets all 100,000 newest first, under 150 MiB', async ({onTestFinished}) => {
    const {url} = await serve(onTestFinished, oldestFirst)
    const result = await timed(url, ['purchase', 'list', '--all', '--jq', '.reference'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.trim().split('\n')).toEqual(newestOf(0))
    expect(peakMiB(result.stderr)).toBeLessThan(150)
  })
})

describe.concurrent('purchase get of many purchases on one card', () => {
  it('walks the refunds on the card once, for every purchase on it made since the first', async ({onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, {hold: 120, order: 'newest'})
    const ids = ['071-P-00000001', '071-P-00000002', '071-P-00000003']
    const result = await gwAt(url, ['purchase', 'get', ...ids, '--refunds', '--concurrency', '1'])
    expect(result.code, result.stderr).toBe(0)
    const records = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as {id: string; gw_refunded: {says: string}})
    expect(records.map((record) => record.id)).toEqual(ids)
    for (const record of records) expect(record.gw_refunded.says).not.toMatch(/^not known/)
    // 120 refunds on the card, 50 a page: one walk is 3 pages (4 with the look at the last page a walk against the gateway's order may take).
    const refundPages = listRequests().filter((request) => request.path.startsWith('/v1.0/refunds'))
    expect(refundPages.length).toBeGreaterThan(0)
    expect(refundPages.length).toBeLessThanOrEqual(4)
  })
})

describe.concurrent('case 4: a slow list says what it is doing, at a terminal only', () => {
  /** A list of 200 whose third page (offset 100) is answered once `release` is called. */
  async function slowThirdPage(onTestFinished: Finished): Promise<{gateway: PagedGateway; release: () => void}> {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const served = await serve(onTestFinished, {hold: 200, before: async (_, page) => (page === 3 ? (await released, undefined) : undefined)})
    return {gateway: served, release}
  }

  it.for<[string, string[], string, RegExp[]]>([
    ['a list: cleared before the table', ['purchase', 'list', '--all'], 'purchases', [/│ paged-0 +│ 10\.00 AUD/, /200 purchases, newest first\./]],
    ['refund list --purchase, reading the refunds on its card: cleared before the note and the table', ['refund', 'list', '--purchase', 'paged-0', '--max-pages', '10'], 'refunds', [/Refunds that may be of purchase paged-0/, /│ paged-0 +│/]],
    ['purchase get, reading the refunds that say what is left of it: cleared before the record', ['purchase', 'get', 'paged-0'], 'refunds', [/Reference +paged-0/]],
  ])('at a terminal, %s: a progress line after a second, of pages and records', async ([, args, label, shown], {onTestFinished}) => {
    const {gateway: served, release} = await slowThirdPage(onTestFinished)
    // No pager: the test reads the table and the exit line the command leaves on the screen.
    const t = terminalOf(onTestFinished, args, env(served.url, {GW_PAGER: 'cat'}), {width: 150})
    const waiting = await t.waitFor(new RegExp(`Reading ${label}: page \\d of 4, 50 of 200 records`))
    expect(waiting).not.toContain('[exit')
    release()
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).not.toContain(`Reading ${label}`)
    for (const text of shown) expect(screen).toMatch(text)
  })

  it('at a terminal, stdout to a file: the progress line shows, and the file holds the records alone', async ({onTestFinished}) => {
    const {gateway: served, release} = await slowThirdPage(onTestFinished)
    const file = join(home.HOME!, `purchases-${served.url.split(':').at(-1)}.ndjson`)
    const line = `"${process.execPath}" "${GW}" purchase list --all > "${file}"`
    const t = terminalOf(onTestFinished, [], env(served.url), {width: 150, program: ['bash', '-c', line]})
    await t.waitFor(/Reading purchases: page \d of 4, 50 of 200 records/)
    release()
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen.trim()).toBe('200 purchases, newest first.\n[exit 0]')
    const written = readFileSync(file, 'utf8')
    for (const text of ['Reading', '\r', '\u001B']) expect(written).not.toContain(text)
    expect(references(ndjson(written))).toEqual(paged(0, 200).reverse())
  })

  it('refund list --purchase keeps to --max-pages, as every list does (exit 1, saying why)', async ({onTestFinished}) => {
    const {url} = await serve(onTestFinished, {hold: 200})
    const result = await gwAt(url, ['refund', 'list', '--purchase', 'paged-0', '--max-pages', '2'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Error: The list had not ended after 2 pages, and the walk stops there: 2 pages is the most it was to read')
    expect(result.stderr).toContain('Hint: If the list is really that long, raise --max-pages, or ask for fewer days of it.')
  })

  it('names a retry as it happens: a page that got no answer in time is tried again', async ({onTestFinished}) => {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let thirdAsked = 0
    const served = await serve(onTestFinished, {
      hold: 200,
      before: async (_, page) => {
        if (page !== 3) return undefined
        // The first try is never answered; the second, once the terminal showed the retry.
        if (++thirdAsked === 1) await new Promise(() => {})
        await released
        return undefined
      },
    })
    // A time-out no answer reaches under load (this process serves every test's gateway at once): 1 s
    // was, and page 1 ran out of tries. The third page's first try alone is never answered.
    const t = terminalOf(onTestFinished, ['purchase', 'list', '--all'], env(served.url, {GW_RESPONSE_TIMEOUT_MS: '10000', GW_PAGER: 'cat'}), {width: 150})
    await t.waitFor('page 3: no answer within 10 s, trying again (2 of 4)')
    release()
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).not.toContain('trying again')
    expect(screen).toContain('200 purchases, newest first.')
  })

  it('in a pipe: the same slow list prints its records and no progress text, on stdout or stderr', async ({onTestFinished}) => {
    // The third page comes 1.5 s late: long enough that a terminal would have shown progress.
    const served = await serve(onTestFinished, {hold: 200, before: async (_, page) => (page === 3 ? (await new Promise((resolve) => setTimeout(resolve, 1500)), undefined) : undefined)})
    const result = await gwAt(served.url, ['purchase', 'list', '--all'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe('')
    expect(references(result.records)).toEqual(paged(0, 200).reverse())
    expect(result.stdout).not.toContain('Reading')
    expect(result.stdout).not.toContain('\r')
    expect(result.stdout).not.toContain('\u001B')
  })

  it('a page that cannot be read after every try: exit 1 naming it, after the pages before it', async ({onTestFinished}) => {
    const served = await serve(onTestFinished, {hold: 200, total: 200, before: (_, page) => (page === 3 ? {status: 503, body: envelope(null, {successful: false, errors: ['Service Unavailable']})} : undefined)})
    const result = await gwAt(served.url, ['purchase', 'list', '--all', '--oldest-first'])
    expect(result.code).toBe(1)
    expect(references(result.records)).toEqual(paged(0, 100))
    expect(result.stderr).toBe('Error: Page 3 of the list (records 101-150 of 200) could not be read: Service Unavailable (HTTP 503)\n')
    expect(served.listRequests().filter((request) => request.path.includes('offset=100&')).length).toBe(4)
  })
})

describe('a limit a page holds exactly: -L 10 over pages of 10 asks for one page', () => {
  it.for([
    [40, 'Showing 10 of 40 purchases, newest first; --limit N or --all shows more.'],
    [10, '10 purchases, newest first.'],
  ] as const)('of %d purchases, and says what it showed', async ([hold, said], {onTestFinished}) => {
    const {url, listRequests} = await serve(onTestFinished, {hold, pageSize: 10, order: 'newest'})
    const result = await gwAt(url, ['purchase', 'list', '-L', '10', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(references(result.records)).toEqual(paged(hold - 10, hold).reverse())
    expect(listRequests()).toHaveLength(1)
    // At a terminal (tmux) the summary under the table: the gateway's count says whether there are more.
    const t = terminalOf(onTestFinished, ['purchase', 'list', '-L', '10'], env(url), {width: 200})
    expect(await t.waitFor(/\[exit \d+\]/)).toContain(`${said}\n[exit 0]`)
    expect(listRequests()).toHaveLength(2)
  })
})
