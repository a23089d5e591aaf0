import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {type Platform, platformOf} from '../../../src/lib/platform.js'
import type {RuntimeInfo} from '../../../src/sandbox/server/runtime-file.js'
import {stopSandbox} from '../../../src/sandbox/server/stopping.js'
import {aRuntimeInfo} from './fixtures.js'

// gw sandbox stop on each system, the system handed to it: the
// gateway is asked on its control API first, everywhere; a pid is signalled only once shown to be
// the gateway; on Windows, which has no SIGTERM, one that does not answer is ended at once.

const PID = 4242
const TOKEN = 't'.repeat(43)

/** A system whose process PID runs until `ends()`, with these facts; process.kill is watched, never sent. */
function system(os: NodeJS.Platform, facts: {started: string; command: string} | undefined) {
  let running = true
  const kill = vi.spyOn(process, 'kill').mockImplementation((pid, signal) => {
    if (pid !== PID) throw new Error(`signalled ${pid}`)
    // A gateway closes on SIGTERM, and anything ends on SIGKILL; 0 asks whether it runs.
    if (signal === 'SIGTERM' || signal === 'SIGKILL') running = false
    return true
  })
  const base = platformOf(os)
  const platform: Platform = {...base, whoseProcess: () => (running ? 'mine' : 'none'), isRunning: () => running, processFacts: () => (running ? facts : undefined)}
  return {platform, sent: () => kill.mock.calls.filter(([, signal]) => signal !== 0).map(([, signal]) => signal), ends: () => (running = false)}
}

const gateway = (port: number, extra: Partial<RuntimeInfo> = {}): RuntimeInfo => aRuntimeInfo({pid: PID, port, controlToken: TOKEN, ...extra})

let server: Server | undefined
afterEach(async () => {
  vi.restoreAllMocks()
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  server = undefined
})

/** A gateway's control API that takes `token`: its stop answers with PID, then `onStop` runs. */
async function controls(onStop: () => void): Promise<{port: number; asked: string[]}> {
  const asked: string[] = []
  server = createServer((req, res) => {
    asked.push(`${req.method} ${req.url} ${req.headers.authorization}`)
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end('{}')
    res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({successful: true, response: {pid: PID, stopping: true}}))
    onStop()
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return {port: (server!.address() as AddressInfo).port, asked}
}

/** A port nothing listens on: a gateway that does not answer. */
async function silentPort(): Promise<number> {
  const closed = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => closed.once('listening', resolve))
  const {port} = closed.address() as AddressInfo
  await new Promise((resolve) => closed.close(resolve))
  return port
}

describe('stopSandbox', () => {
  it.each(['linux', 'darwin', 'win32'] as const)('on %s asks the gateway on its control API, with its token, and sends no signal', async (os) => {
    const {platform, sent, ends} = system(os, {started: 's', command: 'gw sandbox start'})
    const {port, asked} = await controls(ends)
    expect(await stopSandbox(gateway(port, {controlToken: TOKEN}), platform)).toEqual({result: 'stopped', how: 'asked'})
    expect(asked).toEqual([`POST /_sandbox/stop Bearer ${TOKEN}`])
    expect(sent()).toEqual([])
  })

  it('forces a gateway that answered but never closed, once its grace is over', async () => {
    const {platform, sent} = system('linux', {started: 's', command: 'gw sandbox start'})
    const {port} = await controls(() => {})
    expect(await stopSandbox(gateway(port, {controlToken: TOKEN}), platform, {graceMs: 100})).toEqual({result: 'stopped', how: 'killed'})
    expect(sent()).toEqual(['SIGKILL'])
  })

  it('signals one that does not answer (a hung one) with SIGTERM on Linux and macOS, once its pid is shown to be it', async () => {
    for (const os of ['linux', 'darwin'] as const) {
      const {platform, sent} = system(os, {started: 's', command: 'node /gw/bin/run.js sandbox start --detached-child'})
      expect(await stopSandbox(gateway(await silentPort()), platform), os).toEqual({result: 'stopped', how: 'signalled'})
      expect(sent(), os).toEqual(['SIGTERM'])
      vi.restoreAllMocks()
    }
  })

  it('on Windows ends one that does not answer at once: there is no SIGTERM to send, process.kill is TerminateProcess', async () => {
    const {platform, sent} = system('win32', {started: '2026-11-30T10:00:00Z', command: 'node.exe C:\\gw\\bin\\run.js sandbox start'})
    expect(await stopSandbox(gateway(await silentPort()), platform)).toEqual({result: 'stopped', how: 'killed'})
    expect(sent()).toEqual(['SIGKILL'])
  })

  it.each(['linux', 'darwin', 'win32'] as const)('on %s never signals a pid that another program has now: its start differs, or its command line is not a gateway', async (os) => {
    const port = await silentPort()
    const reused = system(os, {started: 'later', command: 'sleep 1000'})
    expect(await stopSandbox(gateway(port, {controlToken: TOKEN, process: {started: 'earlier', command: 'gw sandbox start'}}), reused.platform)).toEqual({result: 'stale', now: 'sleep 1000'})
    expect(await stopSandbox(gateway(port), reused.platform)).toEqual({result: 'stale', now: 'sleep 1000'})
    expect(reused.sent()).toEqual([])
  })

  it('leaves alone a pid it cannot tell, and one of another user', async () => {
    const port = await silentPort()
    const unknown = system('linux', undefined)
    expect(await stopSandbox(gateway(port), unknown.platform)).toEqual({result: 'unknown'})
    expect(unknown.sent()).toEqual([])
    vi.restoreAllMocks()
    const theirs = system('linux', {started: 's', command: 'gw sandbox start'})
    expect(await stopSandbox(gateway(port), {...theirs.platform, whoseProcess: () => 'theirs'})).toEqual({result: 'theirs'})
    expect(theirs.sent()).toEqual([])
  })

  it('a token the port refuses is not that gateway: the pid is judged as any other', async () => {
    const {platform, sent} = system('linux', {started: 'later', command: 'sleep 1000'})
    const {port, asked} = await controls(() => {})
    expect(await stopSandbox(gateway(port, {controlToken: 'another-token'}), platform)).toEqual({result: 'stale', now: 'sleep 1000'})
    // Asked to stop, then which process it is: refused both times, it is not that gateway.
    expect(asked).toEqual(['POST /_sandbox/stop Bearer another-token', 'GET /_sandbox/process Bearer another-token'])
    expect(sent()).toEqual([])
  })
})
