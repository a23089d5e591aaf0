import {type ChildProcess, spawn} from 'node:child_process'
import {join} from 'node:path'
import {afterEach, expect, it} from 'vitest'
import {countingProxy} from '../counting-proxy.js'
import {rowsOf, spawnGw, writeTemp} from './batch-helpers.js'
import {baseEnv, cardArgs, describeInBothDialects, describeOnce, GW, ref, type Sandbox, sharedSandbox} from './helpers.js'
import {journalText} from '../journal-text.js'

// A --jq expression is the user's program: one that never ends, or prints for ever, must neither
// hold gw's memory nor take its signals away (jq runs in a worker thread, its output streamed).

let sandbox: Sandbox
let purchase: string

sharedSandbox(async (started) => {
  sandbox = started
  const made = await sandbox.gw(['purchase', 'create', '--amount', '100000', '--reference', ref('jq'), ...cardArgs(), '--json'])
  expect(made.code, made.stderr).toBe(0)
  purchase = (made.json as {id: string}).id
})
// A gw this file failed to stop would run jq for ever.
const spawned: ChildProcess[] = []
afterEach(() => {
  for (const child of spawned.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

/** gw spawned with stdout piped; resolves once stderr has shown `mark` (jq's `debug` line: the expression has begun). */
function spawnUntil(args: string[], mark: string, env: NodeJS.ProcessEnv = {}) {
  const started = spawnGw(sandbox, args, env)
  spawned.push(started.child)
  let stderr = ''
  const shown = new Promise<void>((resolve) => {
    started.child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      if (stderr.includes(mark)) resolve()
    })
  })
  return {...started, shown}
}

describeOnce('--jq that prints for ever', () => {
  it('streams to the reader: `--jq "range(1e9)" | head -3` prints 0, 1, 2 and gw ends as a closed pipe ends it (141, silent)', async () => {
    const child = spawn(process.execPath, [GW, 'purchase', 'get', purchase, '--jq', 'range(1e9)'], {env: baseEnv(sandbox.env()), stdio: ['ignore', 'pipe', 'pipe']})
    spawned.push(child)
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      // As head -3 does: the reader goes once it has its lines.
      if (stdout.split('\n').length > 3) child.stdout.destroy()
    })
    const code = await new Promise<number | null>((resolve) => child.on('close', (exit, signal) => resolve(exit ?? (signal ? 128 : null))))
    expect(stdout.split('\n').slice(0, 3)).toEqual(['0', '1', '2'])
    expect(code).toBe(141)
    expect(stderr).toBe('')
  })
})

describeOnce('--jq that never ends', () => {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`leaves ${signal} to gw: \`last(repeat(1))\` is stopped and gw exits ${code}`, async () => {
      const run = spawnUntil(['purchase', 'get', purchase, '--jq', 'debug | last(repeat(1))'], '["DEBUG:"')
      await run.shown
      run.child.kill(signal)
      const done = await run.done
      expect(done.code).toBe(code)
      expect(done.stdout).toBe('')
    })
  }
})

describeInBothDialects('--jq that never ends, in a 20-row refund batch', () => {
  it('stuck on row 1: Ctrl-C finishes the rows in flight, exits 130, and the journal holds exactly the rows sent, so the rerun sends each of the others once and waits for none', async () => {
    const prefix = ref('runaway')
    const file = writeTemp('refunds.csv', ['transaction_id,amount,reference', ...Array.from({length: 20}, (_, i) => `${purchase},100,${prefix}-${i + 1}`)].join('\n') + '\n')
    const journal = join(file, '..', 'journal.ndjson')
    const proxy = await countingProxy(sandbox.url)
    // Each refund answered a second late: the rows still to send are still unsent when jq, stuck on
    // row 1, shows its first line (answered at once, all 20 could be sent before the Ctrl-C came).
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/refunds', action: 'delay', delayMs: 1000, times: 20})
    try {
      const run = spawnUntil(['refund', 'create', '--input', file, '--journal', journal, '--jq', 'if .row == 1 then (debug | last(repeat(1))) else .status end'], '["DEBUG:"', {GW_BASE_URL: proxy.url})
      await run.shown
      run.child.kill('SIGINT')
      const interrupted = await run.done
      expect(interrupted.code, interrupted.stderr).toBe(130)
      expect(interrupted.stderr).toContain('--jq was stopped before it had printed all the output: gw was interrupted.')
      const entries = journalText(journal).split('\n')
      const count = (kind: string) => entries.filter((line) => line.startsWith(`{"${kind}"`)).length
      // Every intent the journal keeps (one not withdrawn) was sent, and nothing was sent without one.
      expect(proxy.postCount()).toBe(count('intent') - count('withdrawn'))
      expect(proxy.postCount()).toBeLessThan(20)
      await sandbox.control('DELETE', '/_sandbox/faults')

      const rerun = await sandbox.gw(['refund', 'create', '--input', file, '--journal', journal, '--json'], {env: {GW_BASE_URL: proxy.url}})
      expect(rerun.code, rerun.stderr).toBe(0)
      expect(rowsOf(rerun.stdout).map((row) => row.status)).toEqual(Array.from({length: 20}, () => 'approved'))
      expect(rerun.stderr).not.toContain('processing window')
      expect(proxy.references().size).toBe(20)
      expect([...proxy.references().values()].every((n) => n === 1)).toBe(true)
    } finally {
      await sandbox.control('DELETE', '/_sandbox/faults')
      await proxy.close()
    }
  })
})
