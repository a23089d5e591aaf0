import {spawn, spawnSync} from 'node:child_process'
import {closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {StateFileError} from '../../src/sandbox/server/state-file-error.js'
import type {StateWrite} from '../../src/sandbox/server/state-database.js'
import {CARD, call, purchase, sandbox} from './helpers.js'
import {rowsOf, runSql} from './state-file.js'
import {expectReject} from '../expect-error.js'

const SERVE = join(import.meta.dirname, 'fixtures', 'serve-state.ts')
const stateFileIn = () => join(mkdtempSync(join(tmpdir(), 'gw-sandbox-')), 'state.json')

const root = process.getuid?.() === 0
const NEEDS_ROOT = root ? '' : ' (skipped: mounting a tmpfs needs root; CI runs it)'

/** What SQLite throws when a write fails: the disk is full (13), or it failed (10). */
const sqliteError = (errcode: number, errstr: string) => Object.assign(new Error(errstr), {code: 'ERR_SQLITE_ERROR', errcode, errstr})

/** Starts the sandbox in a child process on `stateFile`; resolves with its URL and the child. */
async function spawnSandbox(stateFile: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVE, stateFile], {stdio: ['ignore', 'pipe', 'inherit']})
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()))
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)))
  })
  return {url, child}
}

describe('durability', () => {
  it('loses no acknowledged purchase when killed with SIGKILL while a client makes purchases', async () => {
    const stateFile = stateFileIn()
    const {url, child} = await spawnSandbox(stateFile)
    const acknowledged: {id: string; reference: string}[] = []
    let next = 0
    let killed = false
    const auth = `Basic ${Buffer.from('TEST:TEST').toString('base64')}`
    const client = async () => {
      while (!killed) {
        const reference = `kill-${next++}`
        try {
          const answer = await fetch(`${url}/v1.0/purchases`, {
            method: 'POST',
            headers: {'Content-Type': 'application/json', Authorization: auth},
            body: JSON.stringify({...CARD, amount: 1000, reference}),
          })
          const body = (await answer.json()) as {response: {id: string}}
          if (answer.status === 200) acknowledged.push({id: body.response.id, reference})
        } catch {
          return
        }
      }
    }
    const clients = Array.from({length: 8}, client)
    // Killed mid-stream once it has acknowledged a good number, with eight purchases in flight.
    await expect.poll(() => acknowledged.length, {timeout: 60_000, interval: 20}).toBeGreaterThanOrEqual(200)
    const gone = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    killed = true
    await Promise.all(clients)
    // Until its parent has reaped it, a killed process still holds its pid, and its lock looks held.
    await gone

    const restarted = await sandbox({stateFile})
    for (const {id, reference} of acknowledged) {
      const answer = await call(restarted, 'GET', `/v1.0/purchases/${reference}`)
      expect(answer.status).toBe(200)
      expect(answer.body.response.id).toBe(id)
    }
  })

  it('answers 500 for a purchase whose change cannot be saved, keeps nothing of it, and carries on once the disk recovers', async () => {
    const stateFile = stateFileIn()
    let full = false
    const stateWrite: StateWrite = (step, run) => {
      if (full && step.startsWith('INSERT')) throw sqliteError(13, 'database or disk is full')
      run()
    }
    const gateway = await sandbox({stateFile, stateWrite})
    full = true
    const refused = await purchase(gateway, {reference: 'unsaved'})
    expect(refused.status).toBe(500)
    expect(refused.body).toStrictEqual({
      successful: false,
      response: null,
      errors: ['Internal sandbox error: the change could not be saved to the state file (database or disk is full); nothing was done'],
      test: true,
    })
    expect((await call(gateway, 'GET', '/v1.0/purchases/unsaved')).status).toBe(404)

    full = false
    expect((await purchase(gateway, {reference: 'unsaved'})).status).toBe(200)
    expect((await call(gateway, 'GET', '/v1.0/purchases/unsaved')).status).toBe(200)
  })

  it('answers no purchase 200 whose commit failed once its data had gone out (a sync that failed)', async () => {
    const stateFile = stateFileIn()
    let failing = false
    const stateWrite: StateWrite = (step, run) => {
      run()
      if (failing && step === 'COMMIT') {
        failing = false
        throw sqliteError(10, 'disk I/O error')
      }
    }
    const gateway = await sandbox({stateFile, stateWrite})
    failing = true
    const refused = await purchase(gateway, {reference: 'unsynced'})
    expect(refused.status).toBe(500)
    expect(refused.body.errors).toEqual(['Internal sandbox error: the change could not be saved to the state file (disk I/O error); nothing was done'])
    expect((await call(gateway, 'GET', '/v1.0/purchases/unsynced')).status).toBe(404)
    await gateway.close()
    // Whatever reached the file before the failed sync, a restart does not hold the purchase either.
    const restarted = await sandbox({stateFile})
    expect((await call(restarted, 'GET', '/v1.0/purchases/unsynced')).status).toBe(404)
  })

  it('refuses to start on a state file with the right version and a wrong shape, naming the file and the path', async () => {
    const stateFile = stateFileIn()
    const first = await sandbox({stateFile})
    const created = (await purchase(first)).body.response
    await first.close()
    const state = JSON.parse(rowsOf(stateFile).snapshot)
    state.merchants.TEST.purchases[created.id].successful = 'yes'
    runSql(stateFile, 'UPDATE snapshot SET state = ?', JSON.stringify(state))
    await expectReject(
      sandbox({stateFile}),
      StateFileError,
      `${stateFile} is not a gw sandbox state file (snapshot, merchants.TEST.purchases.${created.id}.successful: Invalid input: expected boolean, received string); move it away or pick another file`,
    )
  })

  it.each([
    ['today', (state: {today?: string}) => (state.today = 'not-a-date'), 'snapshot, today: must be a date, YYYY-MM-DD'],
    ['a purchase date', (state: {merchants: {TEST: {purchases: Record<string, {transaction_date: string}>}}}) => {
      for (const purchase of Object.values(state.merchants.TEST.purchases)) purchase.transaction_date = 'yesterday'
    }, 'transaction_date: must be a date-time with its offset'],
  ])('refuses a state file whose %s is not one, rather than answer every request 500 later', async (_, spoil, problem) => {
    const stateFile = stateFileIn()
    const first = await sandbox({stateFile})
    await purchase(first)
    await first.close()
    const state = JSON.parse(rowsOf(stateFile).snapshot)
    spoil(state)
    runSql(stateFile, 'UPDATE snapshot SET state = ?', JSON.stringify(state))
    await expect(sandbox({stateFile})).rejects.toThrow(problem)
  })

  // A file where its folder should be: refused for every user, root (as in CI) included.
  it('refuses to start when the state file cannot be written, rather than answer requests it cannot keep', async () => {
    const notAFolder = join(mkdtempSync(join(tmpdir(), 'gw-sandbox-')), 'plain-file')
    writeFileSync(notAFolder, '')
    await expectReject(sandbox({stateFile: join(notAFolder, 'state.json')}), StateFileError, /ENOTDIR/)
  })

  it.skipIf(!root)(`on a disk really full (a small tmpfs): a purchase answered 200 survives a restart, one refused is absent, and purchases go on once there is room${NEEDS_ROOT}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-full-disk-'))
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', dir], {encoding: 'utf8'})
    expect(mounted.status, mounted.stderr).toBe(0)
    try {
      const stateFile = join(dir, 'state.json')
      const gateway = await sandbox({stateFile})
      expect((await purchase(gateway, {reference: 'before-full'})).status).toBe(200)
      const filler = join(dir, 'filler')
      fillDisk(filler)
      const answered = new Map<string, number>()
      const refused = () => [...answered].filter(([, status]) => status !== 200)
      for (let index = 0; index < 200 && refused().length === 0; index++) {
        const reference = `full-${index}`
        const answer = await purchase(gateway, {reference})
        answered.set(reference, answer.status)
        if (answer.status !== 200) expect(answer.body.errors).toEqual(['Internal sandbox error: the change could not be saved to the state file (database or disk is full); nothing was done'])
      }
      expect(refused()).toHaveLength(1)
      const [[again]] = refused() as [[string, number]]
      expect((await call(gateway, 'GET', `/v1.0/purchases/${again}`)).status).toBe(404)
      rmSync(filler)
      expect((await purchase(gateway, {reference: again})).status).toBe(200)
      await gateway.close()

      const restarted = await sandbox({stateFile})
      for (const reference of ['before-full', ...answered.keys()]) expect((await call(restarted, 'GET', `/v1.0/purchases/${reference}`)).status, reference).toBe(200)
      await restarted.close()
    } finally {
      spawnSync('umount', [dir])
    }
  })
})

/** Writes `file` until the disk has no room left. */
function fillDisk(file: string): void {
  const fd = openSync(file, 'w')
  const block = Buffer.alloc(4096, 1)
  try {
    for (;;) writeSync(fd, block)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  } finally {
    closeSync(fd)
  }
}
