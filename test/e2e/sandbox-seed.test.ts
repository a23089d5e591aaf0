import {spawn} from 'node:child_process'
import {closeSync, mkdtempSync, openSync, readFileSync, writeFileSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {countingProxy} from '../counting-proxy.js'
import {apiRequestsSince, armTrap, baseEnv, CARDS, GW, ref, requestLogCursor, runProgram, type Sandbox, sharedSandbox} from './helpers.js'
import {DEV_FULL} from '../only-on.js'

let sandbox: Sandbox
sharedSandbox((started) => {
  sandbox = started
})

const dir = mkdtempSync(join(tmpdir(), 'gw-e2e-seed-'))

function fixtures(steps: unknown[], name = `${ref('fixtures')}.json`): string {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify({_comment: 'made by sandbox-seed.test.ts', steps}, null, 2))
  return file
}

/** One step of every kind, each later one naming fields of earlier ones. */
function everyKind(tag: string, hookAddress: string): {name: string; create: string; fields: Record<string, unknown>}[] {
  return [
    {name: 'visa', create: 'card', fields: {card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', alias: `${tag}-visa`}},
    {name: 'gold', create: 'plan', fields: {name: 'Gold', amount: 2500, reference: `${tag}-gold`, description: 'Gold membership'}},
    {name: 'jane', create: 'customer', fields: {first_name: 'Jane', last_name: 'Citizen', reference: `${tag}-jane`, email: 'jane@example.com', card: {card_number: CARDS.mastercard, expiry_date: '12/2030', cvv: '123'}}},
    {name: 'order', create: 'purchase', fields: {card_token: '{{visa.token}}', amount: 1000, reference: `${tag}-order`, _why: 'charged to the stored card'}},
    {name: 'bounced', create: 'purchase', fields: {card_holder: 'Jane Citizen', card_number: CARDS.declined, card_expiry: '12/2030', cvv: '123', amount: 1000, reference: `${tag}-bounced`}},
    {name: 'partial', create: 'refund', fields: {transaction_id: '{{order.id}}', amount: 400, reference: 'refund-of-{{order.reference}}'}},
    {name: 'membership', create: 'subscription', fields: {customer: '{{jane.id}}', plan: '{{gold.reference}}', frequency: 'Monthly', start_date: '2030-01-01', reference: `${tag}-membership`}},
    {name: 'hook', create: 'webhook', fields: {address: hookAddress, events: ['charge:successful', 'charge:failed']}},
  ]
}

type Line = {step: number; name: string; status: string; record: Record<string, unknown> | null; differences?: {field: string; file: unknown; gateway: unknown}[]; error?: {kind: string; exit_code: number; message: string}}

describe('gw sandbox seed', () => {
  it('creates a record of every kind, each step using fields of earlier ones; a second run creates nothing', async () => {
    const tag = ref('seed')
    const file = fixtures(everyKind(tag, `http://127.0.0.1:9/${tag}`))
    const first = await sandbox.gw(['sandbox', 'seed', file])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr).toBe('8 steps: 7 created, 1 declined.\n')
    const lines = first.records as Line[]
    expect(lines.map(({step, name, status}) => [step, name, status])).toStrictEqual([
      [1, 'visa', 'created'],
      [2, 'gold', 'created'],
      [3, 'jane', 'created'],
      [4, 'order', 'created'],
      [5, 'bounced', 'declined'],
      [6, 'partial', 'created'],
      [7, 'membership', 'created'],
      [8, 'hook', 'created'],
    ])
    for (const line of lines) expect(Object.keys(line)).toStrictEqual(['step', 'name', 'status', 'record'])
    const [visa, gold, jane, order, bounced, partial, membership, hook] = lines.map((line) => line.record!)
    expect(visa).toMatchObject({alias: `${tag}-visa`, card_number: '424242XXXXXX4242'})
    expect(order).toMatchObject({card_token: visa!.token, amount: 1000, successful: true, reference: `${tag}-order`})
    expect(bounced).toMatchObject({successful: false, message: 'Declined', card_number: '455701XXXXXX8902'})
    expect(partial).toMatchObject({amount: -400, reference: `refund-of-${tag}-order`, successful: true})
    expect(membership).toMatchObject({customer: jane!.id, plan: gold!.id, frequency: 'Monthly', is_active: true})
    expect(hook).toMatchObject({address: `http://127.0.0.1:9/${tag}`, mode: 'Test', events: ['charge:successful', 'charge:failed']})
    expect(first.stdout).not.toContain(CARDS.visa)
    expect(first.stdout).not.toContain('"cvv"')

    // Nothing that writes may reach the gateway now: each POST or PUT would meet a 503.
    const armed = await armTrap(sandbox, ['POST', 'PUT'])
    const second = await sandbox.gw(['sandbox', 'seed', file])
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).toBe('8 steps: 8 present.\n')
    expect((second.records as Line[]).map(({status}) => status)).toStrictEqual(Array(8).fill('present'))
    expect((second.records as Line[]).map((line) => line.record!.id ?? line.record!.token)).toStrictEqual(lines.map((line) => line.record!.id ?? line.record!.token))
    expect(await armed()).toBe(2)
    const hooks = await sandbox.gw(['webhook', 'list', '--json'])
    expect(hooks.records.filter((record) => (record as {address: string}).address === `http://127.0.0.1:9/${tag}`)).toHaveLength(1)
  })

  it('refuses a step that names an unknown field before anything is sent (exit 2, naming the step and field)', async () => {
    const tag = ref('unknown')
    const steps = everyKind(tag, `http://127.0.0.1:9/${tag}`)
    steps[3] = {name: 'order', create: 'purchase', fields: {card_token: '{{visa.tokn}}', amount: 1000, reference: `${tag}-order`}}
    steps[5] = {name: 'partial', create: 'refund', fields: {transaction_id: '{{order.id}}', amout: 400, reference: `${tag}-refund`}}
    const armed = await armTrap(sandbox, ['GET', 'POST', 'PUT', 'DELETE'])
    const refused = await sandbox.gw(['sandbox', 'seed', fixtures(steps)])
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain('has 3 problems; nothing was sent:\n')
    expect(refused.stderr).toContain('  step 4 "order" (purchase): fields.card_token: {{visa.tokn}} names the field tokn, which a card has not; it has token, card_holder, card_number, ')
    expect(refused.stderr).toContain('  step 6 "partial" (refund): fields.amount is required\n')
    expect(refused.stderr).toContain('  step 6 "partial" (refund): fields.amout is not a field of a refund; it takes transaction_id, amount, reference, metadata\n')
    expect(await armed()).toBe(4)
  })

  it('dates purchases, refunds and customers in the past with a step\'s at: lists and gw report see them on that day; a second run finds them present', async () => {
    const tag = ref('dated')
    const steps = [
      {name: 'visa', create: 'card', fields: {card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', alias: `${tag}-visa`}},
      {name: 'first', create: 'purchase', at: '2024-03-12', fields: {card_token: '{{visa.token}}', amount: 4200, reference: `${tag}-1`}},
      {name: 'again', create: 'purchase', at: '2024-03-12T15:05:00+00:00', fields: {card_token: '{{visa.token}}', amount: 4200, reference: `${tag}-2`}},
      {name: 'back', create: 'refund', at: '2024-03-13', fields: {transaction_id: '{{again.id}}', amount: 4200, reference: `${tag}-2-R1`}},
      {name: 'jane', create: 'customer', at: '2024-02-01', fields: {first_name: 'Jane', last_name: 'Citizen', reference: `${tag}-jane`, email: 'jane@example.com', card: {card_number: CARDS.mastercard, expiry_date: '12/2030', cvv: '123'}}},
    ]
    const file = fixtures(steps)
    const first = await sandbox.gw(['sandbox', 'seed', file])
    expect(first.code, first.stderr).toBe(0)
    const lines = first.records as Line[]
    expect(lines.map((line) => line.status)).toEqual(['created', 'created', 'created', 'created', 'created'])
    expect(String(lines[1]!.record!.transaction_date).slice(0, 10)).toBe('2024-03-12')
    expect(Date.parse(String(lines[2]!.record!.transaction_date))).toBe(Date.parse('2024-03-12T15:05:00+00:00'))
    expect(String(lines[3]!.record!.transaction_date).slice(0, 10)).toBe('2024-03-13')
    expect(String(lines[4]!.record!.created_at).slice(0, 10)).toBe('2024-02-01')
    const onTheDay = await sandbox.gw(['purchase', 'list', '--from', '2024-03-12', '--to', '2024-03-12', '--json'])
    expect(onTheDay.code, onTheDay.stderr).toBe(0)
    expect((onTheDay.records as {reference: string}[]).map((record) => record.reference)).toEqual([`${tag}-2`, `${tag}-1`])
    const report = await sandbox.gw(['report', '--from', '2024-03-12', '--to', '2024-03-13', '--json'])
    expect(report.records).toMatchObject([
      {day: '2024-03-12', purchases_approved: 2, purchases_approved_amount: 8400},
      {day: '2024-03-13', refunds: 1, refunds_amount: 4200},
    ])
    const again = await sandbox.gw(['sandbox', 'seed', file])
    expect(again.code, again.stderr).toBe(0)
    expect((again.records as Line[]).map((line) => line.status)).toEqual(['present', 'present', 'present', 'present', 'present'])
  })

  it('refuses an at in the future, one that is not a date, and one on a record that carries no date, before anything is sent (exit 2, naming the step and field)', async () => {
    const tag = ref('undated')
    const steps = [
      {name: 'visa', create: 'card', at: '2024-01-01', fields: {card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', alias: `${tag}-visa`}},
      {name: 'later', create: 'purchase', at: '2999-01-01', fields: {card_token: '{{visa.token}}', amount: 1000, reference: `${tag}-1`}},
      {name: 'when', create: 'purchase', at: 'last Tuesday', fields: {card_token: '{{visa.token}}', amount: 1000, reference: `${tag}-2`}},
      {name: 'feb', create: 'purchase', at: '2024-02-30', fields: {card_token: '{{visa.token}}', amount: 1000, reference: `${tag}-3`}},
    ]
    const armed = await armTrap(sandbox, ['GET', 'POST', 'PUT', 'DELETE'])
    const refused = await sandbox.gw(['sandbox', 'seed', fixtures(steps)])
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain('has 4 problems; nothing was sent:\n')
    expect(refused.stderr).toContain('  step 1 "visa" (card): at dates the record a step makes, and a card carries no date: give at to a purchase, refund, customer, subscription, payment_plan, direct_debit step\n')
    const {today} = ((await sandbox.control('GET', '/_sandbox/clock')) as {response: {today: string}}).response
    expect(refused.stderr).toContain(`  step 2 "later" (purchase): at 2999-01-01 is in the future: the gateway's today is ${today}, and a record can be dated today or before\n`)
    expect(refused.stderr).toContain('  step 3 "when" (purchase): at "last Tuesday" must be a date (2026-11-17) or a date-time with its offset (2026-11-17T10:31:00+11:00)\n')
    expect(refused.stderr).toContain('  step 4 "feb" (purchase): at "2024-02-30" must be a date')
    expect(await armed()).toBe(4)
  })

  // The gateway dates a refund no earlier than its purchase: such a refund was made, then refused its date (exit 7).
  it('refuses a refund dated before its purchase before anything is sent (exit 2, naming the step, the field and the fix)', async () => {
    const tag = ref('before')
    const order = {name: 'order', create: 'purchase', at: '2024-03-12', fields: {card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', amount: 1000, reference: `${tag}-order`}}
    const back = {name: 'back', create: 'refund', at: '2024-03-10', fields: {transaction_id: '{{order.id}}', amount: 500, reference: `${tag}-back`}}
    const cursor = await requestLogCursor(sandbox)
    const refused = await sandbox.gw(['sandbox', 'seed', fixtures([order, back])])
    expect(refused.code, refused.stderr).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain(
      'has a problem; nothing was sent:\n  step 2 "back" (refund): at 2024-03-10 is before its purchase, step 1 "order" (purchase), dated 2024-03-12: a refund is made on or after the purchase it refunds; date it 2024-03-12 or later\n',
    )
    // A purchase without at is dated when the run makes it: after any at.
    const undated = await sandbox.gw(['sandbox', 'seed', fixtures([{...order, at: undefined}, back])])
    expect(undated.code, undated.stderr).toBe(2)
    expect(undated.stderr).toContain('  step 2 "back" (refund): at 2024-03-10 is before its purchase is made: step 1 "order" (purchase) has no at, so the gateway dates it when the run makes it, today; give step 1 an at on or before 2024-03-10, or leave at out of this step\n')
    // The gateway logs each request before gw reads its answer: none reached it, not even a look-up.
    expect(await apiRequestsSince(sandbox, cursor)).toEqual([])
    const fixed = await sandbox.gw(['sandbox', 'seed', fixtures([order, {...back, at: '2024-03-12'}])])
    expect(fixed.code, fixed.stderr).toBe(0)
    expect((fixed.records as Line[]).map(({status}) => status)).toStrictEqual(['created', 'created'])
  })

  it("refuses what the gateway's clock and records would refuse, having only looked, before anything is sent: a subscription starting before its today, a refund dated before a purchase it holds", async () => {
    const tag = ref('clock')
    const made = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', `${tag}-order`, '--card-holder', 'Jane Citizen', '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])
    expect(made.code, made.stderr).toBe(0)
    const {today} = ((await sandbox.control('GET', '/_sandbox/clock')) as {response: {today: string}}).response
    const steps = [
      {name: 'gold', create: 'plan', fields: {name: 'Gold', amount: 2500, reference: `${tag}-gold`, description: 'Gold'}},
      {name: 'jane', create: 'customer', fields: {first_name: 'Jane', last_name: 'Citizen', reference: `${tag}-jane`, email: 'jane@example.com', card: {card_number: CARDS.mastercard, expiry_date: '12/2030', cvv: '123'}}},
      {name: 'membership', create: 'subscription', fields: {customer: '{{jane.id}}', plan: '{{gold.id}}', frequency: 'Monthly', start_date: '2024-01-01', reference: `${tag}-membership`}},
      {name: 'back', create: 'refund', at: '2024-03-10', fields: {transaction_id: `${tag}-order`, amount: 500, reference: `${tag}-back`}},
    ]
    const cursor = await requestLogCursor(sandbox)
    const refused = await sandbox.gw(['sandbox', 'seed', fixtures(steps)])
    expect(refused.code, refused.stderr).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain(
      `has 2 problems on this gateway; nothing was sent:\n  step 3 "membership" (subscription): fields.start_date 2024-01-01 is before the gateway's today (${today}): a subscription starts then or later; give a start_date of ${today} or later, or date the step with at\n  step 4 "back" (refund): at 2024-03-10 is before its purchase ${tag}-order was made (`,
    )
    expect(refused.stderr).toMatch(/was made \((\S+)\): a refund is made on or after the purchase it refunds; date it \1 or later\n/)
    expect((await apiRequestsSince(sandbox, cursor)).map(({method}) => method)).toStrictEqual(['GET', 'GET', 'GET'])
    // Once there, a subscription is not made again, and its start is the gateway's to compare.
    const started = [...steps.slice(0, 2), {...steps[2]!, fields: {...steps[2]!.fields, start_date: today}}]
    expect((await sandbox.gw(['sandbox', 'seed', fixtures(started)])).code).toBe(0)
  })

  it('is refused against a live profile, and --check sends nothing', async () => {
    const file = fixtures(everyKind(ref('live'), 'http://127.0.0.1:9/live'))
    const armed = await armTrap(sandbox, ['GET', 'POST', 'PUT', 'DELETE'])
    const live = await sandbox.gw(['sandbox', 'seed', file], {env: {GW_ENVIRONMENT: 'live'}})
    expect(live.code).toBe(2)
    expect(live.stdout).toBe('')
    expect(live.stderr).toContain('Error: gw sandbox seed creates records on a sandbox only, and the profile in force is live: nothing was sent\n')
    const checked = await sandbox.gw(['sandbox', 'seed', file, '--check'])
    expect(checked.code).toBe(0)
    expect(checked.stderr).toBe(`${file}: 8 steps, every one well-formed; nothing was sent.\n`)
    expect(await armed()).toBe(4)
  })

  it("seeds docs/local-gateway.md's example as shown, twice", async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'local-gateway.md'), 'utf8')
    const example = /## Testing your integration against the local gateway[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(example, "the README's fixtures example").toBeDefined()
    const file = join(dir, 'readme-fixtures.json')
    writeFileSync(file, example!)
    const first = await sandbox.gw(['sandbox', 'seed', file])
    expect(first.code, first.stderr).toBe(0)
    expect((first.records as Line[]).map(({status}) => status)).toStrictEqual(Array(7).fill('created'))
    const second = await sandbox.gw(['sandbox', 'seed', file])
    expect((second.records as Line[]).map(({status}) => status)).toStrictEqual(Array(7).fill('present'))
  })

  it('starts no new step once its reader has gone, exiting 141; the step in flight finishes', async ({onTestFinished}) => {
    const tag = ref('head')
    const plans = Array.from({length: 4}, (_, index) => ({name: `p${index}`, create: 'plan', fields: {name: 'Gold', amount: 2500, reference: `${tag}-${index}`, description: 'Gold'}}))
    const file = fixtures(plans)
    // Step 2's plan reaches the gateway only once the reader has gone: the reader's going is an
    // event gw hears while that step is in flight, however slowly each side is scheduled.
    let readerGone: () => void = () => {}
    const gone = new Promise<void>((resolve) => (readerGone = resolve))
    const proxy = await countingProxy(sandbox.url, {hold: ({method, reference}) => (method === 'POST' && reference === `${tag}-1` ? gone : undefined)})
    onTestFinished(() => proxy.close())
    const child = spawn(process.execPath, [GW, 'sandbox', 'seed', file], {env: baseEnv(sandbox.env({GW_BASE_URL: proxy.url})), stdio: ['ignore', 'pipe', 'pipe']})
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    const firstLine = new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())))
    child.stdout.once('close', readerGone)
    expect(JSON.parse(await firstLine)).toMatchObject({step: 1, name: 'p0', status: 'created'})
    child.stdout.destroy()
    expect(await exited).toBe(141)
    // No summary: it would count the steps that ran as if they were the file's.
    expect(stderr).toBe("Error: stdout's reader went away: no more steps were started (2 of 4 ran)\nHint: Run the same command again: the steps that ran are found present and not sent again, and the rest are made.\n")
    expect((await sandbox.gw(['plan', 'get', `${tag}-1`])).code).toBe(0)
    for (const unmade of [`${tag}-2`, `${tag}-3`]) {
      expect(proxy.posts(unmade)).toBe(0)
      expect((await sandbox.gw(['plan', 'get', unmade])).code).toBe(5)
    }
  })

  it.skipIf(DEV_FULL.skip)(`> /dev/full: exit 1 after the first step, saying how many ran; nothing more is made${DEV_FULL.note}`, async () => {
    const tag = ref('full')
    const plans = Array.from({length: 3}, (_, index) => ({name: `p${index}`, create: 'plan', fields: {name: 'Gold', amount: 2500, reference: `${tag}-${index}`, description: 'Gold'}}))
    const run = await runProgram('bash', ['-c', `"${process.execPath}" "${GW}" sandbox seed "${fixtures(plans)}" > /dev/full`], {env: sandbox.env()})
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^Error: stdout could not be written \(ENOSPC\): no more steps were started \(1 of 3 ran\)\n/)
    expect((await sandbox.gw(['plan', 'get', `${tag}-0`])).code).toBe(0)
    expect((await sandbox.gw(['plan', 'get', `${tag}-1`])).code).toBe(5)
  })

  it('stops at a step the gateway refuses, reporting it failed with its exit code', async () => {
    const tag = ref('refused')
    const file = fixtures([
      {name: 'order', create: 'purchase', fields: {card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', amount: 1000, reference: `${tag}-order`}},
      {name: 'too-much', create: 'refund', fields: {transaction_id: '{{order.id}}', amount: 5000, reference: `${tag}-refund`}},
      {name: 'gold', create: 'plan', fields: {name: 'Gold', amount: 2500, reference: `${tag}-gold`, description: 'never made'}},
    ])
    const run = await sandbox.gw(['sandbox', 'seed', file])
    expect(run.code).toBe(7)
    const lines = run.records as Line[]
    expect(lines.map(({name, status}) => [name, status])).toStrictEqual([
      ['order', 'created'],
      ['too-much', 'failed'],
    ])
    expect(lines[1]).toStrictEqual({step: 2, name: 'too-much', status: 'failed', record: null, error: {kind: 'rejected', exit_code: 7, message: expect.stringContaining('Amount exceeds the refundable balance of 1000')}})
    expect(run.stderr).toMatch(/^Error: step 2 "too-much" \(refund\): .*Amount exceeds the refundable balance of 1000/m)
    const plan = await sandbox.gw(['plan', 'get', `${tag}-gold`])
    expect(plan.code).toBe(5)
  })

  // A record that exists with other values is not the step's: differs, exit 7, naming the fields.
  it('reports a record found under its key with other values as differs (exit 7, naming the fields), and stops there', async () => {
    const tag = ref('differs')
    const first = await sandbox.gw(['sandbox', 'seed', fixtures(everyKind(tag, `http://127.0.0.1:9/${tag}`))])
    expect(first.code, first.stderr).toBe(0)

    const plan = everyKind(tag, `http://127.0.0.1:9/${tag}`)
    plan[1] = {name: 'gold', create: 'plan', fields: {name: 'Gold', amount: 3000, reference: `${tag}-gold`, description: 'Gold for less'}}
    const armed = await armTrap(sandbox, ['POST', 'PUT', 'DELETE'])
    const run = await sandbox.gw(['sandbox', 'seed', fixtures(plan)])
    expect(run.code).toBe(7)
    const lines = run.records as Line[]
    expect(lines.map(({name, status}) => [name, status])).toStrictEqual([
      ['visa', 'present'],
      ['gold', 'differs'],
    ])
    expect(lines[1]).toMatchObject({
      step: 2,
      status: 'differs',
      record: {reference: `${tag}-gold`, amount: 2500},
      differences: [
        {field: 'description', file: 'Gold for less', gateway: 'Gold membership'},
        {field: 'amount', file: 3000, gateway: 2500},
      ],
      error: {kind: 'rejected', exit_code: 7},
    })
    expect(run.stderr).toContain(
      `Error: step 2 "gold" (plan): the plan ${tag}-gold exists with other values: description: the file has "Gold for less", the gateway "Gold membership"; amount: the file has 3000, the gateway 2500. Nothing was sent\n`,
    )
    expect(await armed()).toBe(3)
  })

  it('a purchase, a card, a subscription and a web hook found with other values differ too', async () => {
    const tag = ref('differs')
    const steps = everyKind(tag, `http://127.0.0.1:9/${tag}`)
    expect((await sandbox.gw(['sandbox', 'seed', fixtures(steps)])).code).toBe(0)
    const changed = (index: number, fields: Record<string, unknown>) => {
      const copy = structuredClone(steps)
      copy[index] = {...copy[index]!, fields: {...copy[index]!.fields, ...fields}}
      return copy
    }
    const cases: [number, Record<string, unknown>, string, string][] = [
      [0, {card_holder: 'J Citizen', card_expiry: '11/30'}, 'visa', `card_holder: the file has "J Citizen", the gateway "Jane Citizen"; card_expiry: the file has "11/30", the gateway "2030-12-31"`],
      [3, {amount: 1200}, 'order', 'amount: sent 1200, found 1000'],
      [6, {frequency: 'weekly', plan: `${tag}-gold`}, 'membership', 'frequency: the file has "weekly", the gateway "Monthly"'],
      [7, {events: '*'}, 'hook', 'events: the file has "*", the gateway charge:successful,charge:failed'],
    ]
    for (const [index, fields, name, said] of cases) {
      const run = await sandbox.gw(['sandbox', 'seed', fixtures(changed(index, fields))])
      expect(run.code, run.stderr).toBe(7)
      const line = (run.records as Line[]).at(-1)!
      expect([line.name, line.status]).toStrictEqual([name, 'differs'])
      expect(run.stderr).toContain(said)
    }
    // The same values written another way (an expiry as MM/YY, a frequency in another case, a plan by id) are the same.
    const same = changed(0, {card_expiry: '12/30'})
    same[6] = {...same[6]!, fields: {...same[6]!.fields, frequency: 'MONTHLY'}}
    const again = await sandbox.gw(['sandbox', 'seed', fixtures(same)])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toBe('8 steps: 8 present.\n')
  })

  // A 100 MB description is refused by the length rule before anything is sent, and never held whole.
  it('refuses a 100 MB field by the length rule, naming the step and field, in bounded memory', async () => {
    const file = join(dir, `${ref('big')}.json`)
    const fd = openSync(file, 'w')
    writeSync(fd, JSON.stringify({steps: [{name: 'gold', create: 'plan', fields: {name: 'Gold', amount: 2500, reference: ref('big'), description: 'Gold'}}, {name: 'big', create: 'plan', fields: {name: 'Big', amount: 2500, reference: ref('big')}}]}).replace(/}}]}$/, ', "description": "'))
    const mib = 'x'.repeat(1024 * 1024)
    for (let i = 0; i < 100; i++) writeSync(fd, mib)
    writeSync(fd, '"}}]}')
    closeSync(fd)
    const armed = await armTrap(sandbox, ['GET', 'POST', 'PUT', 'DELETE'])
    // A heap far smaller than the file: read whole, it would not fit (the run ended in an abort).
    const run = await sandbox.gw(['sandbox', 'seed', file], {env: {NODE_OPTIONS: '--max-old-space-size=32'}, timeoutMs: 60_000})
    expect(run.code, run.stderr).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(`has a problem; nothing was sent:\n  step 2 "big" (plan): fields.description is ${100 * 1024 * 1024} characters long; the gateway takes at most 255\n`)
    expect(await armed()).toBe(4)
  })

  it('takes an expiry as MM/YY in a card and a customer, sent as MM/YYYY', async () => {
    const tag = ref('expiry')
    const file = fixtures([
      {name: 'visa', create: 'card', fields: {card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/30', cvv: '123', alias: `${tag}-visa`}},
      {name: 'jane', create: 'customer', fields: {first_name: 'Jane', last_name: 'Citizen', reference: `${tag}-jane`, email: 'jane@example.com', card: {card_number: CARDS.mastercard, expiry_date: '3/31', cvv: '123'}}},
    ])
    const run = await sandbox.gw(['sandbox', 'seed', file])
    expect(run.code, run.stderr).toBe(0)
    const [visa, jane] = (run.records as Line[]).map((line) => line.record!)
    expect(visa).toMatchObject({card_expiry: '2030-12-31'})
    expect((await sandbox.gw(['card', 'get', String(jane!.card_token), '--json'])).json).toMatchObject({card_expiry: '2031-03-31'})
    expect((await sandbox.gw(['sandbox', 'seed', file])).stderr).toBe('2 steps: 2 present.\n')
  })
})
