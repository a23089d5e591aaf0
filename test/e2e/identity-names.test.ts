import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import type {CountingProxy} from '../counting-proxy.js'
import {rowsOf, spawnGw} from './batch-helpers.js'
import {bindMount, expectOnePostEach, folder, NEEDS_ROOT, purchaseBatch, purchasedAt, root, startedPerTest} from './identity-helpers.js'
import {describeInBothDialects, describeOnce, GW, runProgram, type Sandbox} from './helpers.js'

// Exactly once by what things are, not by their names (design.md §5): a batch is its parsed rows
// (not its bytes), one writer of a journal is decided by the kernel's lock on the file (not by a
// folder that TMPDIR names), and a gateway is its normalised address (not its spelling). Each case
// counts the POSTs at a proxy in front of a real local gateway: every reference exactly once.

const {cleanups, gateway, counted, relayed} = startedPerTest()
// The first POST waits at the gate: the batch that sent it holds its journal until it is let through.
const gated = (target: string) => relayed(target, {hold: (post) => post === 1})

/** A folder of its own for TMPDIR: what an old gw kept its locks under. */
const tmpdirOfItsOwn = () => folder()

/** Each row's reference and status, and whether an earlier run answered it, in the file's order (rows print as they finish). */
const outcomes = (stdout: string) => rowsOf(stdout).sort((a, b) => a.row - b.row).map((row) => [row.reference, row.status, row.resumed ?? false])

/** The references of the POSTs that reached the gateway, in order. */
const posted = (proxy: CountingProxy) => proxy.seen.filter((request) => request.method === 'POST').map((request) => request.reference)

describeInBothDialects('a copy that differs only in bytes is the same batch', () => {
  const header = 'transaction_id,amount,reference'
  it.each([
    ['saved with CRLF line ends', (text: string) => text.replaceAll('\n', '\r\n')],
    ['without its final newline', (text: string) => text.slice(0, -1)],
    ['with spaces in its header row', (text: string) => text.replace(header, 'transaction_id , amount , reference ')],
    ['with a byte order mark and blank lines', (text: string) => `\uFEFF${text.replace('\n', '\n\n')}\n`],
  ])('refunds with blank references, run again from a copy %s: nothing is sent again (no -R2), exit 0, and it says whose journal it is', async (_, copy) => {
    const sandbox = await gateway()
    const [first, second] = await purchasedAt(sandbox, 2)
    const proxy = await counted(sandbox.url)
    const env = {GW_BASE_URL: proxy.url}
    const dir = folder()
    mkdirSync(join(dir, 'a'))
    mkdirSync(join(dir, 'b'))
    const original = join(dir, 'a', 'credits.csv')
    const text = `${header}\n${first},100,\n${second},100,\n`
    writeFileSync(original, text)
    const sent = await sandbox.gw(['refund', 'create', '--input', original], {env})
    expect(sent.code, sent.stderr).toBe(0)
    const derived = [`${first}-R1`, `${second}-R1`]
    expect(outcomes(sent.stdout)).toEqual(derived.map((reference) => [reference, 'approved', false]))

    const copied = join(dir, 'b', 'credits.csv')
    writeFileSync(copied, copy(text))
    const again = await sandbox.gw(['refund', 'create', '--input', copied], {env})
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain(`Journal: it was begun for the same rows at ${original}: this is that batch, moved or copied, and what it sent is not sent again.`)
    expect(outcomes(again.stdout)).toEqual(derived.map((reference) => [reference, 'approved', true]))
    expect(posted(proxy)).toEqual(derived)
    expectOnePostEach(proxy, derived)
  })
})

describeInBothDialects('one gateway under two spellings is one batch', () => {
  it('refunds with blank references, run with GW_BASE_URL ending in /v1.0 and then without it: the second run resumes the first, and sends nothing', async () => {
    const sandbox = await gateway()
    const [first, second] = await purchasedAt(sandbox, 2)
    const proxy = await counted(sandbox.url)
    const file = join(folder(), 'credits.csv')
    writeFileSync(file, `transaction_id,amount,reference\n${first},100,\n${second},100,\n`)
    const derived = [`${first}-R1`, `${second}-R1`]
    const sent = await sandbox.gw(['refund', 'create', '--input', file], {env: {GW_BASE_URL: `${proxy.url}/v1.0`}})
    expect(sent.code, sent.stderr).toBe(0)
    expect(outcomes(sent.stdout)).toEqual(derived.map((reference) => [reference, 'approved', false]))
    const journal = /^Journal: (\S+)/m.exec(sent.stderr)![1]!

    for (const spelling of [proxy.url, `${proxy.url}/`, `${proxy.url.replace('127.0.0.1', 'localhost')}/V1.0/`]) {
      const again = await sandbox.gw(['refund', 'create', '--input', file], {env: {GW_BASE_URL: spelling}})
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toContain(`Journal: ${journal} (resuming: 2 rows answered, 0 in doubt, 0 not started)\n`)
      expect(outcomes(again.stdout)).toEqual(derived.map((reference) => [reference, 'approved', true]))
    }
    expect(posted(proxy)).toEqual(derived)
  })
})

/**
 * A batch held mid-way (its first POST at the gate) on `journal`, its locks' old folder named by
 * its own TMPDIR; `second` then runs the same batch another way while it holds the journal, and
 * must be refused, naming the first's pid. Once the first is let through, every row was POSTed
 * once, and a rerun through `rerun` (the journal's other name) sends nothing.
 */
async function whileHeld(journal: string, second: (sandbox: Sandbox, file: string, env: NodeJS.ProcessEnv) => Promise<{code: number | null; stdout: string; stderr: string}>, rerun: string, {moved = false} = {}): Promise<void> {
  const sandbox = await gateway()
  // Rows go on while an answer's commit is under way (Journal.caughtUp), so a batch whose journal
  // is moved is made long and slow: no loaded machine's commit outlasts it. 6 rows were all answered once.
  const {file, references} = await purchaseBatch(sandbox, moved ? 20 : 6)
  if (moved) await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/purchases', action: 'delay', delayMs: 100, times: 1000})
  const gate = await gated(sandbox.url)
  const proxy = await counted(gate.url)
  const env = {GW_BASE_URL: proxy.url}
  const first = spawnGw(sandbox, ['purchase', 'create', '--input', file, '--journal', journal, '--concurrency', '2'], {...env, TMPDIR: tmpdirOfItsOwn()})
  cleanups.push(() => first.child.kill('SIGKILL'))
  await gate.held

  const refused = await second(sandbox, file, {...env, TMPDIR: tmpdirOfItsOwn()})
  expect(refused.stderr).toContain(`pid ${first.child.pid}`)
  expect(refused.stderr).toContain('nothing was sent')
  expect(refused.code).toBe(2)
  expect(refused.stdout).toBe('')
  expect(posted(proxy)).toEqual([references[0]])

  await gate.release()
  const done = await first.done
  const printed = rowsOf(done.stdout)
  const answered = printed.filter((row) => row.status === 'approved')
  if (moved) {
    // Its journal gone from its path, the first starts no more rows (what it writes no name there reaches): the rerun finishes the batch.
    expect(done.code, done.stderr).toBe(1)
    const replaced = `The batch journal ${journal} was replaced while the batch ran (nothing is at that path now): no more rows are sent`
    expect(done.stderr).toContain(`Error: ${replaced}`)
    expect(answered.length).toBeLessThan(references.length)
    // A row journaled ahead that waited at the gate past INTENT_FRESH_MS (under load) is journaled
    // again before it is sent: that write finds the journal replaced, and the row is reported failed, unsent.
    for (const row of printed.filter((each) => each.status !== 'approved')) expect(row).toMatchObject({status: 'failed', exit_code: 1, error: {messages: [replaced]}})
    expect(posted(proxy).sort()).toEqual(answered.map((row) => row.reference).sort())
  } else {
    expect(done.code, done.stderr).toBe(0)
    expect(answered.map((row) => row.status)).toEqual(references.map(() => 'approved'))
    expectOnePostEach(proxy, references)
  }
  const again = await sandbox.gw(['purchase', 'create', '--input', file, '--journal', rerun], {env})
  expect(again.code, again.stderr).toBe(0)
  const rows = rowsOf(again.stdout)
  // What the first run answered reads as resumed (from the journal, or found at the gateway); what it did not send is sent now.
  expect(rows.filter((row) => row.resumed).map((row) => row.reference).sort()).toEqual(answered.map((row) => row.reference).sort())
  expect(rows.map((row) => row.status)).toEqual(references.map(() => 'approved'))
  expectOnePostEach(proxy, references)
}

/** Whether this process may make a mount namespace of its own (root, and unshare(1) allowed here). */
const canUnshare = root && spawnSync('unshare', ['--mount', 'true']).status === 0

describeOnce('one writer by the kernel’s lock on the journal, whatever TMPDIR names', () => {
  it.skipIf(!root)(`a journal bind-mounted under a second path, run there by a gw whose TMPDIR differs while the first runs: refused (exit 2)${NEEDS_ROOT}`, async () => {
    const dir = folder()
    mkdirSync(join(dir, 'a'))
    mkdirSync(join(dir, 'b'))
    const journal = join(dir, 'a', 'journal')
    const other = join(dir, 'b', 'journal')
    writeFileSync(journal, '')
    cleanups.push(bindMount(journal, other))
    await whileHeld(journal, (sandbox, file, env) => sandbox.gw(['purchase', 'create', '--input', file, '--journal', other], {env}), other)
  })

  it.skipIf(!canUnshare)(
    `a gw in a mount namespace of its own (as in a container) that sees the journal bind-mounted at another path, and whose TMPDIR reads the same but is a private tmpfs there: refused (exit 2)${canUnshare ? '' : ' (skipped: unshare --mount needs root and a kernel that allows it; CI runs it)'}`,
    async () => {
      const journal = join(folder(), 'journal')
      const inside = join(folder(), 'journal')
      writeFileSync(inside, '')
      const tmp = tmpdirOfItsOwn()
      await whileHeld(
        journal,
        (sandbox, file, env) =>
          runProgram(
            'unshare',
            ['--mount', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs gw-private-tmp "$TMPDIR" && mount --bind "$1" "$2" && shift 2 && exec "$@"', 'sh', journal, inside, process.execPath, GW, 'purchase', 'create', '--input', file, '--journal', inside],
            {env: sandbox.env({...env, TMPDIR: tmp})},
          ),
        journal,
      )
    },
  )

  it('a journal renamed while its batch runs, then run under its new name by a gw whose TMPDIR differs: refused (exit 2)', async () => {
    const dir = folder()
    const journal = join(dir, 'journal')
    const renamed = join(dir, 'renamed')
    await whileHeld(
      journal,
      (sandbox, file, env) => {
        renameSync(journal, renamed)
        return sandbox.gw(['purchase', 'create', '--input', file, '--journal', renamed], {env})
      },
      renamed,
      {moved: true},
    )
  })
})

describeOnce('a folder under /tmp that another user made first', () => {
  it.skipIf(!root)(`stops no batch: the lock is the journal’s own${NEEDS_ROOT}`, async () => {
    const sandbox = await gateway()
    const {file, references} = await purchaseBatch(sandbox, 3)
    const proxy = await counted(sandbox.url)
    // What an old gw used as its lock folder, made first by another user, open to all.
    const tmp = mkdtempSync(join(folder(), 'tmp-'))
    const planted = join(tmp, `gw-locks-${process.getuid!()}`)
    mkdirSync(planted, {mode: 0o777})
    spawnSync('chown', ['65534:65534', planted])
    const sent = await sandbox.gw(['purchase', 'create', '--input', file], {env: {GW_BASE_URL: proxy.url, TMPDIR: tmp}})
    expect(sent.code, sent.stderr).toBe(0)
    expectOnePostEach(proxy, references)
  })
})
