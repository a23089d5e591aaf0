import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {openStateFile, type OpenStateFile, StateFileError} from '../../src/sandbox/server/persist.js'
import {CARD, call, purchase, sandbox} from './helpers.js'
import {expectReject} from '../expect-error.js'

const SERVE = join(import.meta.dirname, 'fixtures', 'serve-state.ts')
const stateFileIn = () => join(mkdtempSync(join(tmpdir(), 'gw-sandbox-')), 'state.json')

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
    await expect.poll(() => acknowledged.length, {timeout: 15_000, interval: 20}).toBeGreaterThanOrEqual(200)
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
  }, 30_000)

  it('answers 500 for a purchase whose change cannot be saved, keeps nothing of it, and carries on once the disk recovers', async () => {
    const stateFile = stateFileIn()
    let full = false
    const openFile: OpenStateFile = async (path, flags) => {
      const real = await openStateFile(path, flags)
      return {
        ...real,
        write: async (data, position) => {
          if (full) throw Object.assign(new Error('ENOSPC: no space left on device'), {code: 'ENOSPC'})
          return real.write(data, position)
        },
      }
    }
    const gateway = await sandbox({stateFile, openStateFile: openFile})
    full = true
    const refused = await purchase(gateway, {reference: 'unsaved'})
    expect(refused.status).toBe(500)
    expect(refused.body).toStrictEqual({
      successful: false,
      response: null,
      errors: ['Internal sandbox error: the change could not be saved to the state file (ENOSPC); nothing was done'],
      test: true,
    })
    expect((await call(gateway, 'GET', '/v1.0/purchases/unsaved')).status).toBe(404)

    full = false
    expect((await purchase(gateway, {reference: 'unsaved'})).status).toBe(200)
    expect((await call(gateway, 'GET', '/v1.0/purchases/unsaved')).status).toBe(200)
  })

  it('answers no purchase 200 whose change could not be synced to disk (fdatasync fails)', async () => {
    const stateFile = stateFileIn()
    let failing = false
    const openFile: OpenStateFile = async (path, flags) => {
      const real = await openStateFile(path, flags)
      return {
        ...real,
        sync: async () => {
          if (failing) throw Object.assign(new Error('EIO: i/o error, fdatasync'), {code: 'EIO'})
          return real.sync()
        },
      }
    }
    const gateway = await sandbox({stateFile, openStateFile: openFile})
    failing = true
    const refused = await purchase(gateway, {reference: 'unsynced'})
    expect(refused.status).toBe(500)
    expect(refused.body.errors).toEqual(['Internal sandbox error: the change could not be saved to the state file (EIO); nothing was done'])
    expect((await call(gateway, 'GET', '/v1.0/purchases/unsynced')).status).toBe(404)
    failing = false
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
    const [head] = readFileSync(stateFile, 'utf8').split('\n')
    const state = JSON.parse(head as string)
    state.snapshot.merchants.TEST.purchases[created.id].successful = 'yes'
    writeFileSync(stateFile, `${JSON.stringify(state)}\n`)
    await expectReject(
      sandbox({stateFile}),
      StateFileError,
      `${stateFile} is not a gw sandbox state file (line 1, snapshot.merchants.TEST.purchases.${created.id}.successful: Invalid input: expected boolean, received string); move it away or pick another file`,
    )
  })

  it.each([
    ['today', (state: {snapshot: {today?: string}}) => (state.snapshot.today = 'not-a-date'), 'snapshot.today: must be a date, YYYY-MM-DD'],
    ['a purchase date', (state: {snapshot: {merchants: {TEST: {purchases: Record<string, {transaction_date: string}>}}}}) => {
      for (const purchase of Object.values(state.snapshot.merchants.TEST.purchases)) purchase.transaction_date = 'yesterday'
    }, 'transaction_date: must be a date-time with its offset'],
  ])('refuses a state file whose %s is not one, rather than answer every request 500 later', async (_, spoil, problem) => {
    const stateFile = stateFileIn()
    const first = await sandbox({stateFile})
    await purchase(first)
    await first.close()
    const state = JSON.parse(readFileSync(stateFile, 'utf8').split('\n')[0]!)
    spoil(state)
    writeFileSync(stateFile, `${JSON.stringify(state)}\n`)
    await expect(sandbox({stateFile})).rejects.toThrow(problem)
  })

  // A file where its folder should be: refused for every user, root (as in CI) included.
  it('refuses to start when the state file cannot be written, rather than answer requests it cannot keep', async () => {
    const notAFolder = join(mkdtempSync(join(tmpdir(), 'gw-sandbox-')), 'plain-file')
    writeFileSync(notAFolder, '')
    await expectReject(sandbox({stateFile: join(notAFolder, 'state.json')}), StateFileError, /ENOTDIR/)
  })
})
