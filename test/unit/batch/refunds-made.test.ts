import {type ChildProcess, spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {journalTarget} from '../../../src/batch/journal-identity.js'
import {openRefundsMade, recordRefundMade, REFUNDS_MADE_QUERY, refundsMade, refundsMadeFile} from '../../../src/batch/refunds-made.js'
import {WriteError} from '../../../src/errors.js'
import {nodeSqlite} from '../../../src/lib/locked-database.js'
import {expectThrow} from '../../expect-error.js'

// A single `gw refund create` is recorded in gw's data directory, so that its refund is certain
// for the purchase it was made for (design.md §3); two gw at once each keep theirs; found by an
// index, whatever the record's size.
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
    recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042', purchase}, {now: new Date('2026-11-17T00:00:00Z')})
    recordRefundMade(dir, target, {refund: refund('071-R-AAAA0002'), transactionId: '071-P-OTHER001'})
    recordRefundMade(dir, {...target, username: 'OTHER'}, {refund: refund('071-R-AAAA0003'), transactionId: 'order-1042'})
    // No id, nothing to know it by: not recorded.
    recordRefundMade(dir, target, {refund: {reference: 'x'}, transactionId: 'order-1042'})
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
    recordRefundMade(dir, target, {refund: refund('071-R-CRED0001'), transactionId: ''})
    expect(await refundsMade(dir, target, new Set(['071-R-CRED0001']))).toEqual(new Map([['071-R-CRED0001', {transactionId: '', by: 'refund_create', unmatched: true}]]))
    expect(rows(dir)[0]).toMatchObject({transaction_id: '', purchase_id: null, purchase_reference: null})
  })

  it('the record is a file only its owner may read, in a folder only its owner may enter; a look-up with nothing recorded makes neither', async () => {
    const dir = join(dataDir(), 'gw')
    expect(await refundsMade(dir, target, new Set(['071-R-AAAA0001']))).toEqual(new Map())
    expect(existsSync(dir)).toBe(false)
    recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'})
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(refundsMadeFile(dir)).mode & 0o777).toBe(0o600)
  })

  it("a card number in a reference is masked; another run of the local gateway's data holds other refunds under those ids", async () => {
    const dir = dataDir()
    recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001', {reference: 'r-4111111111111111'}), transactionId: 'p-4111111111111111', gatewayInstance: 'run-1'})
    // The reset gateway's own refund under the same id is another refund: both kept.
    recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-2', gatewayInstance: 'run-2'})
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

  it('a refund made where the gateway named no run of its data (the live one) is found whatever holds; one that named its run is found where nothing asks which', async () => {
    const dir = dataDir()
    recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1'})
    recordRefundMade(dir, target, {refund: refund('071-R-AAAA0002'), transactionId: 'order-2', gatewayInstance: 'run-1'})
    const ids = new Set(['071-R-AAAA0001', '071-R-AAAA0002'])
    expect([...(await refundsMade(dir, target, ids, () => false)).keys()]).toEqual(['071-R-AAAA0001'])
    expect([...(await refundsMade(dir, target, ids)).keys()]).toEqual(['071-R-AAAA0001', '071-R-AAAA0002'])
  })

  it('a merchant or a gateway address that reads as a card number is kept masked, the merchant by its key: two that mask alike stay two', async () => {
    const dir = dataDir()
    const first = journalTarget('https://gateway.example/', '4111111111111111')
    const second = journalTarget('https://gateway.example/', '4111111000071111')
    const address = journalTarget('https://gateway.example/m/5555555555554444/', 'TEST')
    recordRefundMade(dir, first, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1'})
    recordRefundMade(dir, second, {refund: refund('071-R-AAAA0001'), transactionId: 'order-2'})
    recordRefundMade(dir, address, {refund: refund('071-R-AAAA0001'), transactionId: 'order-3'})
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

  it.each([2, 3])('a record of version %i (this gw keeps 1) is refused, saying what to do, and left as it is; a look-up there tells nothing', async (version) => {
    const dir = dataDir()
    recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1'})
    const db = new (nodeSqlite().DatabaseSync)(refundsMadeFile(dir))
    db.exec(`PRAGMA user_version = ${version}`)
    db.close()
    const before = readFileSync(refundsMadeFile(dir))
    expectThrow(
      () => recordRefundMade(dir, target, {refund: refund('071-R-AAAA0002'), transactionId: 'order-2'}),
      WriteError,
      `${refundsMadeFile(dir)} is of version ${version}, and this gw reads version 1 only: run the gw that wrote it, or move it away and gw makes a new one`,
    )
    expect(await refundsMade(dir, target, new Set(['071-R-AAAA0001']))).toEqual(new Map())
    expect(readFileSync(refundsMadeFile(dir)).equals(before)).toBe(true)
  })

  it('the same refund recorded twice is kept once, as first recorded', async () => {
    const dir = dataDir()
    recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'})
    recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-9999'})
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
    expectThrow(() => recordRefundMade(file, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'}), WriteError, new RegExp(`^${refundsMadeFile(file)} cannot be written \\((EEXIST|ENOTDIR)\\)$`))
    const folder = dataDir()
    mkdirSync(refundsMadeFile(folder))
    expectThrow(() => recordRefundMade(folder, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'}), WriteError, `${refundsMadeFile(folder)} cannot be written (unable to open database file)`)
    const garbage = dataDir()
    writeFileSync(refundsMadeFile(garbage), 'not a database, but long enough to be read as one: '.repeat(20))
    expectThrow(() => recordRefundMade(garbage, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'}), WriteError, `${refundsMadeFile(garbage)} cannot be written (file is not a database)`)
    // A look-up there tells nothing, and leaves the file as it was.
    expect(await refundsMade(garbage, target, new Set(['071-R-AAAA0001']))).toEqual(new Map())
    expect(readFileSync(refundsMadeFile(garbage), 'utf8')).toMatch(/^not a database/)
  })

  const root = process.getuid?.() === 0
  it.skipIf(!root)('on a full disk (a 64 KiB tmpfs, filled): a WriteError saying so, and what was recorded before stays', async () => {
    const mount = dataDir()
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount]).status).toBe(0)
    try {
      recordRefundMade(mount, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'})
      // What is left of the disk, taken by another file.
      spawnSync('sh', ['-c', `cat /dev/zero > ${join(mount, 'filler')}`])
      const failed = Array.from({length: 40}, (_, i) => {
        try {
          recordRefundMade(mount, target, {refund: refund(`071-R-FULL${String(i).padStart(4, '0')}`, {reference: 'x'.repeat(2000)}), transactionId: 'order-1042'})
          return undefined
        } catch (err) {
          return err
        }
      }).find((outcome) => outcome !== undefined)
      expect(failed).toBeInstanceOf(WriteError)
      expect((failed as Error).message).toMatch(new RegExp(`^${refundsMadeFile(mount)} cannot be written \\((database or disk is full|disk I/O error)\\)$`))
      rmSync(join(mount, 'filler'))
      expect((await refundsMade(mount, target, new Set(['071-R-AAAA0001']))).size).toBe(1)
    } finally {
      spawnSync('umount', [mount])
    }
  })
  it.runIf(!root)('skipped: the full-disk test mounts a tmpfs, which needs root (CI runs as root)', () => {})

  it('two gw recording at once each keep every one of theirs', async () => {
    const dir = dataDir()
    const run = (who: string) => exited(gwScript(`return Promise.all(Array.from({length: 50}, (_, i) => Promise.resolve().then(() => recordRefundMade(${JSON.stringify(dir)}, target, {refund: {id: '${who}-' + i}, transactionId: 'order-1042'}))))`))
    expect(await Promise.all([run('a'), run('b')])).toEqual([0, 0])
    const ids = new Set([...Array.from({length: 50}, (_, i) => `a-${i}`), ...Array.from({length: 50}, (_, i) => `b-${i}`)])
    expect((await refundsMade(dir, target, ids)).size).toBe(100)
  }, 60_000)
})
