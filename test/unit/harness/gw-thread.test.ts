import {once} from 'node:events'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {type AddressInfo, type Socket, connect, createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runGwInThread} from '../../e2e/gw-thread.js'

/**
 * The warm thread the e2e tests run gw in (test/e2e/gw-thread.ts): one run after another in the
 * same thread, each as a process would run it, and what one leaves undone before the next, as a
 * process's exit would. Scripts here stand in for bin/run.js.
 */
const dir = mkdtempSync(join(tmpdir(), 'gw-thread-'))
const script = (name: string, text: string) => {
  writeFileSync(join(dir, name), text)
  return join(dir, name)
}

script('counter.cjs', 'let runs = 0\nmodule.exports = () => ++runs\n')
const LOOKER = script(
  'looker.cjs',
  `const {Script} = require('node:vm')
const compiled = new Script('1 + 1', {filename: ${JSON.stringify(join(dir, 'bundle.cjs'))}})
const seen = {
  args: process.argv.slice(2),
  global: globalThis.leftBehind,
  symbol: globalThis[Symbol.for('gw.left')],
  process: process.leftBehind,
  env: process.env.LEFT,
  given: process.env.GIVEN,
  exitCode: process.exitCode,
  exitListeners: process.listenerCount('exit'),
  warningListeners: process.listenerCount('warning'),
  handles: process._getActiveHandles().length,
  moduleRuns: require('./counter.cjs')(),
  compiledBefore: compiled.seen === true,
}
compiled.seen = true
let stdin = ''
process.stdin.on('data', (chunk) => (stdin += chunk)).on('end', () => {
  // An interval a run before left would tick meanwhile.
  setTimeout(() => console.log(JSON.stringify({...seen, stdin, ticked: globalThis.ticked ?? false})), 20)
})
`,
)
/**
 * Leaves what a process's exit ends: timers, a thread, sockets and a server, all unref'd. It
 * connects to the test's server (PORT), from here and from its thread, and sends the port of a
 * server of its own, which the test connects to; that connection ends the run.
 */
const LEAVER = script(
  'leaver.cjs',
  `const net = require('node:net')
globalThis.leftBehind = 'yes'
globalThis[Symbol.for('gw.left')] = 1
process.leftBehind = 'yes'
console.log = () => {}
process.env.LEFT = 'yes'
require('./counter.cjs')()
process.on('exit', (code) => process.stdout.write('exit ' + code + '\\n'))
process.on('warning', () => {})
setInterval(() => (globalThis.ticked = true), 1).unref()
const port = Number(process.env.PORT)
new (require('node:worker_threads').Worker)('require("node:net").connect(' + port + ', "127.0.0.1"); setInterval(() => {}, 1000)', {eval: true}).unref()
const own = net.createServer((accepted) => {
  accepted.unref()
  own.unref()
  socket.unref()
  process.exitCode = 3
  process.stdout.write('left\\n')
})
const socket = net.connect(port, '127.0.0.1')
own.listen(0, '127.0.0.1', () => socket.write(String(own.address().port)))
`,
)

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
    const exits = script('exits.cjs', "process.on('exit', (code) => process.stdout.write('exit ' + code + '\\n'))\nsetTimeout(() => process.exit(4), 1)\n")
    expect(await run(exits)).toEqual({code: 4, stdout: 'exit 4\n', stderr: ''})
    expect((await run(LOOKER)).code).toBe(0)
  })

  it("writes each run's console.log through that run's process.stdout", async () => {
    const patcher = script('patcher.cjs', "const write = process.stdout.write.bind(process.stdout)\nprocess.stdout.write = (chunk, ...rest) => write('seen: ' + chunk, ...rest)\nconsole.log('one')\n")
    expect((await run(LOOKER)).code).toBe(0)
    expect(await run(patcher)).toEqual({code: 0, stdout: 'seen: one\n', stderr: ''})
  })

  it('compiles from source a bundle whose code cache V8 refuses, saying nothing of it: bin/run.js then writes none over the build\'s', async () => {
    const refused = script(
      'refused.cjs',
      `const {Script} = require('node:vm')
const compiled = new Script('6 * 7', {filename: ${JSON.stringify(join(dir, 'refused-bundle.cjs'))}, cachedData: Buffer.from('no cache of V8\\'s')})
console.log(compiled.cachedDataRejected === true, compiled.runInThisContext())
`,
    )
    expect(await run(refused)).toEqual({code: 0, stdout: 'false 42\n', stderr: ''})
  })

  it("runs none of a thread's handlers a run left, as its exit would not: not even its 'exit'", async () => {
    const ender = script('ender.cjs', "new (require('node:worker_threads').Worker)('setInterval(() => {}, 1000)', {eval: true}).on('exit', () => { throw new Error('after the end') }).unref()\n")
    expect(await run(ender)).toEqual({code: 0, stdout: '', stderr: ''})
    expect((await run(LOOKER)).code).toBe(0)
  })

  it.each([
    ['an uncaught exception', "throw new Error('boom')"],
    ['an unhandled rejection', "Promise.reject(new Error('boom'))"],
  ])('ends with exit 1 and the error on stderr, as node does, for %s', async (_, text) => {
    const result = await run(script('throws.cjs', text))
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Error: boom')
    expect((await run(LOOKER)).code).toBe(0)
  })
})
