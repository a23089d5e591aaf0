import {spawn} from 'node:child_process'
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {closeOnStop, DetachedStartError, errorIn, spawnDetached} from '../../src/sandbox/server/daemon.js'
import {sandboxStatus} from '../../src/sandbox/server/gateway-process.js'
import {readRuntime, readRuntimeFile, removeRuntimeFile, writeRuntimeFile, type RuntimeInfo} from '../../src/sandbox/server/runtime-file.js'
import {stopSandbox} from '../../src/sandbox/server/stopping.js'
import {hostPlatform} from '../../src/lib/platform.js'
import {expectReject} from '../expect-error.js'
import {aRuntimeInfo} from '../unit/sandbox/fixtures.js'
import {POSIX_MODES} from '../only-on.js'

const isRunning = (pid: number) => hostPlatform().isRunning(pid)

const SERVE = join(import.meta.dirname, 'fixtures', 'serve.ts')

const paths = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-daemon-'))
  return {runtimeFile: join(dir, 'run', 'sandbox.json'), logFile: join(dir, 'logs', 'sandbox.log')}
}

const info = (pid: number): RuntimeInfo => aRuntimeInfo({pid, port: 1})

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''])
  await new Promise((resolve) => child.on('exit', resolve))
  return child.pid as number
}

const started: number[] = []
afterEach(() => {
  for (const pid of started.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
})

const platform = hostPlatform()

describe('spawnDetached and stopSandbox', () => {
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
      rateLimit: null,
      latencyMs: 0,
      webHookOrder: 'oldest',
      stateFile: null,
      startedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      webhooks: [],
      merchants: [],
      // In memory: no file was given.
      requestLog: null,
      controlToken: expect.any(String),
      process: {started: expect.any(String), command: expect.stringContaining('serve.ts')},
    })
    expect(running.pid).not.toBe(process.pid)
    expect(await sandboxStatus(runtimeFile, platform)).toStrictEqual({state: 'running', info: running})
    const answer = await fetch(`${running.url}/_sandbox/info`)
    expect(answer.headers.get('x-service-mode')).toBe('Live')
    // Its log is its user's alone.
    expect(statSync(logFile).mode & 0o777).toBe(0o600)

    expect(await stopSandbox(running, platform)).toStrictEqual({result: 'stopped', how: 'asked'})
    expect(isRunning(running.pid)).toBe(false)
    expect(existsSync(runtimeFile)).toBe(false)
    expect(await sandboxStatus(runtimeFile, platform)).toStrictEqual({state: 'stopped'})
    // Asked on its control API, it closed as it does on SIGTERM, and said so last.
    expect(readFileSync(logFile, 'utf8')).toBe('closed (asked)\n')
  })

  it('rejects, naming the log, when the child exits before it is ready', async () => {
    const {runtimeFile, logFile} = paths()
    await expectReject(
      spawnDetached({execPath: process.execPath, args: ['-e', 'console.error("no luck"); process.exit(3)'], runtimeFile, logFile}),
      Error,
      `The local gateway exited (code 3) before it was ready; see ${logFile}`,
    )
    expect(readFileSync(logFile, 'utf8')).toContain('no luck')
  })

  it("carries the error and hint the child printed, its exit code, and no earlier run's", async () => {
    const {runtimeFile, logFile} = paths()
    mkdirSync(dirname(logFile), {recursive: true})
    writeFileSync(logFile, 'Error: an earlier run failed\nHint: not this one\n', {mode: 0o600})
    const said = 'console.error("listening...\\nError: The state file cannot be used: it is theirs\\nHint: Use another path."); process.exit(2)'
    const error = await spawnDetached({execPath: process.execPath, args: ['-e', said], runtimeFile, logFile}).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(DetachedStartError)
    expect(error).toMatchObject({exitCode: 2, logFile, told: {message: 'The state file cannot be used: it is theirs', hint: 'Use another path.'}})
    const silent = await spawnDetached({execPath: process.execPath, args: ['-e', 'process.exit(1)'], runtimeFile, logFile}).catch((err: unknown) => err)
    expect(silent).toMatchObject({exitCode: 1, told: undefined})
  })

  it('reads the last error a gw printed, colours off', () => {
    expect(errorIn('a line\n\u001b[31mError:\u001b[39m Port 8787 on 127.0.0.1 is already in use\n\u001b[2mHint:\u001b[22m Pick another --port.\n')).toEqual({message: 'Port 8787 on 127.0.0.1 is already in use', hint: 'Pick another --port.'})
    expect(errorIn('Error: alone\n')).toEqual({message: 'alone'})
    expect(errorIn('nothing said\n')).toBeUndefined()
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
      `The local gateway did not start within 300 ms; see ${logFile}`,
    )
    const pid = Number(readFileSync(logFile, 'utf8').trim())
    await expect.poll(() => isRunning(pid), {timeout: 60_000}).toBe(false)
  })

  it('rejects when the executable cannot be started', async () => {
    const {runtimeFile, logFile} = paths()
    await expectReject(
      spawnDetached({execPath: '/no/such/node', args: [], runtimeFile, logFile}),
      Error,
      /^The local gateway could not be started \(spawn \/no\/such\/node ENOENT\); see /,
    )
  })

  it('kills a gateway that ignores SIGTERM once the grace period is over, once its pid is shown to be it', async () => {
    const child = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)', 'sandbox', 'start'])
    await new Promise((resolve) => child.stdout.once('data', resolve))
    const pid = child.pid as number
    started.push(pid)
    const exited = new Promise((resolve) => child.once('exit', resolve))
    // A gateway that does not answer, its runtime file without its process (as on Windows): its command line says gw sandbox start.
    expect(await stopSandbox(info(pid), platform, {graceMs: 200})).toStrictEqual({result: 'stopped', how: 'killed'})
    await exited
  })

  it('reports a process that is already gone', async () => {
    expect(await stopSandbox(info(await deadPid()), platform)).toStrictEqual({result: 'stale'})
  })
})

describe('the runtime file', () => {
  it('round-trips, and a file whose process is gone is stale', async () => {
    const {runtimeFile} = paths()
    const own = {...info(process.pid), process: platform.processFacts(process.pid)}
    writeRuntimeFile(runtimeFile, own)
    expect(readRuntimeFile(runtimeFile)).toStrictEqual(own)
    expect(await sandboxStatus(runtimeFile, platform)).toStrictEqual({state: 'running', info: own})

    const dead = await deadPid()
    writeRuntimeFile(runtimeFile, info(dead))
    expect(await sandboxStatus(runtimeFile, platform)).toStrictEqual({state: 'stale', info: info(dead)})
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

  it('reads as absent when missing or not a runtime file', async () => {
    const {runtimeFile} = paths()
    expect(readRuntimeFile(runtimeFile)).toBeUndefined()
    writeRuntimeFile(runtimeFile, {...info(1), pid: 'one'} as unknown as RuntimeInfo)
    expect(readRuntimeFile(runtimeFile)).toBeUndefined()
    expect(await sandboxStatus(runtimeFile, platform)).toStrictEqual({state: 'stopped'})
  })

  it.skipIf(POSIX_MODES.skip)(`is not believed, control key and all, when others may write it: another's, not this user's gateway${POSIX_MODES.note}`, async () => {
    const {runtimeFile} = paths()
    writeRuntimeFile(runtimeFile, {...info(process.pid), controlToken: 'planted'})
    chmodSync(runtimeFile, 0o666)
    expect(readRuntime(runtimeFile)).toStrictEqual({unreadable: 'writable'})
    expect(readRuntimeFile(runtimeFile)).toBeUndefined()
    expect(await sandboxStatus(runtimeFile, platform)).toMatchObject({state: 'theirs'})
  })
})

describe('closeOnStop', () => {
  it('closes on the first signal, resolves with it, and leaves later signals to node', async () => {
    const before = {SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM')}
    let closes = 0
    const closed = closeOnStop(async () => {
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

  it("takes Windows' Ctrl-Break for SIGTERM, and a stop asked on the control API for one too, closing once", async () => {
    let closes = 0
    const close = async () => void closes++
    const broken = closeOnStop(close, {signals: ['SIGINT', 'SIGBREAK']})
    process.emit('SIGBREAK' as NodeJS.Signals, 'SIGBREAK' as NodeJS.Signals)
    expect(await broken).toBe('SIGTERM')
    expect(process.listenerCount('SIGBREAK')).toBe(0)
    let ask = () => {}
    const asked = closeOnStop(close, {asked: new Promise<void>((resolve) => (ask = resolve))})
    ask()
    expect(await asked).toBe('asked')
    process.emit('SIGTERM', 'SIGTERM')
    expect(closes).toBe(2)
  })
})
