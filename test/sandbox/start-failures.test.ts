import {existsSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join, sep} from 'node:path'
import {describe, expect, it} from 'vitest'
import {readRuntimeFile} from '../../src/sandbox/server/runtime-file.js'
import {isHeldHere, lockHolder, readLocks} from '../../src/lib/locked-database.js'
import {openState} from '../../src/sandbox/server/persist.js'
import type {StateWrite} from '../../src/sandbox/server/state-database.js'
import {startSandbox, type SandboxOptions} from '../../src/sandbox/server/server.js'
import {fixedClock, sandbox} from './helpers.js'
import {stateIn} from './state-file.js'

// A start opens, in order: the state file (under its lock), the request log, the journal, the
// socket, the deliveries, the runtime file. A failure at each stage lets go of exactly what was
// opened before it, and of nothing another holds: no lock is left on the state file, no file of
// the gateway's is left open, its port can be listened on again, and no runtime file says it runs.

interface Files {
  dir: string
  stateFile: string
  requestLog: string
  runtimeFile: string
  /** A plain file: a folder's place taken, so nothing can be written under it. */
  notAFolder: string
  port: number
}

async function files(): Promise<Files> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gw-start-failures-')))
  const notAFolder = join(dir, 'plain-file')
  writeFileSync(notAFolder, '')
  return {dir, stateFile: join(dir, 'state.json'), requestLog: join(dir, 'requests.ndjson'), runtimeFile: join(dir, 'run', 'sandbox.json'), notAFolder, port: await freePort()}
}

const options = (at: Files): SandboxOptions => ({
  port: at.port,
  host: '127.0.0.1',
  mode: 'sandbox',
  merchants: [],
  clock: fixedClock,
  stateFile: at.stateFile,
  requestLog: {file: at.requestLog},
  runtimeFile: at.runtimeFile,
})

async function freePort(): Promise<number> {
  const server = await listening(0)
  const {port} = server.address() as AddressInfo
  await close(server)
  return port
}

function listening(port: number): Promise<Server> {
  const server = createServer()
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

/** The files under `dir` this process holds open: the state file (and SQLite's journal beside it), the request log. */
function openUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(join('/proc/self/fd', fd))
      return target.startsWith(dir + sep) ? [target] : []
    } catch {
      // Closed since the folder was read: the readdir's own descriptor, for one.
      return []
    }
  })
}

/** No lock on the state file, as the system sees it (/proc/locks) and this process does. */
function lockIsFree(stateFile: string): boolean {
  return !isHeldHere(stateFile) && lockHolder(stateFile, readLocks()) === undefined
}

/** A disk on which `step` fails: the state file cannot be made a database, or its first snapshot cannot be written. */
const failingAt =
  (step: RegExp): StateWrite =>
  (name, run) => {
    if (step.test(name)) throw Object.assign(new Error('disk I/O error'), {code: 'ERR_SQLITE_ERROR', errcode: 10, errstr: 'disk I/O error'})
    run()
  }

const STAGES: {stage: string; fault: (at: Files) => Partial<SandboxOptions>; error: RegExp}[] = [
  {stage: 'the state file is not one', fault: (at) => (writeFileSync(at.stateFile, 'my notes'), {}), error: /is not a gw sandbox state file/},
  {stage: 'the state file cannot be made a database', fault: () => ({stateWrite: failingAt(/^CREATE TABLE/)}), error: /^Cannot write the state file .*\(disk I\/O error\)$/},
  {stage: 'the request log cannot be opened', fault: (at) => ({requestLog: {file: join(at.notAFolder, 'requests.ndjson')}}), error: /^Cannot write the request log .*\(EEXIST\)/},
  {stage: 'a web hook given at start is refused', fault: () => ({webhooks: ['ftp://example.com/hook']}), error: /^Web hook ftp:\/\/example.com\/hook: Address must be an http or https URL$/},
  {stage: 'the state file cannot be written', fault: () => ({stateWrite: failingAt(/^UPDATE snapshot/)}), error: /^Cannot write the state file .*\(disk I\/O error\)$/},
  {stage: 'the runtime file cannot be written', fault: (at) => ({runtimeFile: join(at.notAFolder, 'sandbox.json')}), error: /^EEXIST/},
]

describe('a start that fails lets go of exactly what it had opened', () => {
  it.each(STAGES)('when $stage: the lock is free, no file is left open, the port is closed, no runtime file remains', async ({fault, error}) => {
    const at = await files()
    await expect(startSandbox({...options(at), ...fault(at)})).rejects.toThrow(error)
    expect(openUnder(at.dir)).toStrictEqual([])
    expect(lockIsFree(at.stateFile)).toBe(true)
    await close(await listening(at.port))
    expect(existsSync(at.runtimeFile)).toBe(false)
  })

  it('when the state file is in use: the lock stays with whoever holds it, and nothing is left open', async () => {
    const at = await files()
    const held = openState(at.stateFile)
    try {
      await expect(startSandbox(options(at))).rejects.toThrow(/is in use by another local gateway in this process/)
      expect(lockIsFree(at.stateFile)).toBe(false)
    } finally {
      held.close()
    }
    expect(openUnder(at.dir)).toStrictEqual([])
  })

  it('when the port is in use: the lock is free, the journal folded into a snapshot and closed, the request log closed', async () => {
    const at = await files()
    const occupant = await listening(at.port)
    try {
      await expect(startSandbox(options(at))).rejects.toMatchObject({code: 'EADDRINUSE'})
    } finally {
      await close(occupant)
    }
    expect(openUnder(at.dir)).toStrictEqual([])
    expect(lockIsFree(at.stateFile)).toBe(true)
    expect(stateIn(at.stateFile).snapshot().runs).toHaveLength(1)
    expect(existsSync(at.runtimeFile)).toBe(false)
  })

  it('leaves alone the runtime file of a gateway that runs, which it never wrote', async () => {
    const at = await files()
    const running = await sandbox({runtimeFile: at.runtimeFile})
    await expect(startSandbox({...options(at), port: running.port})).rejects.toMatchObject({code: 'EADDRINUSE'})
    expect(readRuntimeFile(at.runtimeFile)).toMatchObject({url: running.url})
    expect(lockIsFree(at.stateFile)).toBe(true)
  })

  it('and a gateway that started lets go of all of it on close', async () => {
    const at = await files()
    const gateway = await startSandbox(options(at))
    expect(openUnder(at.dir)).not.toStrictEqual([])
    expect(lockIsFree(at.stateFile)).toBe(false)
    await gateway.close()
    expect(openUnder(at.dir)).toStrictEqual([])
    expect(lockIsFree(at.stateFile)).toBe(true)
    await close(await listening(at.port))
    expect(existsSync(at.runtimeFile)).toBe(false)
  })
})
