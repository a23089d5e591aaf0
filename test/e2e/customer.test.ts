import {describe, expect, it} from 'vitest'
import {CARDS, ref, type Sandbox, sharedSandbox} from './helpers.js'
import {createCustomer, type CustomerRecord, customerArgs} from './recurring-helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started), ['--merchant', 'ACME:s3cret'])

const asAcme = {env: {GW_USERNAME: 'ACME', GW_TOKEN: 's3cret'}}

describe('gw customer create', () => {
  it('creates a customer with a stored card and an address: HTTP 201', async () => {
    const reference = ref('cust')
    const result = await sandbox.gw(['customer', 'create', ...customerArgs({reference}), '--ip-address', '203.0.113.9', '--address', '1 George St', '--city', 'Sydney', '--state', 'NSW', '--postcode', '2000', '--country', 'AU', '--json', '--verbose'])
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/< 201 POST http:\/\/[^ ]+\/v1\.0\/customers /)
    // The CVV never shows, not even in --verbose logs.
    expect(result.stderr).not.toMatch(/"cvv":"123"/)
    const customer = result.json as CustomerRecord & {created_at: string; address: Record<string, string>}
    expect(customer).toMatchObject({reference, first_name: 'Jane', last_name: 'Citizen', email: 'jane@example.com'})
    expect(customer.address).toMatchObject({address: '1 George St', city: 'Sydney', state: 'NSW', postcode: '2000', country: 'AU'})
    expect(customer.id).toMatch(/^071-C-[A-Z0-9]{8}$/)
    expect(customer.card_token).toMatch(/^[a-z0-9]{20}$/)
    expect(Number.isNaN(Date.parse(customer.created_at))).toBe(false)
  })

  it('exits 7 for a reference already taken', async () => {
    const customer = await createCustomer(sandbox)
    const result = await sandbox.gw(['customer', 'create', ...customerArgs({reference: customer.reference})])
    expect(result.code).toBe(7)
    expect(result.stderr).toContain('Error: Reference has already been taken (HTTP 400')
  })

  it.each(['--first-name', '--last-name', '--reference'])('refuses a blank %s before sending anything (exit 2)', async (flag) => {
    const args = customerArgs()
    args[args.indexOf(flag) + 1] = ' '
    const result = await sandbox.gw(['customer', 'create', ...args])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`Error: ${flag} must not be blank`)
  })

  it.each([
    ['an email without a domain', ['--email', 'jane'], '--email must be an email address'],
    ['a card number failing Luhn', ['--card-number', '4242424242424241'], '--card-number fails the Luhn check'],
    ['an expired card', ['--card-expiry', '01/2020'], '--card-expiry 01/2020 is in the past'],
  ])('refuses %s before sending anything (exit 2)', async (_, override, message) => {
    const args = customerArgs()
    args[args.indexOf(override[0]!) + 1] = override[1]!
    const result = await sandbox.gw(['customer', 'create', ...args])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`Error: ${message}`)
  })
})

describe('gw customer get', () => {
  it('finds a customer by id and by reference, without the address', async () => {
    const created = await createCustomer(sandbox)
    for (const key of [created.id, created.reference]) {
      const result = await sandbox.gw(['customer', 'get', key, '--json'])
      expect(result.code).toBe(0)
      expect(result.json).toMatchObject({id: created.id, reference: created.reference, email: 'jane@example.com', card_token: created.card_token})
      expect(result.json).not.toHaveProperty('address')
    }
  })

  it('looks several up, from arguments or stdin, one JSON object a line; a missing one exits 5 and the rest still print', async () => {
    const a = await createCustomer(sandbox)
    const b = await createCustomer(sandbox)
    const result = await sandbox.gw(['customer', 'get', a.id, 'no-such-customer', b.reference])
    expect(result.code).toBe(5)
    expect(result.stdout.trim().split('\n').map((line) => (JSON.parse(line) as CustomerRecord).id)).toEqual([a.id, b.id])
    expect(result.stderr).toContain('Error: No customer has the id or reference no-such-customer: Record not found (HTTP 404')
    const piped = await sandbox.gw(['customer', 'get', '-'], {stdin: `${a.reference}\n${b.id}\n`})
    expect(piped.code).toBe(0)
    expect(piped.stdout.trim().split('\n').map((line) => (JSON.parse(line) as CustomerRecord).id)).toEqual([a.id, b.id])
  })
})

describe('gw customer update', () => {
  it('changes the fields given', async () => {
    const customer = await createCustomer(sandbox)
    const result = await sandbox.gw(['customer', 'update', customer.id, '--first-name', 'Janet', '--email', 'janet@example.com', '--json'])
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({id: customer.id, first_name: 'Janet', last_name: 'Citizen', email: 'janet@example.com'})
    expect((await sandbox.gw(['customer', 'get', customer.id, '--json'])).json).toMatchObject({first_name: 'Janet'})
  })

  it('stores a new card whole', async () => {
    const customer = await createCustomer(sandbox)
    const result = await sandbox.gw(['customer', 'update', customer.id, '--card-number', CARDS.mastercard, '--card-expiry', '05/2031', '--cvv', '999', '--json'])
    expect(result.code).toBe(0)
    expect((result.json as CustomerRecord).card_token).toMatch(/^[a-z0-9]{20}$/)
    const partial = await sandbox.gw(['customer', 'update', customer.id, '--card-number', CARDS.mastercard])
    expect(partial.code).toBe(2)
    expect(partial.stderr).toContain('All of the following must be provided when using --card-number: --card-expiry, --cvv')
  })

  it('exits 2 for a blank required field, and 5 for an unknown customer', async () => {
    const customer = await createCustomer(sandbox)
    const blank = await sandbox.gw(['customer', 'update', customer.id, '--first-name', ''])
    expect(blank.code).toBe(2)
    expect(blank.stderr).toContain('Error: --first-name must not be blank')
    expect((await sandbox.gw(['customer', 'get', customer.id, '--json'])).json).toMatchObject({first_name: 'Jane'})
    const nothing = await sandbox.gw(['customer', 'update', customer.id])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('At least one of the following must be provided')
    const missing = await sandbox.gw(['customer', 'update', '071-C-ZZZZZZZZ', '--first-name', 'x'])
    expect(missing.code).toBe(5)
    expect(missing.stderr).toContain('Error: No customer has the id or reference 071-C-ZZZZZZZZ: Record not found (HTTP 404')
  })
})

describe('gw customer delete', () => {
  it('answers with the deleted record, after which the customer is not found', async () => {
    const customer = await createCustomer(sandbox)
    const result = await sandbox.gw(['customer', 'delete', customer.id, '--json'])
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({id: customer.id, reference: customer.reference, first_name: 'Jane'})
    expect((await sandbox.gw(['customer', 'get', customer.id])).code).toBe(5)
    const again = await sandbox.gw(['customer', 'delete', customer.id])
    expect(again.code).toBe(5)
    expect(again.stderr).toContain(`Error: No customer has the id or reference ${customer.id}: Record not found (HTTP 404`)
  })
})

describe('customers of another merchant', () => {
  it('cannot be read, changed or deleted: 403 by id (exit 6), 404 by reference (exit 5)', async () => {
    const customer = await createCustomer(sandbox)
    for (const args of [['customer', 'get', customer.id], ['customer', 'update', customer.id, '--first-name', 'x'], ['customer', 'delete', customer.id]]) {
      const result = await sandbox.gw(args, asAcme)
      expect(result.code, args.join(' ')).toBe(6)
      expect(result.stderr).toContain('Error: You do not have permissions to access this record (HTTP 403')
    }
    expect((await sandbox.gw(['customer', 'get', customer.reference], asAcme)).code).toBe(5)
    expect((await sandbox.gw(['customer', 'get', customer.id, '--json'])).json).toMatchObject({first_name: 'Jane'})
  })
})
