import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {spawnGw} from './batch-helpers.js'
import {cardArgs, describeInBothDialects, isolatedHome, ref, type Sandbox, sharedSandbox, startSandbox} from './helpers.js'
import {envelope, type MisbehavingGateway, misbehavingGateway} from '../misbehaving-gateway.js'

// A local gateway tells gw about itself (GET /_sandbox/clock), proving with the key in its runtime
// file that it is one gw started: its today, so named days are its days, and its
// processing window, so a fault test ends in seconds. Any other gateway keeps the machine's
// days and the live gateway's minute.

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']

let sandbox: Sandbox
let gatewayToday: string

sharedSandbox(async (started) => {
  sandbox = started
  const advanced = await sandbox.gw(['sandbox', 'clock', 'advance', '--days', '3', '--json'])
  expect(advanced.code, advanced.stderr).toBe(0)
  gatewayToday = (advanced.json as {today: string}).today
})

const purchaseArgs = (reference: string, currency = 'AUD') => ['purchase', 'create', '--amount', '1000', '--currency', currency, '--reference', reference, ...cardArgs()]

/** A report's row as gw report --json prints it: one purchase of 10.00 approved on `day`, nothing else. */
const onePurchaseRow = (day: string, currency: string) => ({
  day, currency, purchases_approved: 1, purchases_approved_amount: 1000, purchases_uncaptured: 0, purchases_uncaptured_amount: 0, purchases_voided: 0, purchases_declined: 0,
  refunds: 0, refunds_amount: 0, refunds_voided: 0, plan_payments: 0, plan_payments_amount: 0, direct_debits: 0, direct_debits_amount: 0, net: 1000,
})

describeInBothDialects("named days are the local gateway's days, after gw sandbox clock advance", () => {
  it('--on today finds a purchase made now (dated on the gateway\'s day, 3 days after this machine\'s); yesterday does not; its weekday does', async () => {
    const reference = ref('today')
    const made = await sandbox.gw([...purchaseArgs(reference), '--json'])
    expect(made.code, made.stderr).toBe(0)
    const dated = (made.json as {transaction_date: string}).transaction_date
    expect(dated.slice(0, 10)).toBe(gatewayToday)
    // This test's purchase among the listed: the file's other tests make theirs on the same gateway.
    const references = async (args: string[]) => {
      const listed = await sandbox.gw(['purchase', 'list', ...args, '--all', '--json'])
      expect(listed.code, listed.stderr).toBe(0)
      return (listed.records as {reference: string}[]).map((record) => record.reference).filter((listedReference) => listedReference === reference)
    }
    expect(await references(['--on', 'today'])).toEqual([reference])
    expect(await references(['--from', 'today'])).toEqual([reference])
    expect(await references(['--on', 'yesterday'])).toEqual([])
    const weekday = WEEKDAYS[new Date(`${gatewayToday}T12:00:00`).getDay()]!
    expect(await references(['--on', weekday])).toEqual([reference])
  })

  it("gw report's today and gw purchase settlement's are the gateway's", async () => {
    // Swiss francs: no other test of this file makes a purchase in them, so the report's row is this one's alone.
    const reference = ref('report')
    const made = await sandbox.gw([...purchaseArgs(reference, 'CHF'), '--json'])
    expect(made.code, made.stderr).toBe(0)
    const report = await sandbox.gw(['report', '--json'])
    expect(report.code, report.stderr).toBe(0)
    expect((report.records as {currency: string}[]).filter((row) => row.currency === 'CHF')).toEqual([onePurchaseRow(gatewayToday, 'CHF')])
    const settling = await sandbox.gw(['purchase', 'settlement', '--json'])
    expect(settling.code, settling.stderr).toBe(0)
    const settled = (settling.records as {reference: string; id: string; currency: string; captured_amount: number}[]).filter((record) => record.currency === 'CHF')
    expect(settled.map(({reference, id, captured_amount}) => ({reference, id, captured_amount}))).toEqual([{reference, id: (made.json as {id: string}).id, captured_amount: 1000}])
  })
})

describeInBothDialects("gw sandbox seed dates records on the local gateway's days", () => {
  it("a step at the gateway's yesterday (after this machine's today) is made, dated then, and found by --on yesterday; one at its today by --on today; its tomorrow is refused, nothing sent", async () => {
    const dayAfter = (day: string, days: number) => new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
    const yesterday = dayAfter(gatewayToday, -1)
    const tomorrow = dayAfter(gatewayToday, 1)
    // The clock moved on 3 days: judged by this machine's today, yesterday would be in the future.
    expect(yesterday > new Date().toLocaleDateString('sv')).toBe(true)
    const folder = mkdtempSync(join(tmpdir(), 'gw-e2e-seed-at-'))
    const tag = ref('seed-at')
    const step = (name: string, at: string) => ({name, create: 'purchase', at, fields: {card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123', amount: 1000, reference: `${tag}-${name}`}})
    const seeded = join(folder, 'dated.json')
    writeFileSync(seeded, JSON.stringify({steps: [step('before', yesterday), step('now', gatewayToday)]}))
    const result = await sandbox.gw(['sandbox', 'seed', seeded])
    expect(result.code, result.stderr).toBe(0)
    expect((result.records as {name: string; status: string}[]).map(({name, status}) => [name, status])).toEqual([['before', 'created'], ['now', 'created']])
    for (const [name, day] of [['before', yesterday], ['now', gatewayToday]]) {
      const made = await sandbox.gw(['purchase', 'get', `${tag}-${name}`, '--json'])
      expect(made.code, made.stderr).toBe(0)
      expect((made.json as {transaction_date: string}).transaction_date.slice(0, 10)).toBe(day)
    }
    const seededOn = async (day: string) => {
      const listed = await sandbox.gw(['purchase', 'list', '--on', day, '--all', '--json'])
      expect(listed.code, listed.stderr).toBe(0)
      return (listed.records as {reference: string}[]).map((record) => record.reference).filter((reference) => reference.startsWith(tag))
    }
    expect(await seededOn('yesterday')).toEqual([`${tag}-before`])
    expect(await seededOn('today')).toEqual([`${tag}-now`])
    // Run again: both are there, dated so, and nothing is made.
    const again = await sandbox.gw(['sandbox', 'seed', seeded])
    expect(again.code, again.stderr).toBe(0)
    expect((again.records as {status: string}[]).map(({status}) => status)).toEqual(['present', 'present'])
    const refused = join(folder, 'tomorrow.json')
    writeFileSync(refused, JSON.stringify({steps: [step('later', tomorrow)]}))
    const future = await sandbox.gw(['sandbox', 'seed', refused])
    expect(future.code).toBe(2)
    expect(future.stdout).toBe('')
    expect(future.stderr).toBe(`Error: ${refused} has a problem; nothing was sent:\n  step 1 "later" (purchase): at ${tomorrow} is in the future: the gateway's today is ${gatewayToday}, and a record can be dated today or before\nHint: See gw sandbox seed --help for the flags and examples.\n`)
    expect((await sandbox.gw(['purchase', 'get', `${tag}-later`])).code).toBe(5)
  })
})

describeInBothDialects("named days are read in the local gateway's time zone, not this machine's", () => {
  // A local gateway started under UTC-12, gw under UTC+14 (26 hours apart: the two days differ at
  // any hour, so this fails whenever gw reads the gateway's day in its own zone) and under UTC.
  it.each(['Etc/GMT-14', 'UTC'])('gw under TZ=%s: --on today lists a purchase just made, gw report counts it on the gateway\'s day, settlement finds it', async (zone) => {
    const behind = await startSandbox([], {...isolatedHome(), TZ: 'Etc/GMT+12'})
    try {
      const reference = ref('zone')
      const made = await behind.gw([...purchaseArgs(reference), '--json'], {env: {TZ: zone}})
      expect(made.code, made.stderr).toBe(0)
      const {transaction_date: dated} = made.json as {transaction_date: string}
      expect(dated).toMatch(/-12:00$/)
      const listed = await behind.gw(['purchase', 'list', '--on', 'today', '--json'], {env: {TZ: zone}})
      expect(listed.code, listed.stderr).toBe(0)
      expect((listed.records as {reference: string}[]).map((record) => record.reference)).toEqual([reference])
      const report = await behind.gw(['report', '--json'], {env: {TZ: zone}})
      expect(report.code, report.stderr).toBe(0)
      expect(report.records).toEqual([onePurchaseRow(dated.slice(0, 10), 'AUD')])
      const settling = await behind.gw(['purchase', 'settlement', '--on', 'today', '--json'], {env: {TZ: zone}})
      expect(settling.code, settling.stderr).toBe(0)
      expect((settling.records as {reference: string}[]).map((record) => record.reference)).toEqual([reference])
      // What it says for gw to read its days so.
      const clock = await behind.gw(['sandbox', 'clock', '--json'], {env: {TZ: zone}})
      expect(clock.code, clock.stderr).toBe(0)
      expect(clock.json).toEqual({today: dated.slice(0, 10), time_zone: 'Etc/GMT+12', now: expect.stringMatching(/-12:00$/), processing_window_ms: 2000})
    } finally {
      await behind.stop()
    }
  })
})

describeInBothDialects("the processing window is the local gateway's", () => {
  it('a 503 to a purchase on a local gateway started with its default window: exit 8 in seconds, not a minute, after one question to the gateway', async () => {
    const own = await startSandbox()
    try {
      const fault = await own.gw(['sandbox', 'fault', 'add', '--method', 'POST', '--path', '/v1.0/purchases', '--action', 'status', '--status', '503'])
      expect(fault.code, fault.stderr).toBe(0)
      const reference = ref('w503')
      const result = await own.gw([...purchaseArgs(reference), '--verbose'])
      expect(result.code, result.stderr).toBe(8)
      // What is left of the window (2 s) at the first look-up depends on the machine's load.
      expect(result.stderr).toMatch(new RegExp(`The gateway has no purchase with reference ${reference} yet, and may still be processing it: looking again for up to [1-2] s\\.\\n`))
      expect(result.stderr).toContain(`, and the gateway has no purchase with reference ${reference}, even 2 s after it was sent (the most it takes to process one).`)
      expect(result.stderr.match(/> GET http:\/\/127\.0\.0\.1:\d+\/_sandbox\/clock\?challenge=[\w-]+\n/g)).toHaveLength(1)
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
