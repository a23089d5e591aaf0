import {expect, it} from 'vitest'
import {apiRequestsSince, CARDS, describeInBothDialects, describeOnce, errorJson, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'
import {addDays, createCustomer, type CustomerRecord, sandboxToday} from './recurring-helpers.js'

interface Payment {
  id: string
  reference: string
  scheduled_date: string
  status: string
  result: unknown
  records: unknown[]
}
interface PaymentPlan {
  id: string
  reference: string
  customer: string
  status: string
  status_reason: string
  currency: string | null
  total_amount: number | null
  payments: Payment[]
}

let sandbox: Sandbox
let customer: CustomerRecord
let today: string
sharedSandbox(async (started) => {
  sandbox = started
  customer = await createCustomer(sandbox)
  today = await sandboxToday(sandbox)
}, ['--merchant', 'ACME:s3cret'])

/** A plan given no currency: gw sends AUD (every official library's default), so the record says it in either dialect. */
const NO_CURRENCY = 'AUD'

const planArgs = ({customer: who = customer.reference, reference = ref('pp'), amount = 1000, start = addDays(today, 14)} = {}) => [
  'payment-plan', 'create', '--customer', who, '--amount', String(amount), '--frequency', 'weekly', '--anniversary', '5', '--start-date', start, '--total-count', '5', '--reference', reference,
]

async function createPaymentPlan(options: Parameters<typeof planArgs>[0] = {}): Promise<PaymentPlan> {
  const result = await sandbox.gw(planArgs(options))
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return result.json as PaymentPlan
}

const isFriday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() === 5

describeInBothDialects('gw payment-plan create', () => {
  it('makes a plan for a customer named by reference: Active, 5 weekly payments on Fridays, the total sent as the count times the amount', async () => {
    const reference = ref('pp')
    const result = await sandbox.gw([...planArgs({reference}), '--verbose'])
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/< 201 POST http:\/\/[^ ]+\/v1\.0\/payment_plans /)
    const plan = result.json as PaymentPlan
    expect(plan).toMatchObject({reference, customer: customer.id, amount: 1000, currency: NO_CURRENCY, frequency: 'Weekly', anniversary: 5, total_count: 5, total_amount: 5000, status: 'Active', status_reason: 'None', payment_method: 'Credit Card'})
    expect(plan.id).toMatch(/^071-PP-/)
    expect(plan.payments.map((payment) => payment.reference)).toEqual([1, 2, 3, 4, 5].map((n) => `${reference}-000${n}`))
    expect(plan.payments.every((payment) => payment.status === 'Scheduled' && isFriday(payment.scheduled_date))).toBe(true)
  })

  it('takes an end date in place of a count, and a currency', async () => {
    const result = await sandbox.gw(['payment-plan', 'create', '--customer', customer.id, '--amount', '2500', '--currency', 'aud', '--frequency', 'Monthly', '--anniversary', '1', '--start-date', addDays(today, 1), '--end-date', addDays(today, 100), '--reference', ref('pp')])
    expect(result.code).toBe(0)
    const plan = result.json as PaymentPlan
    expect(plan).toMatchObject({currency: 'AUD', total_count: null, total_amount: null, frequency: 'Monthly'})
    expect(plan.payments.every((payment) => payment.scheduled_date.endsWith('-01'))).toBe(true)
  })

  it('exits 5 for an unknown customer; a reference taken by this same plan is that plan, nothing sent (exit 0); by another plan, exit 7 naming it', async () => {
    const unknown = await sandbox.gw(planArgs({customer: 'no-such-customer'}))
    expect(unknown.code).toBe(5)
    expect(unknown.stderr).toContain('Error: Record not found (HTTP 404')
    const taken = await createPaymentPlan()
    const again = await sandbox.gw(planArgs({reference: taken.reference}))
    expect(again.stderr).toBe(`Reference ${taken.reference} was taken by this same payment plan (${taken.id}), made earlier: the gateway refused this request for it, and nothing more was made.\n`)
    expect(again.code).toBe(0)
    expect((again.json as PaymentPlan).id).toBe(taken.id)
    const other = await sandbox.gw(planArgs({reference: taken.reference, amount: 2000}))
    expect(other.code).toBe(7)
    expect(other.stdout).toBe('')
    expect(other.stderr).toContain(`Error: Reference ${taken.reference} is already taken by another payment plan ${taken.id}: amount`)
  })
})

// Refused by gw itself: no answer of a gateway's is read.
describeOnce('gw payment-plan create: what it refuses before sending anything', () => {
  it.each([
    ['neither a count nor an end date', ['--total-count', '5'], [], 'Error: At least one of the following must be provided: --end-date, --total-count'],
    ['a bad anniversary', ['--anniversary', '5'], ['--anniversary', 'friday'], '--anniversary must be a whole number from 0 to 31'],
    ['a blank reference', ['--reference', 'x'], ['--reference', ' '], '--reference must not be blank'],
    ['an amount of 0', ['--amount', '1000'], ['--amount', '0'], '--amount must be greater than 0, got 0'],
  ])('refuses %s before sending anything (exit 2)', async (_, remove, add, message) => {
    const args = planArgs()
    const at = args.indexOf(remove[0]!)
    args.splice(at, 2, ...add)
    const result = await sandbox.gw(args)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(message)
  })
})

describeInBothDialects('a plan whose answer is lost is made once', () => {
  it('found by its reference: the plan made (exit 0), told on stderr, one POST', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/payment_plans', action: 'drop-after'})
    const reference = ref('pp')
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(planArgs({reference}))
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({reference, status: 'Active'})
    expect(result.stderr).toContain(`looking reference ${reference} up at the gateway`)
    expect(result.stderr).toContain('Found the payment plan by its reference: the gateway processed it once.')
    const requests = await apiRequestsSince(sandbox, cursor)
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual(['/v1.0/payment_plans'])
  })

  it('not found once the processing window is over: exit 8, nothing resent, the command to check it', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/payment_plans', action: 'drop-before'})
    const reference = ref('pp')
    const result = await sandbox.gw([...planArgs({reference}), '--json'])
    expect(result.code).toBe(8)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`and the gateway has no payment plan under reference ${reference}, even once it could no longer be processing it`)
    expect(result.stderr).toContain(`gw payment-plan get ${reference}`)
    expect(errorJson(result)).toMatchObject({error: {kind: 'outcome_unknown', exit_code: 8}})
  })
})

describeInBothDialects('gw payment-plan get', () => {
  it('finds plans by reference and by id, several at once; an unknown one exits 5', async () => {
    const plan = await createPaymentPlan()
    const byReference = await sandbox.gw(['payment-plan', 'get', plan.reference])
    expect(byReference.code).toBe(0)
    expect(byReference.json).toEqual(plan)
    const several = await sandbox.gw(['payment-plan', 'get', plan.id, 'no-such-plan'])
    expect(several.code).toBe(5)
    expect(several.records.map((record) => (record as PaymentPlan).id)).toEqual([plan.id])
    expect(several.stderr).toContain('Error: No payment plan has the id or reference no-such-plan: Could not find Payment Plan (HTTP 404')
  })
})

describeInBothDialects('gw payment-plan suspend, activate, cancel', () => {
  it('suspends a plan (its schedule emptied), activates it (a new schedule, new ids, numbered from -0001), and cancels it for good', async () => {
    const plan = await createPaymentPlan()
    const suspended = await sandbox.gw(['payment-plan', 'suspend', plan.id])
    expect(suspended.code).toBe(0)
    expect(suspended.json).toMatchObject({id: plan.id, status: 'Suspended', status_reason: 'Other', payments: []})
    const activated = await sandbox.gw(['payment-plan', 'activate', plan.id])
    expect(activated.code).toBe(0)
    const active = activated.json as PaymentPlan
    expect(active).toMatchObject({status: 'Active', status_reason: 'None'})
    expect(active.payments.map((payment) => payment.scheduled_date)).toEqual(plan.payments.map((payment) => payment.scheduled_date))
    expect(active.payments[0]!.reference).toBe(`${plan.reference}-0001`)
    expect(active.payments.some((payment) => plan.payments.some((old) => old.id === payment.id))).toBe(false)
    const cancelled = await sandbox.gw(['payment-plan', 'cancel', plan.id])
    expect(cancelled.code).toBe(0)
    expect(cancelled.json).toMatchObject({status: 'Cancelled', status_reason: 'Other', payments: []})
    const again = await sandbox.gw(['payment-plan', 'activate', plan.id])
    expect(again.code).toBe(7)
    expect(again.stderr).toContain(`Error: Payment plan ${plan.reference} is Cancelled: it can be neither Active nor Suspended again (HTTP 422`)
  })

  it('needs the id (exit 2); an unknown plan exits 5; another merchant cannot change it (exit 6)', async () => {
    const none = await sandbox.gw(['payment-plan', 'suspend'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('Missing 1 required arg')
    const unknown = await sandbox.gw(['payment-plan', 'cancel', '071-PP-ZZZZZZZZ'])
    expect(unknown.code).toBe(5)
    expect(unknown.stderr).toContain('Error: No payment plan has the id or reference 071-PP-ZZZZZZZZ: Could not find Payment Plan (HTTP 404')
    const plan = await createPaymentPlan()
    const foreign = await sandbox.gw(['payment-plan', 'suspend', plan.id], {env: {GW_USERNAME: 'ACME', GW_TOKEN: 's3cret'}})
    expect(foreign.code).toBe(6)
    expect(foreign.stderr).toContain('Error: You do not have permissions to access this record (HTTP 403')
  })
})

describeInBothDialects('gw payment-plan list', () => {
  it("lists plans newest first, a customer's by its reference", async () => {
    const own = await createCustomer(sandbox)
    const first = await createPaymentPlan({customer: own.reference})
    const second = await createPaymentPlan({customer: own.id})
    const result = await sandbox.gw(['payment-plan', 'list', '--customer', own.reference])
    expect(result.code).toBe(0)
    expect(result.records.map((record) => (record as PaymentPlan).id)).toEqual([second.id, first.id])
  })

  it('says so when the gateway has no list of payment plans (exit 5)', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'GET', path: '/v1.0/payment_plans?', action: 'status', status: 404})
    const result = await sandbox.gw(['payment-plan', 'list'])
    await sandbox.control('DELETE', '/_sandbox/faults')
    expect(result.code).toBe(5)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('Error: This gateway has no list of payment plans: it answered the list with "not found"')
    expect(result.stderr).toContain('Hint: Look a plan up by its reference instead: gw payment-plan get REFERENCE.')
  })
})

describeInBothDialects("the billing clock runs a plan's payments", () => {
  it('one approved and one declined by the test-card rules', async () => {
    const declining = await createCustomer(sandbox, {card: CARDS.declined})
    const start = addDays(today, 1)
    const approved = await createPaymentPlan({start})
    const declined = await createPaymentPlan({customer: declining.id, start})
    const day = approved.payments[0]!.scheduled_date
    // The clock runs each day it passes, the day it stops on aside.
    const advanced = await sandbox.gw(['sandbox', 'clock', 'advance', '--to', addDays(day, 1)])
    expect(advanced.code).toBe(0)
    const [made, refused] = await Promise.all([approved, declined].map(async (plan) => ((await sandbox.gw(['payment-plan', 'get', plan.reference])).json as PaymentPlan).payments[0]!))
    expect(made).toMatchObject({scheduled_date: day, status: 'Completed'})
    expect(made!.records).toHaveLength(1)
    // Tried again retry_interval days later, as a subscription's charge is.
    expect(refused).toMatchObject({scheduled_date: day, status: 'Retrying'})
    expect(refused!.records).toHaveLength(1)
  })
})

describeInBothDialects('gw sandbox trigger and deliveries take the payment plans\' events', () => {
  it('sends payment_plan_payment:declined with a plan and its payment, and lists its delivery by event', async () => {
    const result = await sandbox.gw(['sandbox', 'trigger', 'payment_plan_payment:declined', '--webhook', 'http://127.0.0.1:9/hooks'])
    expect(result.code).toBe(0)
    const triggered = result.json as {event: string; delivered_to: string[]; payload: {payment_plan: {id: string}; payment: {payment_plan: string}}[]}
    expect(triggered).toMatchObject({event: 'payment_plan_payment:declined', delivered_to: ['http://127.0.0.1:9/hooks']})
    expect(triggered.payload[0]!.payment.payment_plan).toBe(triggered.payload[0]!.payment_plan.id)
    const deliveries = await sandbox.gw(['sandbox', 'deliveries', '--event', 'payment_plan_payment:declined'])
    expect(deliveries.code).toBe(0)
    expect(deliveries.records.map((delivery) => (delivery as {event: string}).event)).toEqual(['payment_plan_payment:declined'])
  })
})

describeInBothDialects('gw webhook create --event takes the payment plans\' events', () => {
  it('registers a web hook for payment_plan_payment:completed alone: the gateway sends it that event, and not a charge\'s', async () => {
    const address = `http://127.0.0.1:9/${ref('plan-hook')}`
    const created = await sandbox.gw(['webhook', 'create', '--url', address, '--event', 'payment_plan_payment:completed', '--json'])
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    expect(created.json).toMatchObject({address, events: ['payment_plan_payment:completed']})
    const plan = await sandbox.gw(['sandbox', 'trigger', 'payment_plan_payment:completed'])
    expect(plan.code, plan.stderr).toBe(0)
    expect((plan.json as {delivered_to: string[]}).delivered_to).toContain(address)
    // The merchant's one web hook takes the plan's event alone: none takes a charge's.
    const charge = await sandbox.gw(['sandbox', 'trigger', 'charge:failed'])
    expect({code: charge.code, stdout: charge.stdout}).toEqual({code: 7, stdout: ''})
    expect(charge.stderr).toContain('Merchant TEST has no web hook for charge:failed')
  })
})
