import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {spawnGw} from './batch-helpers.js'
import {cardArgs, ref, type Sandbox, startSandbox} from './helpers.js'
import {envelope, type MisbehavingGateway, misbehavingGateway} from '../misbehaving-gateway.js'

// A local gateway tells gw about itself (GET /_sandbox/clock), proving with the key in its runtime
// file that it is one gw started: its today, so named days are its days (#60.6), and its
// processing window, so a fault test ends in seconds (#62.6). Any other gateway keeps the machine's
// days and the live gateway's minute.

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']

let sandbox: Sandbox
let gatewayToday: string

beforeAll(async () => {
  sandbox = await startSandbox()
  const advanced = await sandbox.gw(['sandbox', 'clock', 'advance', '--days', '3', '--json'])
  expect(advanced.code, advanced.stderr).toBe(0)
  gatewayToday = (advanced.json as {today: string}).today
})
afterAll(async () => {
  await sandbox?.stop()
})

const purchaseArgs = (reference: string) => ['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs()]

describe("named days are the local gateway's days, after gw sandbox clock advance", () => {
  it('--on today finds a purchase made now (dated on the gateway\'s day, 3 days after this machine\'s); yesterday does not; its weekday does', async () => {
    const reference = ref('today')
    const made = await sandbox.gw([...purchaseArgs(reference), '--json'])
    expect(made.code, made.stderr).toBe(0)
    const dated = (made.json as {transaction_date: string}).transaction_date
    expect(dated.slice(0, 10)).toBe(gatewayToday)
    const references = async (args: string[]) => {
      const listed = await sandbox.gw(['purchase', 'list', ...args, '--all', '--json'])
      expect(listed.code, listed.stderr).toBe(0)
      return (listed.records as {reference: string}[]).map((record) => record.reference)
    }
    expect(await references(['--on', 'today'])).toContain(reference)
    expect(await references(['--from', 'today'])).toContain(reference)
    expect(await references(['--on', 'yesterday'])).not.toContain(reference)
    const weekday = WEEKDAYS[new Date(`${gatewayToday}T12:00:00`).getDay()]!
    expect(await references(['--on', weekday])).toContain(reference)
  })

  it("gw report's today and gw purchase settlement's are the gateway's", async () => {
    const reference = ref('report')
    expect((await sandbox.gw(purchaseArgs(reference))).code).toBe(0)
    const report = await sandbox.gw(['report', '--json'])
    expect(report.code, report.stderr).toBe(0)
    expect((report.records as {day: string; purchases_approved: number}[]).map((row) => row.day)).toContain(gatewayToday)
    const settling = await sandbox.gw(['purchase', 'settlement', '--json'])
    expect(settling.code, settling.stderr).toBe(0)
    expect((settling.records as {reference: string}[]).map((record) => record.reference)).toContain(reference)
  })
})

describe("the processing window is the local gateway's", () => {
  it('a 503 to a purchase on a local gateway started with its default window: exit 8 in seconds, not a minute, after one question to the gateway', async () => {
    const own = await startSandbox()
    try {
      const fault = await own.gw(['sandbox', 'fault', 'add', '--method', 'POST', '--path', '/v1.0/purchases', '--action', 'status', '--status', '503'])
      expect(fault.code, fault.stderr).toBe(0)
      const reference = ref('w503')
      const started = performance.now()
      const result = await own.gw([...purchaseArgs(reference), '--verbose'])
      const seconds = (performance.now() - started) / 1000
      expect(result.code, result.stderr).toBe(8)
      expect(result.stderr).toContain(`The gateway has no purchase with reference ${reference} yet, and may still be processing it: looking again for up to 2 s.\n`)
      expect(result.stderr).toContain(`, and the gateway has no purchase with reference ${reference}, even 2 s after it was sent (the most it takes to process one).`)
      expect(result.stderr.match(/> GET http:\/\/127\.0\.0\.1:\d+\/_sandbox\/clock\?challenge=[\w-]+\n/g)).toHaveLength(1)
      // Bounded, not timed: the live gateway's window would keep it over a minute.
      expect(seconds).toBeLessThan(45)
    } finally {
      await own.stop()
    }
  })

  it("a server on this machine that is not gw's local gateway keeps the minute, whatever window it says (a forged proof, or one replayed)", async () => {
    const recorded = ((await sandbox.control('GET', '/_sandbox/clock?challenge=recorded')) as {response: Record<string, unknown>}).response
    expect(recorded).toMatchObject({today: gatewayToday, processing_window_ms: 2000})
    for (const said of [{...recorded, processing_window_ms: 0, proof: 'forged'}, recorded]) {
      let fake: MisbehavingGateway | undefined
      try {
        fake = await misbehavingGateway((request) => {
          if (request.method === 'POST') return {status: 503, body: envelope(null, {successful: false, errors: ['Service Unavailable']})}
          if (request.path.startsWith('/_sandbox/clock')) return {body: envelope(said)}
          return {status: 404, body: envelope(null, {successful: false, errors: ['Purchase not found']})}
        })
        // gw holds the key of a local gateway it started (this home's): it asks, and the answer does not prove it.
        const reference = ref('fake')
        const run = spawnGw(sandbox, purchaseArgs(reference), {GW_BASE_URL: fake.url})
        const announced = await new Promise<string>((resolve) => {
          let stderr = ''
          run.child.stderr!.on('data', (chunk: Buffer) => {
            stderr += chunk.toString()
            if (/looking again for up to \d+ s\./.test(stderr)) resolve(stderr)
          })
        })
        run.child.kill('SIGKILL')
        await run.done
        expect(announced).toContain(`The gateway has no purchase with reference ${reference} yet, and may still be processing it: looking again for up to 60 s.`)
        expect(fake.received.filter((request) => request.path.startsWith('/_sandbox/clock?challenge='))).toHaveLength(1)
      } finally {
        await fake?.close()
      }
    }
  })
})
