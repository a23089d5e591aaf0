import {once} from 'node:events'
import {cpSync, mkdirSync, mkdtempSync, renameSync, statSync, utimesSync, writeFileSync} from 'node:fs'
import {type AddressInfo, type Socket, connect, createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {idleThreadIds, retireIdleThreads, runGwInThread, startGwInThread} from '../../e2e/gw-thread.js'
import {until} from '../../until.js'

/**
 * The warm thread the e2e tests run gw in (test/e2e/gw-thread.ts): one run after another in the
 * same thread, each as a process would run it, and what one leaves undone before the next, as a
 * process's exit would. Scripts in test/fixtures/gw-thread stand in for bin/run.js.
 */
const dir = mkdtempSync(join(tmpdir(), 'gw-thread-'))
// Copied to a folder of this run's: a thread keeps what it compiled by file name.
cpSync(join(import.meta.dirname, '..', '..', 'fixtures', 'gw-thread'), dir, {recursive: true})
const script = (name: string) => join(dir, name)
const LOOKER = script('looker.cjs')
const LEAVER = script('leaver.cjs')

const run = (gw: string, args: string[] = [], env: NodeJS.ProcessEnv = {}, stdin = '') => runGwInThread(gw, args, {env, stdin, timeoutMs: 60_000})

/**
 * The test's server for LEAVER: it keeps the sockets the leaver and its thread connect from, and
 * connects to the leaver's own server once both are there and it is told that server's port.
 */
async function serverForLeaver(): Promise<{port: number; accepted: Socket[]; connected: Promise<Socket>; leaversPort: () => number}> {
  const accepted: Socket[] = []
  let leaversPort = 0
  let told: (socket: Socket) => void = () => {}
  const connected = new Promise<Socket>((resolve) => (told = resolve))
  const connectWhenAllThere = () => {
    if (accepted.length === 2 && leaversPort) told(connect(leaversPort, '127.0.0.1').on('error', () => {}))
  }
  const server = createServer((socket) => {
    accepted.push(socket)
    socket.on('error', () => {})
    socket.once('data', (port) => {
      leaversPort = Number(port)
      connectWhenAllThere()
    })
    connectWhenAllThere()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  server.unref()
  return {port: (server.address() as AddressInfo).port, accepted, connected, leaversPort: () => leaversPort}
}

describe('gw in a warm thread', () => {
  it('ends a run as a process ends, and undoes what it left before the next', async () => {
    const fresh = await run(LOOKER, ['a', 'b'], {GIVEN: 'one'}, 'typed')
    expect(fresh.code).toBe(0)
    const {port, accepted, connected, leaversPort} = await serverForLeaver()
    const left = await run(LEAVER, [], {PORT: String(port)})
    expect(left).toEqual({code: 3, stdout: 'left\nexit 3\n', stderr: ''})
    // Its sockets and its thread's are closed, and its server: each socket's other end sees it.
    await Promise.all([...accepted, await connected].map((socket) => socket.closed || once(socket, 'close')))
    const [refused] = (await once(connect(leaversPort(), '127.0.0.1'), 'error')) as [NodeJS.ErrnoException]
    expect(refused.code).toBe('ECONNREFUSED')
    const after = await run(LOOKER, ['c'], {GIVEN: 'two'})
    expect(after.code).toBe(0)
    expect(after.stderr).toBe('')
    const seen = JSON.parse(fresh.stdout)
    expect(JSON.parse(after.stdout)).toEqual({...seen, args: ['c'], given: 'two', stdin: '', compiledBefore: true})
    expect(seen).toMatchObject({args: ['a', 'b'], given: 'one', stdin: 'typed', moduleRuns: 1, ticked: false, compiledBefore: false})
  })

  it('gives process.exit() its code, and its exit listeners their run', async () => {
    const exits = script('exits.cjs')
    expect(await run(exits)).toEqual({code: 4, stdout: 'exit 4\n', stderr: ''})
    expect((await run(LOOKER)).code).toBe(0)
  })

  it("writes each run's console.log through that run's process.stdout", async () => {
    const patcher = script('patcher.cjs')
    expect((await run(LOOKER)).code).toBe(0)
    expect(await run(patcher)).toEqual({code: 0, stdout: 'seen: one\n', stderr: ''})
  })

  it('compiles from source a bundle whose code cache V8 refuses, saying nothing of it: bin/run.js then writes none over the build\'s', async () => {
    const refused = script('refused.cjs')
    expect(await run(refused)).toEqual({code: 0, stdout: 'false 42\n', stderr: ''})
  })

  it('reads and compiles dist/gw.cjs afresh once a build has replaced it, or it has changed in place', async () => {
    const reader = script('reader.cjs')
    mkdirSync(join(dir, 'dist'), {recursive: true})
    const bundle = join(dir, 'dist', 'gw.cjs')
    writeFileSync(bundle, '1 + 1')
    expect(await run(reader)).toEqual({code: 0, stdout: '1 + 1 2\n', stderr: ''})
    // As scripts/bundle.js builds it: written beside, then renamed over the old one.
    writeFileSync(`${bundle}.new`, '2 + 2')
    renameSync(`${bundle}.new`, bundle)
    expect(await run(reader)).toEqual({code: 0, stdout: '2 + 2 4\n', stderr: ''})
    writeFileSync(bundle, '30 + 3')
    expect(await run(reader)).toEqual({code: 0, stdout: '30 + 3 33\n', stderr: ''})
  })

  it('reads oclif.manifest.json afresh once it is rewritten in place, as `oclif manifest` writes it, or replaced', async () => {
    const reader = script('manifest-reader.cjs')
    const manifest = join(dir, 'oclif.manifest.json')
    writeFileSync(manifest, '{"version":"1"}')
    expect(await run(reader)).toEqual({code: 0, stdout: '{"version":"1"}\n', stderr: ''})
    expect(await run(reader)).toEqual({code: 0, stdout: '{"version":"1"}\n', stderr: ''})
    // The same length: only its times tell it changed. Set a second on, as a filesystem with whole-second times may not.
    const before = statSync(manifest).mtime
    writeFileSync(manifest, '{"version":"2"}')
    utimesSync(manifest, before, new Date(before.getTime() + 1000))
    expect(await run(reader)).toEqual({code: 0, stdout: '{"version":"2"}\n', stderr: ''})
    writeFileSync(`${manifest}.new`, '{"version":"3"}')
    renameSync(`${manifest}.new`, manifest)
    expect(await run(reader)).toEqual({code: 0, stdout: '{"version":"3"}\n', stderr: ''})
  })

  it("runs none of a thread's handlers a run left, as its exit would not: not even its 'exit'", async () => {
    const ender = script('ender.cjs')
    expect(await run(ender)).toEqual({code: 0, stdout: '', stderr: ''})
    expect((await run(LOOKER)).code).toBe(0)
  })

  it.each([
    ['an uncaught exception', 'throws.cjs'],
    ['an unhandled rejection', 'rejects.cjs'],
  ])('ends with exit 1 and the error on stderr, as node does, for %s', async (_, name) => {
    const result = await run(script(name))
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Error: boom')
    expect((await run(LOOKER)).code).toBe(0)
  })

  it.each([
    ['a local gateway', {gateway: true}],
    ['gw listen', {ownPid: true}],
  ])('hands on what a run writes as it writes it, and gives its SIGTERM to its listener; its pid is one no process has, and the next run has the real one back (%s)', async (_, service) => {
    let stdout = ''
    let heard: () => void = () => {}
    const started = new Promise<void>((resolve) => (heard = resolve))
    const server = startGwInThread(script('server.cjs'), ['serve'], {env: {}, stdin: '', ...service}, (stream, chunk) => {
      stdout += chunk.toString()
      if (stdout.includes('\n')) heard()
    })
    await started
    const pid = Number(/^pid (\d+)\n$/.exec(stdout)![1])
    expect(pid).toBeGreaterThan(2 ** 22)
    expect(pid % 2).toBe(1)
    expect(server.pid).toBe(pid)
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({code: 'ESRCH'}))
    expect(server.hasEnded()).toBe(false)
    server.signal('SIGTERM')
    expect(await server.ended).toBe(0)
    expect(stdout).toBe(`pid ${pid}\nheard SIGTERM\n`)
    expect(await run(script('server.cjs'))).toEqual({code: 0, stdout: `pid ${process.pid}\n`, stderr: ''})
  })

  it('ends a run a signal it has no listener for reaches, with 128 and the signal\'s number, as the signal ends a process', async () => {
    let wrote: () => void = () => {}
    const started = new Promise<void>((resolve) => (wrote = resolve))
    const deaf = startGwInThread(script('server.cjs'), ['deaf'], {env: {}, stdin: ''}, () => wrote())
    await started
    deaf.signal('SIGTERM')
    expect(await deaf.ended).toBe(128 + 15)
    expect((await run(LOOKER)).code).toBe(0)
  })

  it("refuses a run's signal to the test's own process, or to its group: either would end the test", async () => {
    const refusal = (pid: number) => `gw in a thread signalled the test's own process (${pid}, SIGTERM): run it as a process (test/e2e/helpers.ts PROCESS_FILES)\n`
    expect(await run(script('signaller.cjs'))).toEqual({code: 0, stdout: refusal(process.pid) + refusal(0), stderr: ''})
  })

  it('lets a thread go that fails between runs, and the test with it goes on', async () => {
    const later = join(dir, 'later')
    // Threads other test files left are not this test's: its run is a new thread's first, kept after it.
    await retireIdleThreads()
    const late = await run(script('fails-late.cjs'), [], {LATER: later})
    expect(late).toMatchObject({code: 0, stderr: ''})
    const thread = Number(late.stdout)
    expect(idleThreadIds()).toContain(thread)
    writeFileSync(later, 'now')
    await until('the failed thread gone', () => !idleThreadIds().includes(thread) || undefined)
    expect((await run(LOOKER)).code).toBe(0)
  })
})
