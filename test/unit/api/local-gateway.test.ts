import {mkdtempSync, readFileSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {GatewayClient} from '../../../src/api/client.js'
import {PROCESSING_WINDOW_MS} from '../../../src/money/window.js'
import {startSandbox, type RunningSandbox} from '../../../src/sandbox/server/server.js'
import {afterThisTest} from '../../after-each-test.js'
import {envelope, forward, type MisbehavingGateway, misbehavingGateway, type Received} from '../../misbehaving-gateway.js'

// design.md §5: the window is the gateway's. A local gateway gw started says its own, and proves it
// is that gateway with the key in its runtime file; every other gateway keeps the live gateway's minute.

let gateway: MisbehavingGateway | undefined
afterEach(async () => {
  await gateway?.close()
  gateway = undefined
})

/** A local gateway as gw sandbox start runs one, with its runtime file, and the control token in it that its proofs are keyed with. */
async function localGateway(processingWindowMs?: number): Promise<{sandbox: RunningSandbox; key: string; runtimeFile: string}> {
  const runtimeFile = join(mkdtempSync(join(tmpdir(), 'gw-local-gateway-')), 'sandbox.json')
  const sandbox = await startSandbox({port: 0, host: '127.0.0.1', mode: 'sandbox', merchants: [], runtimeFile, processingWindowMs})
  afterThisTest(() => sandbox.close())
  const {controlToken: proofKey} = JSON.parse(readFileSync(runtimeFile, 'utf8')) as {controlToken: string}
  return {sandbox, key: proofKey, runtimeFile}
}

function clientAt(baseUrl: string, keys: readonly string[], read: string[] = []) {
  return new GatewayClient({
    baseUrl,
    username: 'TEST',
    token: 'TEST',
    userAgent: 'test',
    localGatewayKeys: async () => (read.push(baseUrl), keys),
  })
}

const clockAsks = (received: Received[]) => received.filter((request) => request.path.startsWith('/_sandbox/clock'))

describe("the processing window is the gateway's: a local gateway gw started says its own, proven", () => {
  it('a local gateway that proves it holds a key from a runtime file gw reads: its window, and its today', async () => {
    const {sandbox, key, runtimeFile} = await localGateway()
    expect(statSync(runtimeFile).mode & 0o777).toBe(0o600)
    const client = clientAt(sandbox.url, ['another key', key])
    expect(await client.processingWindow()).toBe(2000)
    const now = new Date()
    const today = await client.gatewayNow()
    expect(today.toDateString()).toBe(now.toDateString())
  })

  it('says the window it was started with, and as long again as the longest a fault holds a request', async () => {
    const {sandbox, key} = await localGateway(0)
    expect(await clientAt(sandbox.url, [key]).processingWindow()).toBe(0)
    await fetch(`${sandbox.url}/_sandbox/faults`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({method: 'POST', path: '/v1.0/purchases', action: 'delay', delayMs: 4000})})
    expect(await clientAt(sandbox.url, [key]).processingWindow()).toBe(4000)
  })

  it("the same gateway without a key gw holds (another user's, a stale runtime file) keeps the live gateway's minute", async () => {
    const {sandbox} = await localGateway()
    expect(await clientAt(sandbox.url, ['a key of another run']).processingWindow()).toBe(PROCESSING_WINDOW_MS)
    expect(await clientAt(sandbox.url, []).processingWindow()).toBe(PROCESSING_WINDOW_MS)
  })

  it('a proxy in front of a local gateway gw started passes its proof on: the window holds', async () => {
    const {sandbox, key} = await localGateway()
    gateway = await misbehavingGateway(async (request) => forward(sandbox.url, request))
    expect(await clientAt(gateway.url, [key]).processingWindow()).toBe(2000)
    expect(clockAsks(gateway.received)).toHaveLength(1)
  })

  it('a server that says a short window without the proof, or with a proof it made for another challenge (replayed), keeps the minute', async () => {
    const {sandbox, key} = await localGateway()
    const recorded = (await (await fetch(`${sandbox.url}/_sandbox/clock?challenge=recorded`)).json()) as {response: Record<string, unknown>}
    for (const said of [{today: '2026-11-27', processing_window_ms: 0}, {today: '2026-11-27', processing_window_ms: 0, proof: 'forged'}, recorded.response]) {
      gateway = await misbehavingGateway(() => ({body: envelope(said)}))
      expect(await clientAt(gateway.url, [key]).processingWindow(), JSON.stringify(said)).toBe(PROCESSING_WINDOW_MS)
      expect(clockAsks(gateway.received)).toHaveLength(1)
      await gateway.close()
    }
  })

  it('a gateway that is not on this machine is never asked: its keys are not even read, and the minute stands', async () => {
    const read: string[] = []
    const client = clientAt('https://gateway.example.invalid', ['any key'], read)
    expect(await client.processingWindow()).toBe(PROCESSING_WINDOW_MS)
    expect((await client.gatewayNow()).toDateString()).toBe(new Date().toDateString())
    expect(read).toEqual([])
  })

  it('a gateway that cannot answer the question now (down, or no local gateway): the minute, asked once', async () => {
    gateway = await misbehavingGateway(() => ({status: 404, body: envelope(null, {successful: false, errors: ['Not Found']})}))
    const client = clientAt(gateway.url, ['a key'])
    expect(await client.processingWindow()).toBe(PROCESSING_WINDOW_MS)
    expect(await client.processingWindow()).toBe(PROCESSING_WINDOW_MS)
    expect(clockAsks(gateway.received)).toHaveLength(1)
  })

  it('a client told a window keeps it, whatever the gateway says', async () => {
    const {sandbox, key} = await localGateway()
    const client = new GatewayClient({baseUrl: sandbox.url, username: 'TEST', token: 'TEST', userAgent: 'test', processingWindowMs: 7000, localGatewayKeys: async () => [key]})
    expect(await client.processingWindow()).toBe(7000)
  })
})

describe("named days are the gateway's days", () => {
  it("after the local gateway's clock moved on, now is on its today, at this machine's time of day", async () => {
    const {sandbox, key} = await localGateway()
    const moved = (await (await fetch(`${sandbox.url}/_sandbox/clock/advance`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({days: 3})})).json()) as {response: {today: string}}
    const now = await clientAt(sandbox.url, [key]).gatewayNow()
    const local = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
    expect(local).toBe(moved.response.today)
    expect(Math.abs(now.getHours() * 60 + now.getMinutes() - (new Date().getHours() * 60 + new Date().getMinutes()))).toBeLessThanOrEqual(1)
    // Unproven, the same gateway's today is not believed.
    expect((await clientAt(sandbox.url, ['not its key']).gatewayNow()).toDateString()).toBe(new Date().toDateString())
  })
})
