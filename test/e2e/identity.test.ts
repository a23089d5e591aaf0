import {copyFileSync, linkSync, lstatSync, mkdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {rowsOf, spawnGw} from './batch-helpers.js'
import {stateIn} from '../sandbox/state-file.js'
import {bindMount, expectOnePostEach, folder, NEEDS_ROOT, purchaseBatch, purchasedAt, root, startedInTest} from './identity-helpers.js'
import {cardArgs, describeInBothDialects, describeOnce, isolatedHome, purchasedAtGateway, ref, runGw} from './helpers.js'
import {journalText, writeJournal} from '../journal-text.js'
import {escaped} from '../escaped.js'

// Identity, not names (design.md §5). Each case runs the built gw against real
// local gateways over HTTP, with a counting proxy in front: every reference is POSTed exactly once.
// Each test starts its own gateways, proxies and files, undone when it finishes (startedInTest), so
// the tests run at once: most of each is waiting on the processes it started.

type Started = ReturnType<typeof startedInTest>

/** `count` purchases made at a new local gateway (their references), and a counting proxy in front of it for what follows. */
async function purchasedThrough({gateway, counted}: Started, count: number) {
  const sandbox = await gateway()
  const purchases = await purchasedAt(sandbox, count)
  const proxy = await counted(sandbox.url)
  return {sandbox, purchases, proxy, env: {GW_BASE_URL: proxy.url}}
}

/** The run in a gateway's name for its data (`<run>.<changes>`). */
const runOf = (instance: string) => instance.slice(0, instance.lastIndexOf('.'))

/** The run of its data a gateway answers from. */
async function instanceOf(url: string): Promise<string> {
  const answer = await fetch(`${url}/_sandbox/clock`)
  await answer.text()
  return answer.headers.get('x-sandbox-instance')!
}

describeOnce.concurrent('the local gateway’s state file is its real file', () => {
  it('a second gateway on it through a symlink or a hard link is refused (exit 2); the first’s clean stop leaves the symlink a symlink and loses nothing', async ({onTestFinished}) => {
    const {gateway, gatewayProcess} = startedInTest(onTestFinished)
    const dir = folder()
    mkdirSync(join(dir, 'real'))
    const real = join(dir, 'real', 'state.json')
    const link = join(dir, 'state.json')
    symlinkSync(real, link)
    const first = await gatewayProcess(['--state', link])
    const reference = ref('kept')
    expect((await first.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs()])).code).toBe(0)
    const pid = first.process.pid!

    // Each from a home of its own: what refuses it is the state file, not the first one's runtime file.
    const second = (state: string) => runGw(['sandbox', 'start', '--port', '0', '--no-request-log', '--state', state], {env: isolatedHome()})
    const throughTheFile = await second(real)
    expect(throughTheFile.code).toBe(2)
    expect(throughTheFile.stderr).toContain(`Error: ${real} is in use by another local gateway (pid ${pid}): two gateways on one state file would lose each other's writes`)
    const throughAnotherLink = join(dir, 'another-link.json')
    symlinkSync(link, throughAnotherLink)
    const linked = await second(throughAnotherLink)
    expect(linked.code).toBe(2)
    expect(linked.stderr).toContain(`Error: ${throughAnotherLink} (the same file as ${real}) is in use by another local gateway (pid ${pid})`)
    const hard = join(dir, 'hard.json')
    linkSync(real, hard)
    const hardLinked = await second(hard)
    expect(hardLinked.code).toBe(2)
    // The lock is the file's own, seen from every name: in use, whatever the name.
    expect(hardLinked.stderr).toContain(`Error: ${hard} is in use by another local gateway (pid ${pid})`)
    rmSync(hard)

    await first.stop()
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readlinkSync(link)).toBe(real)
    const again = await gateway(['--state', real])
    const found = await again.gw(['purchase', 'get', reference])
    expect(found.code, found.stderr).toBe(0)
    expect(found.records).toMatchObject([{reference, successful: true}])
  })
})

describeOnce.concurrent('a batch journal is its real file', () => {
  it('a second batch on a symlink to a running batch’s --journal is refused (exit 2), and every row is POSTed once', async ({onTestFinished}) => {
    const {cleanups, gateway, counted, relayed} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const {file, references, dir} = await purchaseBatch(sandbox, 5)
    // The first POST waits at the gate: the first batch holds its journal until it is let through.
    const gate = await relayed(sandbox.url, {hold: (post) => post === 1})
    const proxy = await counted(gate.url)
    const journal = join(dir, 'j.ndjson')
    const link = join(dir, 'link.ndjson')
    symlinkSync(journal, link)
    const env = {GW_BASE_URL: proxy.url}
    const first = spawnGw(sandbox, ['purchase', 'create', '--input', file, '--journal', journal, '--concurrency', '2'], env)
    cleanups.push(() => first.child.kill('SIGKILL'))
    await gate.held
    const second = await sandbox.gw(['purchase', 'create', '--input', file, '--journal', link], {env})
    expect(second.code).toBe(2)
    expect(second.stderr).toContain(`Error: Another gw (pid ${first.child.pid}) is running the batch of journal ${link} (the same file as ${journal}): nothing was sent`)
    expect(second.stdout).toBe('')
    await gate.release()
    const done = await first.done
    expect(done.code, done.stderr).toBe(0)
    expect(rowsOf(done.stdout).map((row) => row.status)).toEqual(references.map(() => 'approved'))
    expectOnePostEach(proxy, references)
  })
})

describeOnce.concurrent('one gateway spelled several ways is one journal', () => {
  it('the same batch against localhost, 127.0.0.1/ and LOCALHOST: one journal, and one POST per row', async ({onTestFinished}) => {
    const {gateway, counted, relayed} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const {file, references} = await purchaseBatch(sandbox, 5)
    const proxy = await counted(sandbox.url)
    const front = await relayed(proxy.url)
    const spellings = [`http://localhost:${front.port}`, `http://127.0.0.1:${front.port}/`, `http://LOCALHOST:${front.port}`]
    const runs = []
    for (const spelling of spellings) runs.push(await sandbox.gw(['purchase', 'create', '--input', file], {env: {GW_BASE_URL: spelling}}))
    for (const run of runs) expect(run.code, run.stderr).toBe(0)
    const journal = /^Journal: (\S+)/m.exec(runs[0]!.stderr)![1]!
    expect(runs[0]!.stderr).toContain(`Journal: ${journal}\n`)
    for (const run of runs.slice(1)) {
      expect(run.stderr).toContain(`Journal: ${journal} (resuming: 5 rows answered, 0 in doubt, 0 not started)\n`)
      expect(rowsOf(run.stdout).map((row) => [row.status, row.resumed])).toEqual(references.map(() => ['approved', true]))
    }
    expect(JSON.parse(journalText(journal).split('\n')[0]!).target).toEqual({base_url: `http://localhost:${front.port}`, username: 'TEST'})
    expectOnePostEach(proxy, references)
  })
})

describeInBothDialects.concurrent('a journal never reports rows from another run of the local gateway', () => {
  it('a gateway restarted without --state at the same address: the rerun is refused (exit 2), saying why, and nothing is sent or reported', async ({onTestFinished}) => {
    const {gateway, counted, relayed} = startedInTest(onTestFinished)
    const home = isolatedHome()
    const before = await gateway([], home)
    const {file, references} = await purchaseBatch(before, 5)
    const switchable = await relayed(before.url)
    const proxy = await counted(switchable.url)
    const env = {GW_BASE_URL: proxy.url}
    const sent = await before.gw(['purchase', 'create', '--input', file], {env})
    expect(sent.code, sent.stderr).toBe(0)
    const journal = /^Journal: (\S+)/m.exec(sent.stderr)![1]!
    const then = await instanceOf(before.url)
    await before.stop()
    const after = await gateway([], home)
    switchable.target = after.url

    const rerun = await after.gw(['purchase', 'create', '--input', file], {env})
    expect(rerun.code).toBe(2)
    expect(rerun.stdout).toBe('')
    const now = await instanceOf(after.url)
    expect(runOf(now)).not.toBe(runOf(then))
    expect(rerun.stderr).toMatch(
      new RegExp(`Error: 5 rows of journal ${escaped(journal)} were answered by a run of the local gateway's data at http://localhost:${new URL(proxy.url).port} \\(instance ${runOf(then)}\\) that the gateway there now does not hold \\(instance ${runOf(now)}\\.\\d+\\): its data does not hold the rows the journal says were done, so none is reported as done, and nothing was sent`),
    )
    expect(rerun.stderr).toContain('The gateway was restarted without its --state file, reset, or restarted on a copy of the file from before these rows. Start it again on the --state file it had')
    expect(rerun.stderr).not.toContain('done by an earlier run')
    expectOnePostEach(proxy, references)
    expect((await after.gw(['purchase', 'list', '--json'])).records).toEqual([])
  })

  it('a gateway restarted on its --state file is the same run: the rerun reports the rows done, and sends nothing', async ({onTestFinished}) => {
    const {gateway, counted, relayed} = startedInTest(onTestFinished)
    const home = isolatedHome()
    const state = join(folder(), 'state.json')
    const before = await gateway(['--state', state], home)
    const {file, references} = await purchaseBatch(before, 3)
    const switchable = await relayed(before.url)
    const proxy = await counted(switchable.url)
    const env = {GW_BASE_URL: proxy.url}
    expect((await before.gw(['purchase', 'create', '--input', file], {env})).code).toBe(0)
    const then = await instanceOf(before.url)
    await before.stop()
    const after = await gateway(['--state', state], home)
    switchable.target = after.url
    // A run of its own, holding the one before to its last change.
    expect(runOf(await instanceOf(after.url))).not.toBe(runOf(then))
    const rerun = await after.gw(['purchase', 'create', '--input', file], {env})
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(rerun.stderr).toContain('3 purchases: 3 approved (3 done by an earlier run)')
    expectOnePostEach(proxy, references)
  })

  it('a gateway restarted at the same address on a copy of its --state file taken before the batch: the rerun is refused (exit 2), nothing is reported done, nothing sent', async ({onTestFinished}) => {
    const {gateway, counted, relayed} = startedInTest(onTestFinished)
    const home = isolatedHome()
    const dir = folder()
    const state = join(dir, 'state.json')
    const before = await gateway(['--state', state], home)
    const {file, references} = await purchaseBatch(before, 3)
    // The backup, restored later: the card is in it, the batch is not.
    copyFileSync(state, join(dir, 'backup.json'))
    const switchable = await relayed(before.url)
    const proxy = await counted(switchable.url)
    const env = {GW_BASE_URL: proxy.url}
    expect((await before.gw(['purchase', 'create', '--input', file], {env})).code).toBe(0)
    await before.stop()
    const after = await gateway(['--state', join(dir, 'backup.json')], home)
    switchable.target = after.url
    const rerun = await after.gw(['purchase', 'create', '--input', file], {env})
    expect(rerun.code).toBe(2)
    expect(rerun.stdout).toBe('')
    expect(rerun.stderr).toContain("Error: 3 rows of journal ")
    expect(rerun.stderr).toContain(' that the gateway there now does not hold ')
    expect(rerun.stderr).not.toContain('done by an earlier run')
    expectOnePostEach(proxy, references)
    expect((await after.gw(['purchase', 'list', '--json'])).records).toEqual([])
  })

  it('--verify, against a gateway that names no run of its data (as the live one): each row the journal has done is looked up, and those it lacks are reported missing (exit 5), not sent', async ({onTestFinished}) => {
    const {gateway, counted, relayed} = startedInTest(onTestFinished)
    const home = isolatedHome()
    const first = await gateway([], home)
    const {file, references} = await purchaseBatch(first, 3)
    const nameless = await relayed(first.url, {strip: ['X-Sandbox-Instance']})
    const proxy = await counted(nameless.url)
    const env = {GW_BASE_URL: proxy.url}
    const sent = await first.gw(['purchase', 'create', '--input', file], {env})
    expect(sent.code, sent.stderr).toBe(0)
    const journal = /^Journal: (\S+)/m.exec(sent.stderr)![1]!
    expect(journalText(journal)).not.toContain('gateway_instance')

    // The same gateway: every row is found, and reported as found.
    const verified = await first.gw(['purchase', 'create', '--input', file, '--verify'], {env})
    expect(verified.code, verified.stderr).toBe(0)
    expect(rowsOf(verified.stdout).sort((a, b) => a.row - b.row).map((row) => [row.reference, row.status, row.resumed])).toEqual(references.map((reference) => [reference, 'approved', true]))
    // Each looked up twice in all: before it was sent, and by --verify.
    expect(proxy.seen.filter((request) => request.method === 'GET' && references.some((reference) => request.path.endsWith(`/${reference}`)))).toHaveLength(6)

    // Another gateway at that address, which names no run either: without --verify gw cannot tell, with it the rows are missing.
    const other = await gateway([], isolatedHome())
    nameless.target = other.url
    const unverified = await first.gw(['purchase', 'create', '--input', file], {env})
    expect(unverified.code).toBe(0)
    const missing = await first.gw(['purchase', 'create', '--input', file, '--verify'], {env})
    expect(missing.code).toBe(5)
    // In the order of the rows: each is looked up at once, and answers come back in any order.
    const rows = rowsOf(missing.stdout).sort((a, b) => a.row - b.row)
    expect(rows.map((row) => [row.reference, row.status, row.exit_code])).toEqual(references.map((reference) => [reference, 'missing', 5]))
    expect(rows[0]!.error!.messages[0]).toMatch(new RegExp(`^The journal has this purchase approved as \\S+ by an earlier run, and the gateway has no purchase under reference ${references[0]}: it was not sent again$`))
    expect(missing.stderr).toContain('3 purchases: 3 missing')
    expectOnePostEach(proxy, references)
  })
})

describeInBothDialects.concurrent('an input edited after a crash', () => {
  it('after kill -9: unchanged rows resume, changed rows already sent are refused naming their lines (exit 2), new rows are sent; one POST per reference', async ({onTestFinished}) => {
    const {cleanups, gateway, counted, relayed} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const {file, references} = await purchaseBatch(sandbox, 4)
    // The 4th POST waits at the gate: gw is killed with rows 1-3 answered and row 4 in doubt.
    const gate = await relayed(sandbox.url, {hold: (post) => post === 4})
    const proxy = await counted(gate.url)
    const env = {GW_BASE_URL: proxy.url}
    const first = spawnGw(sandbox, ['purchase', 'create', '--input', file, '--concurrency', '1'], env)
    cleanups.push(() => first.child.kill('SIGKILL'))
    let printed = ''
    const threeRows = new Promise<void>((resolve) =>
      first.child.stdout!.on('data', (chunk: Buffer) => {
        printed += chunk.toString()
        if (printed.split('\n').filter(Boolean).length === 3) resolve()
      }),
    )
    await Promise.all([gate.held, threeRows])
    first.child.kill('SIGKILL')
    expect((await first.done).signal).toBe('SIGKILL')
    // The gateway gets the 4th purchase after all: it was sent.
    await gate.release()

    const [header, ...lines] = readFileSync(file, 'utf8').trim().split('\n')
    const edited = [header, lines[0], lines[1]!.replace(',1000,', ',1500,'), lines[2], lines[3]!.replace(',1000,', ',2000,'), lines[3]!.replace(references[3]!, `${references[3]}-new`)]
    writeFileSync(file, edited.join('\n') + '\n')
    const rerun = await sandbox.gw(['purchase', 'create', '--input', file], {env})
    expect(rerun.code).toBe(2)
    expect(rerun.stderr).toContain('(resuming: 3 rows answered, 1 in doubt, 1 not started)')
    const rows = rowsOf(rerun.stdout).sort((a, b) => a.row - b.row)
    expect(rows.map((row) => [row.line, row.reference, row.status, row.exit_code, row.resumed ?? false])).toEqual([
      [2, references[0], 'approved', 0, true],
      [3, references[1], 'invalid', 2, false],
      [4, references[2], 'approved', 0, true],
      [5, references[3], 'invalid', 2, false],
      [6, `${references[3]}-new`, 'approved', 0, false],
    ])
    expect(rows[1]!.error!.messages).toEqual(['Line 3 was changed after an earlier run sent it (amount 1000, now 1500); that had its answer (approved): it was not sent again'])
    expect(rows[3]!.error!.messages).toEqual(['Line 5 was changed after an earlier run sent it (amount 1000, now 2000); that has no answer known: it was not sent again'])
    expect(rerun.stderr).toContain(`Lines 3, 5 of ${file} were changed after an earlier run sent them: not sent again (exit 2). Put them back as they were, or give each change a reference of its own.`)
    expectOnePostEach(proxy, [...references, `${references[3]}-new`])
  })

  it('a row in doubt that the edited input no longer has is named, with the command to check it', async ({onTestFinished}) => {
    const {gateway} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const {file, references, dir} = await purchaseBatch(sandbox, 2)
    const journal = join(dir, 'j.ndjson')
    expect((await sandbox.gw(['purchase', 'create', '--input', file, '--journal', journal])).code).toBe(0)
    // As a run killed after journaling a third row's intent leaves it, the row then taken out of the file.
    writeJournal(journal, JSON.stringify({intent: 'taken-out', row: 3, line: 4, request: {card_token: 'x', amount: 1000, reference: 'taken-out', currency: 'AUD'}, sent_at: new Date().toISOString()}) + '\n')
    const rerun = await sandbox.gw(['purchase', 'create', '--input', file, '--journal', journal])
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(rerun.stderr).toContain(`Journal: reference taken-out (line 4 then) was sent by an earlier run with no answer kept, and ${file} no longer has it: check it with gw purchase get taken-out before sending it again.\n`)
    expect(rowsOf(rerun.stdout).map((row) => [row.reference, row.resumed])).toEqual(references.map((reference) => [reference, true]))
  })
})

describeInBothDialects.concurrent('an input moved, copied or hard-linked after its run is the same batch', () => {
  it('refunds with blank references (each derived as <purchase>-R1): rerun from a new path, a copy and a hard link, nothing is sent again, stderr says whose journal it is, and --dry-run says so', {timeout: 120_000}, async ({onTestFinished}) => {
    const started = startedInTest(onTestFinished)
    const {sandbox, purchases, proxy, env} = await purchasedThrough(started, 3)
    const dir = folder()
    const first = join(dir, 'refunds.csv')
    writeFileSync(first, ['transaction_id,amount,reference', ...purchases.map((purchase) => `${purchase},400,`)].join('\n') + '\n')
    const run = await sandbox.gw(['refund', 'create', '--input', first], {env})
    expect(run.code, run.stderr).toBe(0)
    const derived = purchases.map((purchase) => `${purchase}-R1`)
    expect(rowsOf(run.stdout).map((row) => row.reference).sort()).toEqual(derived)
    const journal = /^Journal: (.+)$/m.exec(run.stderr)![1]!

    const moved = join(folder(), 'moved.csv')
    renameSync(first, moved)
    const copied = join(dir, 'copied.csv')
    copyFileSync(moved, copied)
    const linked = join(folder(), 'linked.csv')
    linkSync(copied, linked)
    for (const input of [moved, copied, linked]) {
      const again = await sandbox.gw(['refund', 'create', '--input', input], {env})
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toContain(`Journal: ${journal} (resuming: 3 rows answered, 0 in doubt, 0 not started)\n`)
      expect(again.stderr).toContain(`Journal: it was begun for the same rows at ${first}: this is that batch, moved or copied, and what it sent is not sent again. To refund these rows again as a new batch, give it --new-batch and a journal of its own (--journal FILE).\n`)
      expect(rowsOf(again.stdout).map((row) => [row.reference, row.status, row.resumed])).toEqual(derived.map((reference) => [reference, 'approved', true]))
    }
    expect(proxy.seen.filter((request) => request.method === 'POST')).toHaveLength(3)
    expectOnePostEach(proxy, derived)

    // A dry run says what the real run does: nothing is sent again.
    const dry = await sandbox.gw(['refund', 'create', '--input', copied, '--dry-run'], {env})
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stderr).toContain(`Dry run: 0 refunds would be sent (nothing); 3 answered and 0 in doubt by an earlier run of this batch (journal ${journal}, begun for the same rows at ${first}). Nothing was sent.`)
    expect(rowsOf(dry.stdout).map((row) => [row.reference, (row as {journal?: string}).journal])).toEqual(derived.map((reference) => [reference, 'answered (approved): not sent again']))
    expect(proxy.seen.filter((request) => request.method === 'POST')).toHaveLength(3)

    // A journal of its own is no new batch: the gateway has the rows this batch made, and nothing is sent.
    const elsewhere = await sandbox.gw(['refund', 'create', '--input', moved, '--journal', join(dir, 'elsewhere.sqlite')], {env})
    expect(elsewhere.code, elsewhere.stderr).toBe(0)
    expect(rowsOf(elsewhere.stdout).sort((a, b) => a.row - b.row).map((row) => [row.reference, row.status, row.resumed])).toEqual(derived.map((reference) => [reference, 'approved', true]))
    expect(proxy.seen.filter((request) => request.method === 'POST')).toHaveLength(3)
    // Asked for: the same rows as a batch of their own, under a journal of their own.
    const anew = await sandbox.gw(['refund', 'create', '--input', moved, '--new-batch', '--journal', join(dir, 'second-batch.ndjson')], {env})
    expect(anew.code, anew.stderr).toBe(0)
    expect(rowsOf(anew.stdout).map((row) => row.reference).sort()).toEqual(purchases.map((purchase) => `${purchase}-R2`))
  })
})


describeInBothDialects.concurrent('next month’s file at the same path (blank references)', () => {
  it('a line that now refunds another purchase is another row: sent under a reference of its own, not refused as changed; a line refunding the same purchase is that row, done', async ({onTestFinished}) => {
    const started = startedInTest(onTestFinished)
    const {sandbox, purchases, proxy, env} = await purchasedThrough(started, 3)
    const file = join(folder(), 'refunds.csv')
    const [a, b, c] = purchases as [string, string, string]
    writeFileSync(file, `transaction_id,amount,reference\n${a},400,\n${b},400,\n`)
    expect((await sandbox.gw(['refund', 'create', '--input', file], {env})).code).toBe(0)
    // Next month: line 2 refunds another purchase; line 3 is as it was.
    writeFileSync(file, `transaction_id,amount,reference\n${c},400,\n${b},400,\n`)
    const next = await sandbox.gw(['refund', 'create', '--input', file], {env})
    expect(next.code, next.stderr).toBe(0)
    expect(rowsOf(next.stdout).sort((x, y) => x.row - y.row).map((row) => [row.line, row.reference, row.status, row.resumed ?? false])).toEqual([
      [2, `${c}-R1`, 'approved', false],
      [3, `${b}-R1`, 'approved', true],
    ])
    expectOnePostEach(proxy, [`${a}-R1`, `${b}-R1`, `${c}-R1`])
  })
})

describeInBothDialects.concurrent('an input edited since its run: a row removed or added above rows without references', () => {
  it('the rows below are the rows they were: reported done, and no purchase is refunded again under a new reference; a row added is the only one sent', async ({onTestFinished}) => {
    const started = startedInTest(onTestFinished)
    const {sandbox, purchases, proxy, env} = await purchasedThrough(started, 4)
    const file = join(folder(), 'refunds.csv')
    const [a, b, c, d] = purchases as [string, string, string, string]
    writeFileSync(file, `transaction_id,amount,reference\n${a},400,\n${b},400,\n${b},300,\n${c},400,\n`)
    expect((await sandbox.gw(['refund', 'create', '--input', file], {env})).code).toBe(0)
    // The first line removed, b's two rows swapped, and a row added above them.
    writeFileSync(file, `transaction_id,amount,reference\n${d},400,\n${b},300,\n${b},400,\n${c},400,\n`)
    const dry = await sandbox.gw(['refund', 'create', '--input', file, '--dry-run'], {env})
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stderr).toContain('Dry run: 1 refund would be sent (4.00 AUD); 3 answered and 0 in doubt by an earlier run of this batch')
    const again = await sandbox.gw(['refund', 'create', '--input', file], {env})
    expect(again.code, again.stderr).toBe(0)
    expect(rowsOf(again.stdout).sort((x, y) => x.row - y.row).map((row) => [row.line, row.reference, row.status, row.resumed ?? false])).toEqual([
      [2, `${d}-R1`, 'approved', false],
      [3, `${b}-R2`, 'approved', true],
      [4, `${b}-R1`, 'approved', true],
      [5, `${c}-R1`, 'approved', true],
    ])
    expect(again.stderr).toContain('resuming: 3 rows answered, 0 in doubt, 1 not started')
    expectOnePostEach(proxy, [`${a}-R1`, `${b}-R1`, `${b}-R2`, `${c}-R1`, `${d}-R1`])
    expect(proxy.postCount()).toBe(5)
  })

  // A purchase is what it is, not what a row calls it: its id and its reference name the same purchase.
  it.for([
    ['by its id, then by its reference', 'id', 'reference'],
    ['by its reference, then by its id', 'reference', 'id'],
  ] as const)('a row that named its purchase %s is not refunded again under a new reference: refused unsent (exit 2), naming the refund made', async ([, first, then], {onTestFinished}) => {
    const started = startedInTest(onTestFinished)
    const sandbox = await started.gateway()
    const [kept, renamed] = await Promise.all([purchasedAtGateway(sandbox, {amount: 1000}), purchasedAtGateway(sandbox, {amount: 1000})])
    const proxy = await started.counted(sandbox.url)
    const env = {GW_BASE_URL: proxy.url}
    const file = join(folder(), 'refunds.csv')
    writeFileSync(file, `transaction_id,amount,reference\n${kept.reference},400,\n${renamed[first]},400,\n`)
    expect((await sandbox.gw(['refund', 'create', '--input', file], {env})).code).toBe(0)
    writeFileSync(file, `transaction_id,amount,reference\n${kept.reference},400,\n${renamed[then]},400,\n`)
    const dry = await sandbox.gw(['refund', 'create', '--input', file, '--dry-run'], {env})
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stderr).toMatch(/^Dry run: 0 refunds would be sent \(nothing\); 1 answered and 0 in doubt by an earlier run of this batch \(journal [^)]+\); 1 would be refused unsent \(its line says why\)\. Nothing was sent\.\n$/)
    expect(rowsOf(dry.stdout).map((row) => [row.line, row.status, row.error?.messages])).toEqual([
      [2, undefined, undefined],
      [3, 'invalid', [`Purchase ${renamed[then]} is the one an earlier run of this batch sent refund ${renamed.reference}-R1 of, from line 3, where it was named ${renamed[first]}: this row may be that one, so it was not sent`]],
    ])
    const again = await sandbox.gw(['refund', 'create', '--input', file], {env})
    expect(again.code, again.stderr).toBe(2)
    expect(rowsOf(again.stdout).map((row) => [row.line, row.reference, row.status, row.resumed ?? false])).toEqual([
      [2, `${kept.reference}-R1`, 'approved', true],
      [3, null, 'invalid', false],
    ])
    expect(rowsOf(again.stdout)[1]!.error).toMatchObject({
      kind: 'usage',
      messages: [`Purchase ${renamed[then]} is the one an earlier run of this batch sent refund ${renamed.reference}-R1 of, from line 3, where it was named ${renamed[first]}: this row may be that one, so it was not sent`],
      hint: `To finish that row, name the purchase ${renamed[first]} as line 3 did. To make another refund of it, give this row a reference of its own.`,
    })
    expect(again.stderr).toContain('2 refunds: 1 approved, 1 invalid (1 done by an earlier run)')
    expectOnePostEach(proxy, [`${kept.reference}-R1`, `${renamed.reference}-R1`])
    expect(proxy.postCount()).toBe(2)
  })
})

describeOnce.concurrent('a file by its device and inode: bind mounts', () => {
  it.skipIf(!root)(`a second batch on a bind-mounted name of a running batch's journal is refused (exit 2), and every row is POSTed once${NEEDS_ROOT}`, async ({onTestFinished}) => {
    const {cleanups, gateway, counted, relayed} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const {file, references, dir} = await purchaseBatch(sandbox, 5)
    const gate = await relayed(sandbox.url, {hold: (post) => post === 1})
    const proxy = await counted(gate.url)
    mkdirSync(join(dir, 'a'))
    mkdirSync(join(dir, 'b'))
    const journal = join(dir, 'a', 'j.ndjson')
    const other = join(dir, 'b', 'j.ndjson')
    writeFileSync(journal, '')
    cleanups.push(bindMount(journal, other))
    const env = {GW_BASE_URL: proxy.url}
    const first = spawnGw(sandbox, ['purchase', 'create', '--input', file, '--journal', journal, '--concurrency', '2'], env)
    cleanups.push(() => first.child.kill('SIGKILL'))
    await gate.held
    const second = await sandbox.gw(['purchase', 'create', '--input', file, '--journal', other], {env})
    expect(second.stderr).toContain(`Error: Another gw (pid ${first.child.pid}) is running the batch of journal ${other}: nothing was sent`)
    expect(second.code).toBe(2)
    expect(second.stdout).toBe('')
    await gate.release()
    const done = await first.done
    expect(done.code, done.stderr).toBe(0)
    expect(rowsOf(done.stdout).map((row) => row.status)).toEqual(references.map(() => 'approved'))
    expectOnePostEach(proxy, references)
    // The second name reads the first's journal: the rerun sends nothing.
    const rerun = await sandbox.gw(['purchase', 'create', '--input', file, '--journal', other], {env})
    expect(rerun.code, rerun.stderr).toBe(0)
    expectOnePostEach(proxy, references)
  })

  it.skipIf(!root)(`a second local gateway on a bind-mounted name of a running one's --state file is refused as in use (exit 2), though the mount names the inode the start's snapshot replaced${NEEDS_ROOT}`, async ({onTestFinished}) => {
    const {cleanups, gateway, gatewayProcess} = startedInTest(onTestFinished)
    const dir = folder()
    mkdirSync(join(dir, 'a'))
    mkdirSync(join(dir, 'b'))
    const state = join(dir, 'a', 'state.json')
    const other = join(dir, 'b', 'state.json')
    // A state file the gateway made and left, mounted under another name before either starts.
    await (await gateway(['--state', state])).stop()
    cleanups.push(bindMount(state, other))
    const first = await gatewayProcess(['--state', state])
    const second = await runGw(['sandbox', 'start', '--port', '0', '--no-request-log', '--state', other], {env: isolatedHome()})
    // The start's snapshot gave the first's file another inode: the mount keeps the old one, which the first still locks (and holds open) until it stops.
    expect(second.stderr).toContain(`Error: ${other} is in use by another local gateway (pid ${first.process.pid}): two gateways on one state file would lose each other's writes`)
    expect(second.code).toBe(2)
    expect(first.process.exitCode).toBeNull()
  })
})

describeOnce.concurrent('a file by its device and inode: bind mounts made while it is in use, and at once', () => {
  it.skipIf(!root)(`two batches started at once on the two names of one bind-mounted journal: each row is POSTed once, and the one refused names the other${NEEDS_ROOT}`, async ({onTestFinished}) => {
    const {cleanups, gateway, counted} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const {file, references, dir} = await purchaseBatch(sandbox, 40)
    const proxy = await counted(sandbox.url)
    mkdirSync(join(dir, 'a'))
    mkdirSync(join(dir, 'b'))
    const journal = join(dir, 'a', 'j.ndjson')
    writeFileSync(journal, '')
    cleanups.push(bindMount(journal, join(dir, 'b', 'j.ndjson')))
    const env = {GW_BASE_URL: proxy.url}
    const runs = ['a', 'b'].map((name) => spawnGw(sandbox, ['purchase', 'create', '--input', file, '--journal', join(dir, name, 'j.ndjson'), '--concurrency', '4'], env))
    for (const run of runs) cleanups.push(() => run.child.kill('SIGKILL'))
    const done = await Promise.all(runs.map((run) => run.done))
    const said = done.map((run) => `exit ${run.code}\n${run.stderr}\nstdout:\n${run.stdout}`).join('\n---\n')
    // Refused while the other ran, or started after it ended and found every row done. Under load a
    // reused connection can be reset before a row's request reaches the proxy: gw leaves that row
    // unknown (exit 8), never sent twice, and the rerun its summary asks for settles it.
    done.forEach((run, index) => {
      if (run.code === 2) expect(run.stderr).toContain(`Error: Another gw (pid ${runs[1 - index]!.child.pid}) is running the batch of journal`)
      else if (run.code === 8) expect(run.stderr, said).toMatch(/^40 purchases: \d+ approved, \d+ unknown in /m)
      else expect(run.code, said).toBe(0)
    })
    const inDoubt = done.findIndex((run) => run.code === 8)
    if (inDoubt >= 0) {
      const rerun = await sandbox.gw(['purchase', 'create', '--input', file, '--journal', join(dir, ['a', 'b'][inDoubt]!, 'j.ndjson')], {env})
      expect(rerun.code, `${said}\n---\nrerun: ${rerun.stderr}`).toBe(0)
    }
    expectOnePostEach(proxy, references, said)
  })

  it.skipIf(!root)(`a bind mount made after a gateway started (of the file its start's snapshot put in place) is refused to a second gateway as in use (exit 2), and to one alone as a mount point${NEEDS_ROOT}`, async ({onTestFinished}) => {
    const {cleanups, gateway, gatewayProcess} = startedInTest(onTestFinished)
    const dir = folder()
    mkdirSync(join(dir, 'a'))
    mkdirSync(join(dir, 'b'))
    const state = join(dir, 'a', 'state.json')
    const other = join(dir, 'b', 'state.json')
    const first = await gatewayProcess(['--state', state])
    const reference = ref('kept')
    expect((await first.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs()])).code).toBe(0)
    cleanups.push(bindMount(state, other))
    const second = await runGw(['sandbox', 'start', '--port', '0', '--no-request-log', '--state', other], {env: isolatedHome()})
    expect(second.stderr).toContain(`Error: ${other} is in use by another local gateway (pid ${first.process.pid}): two gateways on one state file would lose each other's writes`)
    expect(second.code).toBe(2)
    await first.stop()
    // rename(2) cannot replace a mount point: a gateway alone on one could not snapshot its state there.
    const alone = await runGw(['sandbox', 'start', '--port', '0', '--no-request-log', '--state', other], {env: isolatedHome()})
    expect(alone.stderr).toContain(`Error: ${other} is a mount point (a bind mount gives the file another name)`)
    expect(alone.stderr).toContain('Give --state a file of its own, not one mounted over another.')
    expect(alone.code).toBe(2)
    const again = await gateway(['--state', state])
    const found = await again.gw(['purchase', 'get', reference])
    expect(found.code, found.stderr).toBe(0)
    expect(found.records).toMatchObject([{reference, successful: true}])
  })
})

describeOnce.concurrent('a --state path is read as the kernel reads it', () => {
  it('sub/../state.json with sub a symlink: the gateway keeps its state where the kernel leads (out of where sub points)', async ({onTestFinished}) => {
    const {gateway} = startedInTest(onTestFinished)
    const dir = folder()
    mkdirSync(join(dir, 'far', 'deep'), {recursive: true})
    symlinkSync(join(dir, 'far', 'deep'), join(dir, 'sub'))
    const sandbox = await gateway(['--state', `${dir}/sub/../state.json`])
    const reference = ref('beside')
    expect((await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs()])).code).toBe(0)
    await sandbox.stop()
    expect(stateIn(join(dir, 'far', 'state.json')).find('purchases', 'TEST', reference).found).toBe('own')
    expect(() => lstatSync(join(dir, 'state.json'))).toThrow(/ENOENT/)
  })
})

describeOnce.concurrent('a --journal path is read as the kernel reads it', () => {
  it('sub/../j.ndjson with sub a symlink: the journal is written where the kernel leads (out of where sub points), and the rerun finds it there', async ({onTestFinished}) => {
    const {gateway, counted} = startedInTest(onTestFinished)
    const sandbox = await gateway()
    const {file, references, dir} = await purchaseBatch(sandbox, 2)
    mkdirSync(join(dir, 'real', 'deep'), {recursive: true})
    symlinkSync(join(dir, 'real', 'deep'), join(dir, 'sub'))
    const proxy = await counted(sandbox.url)
    const env = {GW_BASE_URL: proxy.url}
    const first = await sandbox.gw(['purchase', 'create', '--input', file, '--journal', 'sub/../j.ndjson'], {env, cwd: dir})
    expect(first.code, first.stderr).toBe(0)
    expect(readFileSync(join(dir, 'real', 'j.ndjson'), 'utf8')).toContain(references[0])
    expect(() => lstatSync(join(dir, 'j.ndjson'))).toThrow(/ENOENT/)
    const rerun = await sandbox.gw(['purchase', 'create', '--input', file, '--journal', 'sub/../j.ndjson'], {env, cwd: dir})
    expect(rerun.code, rerun.stderr).toBe(0)
    expectOnePostEach(proxy, references)
  })
})

describeOnce.concurrent('two copies of one input started at once', () => {
  it('one batch: each row is POSTed once, and the copy that lost the race is refused (exit 2) or finds the other’s journal', async ({onTestFinished}) => {
    const {cleanups, gateway, counted} = startedInTest(onTestFinished)
    const home = isolatedHome()
    const sandbox = await gateway([], home)
    const {file, references, dir} = await purchaseBatch(sandbox, 20)
    const copy = join(folder(), 'purchases.csv')
    copyFileSync(file, copy)
    // Journals of other batches, whose headers each copy reads while it looks for one of these rows:
    // the look-up takes long enough that both copies are in it at once.
    const journals = join(home.XDG_DATA_HOME!, 'gw', 'journals')
    mkdirSync(journals, {recursive: true})
    // One journal database, copied: made one by one (each synced), they would take minutes.
    const other = writeJournal(join(folder(), 'other.sqlite'), JSON.stringify({journal: 1, command: 'purchase create', input: join(dir, 'other.csv'), input_sha256: '0'.repeat(64), target: {base_url: sandbox.url, username: 'TEST'}, created_at: '2026-11-01T00:00:00.000Z'}) + '\n')
    for (let i = 0; i < 3000; i++) copyFileSync(other, join(journals, `purchase-create-other-${i}.sqlite`))
    const proxy = await counted(sandbox.url)
    const env = {GW_BASE_URL: proxy.url}
    const [first, second] = [spawnGw(sandbox, ['purchase', 'create', '--input', file], env), spawnGw(sandbox, ['purchase', 'create', '--input', copy], env)]
    cleanups.push(() => first.child.kill('SIGKILL'), () => second.child.kill('SIGKILL'))
    const done = await Promise.all([first.done, second.done])
    expectOnePostEach(proxy, references, done.map((run) => `exit ${run.code}\n${run.stderr}`).join('\n---\n'))
    const sent = done.filter((run) => run.code === 0 && rowsOf(run.stdout).some((row) => !row.resumed))
    expect(sent, done.map((run) => run.stderr).join('\n---\n')).toHaveLength(1)
    for (const other of done.filter((run) => !sent.includes(run))) {
      // Refused while the first chose or ran its journal, or started after it and found it done.
      if (other.code === 2) expect(other.stderr).toMatch(/Error: Another gw \(pid \d+\) is (starting this batch \(the same rows, for the same gateway and merchant\)|running the batch of journal .*): nothing was sent/)
      else expect(other.stderr).toContain('Journal: it was begun for the same rows at ')
    }
  })
})
