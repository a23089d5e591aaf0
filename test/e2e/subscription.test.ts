import {describe, expect, it} from 'vitest'
import {ref, type Sandbox, sharedSandbox} from './helpers.js'
import {addDays, createCustomer, createPlan, createSubscription, type CustomerRecord, type PlanRecord, sandboxToday, type SubscriptionRecord} from './recurring-helpers.js'

let sandbox: Sandbox
let plan: PlanRecord
let customer: CustomerRecord
let start: string
sharedSandbox(async (started) => {
  sandbox = started
  plan = await createPlan(sandbox)
  customer = await createCustomer(sandbox)
  start = addDays(await sandboxToday(sandbox), 7)
}, ['--merchant', 'ACME:s3cret'])

const asAcme = {env: {GW_USERNAME: 'ACME', GW_TOKEN: 's3cret'}}

describe('gw subscription create', () => {
  it('subscribes a customer (by reference) to a plan (by reference): HTTP 201, Scheduled, next billing date set', async () => {
    const reference = ref('sub')
    const result = await sandbox.gw(['subscription', 'create', '--customer', customer.reference, '--plan', plan.reference, '--frequency', 'weekly', '--start-date', start, '--reference', reference, '--json', '--verbose'])
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/< 201 POST http:\/\/[^ ]+\/v1\.0\/subscriptions /)
    const subscription = result.json as SubscriptionRecord
    expect(subscription).toMatchObject({reference, customer: customer.id, plan: plan.id, frequency: 'Weekly', start_date: start, next_billing_date: start, last_status: 'Scheduled', is_active: true})
    expect(subscription.id).toMatch(/^071-S-[A-Z0-9]{8}$/)
  })

  it('takes customer and plan by id, --inactive, and any frequency in any case', async () => {
    const subscription = await createSubscription(sandbox, {customer: customer.id, plan: plan.id, frequency: 'bi-annually', startDate: start, inactive: true})
    expect(subscription).toMatchObject({customer: customer.id, plan: plan.id, frequency: 'Bi-Annually', is_active: false, last_status: 'Scheduled'})
  })

  it('exits 2 for a blank reference before sending it, and 7 for one already taken', async () => {
    const blank = await sandbox.gw(['subscription', 'create', '--customer', customer.id, '--plan', plan.id, '--frequency', 'Daily', '--start-date', start, '--reference', '', '--json'])
    expect(blank.code).toBe(2)
    expect(blank.stderr).toContain('Error: --reference must not be blank')
    const taken = await createSubscription(sandbox, {customer: customer.id, plan: plan.id, startDate: start})
    const again = await sandbox.gw(['subscription', 'create', '--customer', customer.id, '--plan', plan.id, '--frequency', 'Daily', '--start-date', start, '--reference', taken.reference])
    expect(again.code).toBe(7)
    expect(again.stderr).toContain('Error: Reference has already been taken (HTTP 400')
  })

  it.each([
    ['an unknown frequency', ['--frequency', 'yearly'], '--frequency must be one of Daily, Weekly, Fortnightly, Monthly, Quarterly, Bi-Annually, Annually'],
    ['a date that does not exist', ['--start-date', '2027-02-30'], '--start-date must be a date as YYYY-MM-DD'],
  ])('refuses %s before sending anything (exit 2)', async (_, override, message) => {
    const args = ['--customer', customer.id, '--plan', plan.id, '--frequency', 'Daily', '--start-date', start, '--reference', ref('sub')]
    args[args.indexOf(override[0]!) + 1] = override[1]!
    const result = await sandbox.gw(['subscription', 'create', ...args])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`Error: ${message}`)
  })

  it('counts the subscription on the plan', async () => {
    const counted = await createPlan(sandbox)
    await createSubscription(sandbox, {customer: customer.id, plan: counted.reference, startDate: start})
    const result = await sandbox.gw(['plan', 'update', counted.id, '--description', 'counted', '--json'])
    expect(result.json).toMatchObject({subscription_count: 1})
  })
})

describe('gw subscription get', () => {
  it('finds subscriptions by reference, several at once; an unknown one exits 5', async () => {
    const a = await createSubscription(sandbox, {customer: customer.id, plan: plan.id, startDate: start})
    const one = await sandbox.gw(['subscription', 'get', a.reference, '--json'])
    expect(one.code).toBe(0)
    expect(one.json).toMatchObject({id: a.id, reference: a.reference, last_status: 'Scheduled'})
    const b = await createSubscription(sandbox, {customer: customer.id, plan: plan.id, startDate: start})
    const several = await sandbox.gw(['subscription', 'get', a.reference, 'no-such-subscription', b.reference])
    expect(several.code).toBe(5)
    expect(several.stdout.trim().split('\n').map((line) => (JSON.parse(line) as SubscriptionRecord).id)).toEqual([a.id, b.id])
    expect(several.stderr).toContain('Error: No subscription has the reference no-such-subscription: Record not found (HTTP 404')
  })
})

describe('gw subscription update', () => {
  it('stops and resumes a subscription', async () => {
    const subscription = await createSubscription(sandbox, {customer: customer.id, plan: plan.id, startDate: start})
    const stopped = await sandbox.gw(['subscription', 'update', subscription.id, '--inactive', '--json'])
    expect(stopped.code).toBe(0)
    expect(stopped.json).toMatchObject({id: subscription.id, is_active: false})
    const resumed = await sandbox.gw(['subscription', 'update', subscription.id, '--active', '--json'])
    expect(resumed.json).toMatchObject({id: subscription.id, is_active: true})
    expect((await sandbox.gw(['subscription', 'get', subscription.reference, '--json'])).json).toMatchObject({is_active: true})
  })

  it('needs exactly one of --active and --inactive (exit 2); an unknown subscription exits 5', async () => {
    const neither = await sandbox.gw(['subscription', 'update', '071-S-ZZZZZZZZ'])
    expect(neither.code).toBe(2)
    expect(neither.stderr).toContain('Exactly one of the following must be provided: --active, --inactive')
    expect((await sandbox.gw(['subscription', 'update', '071-S-ZZZZZZZZ', '--active', '--inactive'])).code).toBe(2)
    const missing = await sandbox.gw(['subscription', 'update', '071-S-ZZZZZZZZ', '--inactive'])
    expect(missing.code).toBe(5)
    expect(missing.stderr).toContain('Error: No subscription has the id or reference 071-S-ZZZZZZZZ: Record not found (HTTP 404')
  })
})

describe('subscriptions of another merchant', () => {
  it('cannot be read or changed, nor built on its customers and plans', async () => {
    const subscription = await createSubscription(sandbox, {customer: customer.id, plan: plan.id, startDate: start})
    expect((await sandbox.gw(['subscription', 'get', subscription.reference], asAcme)).code).toBe(5)
    const update = await sandbox.gw(['subscription', 'update', subscription.id, '--inactive'], asAcme)
    expect(update.code).toBe(6)
    expect(update.stderr).toContain('Error: You do not have permissions to access this record (HTTP 403')
    const foreign = await sandbox.gw(['subscription', 'create', '--customer', customer.id, '--plan', plan.id, '--frequency', 'Daily', '--start-date', start, '--reference', ref('sub')], asAcme)
    expect(foreign.code).toBe(7)
    expect(foreign.stderr).toContain(`Customer ${customer.id} could not be found`)
    expect((await sandbox.gw(['subscription', 'get', subscription.reference, '--json'])).json).toMatchObject({is_active: true})
  })
})

describe('gw subscription list', () => {
  it("lists a customer's subscriptions by its reference, the active and the stopped ones apart", async () => {
    const own = await createCustomer(sandbox)
    const running = await createSubscription(sandbox, {customer: own.reference, plan: plan.reference, startDate: start})
    const stopped = await createSubscription(sandbox, {customer: own.id, plan: plan.id, startDate: start, inactive: true})
    const references = async (...flags: string[]) => {
      const result = await sandbox.gw(['subscription', 'list', '--customer', own.reference, ...flags])
      expect(result.code, result.stderr).toBe(0)
      return (result.records as SubscriptionRecord[]).map((subscription) => subscription.reference)
    }
    expect(await references()).toEqual([stopped.reference, running.reference])
    expect(await references('--active')).toEqual([running.reference])
    expect(await references('--inactive')).toEqual([stopped.reference])
    expect(await references('--plan', plan.id, '--inactive')).toEqual([stopped.reference])
    expect((await sandbox.gw(['subscription', 'list', '--active', '--inactive'])).code).toBe(2)
  })
})
