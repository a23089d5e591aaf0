import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {aPurchase, aRefund} from '../unit/sandbox/fixtures.js'
import {stateIn} from './state-file.js'

// An older gw's state file (JSON) is rewritten as a database when a gateway starts on it: a crash
// at any point leaves the older file as it was, or the database whole, and the next start reads
// every record either way.
const CRASH = join(import.meta.dirname, 'fixtures', 'crash-migrating.ts')

const purchase = aPurchase('071-P-AAAAAAAA', 'order-1')
const refund = aRefund('071-R-AAAAAAAA', 'refund-1', purchase.id, 100)
const OLDER = [
  JSON.stringify({version: 2, snapshot: {merchants: {TEST: {purchases: {[purchase.id]: purchase}}}}}),
  JSON.stringify({changes: [{op: 'put', collection: 'refunds', merchant: 'TEST', record: refund}]}),
  '',
].join('\n')

/** Runs the migration in a child killed before its `nth` write; resolves with whether it got the file open first. */
function crashAt(stateFile: string, nth: number): Promise<boolean> {
  const child = spawn(process.execPath, ['--import', 'tsx', CRASH, stateFile, String(nth)], {stdio: ['ignore', 'pipe', 'inherit']})
  let out = ''
  child.stdout.on('data', (data: Buffer) => (out += data.toString()))
  return new Promise((resolve, reject) => {
    child.once('exit', (_, signal) => (signal === 'SIGKILL' ? resolve(out === 'opened\n') : reject(new Error(`the migration ended with ${signal}, not killed`))))
  })
}

describe("an older gw's state file, migrated by a gateway killed at each of its writes", () => {
  it('is the older file as it was or a database, and the next start holds every record', async () => {
    let opened = false
    let crashes = 0
    for (let nth = 1; !opened; nth++) {
      const dir = mkdtempSync(join(tmpdir(), 'gw-state-migration-'))
      const stateFile = join(dir, 'state.json')
      writeFileSync(stateFile, OLDER)
      opened = await crashAt(stateFile, nth)
      crashes++
      const bytes = readFileSync(stateFile)
      if (bytes.subarray(0, 15).toString() !== 'SQLite format 3') expect(bytes.toString(), `killed before write #${nth}`).toBe(OLDER)
      const store = stateIn(stateFile)
      expect(store.find('purchases', 'TEST', 'order-1'), `killed before write #${nth}`).toEqual({found: 'own', record: purchase})
      expect(store.list('refunds', 'TEST').map((record) => record.id)).toEqual([refund.id])
      // What the crash left beside it (a migration's temporary file, an older gw's lock of a dead process) stops no start.
      expect(readdirSync(dir).filter((name) => !name.startsWith('state.json.'))).toEqual(['state.json'])
      expect(nth).toBeLessThan(50)
    }
    // Every write of the migration, and the rename that puts it in place.
    expect(crashes).toBeGreaterThan(7)
  }, 120_000)
})
