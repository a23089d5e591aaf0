import {describe, expect, it} from 'vitest'
import {CARDS, type Sandbox, sharedSandbox, startSandbox} from './helpers.js'
import {createCustomer, createPlan, createSubscription, heldToday} from './recurring-helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

interface WebHook {
  id: string
  name: string
  address: string
  events: string | string[]
  mode: string
  authentication_username: string | null
}

// Port 9 (discard) refuses connections: nothing in these tests waits on a delivery.
const address = (path: string) => `http://127.0.0.1:9/${path}`

describe('gw webhook', () => {
  it('creates a web hook for every event, lists it, and deletes it', async () => {
    const created = await sandbox.gw(['webhook', 'create', '--url', address('all'), '--json'])
    expect(created.code, created.stderr).toBe(0)
    expect(created.stderr).toBe('')
    const hook = created.json as WebHook
    expect(hook).toMatchObject({name: address('all'), address: address('all'), events: '*', mode: 'Test', authentication_username: null})
    expect(hook.id).toMatch(/^\d{3}-WH-[A-Z0-9]{8}$/)

    // Piped, a list prints one web hook a line (NDJSON).
    const listed = await sandbox.gw(['webhook', 'list', '--json'])
    expect(listed.code).toBe(0)
    // As made, is_active null: the live gateway's lists show a hook made through the API so.
    expect(listed.records).toContainEqual({...hook, is_active: null})

    const deleted = await sandbox.gw(['webhook', 'delete', hook.id, '--json'])
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.json).toEqual(hook)
    expect((await sandbox.gw(['webhook', 'list', '--json'])).records).not.toContainEqual(hook)

    const again = await sandbox.gw(['webhook', 'delete', hook.id])
    expect(again.code).toBe(5)
    expect(again.stderr).toContain('Error: Record not found (HTTP 404')
  })

  it('takes only the events named, a name, and Basic credentials whose password is never shown', async () => {
    const created = await sandbox.gw(
      ['webhook', 'create', '--url', address('some'), '--event', 'charge:failed', '--event', 'card:expiring', '--name', 'failed charges', '--auth', '-', '--json'],
      {stdin: 'hooks:s3cret\n'},
    )
    expect(created.code, created.stderr).toBe(0)
    expect(created.json).toMatchObject({name: 'failed charges', events: ['charge:failed', 'card:expiring'], authentication_username: 'hooks'})
    const listed = await sandbox.gw(['webhook', 'list'])
    expect(listed.stdout).toContain('failed charges')
    for (const output of [created.stdout, created.stderr, listed.stdout, listed.stderr]) expect(output).not.toContain('s3cret')
  })

  it('refuses a missing or bad address and an unknown event with exit 2, sending nothing', async () => {
    const before = (await sandbox.gw(['webhook', 'list', '--json'])).records
    expect(before.length).toBeGreaterThan(0)
    const cases: [string[], string][] = [
      [['webhook', 'create'], 'Missing required flag url'],
      [['webhook', 'create', '--url', ''], '--url must be an http:// or https:// URL, got ""'],
      [['webhook', 'create', '--url', 'ftp://example.com/x'], '--url must be an http:// or https:// URL, got "ftp://example.com/x"'],
      [['webhook', 'create', '--url', address('x'), '--event', 'charge:everything'], 'charge:everything'],
      [['webhook', 'create', '--url', address('x'), '--auth', 'nopassword'], '--auth must be USER:PASS'],
      [['webhook', 'delete', ' '], 'ID must not be blank'],
    ]
    for (const [args, message] of cases) {
      const result = await sandbox.gw(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toContain(message)
    }
    expect((await sandbox.gw(['webhook', 'list', '--json'])).records).toEqual(before)
  })
})

describe('gw sandbox clock advance', () => {
  it('says what happened: the new date, charges approved and declined, events and deliveries queued', async () => {
    const local = await startSandbox()
    try {
      const hook = await local.gw(['webhook', 'create', '--url', address('clock'), '--json'])
      expect(hook.code, hook.stderr).toBe(0)
      const today = await heldToday(local)
      const plan = await createPlan(local, {amount: 1000})
      const approved = await createCustomer(local, {card: CARDS.visa})
      const declined = await createCustomer(local, {card: CARDS.declined})
      for (const customer of [approved, declined]) await createSubscription(local, {customer: customer.id, plan: plan.id, frequency: 'Weekly', startDate: today})

      const result = await local.gw(['sandbox', 'clock', 'advance', '--days', '2', '--json'])
      expect(result.code, result.stderr).toBe(0)
      // Day 1: one charge:pending for both, one approved, one declined (charge:retry); day 2: the retry, declined again.
      expect(result.json).toMatchObject({days: 2, charges_approved: 1, charges_declined: 2, events: 4, deliveries_queued: 4})

      // Without --json, piped: the same record as one compact line.
      const piped = await local.gw(['sandbox', 'clock', 'advance', '--days', '1'])
      expect(piped.code).toBe(0)
      expect(piped.records).toEqual([expect.objectContaining({days: 1, charges_approved: 0, charges_declined: 1})])
    } finally {
      await local.stop()
    }
  })
})
