import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {CARDS, describeInBothDialects, describeOnce, ref, type Sandbox, sharedSandbox} from './helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => {
  sandbox = started
})

const dir = mkdtempSync(join(tmpdir(), 'gw-e2e-seed-recurring-'))

function fixtures(steps: unknown[]): string {
  const file = join(dir, `${ref('fixtures')}.json`)
  writeFileSync(file, JSON.stringify({_comment: 'made by seed-recurring.test.ts', steps}, null, 2))
  return file
}

type Line = {step: number; name: string; status: string; record: Record<string, unknown>}

/** A customer, and a subscription, a weekly payment plan and two direct debits dated in March 2024: billed from then. */
function dated(tag: string) {
  return [
    {name: 'gold', create: 'plan', fields: {name: 'Gold', amount: 2500, reference: `${tag}-gold`, description: 'Gold membership'}},
    {name: 'jane', create: 'customer', at: '2024-02-01', fields: {first_name: 'Jane', last_name: 'Citizen', reference: `${tag}-jane`, email: 'jane@example.com', card: {card_number: CARDS.mastercard, expiry_date: '12/2030', cvv: '123'}}},
    {name: 'membership', create: 'subscription', at: '2024-02-01', fields: {customer: '{{jane.id}}', plan: '{{gold.id}}', frequency: 'Monthly', start_date: '2024-03-01', reference: `${tag}-membership`}},
    // 2024-03-12 is a Tuesday: anniversary 2.
    {name: 'gym', create: 'payment_plan', at: '2024-03-12', fields: {customer: '{{jane.reference}}', reference: `${tag}-gym`, amount: 1000, frequency: 'Weekly', anniversary: 2, start_date: '2024-03-01', total_count: 3}},
    {name: 'rent', create: 'direct_debit', at: '2024-03-12', fields: {amount: 4200, description: 'March rent', bsb: '123456', account_name: 'Jane Citizen', account_number: '012345678', reference: `${tag}-rent`}},
    // 42.03 dollars: returned, the account closed.
    {name: 'closed', create: 'direct_debit', at: '2024-03-12', fields: {amount: 4203, description: 'March rent', bsb: '123-456', account_name: 'Jane Citizen', account_number: '012345678', reference: `${tag}-closed`}},
  ]
}

describeInBothDialects('gw sandbox seed: subscriptions, payment plans and direct debits dated in the past', () => {
  it('are made then and billed from then: a debit has been to the bank and back, what fell due is charged at the end of the clock\'s today, and gw report counts each where it settled; a second run finds them present', async () => {
    const tag = ref('recurring')
    const file = fixtures(dated(tag))
    const first = await sandbox.gw(['sandbox', 'seed', file])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr).toBe('6 steps: 6 created.\n')
    const [, jane, membership, gym, rent, closed] = (first.records as Line[]).map((line) => line.record)
    expect(membership).toMatchObject({customer: jane!.id, start_date: '2024-03-01', next_billing_date: '2024-03-01', last_status: 'Scheduled'})
    expect(String(membership!.created_at).slice(0, 10)).toBe('2024-02-01')
    expect(String(gym!.created_at).slice(0, 10)).toBe('2024-03-12')
    const payments = gym!.payments as {reference: string; scheduled_date: string; status: string}[]
    expect(payments.map(({reference, scheduled_date, status}) => [reference, scheduled_date, status])).toStrictEqual([
      [`${tag}-gym-0001`, '2024-03-12', 'Scheduled'],
      [`${tag}-gym-0002`, '2024-03-19', 'Scheduled'],
      [`${tag}-gym-0003`, '2024-03-26', 'Scheduled'],
    ])
    expect(rent).toMatchObject({amount: 42, bsb: '123-456', date: '2024-03-12', process_date: '2024-03-13', status: 'Completed', result: 'Processed'})
    expect(closed).toMatchObject({amount: 42.03, date: '2024-03-12', process_date: '2024-03-13', status: 'Rejected', result: 'Account Closed'})

    const again = await sandbox.gw(['sandbox', 'seed', file])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toBe('6 steps: 6 present.\n')

    const advanced = await sandbox.gw(['sandbox', 'clock', 'advance', '--days', '1', '--json'])
    expect(advanced.code, advanced.stderr).toBe(0)
    // The plan's three payments and the subscription's one, all on the approving card.
    expect(advanced.records[0]).toMatchObject({charges_approved: 4, charges_declined: 0})
    const plan = await sandbox.gw(['payment-plan', 'get', `${tag}-gym`, '--json'])
    expect((plan.records[0] as {payments: {status: string}[]}).payments.map((payment) => payment.status)).toStrictEqual(['Completed', 'Completed', 'Completed'])
    const subscription = await sandbox.gw(['subscription', 'get', `${tag}-membership`, '--json'])
    expect(subscription.records[0]).toMatchObject({last_status: 'Successful'})
    expect(String((subscription.records[0] as {next_billing_date: string}).next_billing_date) > '2024-03-01').toBe(true)

    // gw report: the debit completed on its process date, in cents, in net; the plan's payments, charged at the end
    // of the day the clock moved on from, among that day's purchases, and apart: yesterday, on the gateway's clock.
    const march = await sandbox.gw(['report', '--on', '2024-03-13', '--json'])
    expect(march.code, march.stderr).toBe(0)
    expect(march.records).toStrictEqual([
      {day: '2024-03-13', currency: 'AUD', purchases_approved: 0, purchases_approved_amount: 0, purchases_uncaptured: 0, purchases_uncaptured_amount: 0, purchases_voided: 0, purchases_declined: 0, refunds: 0, refunds_amount: 0, refunds_voided: 0, plan_payments: 0, plan_payments_amount: 0, direct_debits: 1, direct_debits_amount: 4200, net: 4200},
    ])
    const today = await sandbox.gw(['report', '--on', 'yesterday', '--json'])
    expect(today.code, today.stderr).toBe(0)
    expect(today.records).toMatchObject([{purchases_approved: 4, purchases_approved_amount: 5500, plan_payments: 3, plan_payments_amount: 3000, direct_debits: 0, net: 5500}])
  })
})

// Refused by gw itself, nothing sent: no answer of a gateway's decides it.
describeOnce('gw sandbox seed: dates it refuses before anything is sent', () => {
  it('refuses a dated subscription starting before the day it is dated, and a plan or debit the file dates in the future, before anything is sent', async () => {
    const tag = ref('refused')
    const [gold, jane, membership, gym] = dated(tag)
    const file = fixtures([gold, jane, {...membership, fields: {...membership!.fields, start_date: '2024-01-15'}}, {...gym, at: '2999-01-01'}])
    const refused = await sandbox.gw(['sandbox', 'seed', file])
    expect(refused.code).toBe(2)
    const {today} = ((await sandbox.control('GET', '/_sandbox/clock')) as {response: {today: string}}).response
    expect(refused.stderr).toContain(`  step 4 "gym" (payment_plan): at 2999-01-01 is in the future: the gateway's today is ${today}, and a record can be dated today or before\n`)
    const fixedGym = fixtures([gold, jane, {...membership, fields: {...membership!.fields, start_date: '2024-01-15'}}])
    const early = await sandbox.gw(['sandbox', 'seed', fixedGym])
    expect(early.code).toBe(2)
    expect(early.stderr).toContain('  step 3 "membership" (subscription): fields.start_date 2024-01-15 is before the day it is dated (2024-02-01): a subscription starts then or later; give a start_date of 2024-02-01 or later\n')
    const listed = await sandbox.gw(['customer', 'get', `${tag}-jane`])
    expect(listed.code).toBe(5)
  })
})
