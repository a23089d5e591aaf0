import {afterEach, describe, expect, it} from 'vitest'
import {terminal, type Terminal} from './auth-helpers.js'
import {ref, type Sandbox, sharedSandbox} from './helpers.js'
import {addDays, createCustomer, sandboxToday} from './recurring-helpers.js'

// A payment plan's and a direct debit's flags left out, asked for at a real pseudo-terminal (tmux)
// as a person answers them: each by its description and flag, a bad answer asked again in the flag's words.
let sandbox: Sandbox
const open: Terminal[] = []

sharedSandbox((started) => void (sandbox = started))

afterEach(() => {
  for (const t of open.splice(0)) t.close()
})

function run(args: string[]): Terminal {
  const t = terminal(args, sandbox.home)
  open.push(t)
  return t
}

describe('gw direct-debit create on a terminal', () => {
  it('asks for each required flag left out, a BSB asked again until it is one, and makes the debit', async () => {
    const reference = ref('dd')
    const t = run(['direct-debit', 'create', '--reference', reference, '--json'])
    await t.answer([
      ['amount in cents (1000 is 10.00 AUD), sent to the gateway in dollars (--amount)', '4242'],
      ['what the debit is for, as the account holder sees it (--description)', 'November rent'],
      ['the bank-state-branch number, as 123-456 (--bsb)', '12-3456'],
    ])
    await t.waitFor('--bsb must be six digits as 123-456, got "12-3456"')
    t.press('C-u')
    t.type('123456')
    await t.answer([
      ['the name on the bank account (--account-name)', 'Jane Citizen'],
      ['the bank account number, digits only (--account-number)', '012345678'],
    ])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toContain('"amount": 42.42')
    const found = await sandbox.gw(['direct-debit', 'get', reference, '--json'])
    expect(found.json).toMatchObject({reference, amount: 42.42, bsb: '123-456', account_name: 'Jane Citizen', account_number: '012345678', description: 'November rent', status: 'New'})
  })
})

describe('gw payment-plan create on a terminal', () => {
  it('asks for each required flag left out, a frequency in any case and an anniversary asked again until it is a day, and makes the plan', async () => {
    const customer = await createCustomer(sandbox)
    const start = addDays(await sandboxToday(sandbox), 14)
    const reference = ref('pp')
    const t = run(['payment-plan', 'create', '--reference', reference, '--total-count', '3'])
    await t.answer([
      ['customer id or reference (a reference is looked up first) (--customer)', customer.reference],
      ['amount of each payment in the minor currency unit (1000 is 10.00 AUD) (--amount)', '1500'],
      ['(--frequency)', 'WEEKLY'],
      ['(--anniversary)', '99'],
    ])
    await t.waitFor('--anniversary must be a whole number from 0 to 31 (a day of the week, 1 Monday, or of the month), got "99"')
    t.press('C-u')
    t.type('5')
    await t.answer([['first day payments may fall on, as YYYY-MM-DD (--start-date)', start]])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    // At a terminal the plan is a field list, its payments a table of their own; no currency was given, so gw sent AUD, and the record says it.
    expect(screen).toContain('15.00 AUD')
    expect(screen).not.toContain('currency not known')
    const found = await sandbox.gw(['payment-plan', 'get', reference, '--json'])
    expect(found.json).toMatchObject({reference, customer: customer.id, amount: 1500, frequency: 'Weekly', anniversary: 5, start_date: start, total_count: 3, status: 'Active'})
  })
})
