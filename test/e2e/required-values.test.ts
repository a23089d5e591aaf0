import {describe, expect, it} from 'vitest'
import {armTrap, cardArgs, ref, type Sandbox, sharedSandbox} from './helpers.js'

// design.md §2: what the gateway refuses when blank or missing, gw refuses first, exit 2 naming
// the flag, and sends nothing.
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

const customer = ['--first-name', 'Jane', '--last-name', 'Citizen', '--reference', 'cust-1', '--email', 'jane@example.com', ...cardArgs()]
const plan = ['--name', 'Gold', '--amount', '1000', '--reference', 'gold', '--description', 'Gold tier']
const subscription = ['--customer', 'cust-1', '--plan', 'gold', '--frequency', 'Daily', '--start-date', '2030-01-01', '--reference', 'sub-1']
const purchase = ['--amount', '1000', '--reference', 'order-1', ...cardArgs()]
const refund = ['--transaction-id', '071-P-AAAAAAAA', '--amount', '100', '--reference', 'refund-1']

/** The args with one flag's value replaced. */
function blank(args: string[], flag: string, value = ' '): string[] {
  const copy = [...args]
  copy[copy.indexOf(flag) + 1] = value
  return copy
}

describe('one rule for required values', () => {
  const cases: [string, string[], string][] = [
    ['purchase create --reference', ['purchase', 'create', ...blank(purchase, '--reference')], '--reference must not be blank'],
    ['purchase create --customer-ip', ['purchase', 'create', ...purchase, '--customer-ip', ''], '--customer-ip must not be blank'],
    ['purchase create --card-token', ['purchase', 'create', '--amount', '1000', '--reference', 'order-2', '--card-token', ' '], '--card-token must not be blank'],
    ['purchase create --amount 0', ['purchase', 'create', ...blank(purchase, '--amount', '0')], '--amount must be greater than 0'],
    ['refund create --transaction-id', ['refund', 'create', ...blank(refund, '--transaction-id')], '--transaction-id must not be blank'],
    ['refund create --reference', ['refund', 'create', ...blank(refund, '--reference', '')], '--reference must not be blank'],
    ['card update --alias', ['card', 'update', 'tok', '--alias', ' '], '--alias must not be blank'],
    ['card update ID', ['card', 'update', ' ', '--alias', 'a'], 'ID must not be blank'],
    ['plan create --name', ['plan', 'create', ...blank(plan, '--name')], '--name must not be blank'],
    ['plan create --reference', ['plan', 'create', ...blank(plan, '--reference')], '--reference must not be blank'],
    ['plan create --description', ['plan', 'create', ...blank(plan, '--description', '')], '--description must not be blank'],
    ['plan update --description', ['plan', 'update', '071-PL-AAAAAAAA', '--description', ''], '--description must not be blank'],
    ['customer create --first-name', ['customer', 'create', ...blank(customer, '--first-name')], '--first-name must not be blank'],
    ['customer create --last-name', ['customer', 'create', ...blank(customer, '--last-name')], '--last-name must not be blank'],
    ['customer create --reference', ['customer', 'create', ...blank(customer, '--reference')], '--reference must not be blank'],
    ['customer update --reference', ['customer', 'update', '071-C-AAAAAAAA', '--reference', ''], '--reference must not be blank'],
    ['customer delete ID', ['customer', 'delete', ' ', '--yes'], 'ID must not be blank'],
    ['subscription create --customer', ['subscription', 'create', ...blank(subscription, '--customer')], '--customer must not be blank'],
    ['subscription create --plan', ['subscription', 'create', ...blank(subscription, '--plan')], '--plan must not be blank'],
    ['subscription create --reference', ['subscription', 'create', ...blank(subscription, '--reference', '')], '--reference must not be blank'],
    ['subscription update ID', ['subscription', 'update', ' ', '--inactive', '--yes'], 'ID must not be blank'],
    ['webhook delete ID', ['webhook', 'delete', ''], 'ID must not be blank'],
    ['plan create without --description', ['plan', 'create', '--name', 'Gold', '--amount', '1000', '--reference', ref('plan')], 'Missing required flag description'],
    [
      'purchase create without --reference and a card: both named at once',
      ['purchase', 'create', '--amount', '1000', '--no-input'],
      'Error: Missing required flag reference\nMissing the card: --card-token, or --card-holder, --card-number and --card-expiry, or --card - with the card as JSON on stdin\nHint: See gw purchase create --help',
    ],
  ]

  it.each(cases)('%s: exit 2 naming it, nothing sent', async (_, args, message) => {
    const armed = await armTrap(sandbox, ['POST', 'PUT', 'DELETE'])
    const result = await sandbox.gw(args)
    expect(result.code, result.stderr).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(message)
    expect(await armed()).toBe(3)
  })
})
