import {expect, it, type TestContext} from 'vitest'
import {type CountingProxy, countingProxy} from '../counting-proxy.js'
import {forward, misbehavingGateway} from '../misbehaving-gateway.js'
import {rowsOf, spawnGw, writeTemp} from './batch-helpers.js'
import {cardArgs, describeInBothDialects, ref, runGw, type Sandbox, sharedSandbox, startSandbox} from './helpers.js'

// The gateway may take 30 s (design.md §5) to process a request, so a 404 for a
// reference whose request left less than 60 s ago means "not yet", never "not sent". Each test
// holds a POST on its way to the local gateway, in the counting proxy, until gw's first look-up of
// its reference has been answered (no record yet), and counts POSTs through that proxy: proxy and
// gateway are a gateway that takes that long, so the gateway says the live gateway's minute
// (--processing-window-ms 60000). The window counts from when the request left gw, held or not.
// The tests run at once (most of each is gw's pause before it looks again): each has its own
// references and proxies, and the one that arms a fault has a gateway of its own.
let sandbox: Sandbox

sharedSandbox((started) => void (sandbox = started), ['--processing-window-ms', '60000'])

type Finished = TestContext['onTestFinished']

/** Closed when the test that started it finishes (its own hook: the tests run at once). */
function closedAfter<T extends {close(): Promise<void>}>(finished: Finished, started: T): T {
  finished(() => started.close())
  return started
}

/**
 * A counting proxy that holds the POST of `reference` until gw's first look-up of that reference
 * after it has been answered, then passes it on: to gw, a gateway still processing it, whose record
 * shows at the next look-up. The wait is on gw's look-up, not on a time. (A batch looks a row up
 * before it sends it, too: that look-up, before the POST, finds nothing and releases nothing.)
 */
async function processingProxy(finished: Finished, reference: string): Promise<CountingProxy> {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  const proxy = closedAfter(finished, await countingProxy(sandbox.url, {hold: (request) => (request.method === 'POST' && request.reference === reference ? held : undefined)}))
  void proxy
    .arrived((request) => request.method === 'POST' && request.reference === reference)
    .then((post) => proxy.answered((request) => request.method === 'GET' && decodeURIComponent(request.path).includes(reference) && proxy.seen.indexOf(request) > proxy.seen.indexOf(post)))
    .then(() => release())
  return proxy
}

/** The wait a run announces: how many seconds it gave the gateway, read from its line. */
function announcedWait(stderr: string, noun: string, reference: string): number {
  const match = new RegExp(`The gateway has no ${noun} with reference ${reference} yet, and may still be processing it: looking again for up to (\\d+) s\\.`).exec(stderr)
  expect(match, stderr).not.toBeNull()
  return Number(match![1])
}

describeInBothDialects.concurrent('a batch killed (kill -9) while the gateway is still processing its POST', () => {
  it('is rerun at once: the rerun finds no record yet, waits for the gateway instead of sending again, and reports the purchase done, sent once', async ({onTestFinished}) => {
    const card = await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])
    const token = (card.json as {token: string}).token
    const reference = ref('slow')
    const file = writeTemp('purchases.csv', `card_token,amount,reference\n${token},1000,${reference}\n`)
    const counting = await processingProxy(onTestFinished, reference)
    const first = spawnGw(sandbox, ['purchase', 'create', '--input', file], {GW_BASE_URL: counting.url})
    await counting.arrived((request) => request.method === 'POST' && request.reference === reference)
    first.child.kill('SIGKILL')
    expect((await first.done).signal).toBe('SIGKILL')
    // Held on its way: as a real gateway's, its record shows only once its processing ends.
    expect((await sandbox.gw(['purchase', 'get', reference])).code).toBe(5)

    const again = await runGw(['purchase', 'create', '--input', file], {env: sandbox.env({GW_BASE_URL: counting.url}), timeoutMs: 90_000})
    expect(again.code, again.stderr).toBe(0)
    expect(counting.posts(reference)).toBe(1)
    expect(again.stderr).toContain('(resuming: 0 rows answered, 1 in doubt, 0 not started)\n')
    const waited = announcedWait(again.stderr, 'purchase', reference)
    expect(waited).toBeGreaterThan(0)
    expect(waited).toBeLessThanOrEqual(60)
    expect(again.stderr).toContain(' If it is not there then, it never arrived, and is sent.\n')
    expect(again.stderr).toMatch(/\n1 purchase: 1 approved \(1 done by an earlier run\) in [\d.]+ s\n/)
    const [row] = rowsOf(again.stdout)
    expect(row).toMatchObject({row: 1, line: 2, reference, status: 'approved', exit_code: 0, resumed: true, record: {reference, amount: 1000, successful: true}})
    expect(rowsOf(again.stdout)).toHaveLength(1)
  }, 120_000)
})

describeInBothDialects.concurrent('a single purchase whose answer is lost while the gateway still processes it', () => {
  it('the look-up finds nothing yet: gw waits, looking again, finds it (exit 0), and never sends it again', async ({onTestFinished}) => {
    const reference = ref('lost')
    const counting = await processingProxy(onTestFinished, reference)
    // A proxy that passes the purchase on and drops gw's connection at once, while the gateway is still at work.
    const front = closedAfter(
      onTestFinished,
      await misbehavingGateway(async (request) => {
        if (request.method !== 'POST') return forward(counting.url, request)
        void forward(counting.url, request).catch(() => undefined)
        return 'drop'
      }),
    )
    const result = await runGw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--json'], {
      env: {...sandbox.home, GW_BASE_URL: front.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'},
      timeoutMs: 90_000,
    })
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({reference, amount: 1000, successful: true})
    const lines = result.stderr.split('\n')
    expect(lines[0]).toMatch(new RegExp(`^No answer to the purchase that could be read \\(.+\\); looking reference ${reference} up at the gateway\\.$`))
    expect(announcedWait(lines[1]!, 'purchase', reference)).toBeLessThanOrEqual(60)
    expect(lines.slice(2)).toEqual(['Found the purchase by its reference: the gateway processed it once.', ''])
    expect(counting.posts(reference)).toBe(1)
    expect(front.posts('/v1.0/purchases', reference)).toBe(1)
  }, 120_000)

  it('a time-out shorter than the gateway takes: the purchase it finishes later is found, not reported unknown', async ({onTestFinished}) => {
    const reference = ref('timeout')
    const counting = await processingProxy(onTestFinished, reference)
    const result = await runGw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--json'], {
      env: sandbox.env({GW_BASE_URL: counting.url, GW_RESPONSE_TIMEOUT_MS: '1000'}),
      timeoutMs: 90_000,
    })
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({reference, successful: true})
    expect(announcedWait(result.stderr, 'purchase', reference)).toBeLessThanOrEqual(60)
    expect(result.stderr).toContain('Found the purchase by its reference: the gateway processed it once.')
    expect(counting.posts(reference)).toBe(1)
  }, 120_000)

  it('nothing there once the window is over: exit 8, with the command to check and "do not resend"', async ({onTestFinished}) => {
    // A gateway of its own: the fault it arms would drop whichever POST came first, another test's too.
    const own = await startSandbox()
    onTestFinished(() => own.stop())
    const counting = closedAfter(onTestFinished, await countingProxy(own.url))
    // Dropped before the gateway read it; the window is the local gateway's own (2 s), which it proves to gw.
    await own.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/purchases', action: 'drop-before'})
    const reference = ref('never')
    const result = await runGw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs()], {
      env: own.env({GW_BASE_URL: counting.url}),
    })
    expect(result.code).toBe(8)
    expect(result.stdout).toBe('')
    const lines = result.stderr.split('\n')
    expect(lines[0]).toMatch(/^No answer to the purchase that could be read \(.+\); looking reference .+ up at the gateway\.$/)
    expect(lines[1]).toMatch(new RegExp(`^The gateway has no purchase with reference ${reference} yet, and may still be processing it: looking again for up to [12] s\\.$`))
    expect(lines[2]).toMatch(
      new RegExp(`^Error: The purchase was sent but no answer came back that could be read \\(.+\\), and the gateway has no purchase with reference ${reference}, even 2 s after it was sent \\(the most it takes to process one\\)\\. \\(HTTP 404, request-id [0-9a-f-]+\\)$`),
    )
    expect(lines.slice(3)).toEqual([`Hint: Do not resend it until you have checked what the gateway has: gw purchase get ${reference}`, ''])
    expect(counting.posts(reference)).toBe(1)
  })

})
