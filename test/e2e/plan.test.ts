import {beforeAll, describe, expect, it} from 'vitest'
import {ref, type Sandbox, sharedSandbox} from './helpers.js'
import {createPlan, type PlanRecord} from './recurring-helpers.js'

let sandbox: Sandbox
// LISTER keeps a plan list of its own, so counts do not depend on the other tests.
sharedSandbox((started) => void (sandbox = started), ['--merchant', 'ACME:s3cret', '--merchant', 'LISTER:pw'])

const asAcme = {env: {GW_USERNAME: 'ACME', GW_TOKEN: 's3cret'}}
const asLister = {env: {GW_USERNAME: 'LISTER', GW_TOKEN: 'pw'}}

describe('gw plan create', () => {
  it('creates a plan: HTTP 201 and the record', async () => {
    const reference = ref('plan')
    const result = await sandbox.gw(['plan', 'create', '--name', 'Gold monthly', '--amount', '2500', '--reference', reference, '--description', 'Gold membership', '--json', '--verbose'])
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/< 201 POST http:\/\/[^ ]+\/v1\.0\/plans /)
    expect(result.json).toMatchObject({name: 'Gold monthly', amount: 2500, reference, description: 'Gold membership'})
    expect((result.json as PlanRecord).id).toMatch(/^071-PL-[A-Z0-9]{8}$/)
  })

  it('prints the plan as one JSON line when stdout is not a terminal, without --json too', async () => {
    const reference = ref('plan')
    const result = await sandbox.gw(['plan', 'create', '--name', 'Silver', '--amount', '1250', '--reference', reference, '--description', 'Silver tier'])
    expect(result.code).toBe(0)
    expect(result.stdout.trimEnd()).not.toContain('\n')
    expect(result.json).toMatchObject({name: 'Silver', amount: 1250, reference, description: 'Silver tier'})
  })

  it('exits 7 for a reference already taken', async () => {
    const plan = await createPlan(sandbox)
    const result = await sandbox.gw(['plan', 'create', '--name', 'Again', '--amount', '100', '--reference', plan.reference, '--description', 'Same reference'])
    expect(result.code).toBe(7)
    expect(result.stderr).toContain("Error: Reference has already been taken (HTTP 400")
  })

  it.each([
    ['description', ['--name', 'No description', '--description', ''], '--description must not be blank'],
    ['name', ['--name', ' ', '--description', 'No name'], '--name must not be blank'],
    ['reference', ['--name', 'No reference', '--description', 'x', '--reference', ''], '--reference must not be blank'],
  ])('refuses a blank %s before sending anything (exit 2), as the gateway would refuse it', async (_, args, message) => {
    const reference = args.includes('--reference') ? [] : ['--reference', ref('plan')]
    const result = await sandbox.gw(['plan', 'create', '--amount', '100', ...reference, ...args, '--json'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`Error: ${message}`)
    expect(result.stderr).toContain('"kind":"usage"')
  })

  it('refuses a bad amount before sending anything (exit 2)', async () => {
    const result = await sandbox.gw(['plan', 'create', '--name', 'x', '--amount', '10.50', '--reference', ref('plan'), '--description', 'x'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: --amount must be a positive whole number')
  })
})

describe('gw plan get', () => {
  it('finds a plan by id and by reference, and exits 5 for an unknown one', async () => {
    const plan = await createPlan(sandbox)
    expect((await sandbox.gw(['plan', 'get', plan.id, '--json'])).json).toMatchObject({id: plan.id, reference: plan.reference, amount: plan.amount})
    expect((await sandbox.gw(['plan', 'get', plan.reference, '--json'])).json).toMatchObject({id: plan.id})
    const missing = await sandbox.gw(['plan', 'get', '071-PL-ZZZZZZZZ'])
    expect(missing.code).toBe(5)
    expect(missing.stderr).toContain('Error: No plan has the id or reference 071-PL-ZZZZZZZZ: Record not found (HTTP 404')
    expect(missing.stderr).toContain('Hint: gw plan list finds plans, newest first.')
  })
})

describe('gw plan update', () => {
  it('changes name and description and answers with currency and subscription_count', async () => {
    const plan = await createPlan(sandbox)
    const result = await sandbox.gw(['plan', 'update', plan.id, '--name', 'Platinum', '--description', 'Now platinum', '--json'])
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({id: plan.id, name: 'Platinum', description: 'Now platinum', amount: plan.amount, reference: plan.reference, currency: 'AUD', subscription_count: 0})
  })

  it('refuses a blank name before sending it to be refused with a 501 (exit 2), and the plan stays as it was', async () => {
    const plan = await createPlan(sandbox, {name: 'Unchanged'})
    const result = await sandbox.gw(['plan', 'update', plan.id, '--name', '', '--description', 'would change'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: --name must not be blank')
    expect((await sandbox.gw(['plan', 'get', plan.id, '--json'])).json).toMatchObject({name: 'Unchanged', description: 'Unchanged plan'})
  })

  it('exits 2 when nothing would change, and 5 for an unknown plan', async () => {
    const nothing = await sandbox.gw(['plan', 'update', '071-PL-ZZZZZZZZ'])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('At least one of the following must be provided: --description, --name')
    const missing = await sandbox.gw(['plan', 'update', '071-PL-ZZZZZZZZ', '--name', 'x'])
    expect(missing.code).toBe(5)
    expect(missing.stderr).toContain('Error: No plan has the id or reference 071-PL-ZZZZZZZZ: Record not found (HTTP 404')
  })
})

describe('gw plan list', () => {
  const references: string[] = []
  beforeAll(async () => {
    for (let i = 0; i < 11; i++) references.push((await createPlan(sandbox, {reference: `list-${String(i).padStart(2, '0')}-${ref('p')}`, name: `Plan ${i}`}, asLister)).reference)
  })

  it('lists every plan with --all, oldest first when asked, one JSON line a plan, in one request for 11', async () => {
    const result = await sandbox.gw(['plan', 'list', '--all', '--oldest-first', '--json', '--verbose'], asLister)
    expect(result.code).toBe(0)
    const plans = result.records as PlanRecord[]
    expect(plans.map((plan) => plan.reference)).toEqual(references)
    expect(result.stderr.match(/< 200 GET [^ ]+\/v1\.0\/plans\.json\?offset=0&limit=50/g)).toHaveLength(1)
  })

  it('shows the newest first by default, and --limit caps the total', async () => {
    const all = await sandbox.gw(['plan', 'list', '--json'], asLister)
    expect(all.code).toBe(0)
    expect((all.records as PlanRecord[]).map((plan) => plan.reference)).toEqual([...references].reverse())
    const three = await sandbox.gw(['plan', 'list', '--limit', '3', '--json'], asLister)
    expect((three.records as PlanRecord[]).map((plan) => plan.reference)).toEqual(references.slice(-3).reverse())
    const one = await sandbox.gw(['plan', 'list', '--reference', references[4]!, '--json'], asLister)
    expect((one.records as PlanRecord[]).map((plan) => plan.reference)).toEqual([references[4]])
  })

  it('prints one JSON line a plan to a pipe without --json too, --fields picking and ordering the fields', async () => {
    const result = await sandbox.gw(['plan', 'list', '--all', '--oldest-first'], asLister)
    expect(result.code).toBe(0)
    expect((result.records as PlanRecord[]).map((plan) => plan.reference)).toEqual(references)
    const picked = await sandbox.gw(['plan', 'list', '--all', '--oldest-first', '--fields', 'reference,amount'], asLister)
    expect(picked.stdout.split('\n')[0]).toBe(`{"reference":"${references[0]}","amount":1000}`)
  })

  it('refuses --all with --limit, a --limit of 0, and the --page it no longer has (exit 2)', async () => {
    const both = await sandbox.gw(['plan', 'list', '--all', '--limit', '2'], asLister)
    expect(both.code).toBe(2)
    expect(both.stderr).toBe('Error: --all cannot also be provided when using --limit\nHint: See gw plan list --help for the flags and examples.\n')
    const zero = await sandbox.gw(['plan', 'list', '--limit', '0'], asLister)
    expect(zero.code).toBe(2)
    expect(zero.stderr).toBe('Error: --limit: Expected an integer greater than or equal to 1 but received: 0\nHint: See gw plan list --help for the flags and examples.\n')
    expect((await sandbox.gw(['plan', 'list', '--page', '2'], asLister)).code).toBe(2)
  })
})

describe('plans of another merchant', () => {
  it('are invisible: not in its list, forbidden by id (exit 6), not found by reference (exit 5)', async () => {
    const plan = await createPlan(sandbox)
    const byId = await sandbox.gw(['plan', 'get', plan.id], asAcme)
    expect(byId.code).toBe(6)
    expect(byId.stderr).toContain('Error: You do not have permissions to access this record (HTTP 403')
    expect((await sandbox.gw(['plan', 'get', plan.reference], asAcme)).code).toBe(5)
    expect((await sandbox.gw(['plan', 'update', plan.id, '--name', 'stolen'], asAcme)).code).toBe(6)
    expect((await sandbox.gw(['plan', 'get', plan.id, '--json'])).json).toMatchObject({name: plan.name})
    const list = (await sandbox.gw(['plan', 'list', '--all', '--json'], asAcme)).records as PlanRecord[]
    expect(list.map((p) => p.id)).not.toContain(plan.id)
  })
})
