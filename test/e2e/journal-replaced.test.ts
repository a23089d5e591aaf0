import {copyFileSync, mkdtempSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {DatabaseSync} from 'node:sqlite'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {expect, it, type TestContext} from 'vitest'
import type {CountingProxy} from '../counting-proxy.js'
import {rowsOf, spawnGw, writeTemp} from './batch-helpers.js'
import {cardArgs, describeInBothDialects, ref, runGw, type Sandbox} from './helpers.js'
import {until} from '../until.js'
import {startedInTest} from './identity-helpers.js'

// A batch's journal replaced under the running batch (journal-place.ts): a folder-sync tool
// renaming its earlier copy over it, or a person removing it. gw used to write on into the file no
// name reached, exit 0, and say "40 approved" of a journal that held a few. Now it starts no more
// rows, says what happened, and exits 1; the rerun, from whatever is at the path, makes nothing twice.
// Each test has a gateway of its own, slowed by its own fault: they run at once, most of each being waits.

const ROWS = 40

/** One test's batch: its gateway, the proxy counting what reached it, its input, journal and references' prefix. */
interface Batch {
  sandbox: Sandbox
  proxy: CountingProxy
  file: string
  journal: string
  prefix: string
}

/** A purchase, and a file of refunds of 1.00 of it, the gateway slowed so that the batch runs for seconds. */
async function slowBatch(onTestFinished: TestContext['onTestFinished']): Promise<Batch> {
  const {gateway, counted} = startedInTest(onTestFinished)
  const sandbox = await gateway()
  const purchase = await sandbox.gw(['purchase', 'create', '--amount', '1000000', '--reference', ref('big'), ...cardArgs(), '--json'])
  expect(purchase.code, purchase.stderr).toBe(0)
  const id = (purchase.json as {id: string}).id
  const prefix = ref('swap')
  const file = writeTemp('refunds.csv', ['transaction_id,amount,reference', ...Array.from({length: ROWS}, (_, i) => `${id},100,${prefix}-${i}`)].join('\n') + '\n')
  await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/refunds', action: 'delay', delayMs: 100, times: 1000})
  const proxy = await counted(sandbox.url)
  return {sandbox, proxy, file, journal: join(mkdtempSync(join(tmpdir(), 'gw-replaced-')), 'j.sqlite'), prefix}
}

/** Runs the batch until a row of it is answered (its line printed, so its result is journaled), then does `replace` to its journal. */
async function replacedMidRun({sandbox, proxy, file, journal}: Batch, replace: () => void) {
  const run = spawnGw(sandbox, ['refund', 'create', '--input', file, '--journal', journal, '--concurrency', '2'], {GW_BASE_URL: proxy.url})
  let stdout = ''
  run.child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  await until('a row answered', () => stdout.includes('\n'))
  replace()
  return run.done
}

/** A copy of the journal as a folder-sync tool takes one: its bytes, taken again until they read as a whole database. */
function copyOf(journal: string): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'gw-replaced-copy-')), 'j.sqlite')
  for (let tries = 1; ; tries++) {
    copyFileSync(journal, copy)
    const url = pathToFileURL(copy)
    url.searchParams.set('immutable', '1')
    const db = new DatabaseSync(url, {readOnly: true})
    try {
      if (db.prepare('PRAGMA integrity_check').get()?.integrity_check === 'ok') return copy
    } catch (err) {
      // Copied while a commit rewrote it: copied again.
      if (tries === 20) throw err
    } finally {
      db.close()
    }
  }
}

const NO_MORE = 'no more rows are sent'
const RERUN = 'run the same command again to finish the batch: it looks each row up at the gateway before sending it, so none is made twice.'

/** What the stopped run printed and made: some rows, each once, and every one it made on stdout. */
function expectStopped(run: {code: number | null; stdout: string; stderr: string}, {proxy, journal}: Batch, now: string): void {
  expect(run.code, run.stderr).toBe(1)
  expect(run.stderr).toContain(`Error: The batch journal ${journal} was replaced while the batch ran (${now} is at that path now): ${NO_MORE}\n`)
  expect(run.stderr).toMatch(/Hint: Its \d+ answered rows?, and any answered since, are at the gateway; this run's output shows each row it reported\. /)
  // No journal's state is summed up: the file at the path holds another's.
  expect(run.stderr).not.toContain('Not finished:')
  const approved = rowsOf(run.stdout).filter((row) => row.status === 'approved')
  expect(approved.length).toBeGreaterThan(0)
  expect(approved.length).toBeLessThan(ROWS)
  // Each row it made is on stdout, made once.
  expect(proxy.references().size).toBe(approved.length)
  expect([...proxy.references().values()].every((count) => count === 1)).toBe(true)
}

/** The rerun finishes the batch: every row approved, none made twice. */
async function expectFinished({sandbox, proxy, file, journal, prefix}: Batch): Promise<void> {
  const again = await runGw(['refund', 'create', '--input', file, '--journal', journal], {env: sandbox.env({GW_BASE_URL: proxy.url}), timeoutMs: 60_000})
  expect(again.code, again.stderr).toBe(0)
  expect(rowsOf(again.stdout).filter((row) => row.status === 'approved')).toHaveLength(ROWS)
  for (let i = 0; i < ROWS; i++) expect(proxy.posts(`${prefix}-${i}`), `${prefix}-${i}`).toBe(1)
}

// Windows refuses to rename over or remove a file SQLite holds open (it shares no delete access).
const windows = process.platform === 'win32'

describeInBothDialects.concurrent('a batch whose journal is replaced while it runs', () => {
  it.skipIf(windows)('by an earlier copy of it renamed over it (a folder-sync tool): stops starting rows, exit 1, saying so; each row made once, and the rerun from the copy finishes the rest', {timeout: 120_000}, async ({onTestFinished}) => {
    const batch = await slowBatch(onTestFinished)
    const run = await replacedMidRun(batch, () => renameSync(copyOf(batch.journal), batch.journal))
    expectStopped(run, batch, 'an earlier copy of this journal')
    expect(run.stderr).toContain(`each row it reported. ${RERUN[0]!.toUpperCase()}${RERUN.slice(1)}`)
    await expectFinished(batch)
  })

  it.skipIf(windows)('by removing it: stops starting rows, exit 1, saying nothing is there; the rerun begins a new journal and makes nothing twice', {timeout: 120_000}, async ({onTestFinished}) => {
    const batch = await slowBatch(onTestFinished)
    const run = await replacedMidRun(batch, () => rmSync(batch.journal))
    expectStopped(run, batch, 'nothing')
    await expectFinished(batch)
  })

  it.skipIf(windows)('by a file that is no journal: says to move it away first; once it is, the rerun makes nothing twice', {timeout: 120_000}, async ({onTestFinished}) => {
    const batch = await slowBatch(onTestFinished)
    const run = await replacedMidRun(batch, () => {
      const other = join(mkdtempSync(join(tmpdir(), 'gw-replaced-other-')), 'notes.txt')
      writeFileSync(other, 'notes\n')
      renameSync(other, batch.journal)
    })
    expectStopped(run, batch, 'a file that is no batch journal')
    expect(run.stderr).toContain(`each row it reported. Move that file away (or give another --journal FILE), then ${RERUN}`)
    rmSync(batch.journal)
    await expectFinished(batch)
  })

  it.runIf(windows)('skipped on Windows: the system refuses to rename over or remove a journal gw holds open', () => {})
})
