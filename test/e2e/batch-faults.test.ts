import {spawnSync} from 'node:child_process'
import {copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, expect, it} from 'vitest'
import {countingProxy, type CountingProxy} from '../counting-proxy.js'
import {rowsOf, spawnGw, writeTemp} from './batch-helpers.js'
import {baseEnv, cardArgs, describeInBothDialects, describeOnce, DIALECT, GW, isolatedHome, ref, runGw, runProgram, type Sandbox, sharedSandbox, startSandbox, startSandboxProcess} from './helpers.js'
import {runsInCiOr} from './slow-gates.js'
import {DEV_FULL, POSIX_PIPES} from '../only-on.js'

// Batches and the local gateway when the machine misbehaves.
const root = process.getuid?.() === 0

let sandbox: Sandbox
let proxy: CountingProxy | undefined

sharedSandbox((started) => void (sandbox = started))
afterEach(async () => {
  await proxy?.close()
  proxy = undefined
})

/** One purchase that many refunds of 1.00 can draw on; its id. */
async function bigPurchase(gateway: Sandbox = sandbox): Promise<string> {
  const result = await gateway.gw(['purchase', 'create', '--amount', '1000000', '--reference', ref('big'), ...cardArgs(), '--json'])
  expect(result.code, result.stderr).toBe(0)
  return (result.json as {id: string}).id
}

function refundFile(purchase: string, count: number, prefix = ref('f')): string {
  return writeTemp('refunds.csv', ['transaction_id,amount,reference', ...Array.from({length: count}, (_, i) => `${purchase},100,${prefix}-${i}`)].join('\n') + '\n')
}

const everyOnce = (posts: Map<string, number>, count: number) => {
  expect(posts.size).toBe(count)
  expect([...posts.values()].every((n) => n === 1)).toBe(true)
}

describeInBothDialects('a journal that cannot be written', () => {
  it.skipIf(!root)('on a 200 KiB tmpfs: stops with exit 1 naming the journal and the cause, reports every row sent, lets go of its lock; a rerun with space sends each row once', async () => {
    // 200 KiB holds the journal of about 210 rows: the rest of the batch finds no room.
    const ROWS = 400
    const mount = mkdtempSync(join(tmpdir(), 'gw-tiny-'))
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=200k', 'tmpfs', mount]).status).toBe(0)
    try {
      const file = refundFile(await bigPurchase(), ROWS)
      proxy = await countingProxy(sandbox.url)
      const journal = join(mount, 'j.ndjson')
      const full = await sandbox.gw(['refund', 'create', '--input', file, '--journal', journal], {env: {GW_BASE_URL: proxy.url}, timeoutMs: 60_000})
      expect(full.code).toBe(1)
      expect(full.stderr).toContain(`Error: The batch journal ${journal} cannot be written (ENOSPC): no more rows are sent`)
      // Rows whose intents found no room are failed, or not started when the space ran out on a group of results: either way each row is counted once.
      const summary = new RegExp(`${ROWS} refunds: (\\d+) approved(?:, (\\d+) failed)?, (\\d+) not started`).exec(full.stderr)
      expect(summary, full.stderr).not.toBeNull()
      const [approved, failed = '0', notStarted] = summary!.slice(1)
      expect(Number(approved) + Number(failed) + Number(notStarted)).toBe(ROWS)
      expect(Number(notStarted)).toBeGreaterThan(0)
      const reported = rowsOf(full.stdout)
      // Every refund sent is on stdout; the rows not sent say so.
      expect(reported.filter((row) => row.status === 'approved').length).toBe(proxy.postCount())
      expect(existsSync(journal + '.lock')).toBe(false)

      const roomy = join(mkdtempSync(join(tmpdir(), 'gw-roomy-')), 'j.ndjson')
      copyFileSync(journal, roomy)
      // Rows journaled but never sent (their withdrawal found no room either) wait out the local gateway's processing window (2 s).
      const again = await sandbox.gw(['refund', 'create', '--input', file, '--journal', roomy], {env: {GW_BASE_URL: proxy.url}, timeoutMs: 60_000})
      expect(again.code, again.stderr).toBe(0)
      expect(rowsOf(again.stdout).every((row) => row.status === 'approved')).toBe(true)
      everyOnce(proxy.references(), ROWS)
    } finally {
      spawnSync('umount', [mount])
    }
  }, 120_000)

  it.runIf(!root)('skipped: the full-disk test mounts a tmpfs, which needs root (CI runs as root)', () => {})
})

// Run at once with each other and with the cases of a gateway that stops answering, which follow:
// those mostly wait out gw's backoff, these keep the cores busy meanwhile.
describeInBothDialects.concurrent('the Nth write or sync of the journal fails (EIO, injected from outside with strace)', () => {
  const strace = spawnSync('sh', ['-c', 'command -v strace']).status === 0
  // Two gw runs under strace for every N, about a minute of the machine's time in all.
  const swept = strace && runsInCiOr('GW_TEST_SLOW', 'the sweeps that fail every write and sync of a batch journal in turn (about a minute)')
  // The journal's database and SQLite's undo record beside it (journal-file.ts) alike. Every
  // transaction of the journal ends in a sync, so the sync sweep fails each commit once: each state
  // a rerun must recover from, its look-ups answered by this dialect. The write sweep fails the
  // same commits at points inside them, which is SQLite's rollback and not the gateway's: it runs
  // against the contract dialect only.
  const sweeps: [string, string][] = [
    ['write', 'write,pwrite64'],
    ['sync', 'fsync,fdatasync'],
  ]
  // One row more than its --concurrency: a row waits for a slot while two are in flight (their
  // intents and results committed in groups), and the journal is held on its worker thread
  // (run-batch.ts). Every commit of the run is failed once; more rows would repeat the same commits.
  const ROWS = 3
  const CONCURRENCY = 2
  it.skipIf(!swept).for<[string, string]>(DIALECT === 'live' ? sweeps.filter(([kind]) => kind === 'sync') : sweeps)(`%s: for every N, a ${ROWS}-row batch ends non-zero or complete, and its rerun sends every row exactly once`, {timeout: 300_000}, async ([, calls], {onTestFinished}) => {
    // Its own proxy, closed here: the file's afterEach closes the one other tests keep in `proxy`.
    const proxy = await countingProxy(sandbox.url)
    onTestFinished(() => proxy.close())
    const env = sandbox.env({GW_BASE_URL: proxy.url})
    const purchase = await bigPurchase()
    /** The Nth call faulted, then the rerun; whether the fault was injected (a run makes fewer calls than N when it was not). */
    const faultNth = async (nth: number): Promise<boolean> => {
      const prefix = ref(`eio${nth}`)
      const file = refundFile(purchase, ROWS, prefix)
      const dir = mkdtempSync(join(tmpdir(), 'gw-strace-'))
      const journal = join(dir, 'j.sqlite')
      const trace = join(dir, 'trace')
      // --seccomp-bpf: only the traced calls stop the process, not every call of every thread.
      const args = ['--seccomp-bpf', '-f', '-qq', '-o', trace, '-P', journal, '-P', `${journal}-journal`, '-e', `trace=${calls}`, '-e', `inject=${calls}:error=EIO:when=${nth}`, process.execPath, GW, 'refund', 'create', '--input', file, '--journal', journal, '--concurrency', String(CONCURRENCY)]
      const faulted = await runProgram('strace', args, {env, timeoutMs: 60_000})
      const injected = readFileSync(trace, 'utf8').includes('(INJECTED)')
      const rows = rowsOf(faulted.stdout)
      // Non-zero, or complete: never exit 0 with rows left unsent.
      if (faulted.code === 0) expect(rows.filter((row) => row.status === 'approved')).toHaveLength(ROWS)
      // Failed as the journal was opened (its header): it cannot be used, and no row was sent.
      else if (/cannot be used/.test(faulted.stderr)) {
        expect(faulted.stderr).toMatch(/Error: The batch journal .* cannot be used \(EIO\): nothing was sent/)
        expect(rows).toEqual([])
        for (let i = 0; i < ROWS; i++) expect(proxy.posts(`${prefix}-${i}`), `${prefix}-${i} after ${calls} #${nth}`).toBe(0)
      } else expect(faulted.stderr).toMatch(/Error: The batch journal .* cannot be written \(EIO\)/)
      // A row whose intent could not be committed was never sent, and is withdrawn (the commit may have
      // reached the disk all the same): the rerun sends it at once, with no processing window to wait out.
      const again = await runGw(['refund', 'create', '--input', file, '--journal', journal], {env, timeoutMs: 60_000})
      expect(again.code, `rerun after ${calls} #${nth}: ${again.stderr}`).toBe(0)
      expect(again.stderr, `rerun after ${calls} #${nth}`).not.toContain('may still be processing')
      expect(rowsOf(again.stdout).filter((row) => row.status === 'approved')).toHaveLength(ROWS)
      for (let i = 0; i < ROWS; i++) expect(proxy.posts(`${prefix}-${i}`), `${prefix}-${i} after ${calls} #${nth}`).toBe(1)
      removeFolder(dir)
      return injected
    }
    // Every N from the first, a few at once (each its own rows and journal), until a run makes no Nth
    // call: the last N before it is how many there were. A run starts as soon as one ends, not in
    // rounds that wait for their slowest; none starts past an N known to have made no Nth call.
    const atOnce = 4
    let notInjectedAt = Infinity
    let next = 1
    const worker = async (): Promise<void> => {
      for (let nth = next++; nth < notInjectedAt; nth = next++) {
        if (!(await faultNth(nth))) notInjectedAt = Math.min(notInjectedAt, nth)
      }
    }
    await Promise.all(Array.from({length: atOnce}, worker))
    const calledAtMost = notInjectedAt - 1
    // The header, a group of intents and a group of results at the least: how many more depends on how the group commits fall.
    expect(calledAtMost).toBeGreaterThanOrEqual(2)
  })

  it.runIf(!strace)('skipped: strace injects the faults (Debian package strace; CI installs it)', () => {})
  it.runIf(swept && DIALECT === 'live')('skipped in this dialect: the write sweep (SQLite\'s rollback inside a commit; the sync sweep fails every commit here)', () => {})
})

// run-batch.ts starts the journal's worker as its scan counts the row one past --concurrency: which
// thread syncs the journal, seen by strace (a thread's id is its process's only for the main one).
describeOnce.concurrent('the thread that syncs a batch\'s journal', () => {
  const strace = spawnSync('sh', ['-c', 'command -v strace']).status === 0
  it.skipIf(!strace).for([
    [3, 2, 'a worker thread'],
    [2, 2, 'gw\'s main thread'],
  ] as const)('%i rows at --concurrency %i: %s', async ([rows, concurrency, syncer]) => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-syncer-'))
    const journal = join(dir, 'j.sqlite')
    const trace = join(dir, 'trace')
    const file = refundFile(await bigPurchase(), rows)
    const run = await runProgram('strace', ['-f', '-qq', '-y', '-o', trace, '-e', 'trace=execve,fsync,fdatasync', process.execPath, GW, 'refund', 'create', '--input', file, '--journal', journal, '--concurrency', String(concurrency)], {env: sandbox.env(), timeoutMs: 60_000})
    expect(run.code, run.stderr).toBe(0)
    const lines = readFileSync(trace, 'utf8').split('\n')
    const main = /^(\d+) +execve\(/.exec(lines[0] ?? '')?.[1]
    expect(main, lines[0]).toBeDefined()
    const syncers = new Set(lines.filter((line) => / f(?:data)?sync\(\d+<[^>]*j\.sqlite>\)/.test(line)).map((line) => line.split(' ')[0]))
    expect(syncers.size).toBe(1)
    expect(syncers.has(main!)).toBe(syncer === 'gw\'s main thread')
    removeFolder(dir)
  })
  it.runIf(!strace)('skipped: strace tells which thread syncs (Debian package strace; CI installs it)', () => {})
})

// Most of each case is gw's backoff between tries of a look-up: the cases run at once, each at a
// gateway of its own, since the faults armed at one answer every request there.
describeInBothDialects.concurrent('a gateway that stops answering', () => {
  // Each gateway's processing window 0: the rows in doubt were answered 502 by a fault, never processed, and waiting is not what this is about.
  const env = (sandbox: Sandbox, url: string) => sandbox.env({GW_BASE_URL: url})

  it.each([1, 3])('its refunds (each looked up first, and not there): --concurrency %i stops starting rows once 8 answers in a row are lost, saying it looks unreachable; the rerun settles them once', {timeout: 120_000}, async (concurrency) => {
    const sandbox = await startSandbox(['--processing-window-ms', '0'])
    const file = refundFile(await bigPurchase(sandbox), 40)
    const counting = await countingProxy(sandbox.url)
    try {
      await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/refunds', action: 'status', status: 502, times: 1000})
      const run = await runGw(['refund', 'create', '--input', file, '--concurrency', String(concurrency)], {env: env(sandbox, counting.url), timeoutMs: 60_000})
      expect(run.code).toBe(8)
      expect(run.stderr).toContain('Error: The answers to the last 8 refunds were lost: the gateway looks unreachable, and no more rows were started')
      // No row starts once the 8th is lost: the 8, and the rows already at the gateway beside the 8th.
      const sent = counting.seen.filter((request) => request.method === 'POST').length
      if (concurrency === 1) expect(sent).toBe(8)
      else expect(sent).toBeLessThanOrEqual(8 + concurrency - 1)
      expect(rowsOf(run.stdout)).toHaveLength(sent)
      await sandbox.control('DELETE', '/_sandbox/faults')
      // The 502s were never processed: the rows in doubt are not at the gateway.
      const again = await runGw(['refund', 'create', '--input', file], {env: env(sandbox, counting.url), timeoutMs: 60_000})
      expect(again.code, again.stderr).toBe(0)
      expect(rowsOf(again.stdout).every((row) => row.status === 'approved')).toBe(true)
      // A 502 from the fault was never processed: those rows are sent again, once; the rest once in all.
      const first = new Set(rowsOf(run.stdout).map((row) => row.reference))
      for (const row of rowsOf(again.stdout)) expect(counting.posts(row.reference), row.reference).toBe(first.has(row.reference) ? 2 : 1)
    } finally {
      await counting.close()
      await sandbox.stop()
    }
  })

  it('every request: no row is sent while the gateway cannot say whether it has it, the batch stops once 8 look-ups in a row are lost, and the rerun sends each row once', {timeout: 120_000}, async () => {
    const sandbox = await startSandbox(['--processing-window-ms', '0'])
    const file = refundFile(await bigPurchase(sandbox), 40)
    const counting = await countingProxy(sandbox.url)
    try {
      for (const method of ['GET', 'POST']) await sandbox.control('POST', '/_sandbox/faults', {method, path: '/v1.0/refunds', action: 'status', status: 502, times: 1000})
      const run = await runGw(['refund', 'create', '--input', file, '--concurrency', '2'], {env: env(sandbox, counting.url), timeoutMs: 60_000})
      expect(run.code).toBe(8)
      expect(run.stderr).toContain('Error: The answers to the last 8 refunds were lost: the gateway looks unreachable, and no more rows were started')
      expect(counting.seen.filter((request) => request.method === 'POST')).toEqual([])
      const rows = rowsOf(run.stdout)
      expect(rows.length).toBeGreaterThanOrEqual(8)
      expect(rows.length).toBeLessThan(40)
      for (const row of rows) {
        expect(row.status).toBe('failed')
        expect(row.error!.messages[0]).toMatch(new RegExp(`^Reference ${row.reference} could not be looked up before it was sent \\(.*\\): nothing was sent$`))
      }
      await sandbox.control('DELETE', '/_sandbox/faults')
      const again = await runGw(['refund', 'create', '--input', file], {env: env(sandbox, counting.url), timeoutMs: 60_000})
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).not.toContain('may still be processing')
      for (const row of rowsOf(again.stdout)) expect(counting.posts(row.reference), row.reference).toBe(1)
    } finally {
      await counting.close()
      await sandbox.stop()
    }
  })
})

describeInBothDialects('one gw at a time per batch', () => {
  it('after kill -9, four reruns started together: one runs the batch, the others are refused naming it, and every row is sent once', async () => {
    const file = refundFile(await bigPurchase(), 100)
    proxy = await countingProxy(sandbox.url)
    const env = {GW_BASE_URL: proxy.url}
    const first = spawnGw(sandbox, ['refund', 'create', '--input', file, '--concurrency', '2'], env)
    void proxy.post(40).then(() => first.child.kill('SIGKILL'))
    expect((await first.done).signal).toBe('SIGKILL')
    // The rows journaled ahead and never sent wait out the local gateway's processing window (2 s).
    const reruns = await Promise.all(Array.from({length: 4}, () => sandbox.gw(['refund', 'create', '--input', file, '--concurrency', '2'], {env, timeoutMs: 60_000, process: true})))
    const ran = reruns.filter((run) => run.code === 0)
    const refused = reruns.filter((run) => run.code !== 0)
    expect(ran.length).toBeGreaterThanOrEqual(1)
    // Refused by the journal's lock, or while the one that runs it chose it (the same-batch lock).
    for (const run of refused) expect(run.stderr).toMatch(/Error: Another gw \(pid \d+\) is running the batch of journal|Error: The batch journal .* is being taken by another gw|Error: Another gw( \(pid \d+\))? is starting this batch/)
    // Whichever ran, the rows went once: the gateway counted every reference exactly once.
    const last = await sandbox.gw(['refund', 'create', '--input', file], {env, timeoutMs: 60_000})
    expect(last.code, last.stderr).toBe(0)
    everyOnce(proxy.references(), 100)
  }, 120_000)
})

describeInBothDialects('a journal belongs to one gateway and merchant', () => {
  it('the same file against a second local gateway is journaled apart: every row is sent there too', async () => {
    const other = await startSandbox([], sandbox.home)
    try {
      // A purchase each gateway holds under the same reference, refunded by that reference.
      const purchase = ref('order')
      for (const gateway of [sandbox, other]) {
        expect((await gateway.gw(['purchase', 'create', '--amount', '5000', '--reference', purchase, ...cardArgs()])).code).toBe(0)
      }
      const file = writeTemp('refunds.csv', `transaction_id,amount,reference\n${purchase},100,${ref('refund')}\n`)
      const first = await sandbox.gw(['refund', 'create', '--input', file])
      expect(first.code, first.stderr).toBe(0)
      proxy = await countingProxy(other.url)
      const second = await other.gw(['refund', 'create', '--input', file], {env: {GW_BASE_URL: proxy.url}})
      expect(second.code, second.stderr).toBe(0)
      expect(second.stderr).not.toContain('resuming')
      expect(second.stderr).not.toContain('done by an earlier run')
      expect(rowsOf(second.stdout)[0]).toMatchObject({status: 'approved'})
      expect(proxy.postCount()).toBe(1)
    } finally {
      await other.stop()
    }
  })

  it('a --journal written against another gateway is refused, naming both, and nothing is sent', async () => {
    const other = await startSandbox([], sandbox.home)
    try {
      const file = refundFile(await bigPurchase(), 1)
      const journal = join(mkdtempSync(join(tmpdir(), 'gw-j-')), 'j.ndjson')
      expect((await sandbox.gw(['refund', 'create', '--input', file, '--journal', journal])).code).toBe(0)
      const refused = await other.gw(['refund', 'create', '--input', file, '--journal', journal])
      expect(refused.code).toBe(2)
      // The gateways' addresses in the one spelling journals compare them in (loopback.ts, gatewayAddress).
      const spelled = (url: string) => url.replace('127.0.0.1', 'localhost')
      expect(refused.stderr).toContain(`Error: ${journal} is the journal of this batch sent as TEST to ${spelled(sandbox.url)}, and this run sends as TEST to ${spelled(other.url)}: nothing was sent`)
    } finally {
      await other.stop()
    }
  })
})

describeOnce('two local gateways on one state file', () => {
  it('the second exits 2 naming the pid that holds it, and the first loses nothing', async () => {
    const home = isolatedHome()
    const state = join(home.HOME!, 'state.json')
    const first = await startSandboxProcess(['--state', state], home)
    const [reference, later] = [ref(), ref()]
    try {
      expect((await first.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs()])).code).toBe(0)
      const second = await runGw(['sandbox', 'start', '--port', '0', '--state', state], {env: isolatedHome()})
      expect(second.code).toBe(2)
      expect(second.stderr).toContain(`Error: ${state} is in use by another local gateway (pid ${first.process.pid}): two gateways on one state file would lose each other's writes`)
      expect(second.stderr).toContain(`Hint: Stop that gateway first (gw sandbox stop, or kill ${first.process.pid}): the lock is the system's, on the file itself, and ends with that gateway. Or give this one another --state file.`)
      expect((await first.gw(['purchase', 'create', '--amount', '1000', '--reference', later, ...cardArgs()])).code).toBe(0)
    } finally {
      await first.stop()
    }
    const restarted = await startSandbox(['--state', state], home)
    try {
      for (const found of [reference, later]) expect((await restarted.gw(['purchase', 'get', found])).code).toBe(0)
    } finally {
      await restarted.stop()
    }
  })
})

describeInBothDialects('stdout that cannot be written', () => {
  it.skipIf(POSIX_PIPES.skip)(`| head -1 on a 100-row batch: no new row once the reader is gone, those in flight finish into the journal, exit 141${POSIX_PIPES.note}`, async () => {
    const file = refundFile(await bigPurchase(), 100)
    proxy = await countingProxy(sandbox.url)
    const env = sandbox.env({GW_BASE_URL: proxy.url})
    const run = await runProgram('bash', ['-c', `node ${GW} refund create --input ${file} --concurrency 2 | head -1; echo "gw exited \${PIPESTATUS[0]}" >&2`], {env})
    expect(run.stderr).toContain('gw exited 141')
    expect(run.stderr).toContain("Error: stdout's reader went away: no more rows were started")
    expect(proxy.postCount()).toBeLessThan(100)
    const again = await runGw(['refund', 'create', '--input', file], {env, timeoutMs: 60_000})
    expect(again.code, again.stderr).toBe(0)
    everyOnce(proxy.references(), 100)
  })

  it.skipIf(DEV_FULL.skip)(`> /dev/full: one short line on stderr and exit 1, every result journaled; the rerun reports them all${DEV_FULL.note}`, async () => {
    const file = refundFile(await bigPurchase(), 20)
    proxy = await countingProxy(sandbox.url)
    const env = sandbox.env({GW_BASE_URL: proxy.url})
    const run = await runProgram('bash', ['-c', `node ${GW} refund create --input ${file} > /dev/full`], {env})
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('Error: stdout could not be written (ENOSPC): no more rows were started')
    expect(run.stderr.length).toBeLessThan(1500)
    expect(run.stderr).not.toMatch(/at .*\.cjs:\d+/)
    const sentFirst = proxy.postCount()
    expect(sentFirst).toBeGreaterThan(0)
    const again = await runGw(['refund', 'create', '--input', file], {env})
    expect(again.code, again.stderr).toBe(0)
    const rows = rowsOf(again.stdout)
    expect(rows).toHaveLength(20)
    // Every row the first run sent is reported from its journal (or found at the gateway), none sent again.
    expect(rows.filter((row) => row.resumed).length).toBe(sentFirst)
    everyOnce(proxy.references(), 20)
  })

  it.skipIf(DEV_FULL.skip)(`> /dev/full for a single command: exit 1, one line, no stack${DEV_FULL.note}`, async () => {
    const run = await runProgram('bash', ['-c', `node ${GW} purchase create --amount 1000 --reference ${ref()} --card-holder Jane --card-number 4242424242424242 --card-expiry 12/2030 --cvv 123 > /dev/full`], {env: sandbox.env()})
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^The purchase was approved \(id 071-P-\w{8}, reference [\w-]+\), but its record could not be printed: do not resend it; gw purchase get [\w-]+ shows it\.\nError: stdout could not be written \(ENOSPC\): what was printed there is incomplete\n$/)
  })
})

// A dry run asks no gateway anything: measured once, in the contract dialect's run of this file
// (the live one skips it without asking the slow gate, which would warn a second time).
/** An outer bound only: about 20 s on two idle cores, it took over 120 s on a machine four times slower, beside other tests. */
const MILLION_BOUND_MS = 600_000
const millionRows = DIALECT === 'live' || runsInCiOr('GW_TEST_SLOW', "a dry run's peak memory over a million rows (about 20 s)") ? describeOnce : describeOnce.skip
millionRows('a batch of a million rows', () => {
  it.skipIf(!existsSync('/usr/bin/time'))('is checked in a dry run under 256 MiB of memory at its peak', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-million-'))
    const file = join(dir, 'refunds.csv')
    const lines = ['transaction_id,amount,reference']
    for (let i = 0; i < 1_000_000; i++) lines.push(`071-P-AAAAAAAA,${100 + (i % 900)},ref-${i}`)
    writeFileSync(file, lines.join('\n') + '\n')
    const measured = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, GW, 'refund', 'create', '--input', file, '--dry-run'], {
      env: baseEnv(isolatedHome()),
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 1 << 20,
      timeout: MILLION_BOUND_MS - 10_000,
    })
    rmSync(dir, {recursive: true, force: true})
    const stderr = measured.stderr.toString()
    expect(measured.status, stderr).toBe(0)
    expect(stderr).toContain('Dry run: 1000000 refunds would be sent')
    const peakKiB = Number(stderr.trim().split('\n').at(-1))
    expect(peakKiB).toBeGreaterThan(0)
    expect(peakKiB / 1024).toBeLessThan(256)
  }, MILLION_BOUND_MS)

  it.runIf(!existsSync('/usr/bin/time'))('skipped: /usr/bin/time measures the peak (Debian package time; CI installs it)', () => {})
})

/**
 * Removes a run's folder of strace and gw, naming a file made in it as it was removed (ENOTEMPTY).
 * The other gw of this file share a data directory, which notes this journal's place, and read
 * every journal noted there: one that opened it for writing made it again, empty, as it was removed
 * (journal-file.ts opens it read only).
 */
function removeFolder(dir: string): void {
  try {
    rmSync(dir, {recursive: true, force: true})
  } catch (error) {
    throw new Error(`${dir} could not be removed (${String(error)}): it still holds ${readdirSync(dir).join(', ')}`, {cause: error})
  }
}
