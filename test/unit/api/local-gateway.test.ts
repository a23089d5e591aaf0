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
    const {now: today} = await client.gatewayTime()
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
    expect((await client.gatewayTime()).now.toDateString()).toBe(new Date().toDateString())
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
    const {now} = await clientAt(sandbox.url, [key]).gatewayTime()
    const local = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
    expect(local).toBe(moved.response.today)
    expect(Math.abs(now.getHours() * 60 + now.getMinutes() - (new Date().getHours() * 60 + new Date().getMinutes()))).toBeLessThanOrEqual(1)
    // Unproven, the same gateway's today is not believed.
    expect((await clientAt(sandbox.url, ['not its key']).gatewayTime()).now.toDateString()).toBe(new Date().toDateString())
  })
})

describe("named days are read in the gateway's time zone", () => {
  /** A local gateway in another time zone, as one started under another TZ answers: its proof, keyed, of all it says. */
  async function gatewayIn(said: (challenge: string) => Record<string, unknown>, key = 'its key', sign = said) {
    const {keyedProof} = await import('../../../src/lib/keyed-proof.js')
    const {clockProofText} = await import('../../../src/api/schemas/sandbox-control.js')
    return misbehavingGateway((request) => {
      const challenge = new URL(request.path, 'http://gateway').searchParams.get('challenge') ?? ''
      return {body: envelope({...said(challenge), proof: keyedProof(key, clockProofText(challenge, sign(challenge) as never))})}
    })
  }
  const twelveBehind = (now = new Date()) => {
    // Its clocks: UTC's less 12 hours.
    const there = new Date(now.getTime() - 12 * 3_600_000).toISOString()
    return {today: there.slice(0, 10), now: `${there.slice(0, 19)}-12:00`, time_zone: 'Etc/GMT+12', processing_window_ms: 2000}
  }

  it('its time zone, proven: now is its now, and its days start at its midnight (a purchase made a moment ago is in --on today)', async () => {
    gateway = await gatewayIn(() => twelveBehind())
    const {now, calendar} = await clientAt(gateway.url, ['its key']).gatewayTime()
    expect(Math.abs(now.getTime() - Date.now())).toBeLessThan(60_000)
    expect(calendar.offsetMinutes(now.getTime())).toBe(-720)
    const {parseWindow, withinWindow} = await import('../../../src/lists/window.js')
    const today = parseWindow({on: 'today'}, now, calendar)
    expect(today.from!.toISOString()).toBe(`${twelveBehind().today}T12:00:00.000Z`)
    expect(withinWindow(today, twelveBehind().now)).toBe(true)
  })

  it('a time zone this Node does not know: the offset of its now', async () => {
    gateway = await gatewayIn(() => ({...twelveBehind(), time_zone: 'Mars/Olympus_Mons'}))
    expect((await clientAt(gateway.url, ['its key']).gatewayTime()).calendar.offsetMinutes(Date.now())).toBe(-720)
  })

  it('a time zone or now the proof does not cover (left out, or changed on the way) is not believed: this machine\'s calendar and day', async () => {
    const {MACHINE_CALENDAR} = await import('../../../src/lib/calendar.js')
    for (const [said, signed] of [
      [() => twelveBehind(), () => ({...twelveBehind(), time_zone: 'Australia/Sydney'})],
      [() => twelveBehind(), () => {
        const {today, processing_window_ms} = twelveBehind()
        return {today, processing_window_ms}
      }],
    ] as const) {
      gateway = await gatewayIn(said, 'its key', signed)
      const time = await clientAt(gateway.url, ['its key']).gatewayTime()
      expect(time.calendar).toBe(MACHINE_CALENDAR)
      expect(time.now.toDateString()).toBe(new Date().toDateString())
      await gateway.close()
      gateway = undefined
    }
  })

  it("one that says neither its now nor its time zone, however signed, is not believed: this machine's calendar and day", async () => {
    const {MACHINE_CALENDAR} = await import('../../../src/lib/calendar.js')
    gateway = await gatewayIn(() => ({today: '2030-01-02', processing_window_ms: 2000}))
    const time = await clientAt(gateway.url, ['its key']).gatewayTime()
    expect(time.calendar).toBe(MACHINE_CALENDAR)
    expect(time.now.toDateString()).toBe(new Date().toDateString())
  })
})
