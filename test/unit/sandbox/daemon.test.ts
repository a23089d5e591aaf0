import {mkdtempSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {expectThrow} from '../../expect-error.js'
import {MERCHANTS_VARIABLE, differencesFrom, merchantsFromEnvironment, merchantsVariable} from '../../../src/sandbox/server/daemon.js'
import {knownSandboxes} from '../../../src/sandbox/server/gateway-process.js'
import {readRuntime, sandboxFiles, writeRuntimeFile} from '../../../src/sandbox/server/runtime-file.js'
import {hostPlatform} from '../../../src/lib/platform.js'
import {aRuntimeInfo} from './fixtures.js'

describe('merchant credentials of a detached sandbox', () => {
  it('travel in the environment and are removed from it once read', () => {
    const merchants = [{username: 'ACME', token: 's3cret'}]
    const env: NodeJS.ProcessEnv = {...merchantsVariable(merchants)}
    expect(merchantsFromEnvironment(env)).toEqual(merchants)
    expect(env[MERCHANTS_VARIABLE]).toBeUndefined()
    expect(merchantsFromEnvironment(env)).toEqual([])
  })

  it('refuse a variable that is not a list of pairs', () => {
    expectThrow(
      () => merchantsFromEnvironment({[MERCHANTS_VARIABLE]: '[{"username":"A"}]'}),
      Error,
      `${MERCHANTS_VARIABLE} must be a JSON list of {username, token}`,
    )
  })
})

describe('a start that asks for another gateway than the one running', () => {
  const running = aRuntimeInfo({pid: 1, requestLog: '/data/gw/sandbox-requests.ndjson'})

  it("takes a --state that names the running one's state file through a symlink as the same file", () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-state-'))
    const state = join(dir, 'state.json')
    writeFileSync(state, '{}')
    symlinkSync(state, join(dir, 'link.json'))
    const withState = {...running, stateFile: state}
    expect(differencesFrom(withState, {stateFile: join(dir, 'link.json')})).toEqual([])
    expect(differencesFrom(withState, {stateFile: join(dir, 'other.json')})).toEqual([`--state ${join(dir, 'other.json')} (it has ${state})`])
    expect(differencesFrom(running, {stateFile: state})).toEqual([`--state ${state} (it has none)`])
  })

  it('names a request log asked off or on that the running one has not', () => {
    expect(differencesFrom(running, {requestLog: false})).toEqual(['--no-request-log (it keeps one in /data/gw/sandbox-requests.ndjson)'])
    expect(differencesFrom({...running, requestLog: null}, {requestLog: true})).toEqual(['--request-log (it keeps none)'])
    expect(differencesFrom(running, {requestLog: true})).toEqual([])
  })

  it('names a rate limit or latency asked that the running one has not', () => {
    const busy = {...running, rateLimit: 100, latencyMs: 150}
    expect(differencesFrom(busy, {rateLimit: 100, latencyMs: 150})).toEqual([])
    expect(differencesFrom(busy, {rateLimit: 50, latencyMs: 0})).toEqual(['--rate-limit 50 (it has 100)', '--latency 0 (it has 150)'])
    expect(differencesFrom({...running, rateLimit: null, latencyMs: 0}, {rateLimit: 100, latencyMs: 150})).toEqual(['--rate-limit 100 (it has none)', '--latency 150 (it has none)'])
    expect(differencesFrom(running, {rateLimit: 100, latencyMs: 0})).toEqual(['--rate-limit 100 (it has none)'])
  })

  it('names a web hook order asked that the running one has not', () => {
    expect(differencesFrom(running, {webHookOrder: 'oldest'})).toEqual([])
    expect(differencesFrom(running, {webHookOrder: 'newest'})).toEqual(['--web-hook-order newest (it has oldest)'])
    expect(differencesFrom({...running, webHookOrder: 'newest'}, {webHookOrder: 'oldest'})).toEqual(['--web-hook-order oldest (it has newest)'])
  })

  it('names names and web pages let in that the running one does not let in, in any order', () => {
    const open = {...running, allowedHosts: ['sandbox', '.corp.example'], allowedOrigins: ['http://localhost:3000']}
    expect(differencesFrom(open, {allowedHosts: ['.corp.example', 'sandbox'], allowedOrigins: ['http://localhost:3000']})).toEqual([])
    expect(differencesFrom(running, {allowedHosts: ['sandbox'], allowedOrigins: ['http://localhost:3000']})).toEqual(['--allow-host sandbox (it has none)', '--allow-origin http://localhost:3000 (it has none)'])
    expect(differencesFrom(open, {allowedHosts: ['sandbox']})).toEqual(['--allow-host sandbox (it has sandbox .corp.example)'])
  })
})

// Local gateways side by side (gw sandbox start --name), each with files of its own, found again by name.
describe('the files of local gateways by name', () => {
  it('the default one keeps the names it always had; another has its own', () => {
    expect(sandboxFiles('/data/gw')).toEqual({runtime: '/data/gw/sandbox.json', log: '/data/gw/sandbox.log', requestLog: '/data/gw/sandbox-requests.ndjson'})
    expect(sandboxFiles('/data/gw', 'rehearsal')).toEqual({runtime: '/data/gw/sandbox-rehearsal.json', log: '/data/gw/sandbox-rehearsal.log', requestLog: '/data/gw/sandbox-rehearsal-requests.ndjson'})
  })

  it('lists those with a runtime file, running or left behind, the default first, and nothing else in the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-sandboxes-'))
    const info = (pid: number, port: number) => aRuntimeInfo({pid, port})
    const own = hostPlatform().processFacts(process.pid)
    writeRuntimeFile(sandboxFiles(dir, 'zeta').runtime, {...info(process.pid, 3), process: own})
    writeRuntimeFile(sandboxFiles(dir).runtime, {...info(process.pid, 1), process: own})
    writeRuntimeFile(sandboxFiles(dir, 'alpha').runtime, info(2 ** 22 + 1, 2))
    for (const other of ['sandbox-requests.ndjson', 'sandbox.log', 'sandbox-..json', 'sandbox-alpha.json.1234.tmp']) writeFileSync(join(dir, other), '')
    expect((await knownSandboxes(dir, hostPlatform())).map(({name, status}) => [name, status.state])).toEqual([
      ['local', 'running'],
      ['alpha', 'stale'],
      ['zeta', 'running'],
    ])
    expect(await knownSandboxes(join(dir, 'none'), hostPlatform())).toEqual([])
  })
})

// `--name Shop` and `--name shop` are one gateway, on every system: its files are named in lower case.
describe('the names of local gateways, one whatever their case', () => {
  it('name their files in lower case, the default one under any case too', () => {
    expect(sandboxFiles('/data/gw', 'Shop')).toEqual(sandboxFiles('/data/gw', 'shop'))
    expect(sandboxFiles('/data/gw', 'Shop').runtime).toBe('/data/gw/sandbox-shop.json')
    expect(sandboxFiles('/data/gw', 'LOCAL')).toEqual(sandboxFiles('/data/gw'))
  })

  it('list a gateway by the name it was started with, from its file in lower case alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-names-'))
    const running = aRuntimeInfo({port: 4, process: hostPlatform().processFacts(process.pid)})
    writeRuntimeFile(join(dir, 'sandbox-Shop.json'), running)
    writeRuntimeFile(join(dir, 'sandbox-shop.json'), {...running, name: 'Shop'})
    expect((await knownSandboxes(dir, hostPlatform())).map(({name, runtime}) => [name, runtime])).toEqual([['Shop', join(dir, 'sandbox-shop.json')]])
  })
})

// A runtime file holds every field a gateway writes in it: one without them is no gateway's.
describe('a runtime file', () => {
  it('is read with every field a gateway writes', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-runtime-')), 'sandbox.json')
    writeRuntimeFile(file, aRuntimeInfo())
    expect(readRuntime(file)).toEqual({info: aRuntimeInfo()})
  })

  it.each(['dialect', 'processingWindowMs', 'rateLimit', 'latencyMs', 'webHookOrder', 'webhooks', 'merchants', 'requestLog', 'controlToken', 'pid', 'url'] as const)('without %s is none (no gateway wrote it)', (field) => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-runtime-')), 'sandbox.json')
    const {[field]: _left, ...rest} = aRuntimeInfo()
    writeFileSync(file, JSON.stringify(rest), {mode: 0o600})
    expect(readRuntime(file)).toEqual({missing: true})
  })

  it('with a web hook order no gateway lists in is none', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-runtime-')), 'sandbox.json')
    writeFileSync(file, JSON.stringify({...aRuntimeInfo(), webHookOrder: 'random'}), {mode: 0o600})
    expect(readRuntime(file)).toEqual({missing: true})
  })
})
