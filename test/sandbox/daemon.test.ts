import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {
  closeOnSignal,
  readRuntimeFile,
  removeRuntimeFile,
  sandboxStatus,
  spawnDetached,
  stopProcess,
  writeRuntimeFile,
  type RuntimeInfo,
} from '../../src/sandbox/server/daemon.js'
import {isRunning} from '../../src/lib/lock-file.js'
import {expectReject} from '../expect-error.js'

const SERVE = join(import.meta.dirname, 'fixtures', 'serve.ts')

const paths = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-daemon-'))
  return {runtimeFile: join(dir, 'run', 'sandbox.json'), logFile: join(dir, 'logs', 'sandbox.log')}
}

const info = (pid: number): RuntimeInfo => ({
  pid,
  url: 'http://127.0.0.1:1',
  host: '127.0.0.1',
  port: 1,
  mode: 'sandbox',
  stateFile: null,
  startedAt: '2026-11-22T08:31:05.000Z',
})

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''])
  await new Promise((resolve) => child.on('exit', resolve))
  return child.pid as number
}

const started: number[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((pid) => stopProcess(pid, {graceMs: 1000})))
})

describe('spawnDetached and stopProcess', () => {
  it('starts a sandbox in its own process, reports it running, and stops it cleanly', async () => {
    const {runtimeFile, logFile} = paths()
    const running = await spawnDetached({
      execPath: process.execPath,
      args: ['--import', 'tsx', SERVE, runtimeFile],
      runtimeFile,
      logFile,
      timeoutMs: 20_000,
    })
    started.push(running.pid)

    expect(running).toStrictEqual({
      pid: expect.any(Number),
      url: `http://127.0.0.1:${running.port}`,
      host: '127.0.0.1',
      port: expect.any(Number),
      mode: 'live',
      dialect: 'contract',
      processingWindowMs: 2000,
      proofKey: expect.stringMatching(/^[\w-]{43}$/),
      stateFile: null,
      startedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      webhooks: [],
      merchants: [],
      // In memory: no file was given.
      requestLog: null,
    })
    expect(running.pid).not.toBe(process.pid)
    expect(sandboxStatus(runtimeFile)).toStrictEqual({state: 'running', info: running})
    const answer = await fetch(`${running.url}/_sandbox/info`)
    expect(answer.headers.get('x-service-mode')).toBe('Live')

    expect(await stopProcess(running.pid)).toBe('stopped')
    expect(isRunning(running.pid)).toBe(false)
    expect(existsSync(runtimeFile)).toBe(false)
    expect(sandboxStatus(runtimeFile)).toStrictEqual({state: 'stopped'})
  }, 30_000)

  it('rejects, naming the log, when the child exits before it is ready', async () => {
    const {runtimeFile, logFile} = paths()
    await expectReject(
      spawnDetached({execPath: process.execPath, args: ['-e', 'console.error("no luck"); process.exit(3)'], runtimeFile, logFile}),
      Error,
      `The sandbox exited (code 3) before it was ready; see ${logFile}`,
    )
    expect(readFileSync(logFile, 'utf8')).toContain('no luck')
  })

  it('rejects and kills the child when it never becomes ready', async () => {
    const {runtimeFile, logFile} = paths()
    await expectReject(
      spawnDetached({
        execPath: process.execPath,
        args: ['-e', 'console.log(process.pid); setInterval(() => {}, 1000)'],
        runtimeFile,
        logFile,
        timeoutMs: 300,
      }),
      Error,
      `The sandbox did not start within 300 ms; see ${logFile}`,
    )
    const pid = Number(readFileSync(logFile, 'utf8').trim())
    await expect.poll(() => isRunning(pid), {timeout: 30_000}).toBe(false)
  })

  it('rejects when the executable cannot be started', async () => {
    const {runtimeFile, logFile} = paths()
    await expectReject(
      spawnDetached({execPath: '/no/such/node', args: [], runtimeFile, logFile}),
      Error,
      /^The sandbox could not be started \(spawn \/no\/such\/node ENOENT\); see /,
    )
  })

  it('kills a process that ignores SIGTERM once the grace period is over', async () => {
    const child = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)'])
    await new Promise((resolve) => child.stdout.once('data', resolve))
    const pid = child.pid as number
    expect(await stopProcess(pid, {graceMs: 200})).toBe('killed')
    expect(isRunning(pid)).toBe(false)
  })

  it('reports a process that is already gone', async () => {
    expect(await stopProcess(await deadPid())).toBe('not-running')
  })
})

describe('the runtime file', () => {
  it('round-trips, and a file whose process is gone is stale', async () => {
    const {runtimeFile} = paths()
    writeRuntimeFile(runtimeFile, info(process.pid))
    expect(readRuntimeFile(runtimeFile)).toStrictEqual(info(process.pid))
    expect(sandboxStatus(runtimeFile)).toStrictEqual({state: 'running', info: info(process.pid)})

    const dead = await deadPid()
    writeRuntimeFile(runtimeFile, info(dead))
    expect(sandboxStatus(runtimeFile)).toStrictEqual({state: 'stale', info: info(dead)})
  })

  it('is removed only by the process that wrote it, when a pid is given', () => {
    const {runtimeFile} = paths()
    writeRuntimeFile(runtimeFile, info(process.pid))
    removeRuntimeFile(runtimeFile, process.pid + 1)
    expect(existsSync(runtimeFile)).toBe(true)
    removeRuntimeFile(runtimeFile, process.pid)
    expect(existsSync(runtimeFile)).toBe(false)
    removeRuntimeFile(runtimeFile)
  })

  it('reads as absent when missing or not a runtime file', () => {
    const {runtimeFile} = paths()
    expect(readRuntimeFile(runtimeFile)).toBeUndefined()
    writeRuntimeFile(runtimeFile, {...info(1), pid: 'one'} as unknown as RuntimeInfo)
    expect(readRuntimeFile(runtimeFile)).toBeUndefined()
    expect(sandboxStatus(runtimeFile)).toStrictEqual({state: 'stopped'})
  })
})

describe('closeOnSignal', () => {
  it('closes on the first signal, resolves with it, and leaves later signals to node', async () => {
    const before = {SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM')}
    let closes = 0
    const closed = closeOnSignal(async () => {
      closes++
    })
    expect(process.listenerCount('SIGINT')).toBe(before.SIGINT + 1)
    expect(process.listenerCount('SIGTERM')).toBe(before.SIGTERM + 1)

    process.emit('SIGTERM', 'SIGTERM')
    expect(await closed).toBe('SIGTERM')
    expect(closes).toBe(1)
    expect(process.listenerCount('SIGINT')).toBe(before.SIGINT)
    expect(process.listenerCount('SIGTERM')).toBe(before.SIGTERM)
  })
})
