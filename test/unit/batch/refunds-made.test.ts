import {type ChildProcess, spawn, spawnSync} from 'node:child_process'
import {appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {journalTarget} from '../../../src/batch/journal-identity.js'
import {legacyRefundsMadeFile} from '../../../src/batch/refunds-made-import.js'
import {openRefundsMade, recordRefundMade, REFUNDS_MADE_QUERY, refundsMade, refundsMadeFile} from '../../../src/batch/refunds-made.js'
import {WriteError} from '../../../src/errors.js'
import {nodeSqlite} from '../../../src/lib/locked-database.js'
import {expectReject} from '../../expect-error.js'

// A single `gw refund create` is recorded in gw's data directory, so that its refund is certain
// for the purchase it was made for (design.md §3); two gw at once each keep theirs; found by an
// index, whatever the record's size; an earlier gw's refunds-made.ndjson imported once.
const target = journalTarget('https://gateway.example/', 'TEST')
const purchase = {id: '071-P-1VQZVNTX', reference: 'order-1042'}
const refund = (id: string, more: Record<string, unknown> = {}) => ({id, reference: `${id}-ref`, amount: 500, successful: true, ...more})
const dirs: string[] = []
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-refunds-made-'))
  dirs.push(dir)
  return dir
}
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

/** The record's rows as SQLite has them, read through a connection of the test's own. */
function rows(dir: string, sql = 'SELECT * FROM refunds_made ORDER BY rowid'): Record<string, unknown>[] {
  const db = new (nodeSqlite().DatabaseSync)(refundsMadeFile(dir))
  try {
    return db.prepare(sql).all().map((row) => ({...row}))
  } finally {
    db.close()
  }
}

/** A line as an earlier gw wrote it to refunds-made.ndjson. */
const legacyLine = (id: string, more: Record<string, unknown> = {}) =>
  `\n${JSON.stringify({refund: id, reference: `${id}-ref`, transaction_id: 'order-1042', purchase_id: purchase.id, purchase_reference: 'order-1042', target: {base_url: 'https://gateway.example', username: 'TEST'}, at: '2026-11-17T00:00:00.000Z', ...more})}\n`

/** Runs a script with gw's sources in a process of its own (tsx), as a second gw would. */
function gwScript(script: string, ...args: string[]): ChildProcess {
  const source = (file: string) => JSON.stringify(join(import.meta.dirname, '../../../src/batch', file))
  const prelude = `Promise.all([import(${source('refunds-made.ts')}), import(${source('journal-identity.ts')})]).then(([{recordRefundMade, refundsMade}, {journalTarget}]) => {
    const target = journalTarget('https://gateway.example/', 'TEST')
    ${script}
  })`
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', prelude, ...args], {stdio: ['ignore', 'inherit', 'inherit']})
  children.push(child)
  return child
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve, reject) => (child.on('error', reject), child.on('exit', (code) => resolve(code))))

describe('recordRefundMade and refundsMade', () => {
  it('records the refund and the purchase it was made for, as asked and as looked up; found again by the refund id, for this gateway and merchant only', async () => {
    const dir = dataDir()
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042', purchase}, {now: new Date('2026-11-17T00:00:00Z')})
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0002'), transactionId: '071-P-OTHER001'})
    await recordRefundMade(dir, {...target, username: 'OTHER'}, {refund: refund('071-R-AAAA0003'), transactionId: 'order-1042'})
    // No id, nothing to know it by: not recorded.
    await recordRefundMade(dir, target, {refund: {reference: 'x'}, transactionId: 'order-1042'})
    const found = await refundsMade(dir, target, new Set(['071-R-AAAA0001', '071-R-AAAA0002', '071-R-AAAA0003', '071-R-NOPE0000']))
    expect(found).toEqual(
      new Map([
        ['071-R-AAAA0001', {transactionId: 'order-1042', purchaseId: purchase.id, purchaseReference: 'order-1042', by: 'refund_create'}],
        ['071-R-AAAA0002', {transactionId: '071-P-OTHER001', by: 'refund_create'}],
      ]),
    )
    expect(rows(dir)[0]).toEqual({
      refund: '071-R-AAAA0001',
      base_url: 'https://gateway.example',
      username: 'TEST',
      gateway_instance: null,
      reference: '071-R-AAAA0001-ref',
      transaction_id: 'order-1042',
      purchase_id: purchase.id,
      purchase_reference: 'order-1042',
      at: '2026-11-17T00:00:00.000Z',
    })
    expect(rows(dir)).toHaveLength(3)
    expect(await refundsMade(dir, target, new Set())).toEqual(new Map())
  })

  it('an unmatched refund (sent with a card alone, no transaction_id) is recorded as of no purchase', async () => {
    const dir = dataDir()
    await recordRefundMade(dir, target, {refund: refund('071-R-CRED0001'), transactionId: ''})
    expect(await refundsMade(dir, target, new Set(['071-R-CRED0001']))).toEqual(new Map([['071-R-CRED0001', {transactionId: '', by: 'refund_create', unmatched: true}]]))
    expect(rows(dir)[0]).toMatchObject({transaction_id: '', purchase_id: null, purchase_reference: null})
  })

  it('the record is a file only its owner may read, in a folder only its owner may enter; a look-up with nothing recorded makes neither', async () => {
    const dir = join(dataDir(), 'gw')
    expect(await refundsMade(dir, target, new Set(['071-R-AAAA0001']))).toEqual(new Map())
    expect(existsSync(dir)).toBe(false)
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'})
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(refundsMadeFile(dir)).mode & 0o777).toBe(0o600)
  })

  it("a card number in a reference is masked; another run of the local gateway's data holds other refunds under those ids", async () => {
    const dir = dataDir()
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001', {reference: 'r-4111111111111111'}), transactionId: 'p-4111111111111111', gatewayInstance: 'run-1'})
    // The reset gateway's own refund under the same id is another refund: both kept.
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-2', gatewayInstance: 'run-2'})
    expect(readFileSync(refundsMadeFile(dir)).toString('latin1')).not.toContain('4111111111111111')
    expect(rows(dir).map((row) => [row.gateway_instance, row.reference, row.transaction_id])).toEqual([
      ['run-1', 'r-411111XXXXXX1111', 'p-411111XXXXXX1111'],
      ['run-2', '071-R-AAAA0001-ref', 'order-2'],
    ])
    // Each found while the gateway holds the data it was made against.
    expect((await refundsMade(dir, target, new Set(['071-R-AAAA0001']), (instance) => instance === 'run-1')).get('071-R-AAAA0001')?.transactionId).toBe('p-411111XXXXXX1111')
    expect((await refundsMade(dir, target, new Set(['071-R-AAAA0001']), (instance) => instance === 'run-2')).get('071-R-AAAA0001')?.transactionId).toBe('order-2')
    expect((await refundsMade(dir, target, new Set(['071-R-AAAA0001']), () => false)).size).toBe(0)
  })

  it('a merchant or a gateway address that reads as a card number is kept masked, the merchant by its key: two that mask alike stay two', async () => {
    const dir = dataDir()
    const first = journalTarget('https://gateway.example/', '4111111111111111')
    const second = journalTarget('https://gateway.example/', '4111111000071111')
    const address = journalTarget('https://gateway.example/m/5555555555554444/', 'TEST')
    await recordRefundMade(dir, first, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1'})
    await recordRefundMade(dir, second, {refund: refund('071-R-AAAA0001'), transactionId: 'order-2'})
    await recordRefundMade(dir, address, {refund: refund('071-R-AAAA0001'), transactionId: 'order-3'})
    const text = readFileSync(refundsMadeFile(dir)).toString('latin1')
    for (const whole of ['4111111111111111', '4111111000071111', '5555555555554444']) expect(text).not.toContain(whole)
    expect(rows(dir, 'SELECT base_url, username FROM refunds_made ORDER BY rowid')).toEqual([
      {base_url: 'https://gateway.example', username: expect.stringMatching(/^key:[a-p]{64}$/)},
      {base_url: 'https://gateway.example', username: expect.stringMatching(/^key:[a-p]{64}$/)},
      {base_url: 'https://gateway.example/m/555555XXXXXX4444', username: expect.stringMatching(/^key:[a-p]{64}$/)},
    ])
    const found = async (at: typeof target) => (await refundsMade(dir, at, new Set(['071-R-AAAA0001']))).get('071-R-AAAA0001')?.transactionId
    expect([await found(first), await found(second), await found(address), await found(target)]).toEqual(['order-1', 'order-2', 'order-3', undefined])
  })

  it("a version 1 record, which kept every merchant whole, keeps those that read as a card number masked once opened; every refund found as before", async () => {
    const dir = dataDir()
    const merchant = journalTarget('https://gateway.example/', '4111111111111111')
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1'})
    const db = new (nodeSqlite().DatabaseSync)(refundsMadeFile(dir))
    db.prepare("INSERT INTO refunds_made (refund, base_url, username, transaction_id) VALUES ('071-R-AAAA0002', ?, ?, 'order-2')").run(merchant.base_url, merchant.username)
    // Rows after it on its page: the row kept masked is written elsewhere on it, and SQLite leaves the whole one's bytes there unless told to clear them.
    for (const id of ['071-R-AAAA0003', '071-R-AAAA0004']) await recordRefundMade(dir, target, {refund: refund(id), transactionId: 'order-3'})
    db.exec('PRAGMA user_version = 1')
    db.close()
    expect(readFileSync(refundsMadeFile(dir)).toString('latin1')).toContain('4111111111111111')
    expect((await refundsMade(dir, merchant, new Set(['071-R-AAAA0002']))).get('071-R-AAAA0002')?.transactionId).toBe('order-2')
    // Kept masked through and through: no copy of the merchant left in the file's free space.
    expect(readFileSync(refundsMadeFile(dir)).toString('latin1')).not.toContain('4111111111111111')
    expect(rows(dir, 'SELECT username FROM refunds_made ORDER BY rowid').map((row) => row.username)).toEqual(['TEST', expect.stringMatching(/^key:[a-p]{64}$/), 'TEST', 'TEST'])
    expect(rows(dir, 'PRAGMA user_version')).toEqual([{user_version: 2}])
    expect((await refundsMade(dir, target, new Set(['071-R-AAAA0001']))).get('071-R-AAAA0001')?.transactionId).toBe('order-1')
  })

  it('the same refund recorded twice is kept once, as first recorded', async () => {
    const dir = dataDir()
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'})
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-9999'})
    expect(rows(dir).map((row) => row.transaction_id)).toEqual(['order-1042'])
  })

  it('a look-up goes by the index on the refund id, gateway and merchant, never through every row', () => {
    const db = openRefundsMade(dataDir())
    try {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${REFUNDS_MADE_QUERY}`).all('["071-R-AAAA0001"]', target.base_url, target.username).map((step) => String(step.detail))
      expect(plan).toContain('SEARCH refunds_made USING INDEX refunds_made_by_refund (refund=? AND base_url=? AND username=?)')
      expect(plan.filter((step) => step.startsWith('SCAN refunds_made'))).toEqual([])
    } finally {
      db.close()
    }
  })

  it('a record that cannot be written is a WriteError naming the file and why: a file where the folder goes, a folder where the record goes, a file that is no database', async () => {
    const file = join(dataDir(), 'a-file')
    writeFileSync(file, '')
    await expectReject(recordRefundMade(file, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'}), WriteError, new RegExp(`^${refundsMadeFile(file)} cannot be written \\((EEXIST|ENOTDIR)\\)$`))
    const folder = dataDir()
    mkdirSync(refundsMadeFile(folder))
    await expectReject(recordRefundMade(folder, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'}), WriteError, `${refundsMadeFile(folder)} cannot be written (unable to open database file)`)
    const garbage = dataDir()
    writeFileSync(refundsMadeFile(garbage), 'not a database, but long enough to be read as one: '.repeat(20))
    await expectReject(recordRefundMade(garbage, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'}), WriteError, `${refundsMadeFile(garbage)} cannot be written (file is not a database)`)
    // A look-up there tells nothing, and leaves the file as it was.
    expect(await refundsMade(garbage, target, new Set(['071-R-AAAA0001']))).toEqual(new Map())
    expect(readFileSync(refundsMadeFile(garbage), 'utf8')).toMatch(/^not a database/)
  })

  const root = process.getuid?.() === 0
  it.skipIf(!root)('on a full disk (a 64 KiB tmpfs, filled): a WriteError saying so, and what was recorded before stays', async () => {
    const mount = dataDir()
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount]).status).toBe(0)
    try {
      await recordRefundMade(mount, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'})
      // What is left of the disk, taken by another file.
      spawnSync('sh', ['-c', `cat /dev/zero > ${join(mount, 'filler')}`])
      const many = Array.from({length: 40}, (_, i) => recordRefundMade(mount, target, {refund: refund(`071-R-FULL${String(i).padStart(4, '0')}`, {reference: 'x'.repeat(2000)}), transactionId: 'order-1042'}))
      const failed = (await Promise.allSettled(many)).find((outcome) => outcome.status === 'rejected')
      expect(failed?.status).toBe('rejected')
      expect((failed as PromiseRejectedResult).reason).toBeInstanceOf(WriteError)
      expect(((failed as PromiseRejectedResult).reason as Error).message).toMatch(new RegExp(`^${refundsMadeFile(mount)} cannot be written \\((database or disk is full|disk I/O error)\\)$`))
      rmSync(join(mount, 'filler'))
      expect((await refundsMade(mount, target, new Set(['071-R-AAAA0001']))).size).toBe(1)
    } finally {
      spawnSync('umount', [mount])
    }
  })
  it.runIf(!root)('skipped: the full-disk test mounts a tmpfs, which needs root (CI runs as root)', () => {})

  it('two gw recording at once each keep every one of theirs', async () => {
    const dir = dataDir()
    const run = (who: string) => exited(gwScript(`return Promise.all(Array.from({length: 50}, (_, i) => recordRefundMade(${JSON.stringify(dir)}, target, {refund: {id: '${who}-' + i}, transactionId: 'order-1042'})))`))
    expect(await Promise.all([run('a'), run('b')])).toEqual([0, 0])
    const ids = new Set([...Array.from({length: 50}, (_, i) => `a-${i}`), ...Array.from({length: 50}, (_, i) => `b-${i}`)])
    expect((await refundsMade(dir, target, ids)).size).toBe(100)
  }, 60_000)
})

describe("an earlier gw's refunds-made.ndjson", () => {
  it('is imported by the first look-up, each whole line once: a torn line, a line of no record and another spelling of the address as an earlier gw wrote them', async () => {
    const dir = dataDir()
    const old = 'https://Gateway.example:443/v1.0/'
    writeFileSync(
      legacyRefundsMadeFile(dir),
      legacyLine('071-R-OLD00001') + '{"refund":"071-R-TORN0000","transaction_id":"ord' + legacyLine('071-R-OLD00002', {target: {base_url: old, username: 'TEST'}, gateway_instance: 'run-1', purchase_id: undefined}) + '\n[1]\n{"refund":7}\n' + legacyLine('071-R-OLD00003', {target: {base_url: 'no url', username: 'TEST'}}),
    )
    const wanted = new Set(['071-R-OLD00001', '071-R-OLD00002', '071-R-TORN0000', '071-R-OLD00003'])
    expect(await refundsMade(dir, target, wanted)).toEqual(
      new Map([
        ['071-R-OLD00001', {transactionId: 'order-1042', purchaseId: purchase.id, purchaseReference: 'order-1042', by: 'refund_create'}],
        ['071-R-OLD00002', {transactionId: 'order-1042', purchaseReference: 'order-1042', by: 'refund_create'}],
      ]),
    )
    expect(rows(dir, 'SELECT refund, base_url, gateway_instance FROM refunds_made')).toEqual([
      {refund: '071-R-OLD00001', base_url: 'https://gateway.example', gateway_instance: null},
      {refund: '071-R-OLD00002', base_url: 'https://gateway.example', gateway_instance: 'run-1'},
    ])
    // Again: nothing more. Then an earlier gw still running appends one: that one is imported, once.
    await refundsMade(dir, target, wanted)
    await recordRefundMade(dir, target, {refund: refund('071-R-NEW00001'), transactionId: 'order-1042'})
    appendFileSync(legacyRefundsMadeFile(dir), legacyLine('071-R-OLD00004'))
    expect([...(await refundsMade(dir, target, new Set([...wanted, '071-R-OLD00004', '071-R-NEW00001']))).keys()].sort()).toEqual(['071-R-NEW00001', '071-R-OLD00001', '071-R-OLD00002', '071-R-OLD00004'])
    expect(rows(dir, 'SELECT refund FROM refunds_made ORDER BY rowid').map((row) => row.refund)).toEqual(['071-R-OLD00001', '071-R-OLD00002', '071-R-NEW00001', '071-R-OLD00004'])
    expect(rows(dir, 'SELECT bytes, size FROM imported_lines')).toEqual([{bytes: statSync(legacyRefundsMadeFile(dir)).size, size: statSync(legacyRefundsMadeFile(dir)).size}])
  })

  it('a line of a merchant that reads as a card number is imported as the record keeps that merchant', async () => {
    const dir = dataDir()
    const merchant = journalTarget('https://gateway.example/', '4111111111111111')
    writeFileSync(legacyRefundsMadeFile(dir), legacyLine('071-R-OLD00001', {target: merchant}) + legacyLine('071-R-OLD00002'))
    expect([...(await refundsMade(dir, merchant, new Set(['071-R-OLD00001', '071-R-OLD00002']))).keys()]).toEqual(['071-R-OLD00001'])
    expect(rows(dir, 'SELECT username FROM refunds_made ORDER BY rowid').map((row) => row.username)).toEqual([expect.stringMatching(/^key:[a-p]{64}$/), 'TEST'])
  })

  it('a torn last line waits for its end; a file put in its place is read from its start, and none of it counted twice', async () => {
    const dir = dataDir()
    const whole = legacyLine('071-R-OLD00001')
    const next = legacyLine('071-R-OLD00002')
    writeFileSync(legacyRefundsMadeFile(dir), whole + next.slice(0, 30))
    expect([...(await refundsMade(dir, target, new Set(['071-R-OLD00001', '071-R-OLD00002']))).keys()]).toEqual(['071-R-OLD00001'])
    appendFileSync(legacyRefundsMadeFile(dir), next.slice(30))
    expect([...(await refundsMade(dir, target, new Set(['071-R-OLD00001', '071-R-OLD00002']))).keys()]).toEqual(['071-R-OLD00001', '071-R-OLD00002'])
    // A copy put in its place by rename: another inode, read whole; what it repeats is there already.
    writeFileSync(join(dir, 'copy'), whole + next + legacyLine('071-R-OLD00003'))
    spawnSync('mv', [join(dir, 'copy'), legacyRefundsMadeFile(dir)])
    expect((await refundsMade(dir, target, new Set(['071-R-OLD00001', '071-R-OLD00002', '071-R-OLD00003']))).size).toBe(3)
    expect(rows(dir, 'SELECT refund FROM refunds_made ORDER BY rowid').map((row) => row.refund)).toEqual(['071-R-OLD00001', '071-R-OLD00002', '071-R-OLD00003'])
  })

  // Some 25 MB: the import's transactions take 8 MB each, so there are several.
  const LINES = 100_000
  const id = (i: number) => `071-R-${String(i).padStart(8, '0')}`
  const manyLines = (dir: string, count = LINES) => writeFileSync(legacyRefundsMadeFile(dir), Array.from({length: count}, (_, i) => legacyLine(id(i))).join(''))
  const allIds = new Set(Array.from({length: LINES}, (_, i) => id(i)))
  // Two processes importing megabytes on two shared cores.
  const SLOW = 120_000

  it('two gw importing at once: every line once', async () => {
    const dir = dataDir()
    const lines = 40_000
    manyLines(dir, lines)
    const lookUp = () => exited(gwScript(`return refundsMade(${JSON.stringify(dir)}, target, new Set(['071-R-00000007'])).then((found) => { if (found.size !== 1) process.exit(3) })`))
    expect(await Promise.all([lookUp(), lookUp()])).toEqual([0, 0])
    expect(rows(dir, 'SELECT count(*) AS n, count(DISTINCT refund) AS refunds FROM refunds_made')).toEqual([{n: lines, refunds: lines}])
    expect(rows(dir, 'SELECT bytes, size FROM imported_lines')).toEqual([{bytes: statSync(legacyRefundsMadeFile(dir)).size, size: statSync(legacyRefundsMadeFile(dir)).size}])
  }, SLOW)

  it('a gw killed midway through the import keeps what it committed, each row with its place in the file; the next goes on from there: every line once', async () => {
    const dir = dataDir()
    manyLines(dir)
    // The tables made first: the import's transaction is then the first to make a rollback journal.
    openRefundsMade(dir).close()
    const journal = `${refundsMadeFile(dir)}-journal`
    const marked = () => Number(rows(dir, 'SELECT ifnull(sum(bytes), 0) AS bytes FROM imported_lines')[0]!.bytes)
    const child = gwScript(`return refundsMade(${JSON.stringify(dir)}, target, new Set(['071-R-00000007']))`)
    let gone: string | undefined
    void exited(child).then((code) => (gone = `the import ended (exit ${code}) before it could be killed midway`))
    /** Waits (polling, as nothing else tells) for what the child does next, failing if it ends first. */
    const until = async (seen: () => boolean) => {
      for (;;) {
        if (gone !== undefined) expect.fail(gone)
        try {
          if (seen()) return
        } catch {
          // The child's transaction is committing: read again.
        }
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
    }
    // Killed once a transaction is committed, inside the next: its rollback journal made anew.
    await until(() => marked() > 0)
    await until(() => existsSync(journal))
    child.kill('SIGKILL')
    await exited(child)
    // Killed inside a transaction: its journal is left for the next to roll back.
    expect(existsSync(journal)).toBe(true)
    // What was committed is the lines up to the place marked with it (every line is as long as the first, the next one's leading line break perhaps read too), and no more.
    const committed = marked()
    expect(rows(dir, 'SELECT count(*) AS n FROM refunds_made')).toEqual([{n: Math.floor(committed / legacyLine(id(0)).length)}])
    expect(committed).toBeLessThan(statSync(legacyRefundsMadeFile(dir)).size)
    expect((await refundsMade(dir, target, allIds)).size).toBe(LINES)
    expect(rows(dir, 'SELECT count(*) AS n FROM refunds_made')).toEqual([{n: LINES}])
    expect(existsSync(journal)).toBe(false)
  }, SLOW)
})
