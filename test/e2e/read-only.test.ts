import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {allEndpoints, buildPath, writes} from '../../src/api/endpoints.js'
import {forward, type MisbehavingGateway, misbehavingGateway} from '../misbehaving-gateway.js'
import {CARD_JSON, isolatedHome, ref, runGw, type Sandbox, sharedSandbox} from './helpers.js'

// Every endpoint that writes, taken from the endpoint table, is refused on a read-only
// profile through the built gw, by the command that sends it and by gw api, before any request.
let sandbox: Sandbox
let gateway: MisbehavingGateway
const home = isolatedHome()

sharedSandbox(async (started) => {
  sandbox = started
  gateway = await misbehavingGateway((request) => forward(sandbox.url, request))
  const login = await runGw(['login', '--profile', 'support', '--base-url', gateway.url, '--username', 'TEST', '--token-stdin', '--read-only', '--insecure-storage'], {env: home, stdin: 'TEST'})
  expect(login.code, login.stderr).toBe(0)
})
// Closed before the local gateway it forwards to is stopped (after-hooks run last registered first).
afterAll(async () => {
  await gateway?.close()
})


/** The command that sends each writing endpoint; a writer added to the table without one here fails the first test. */
const commandFor: Record<string, string[]> = {
  'POST /v1.0/credit_cards': ['card', 'tokenize', '--card', '-'],
  'PUT /v1.0/credit_cards/{token}': ['card', 'update', 'tok_any', '--alias', 'x'],
  'POST /v1.0/purchases': ['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card', '-'],
  'POST /v1.0/refunds': ['refund', 'create', '--transaction-id', '071-P-ZZZZZZZZ', '--amount', '100', '--reference', ref()],
  'POST /v1.0/purchases/{id}/capture': ['purchase', 'capture', '071-P-ZZZZZZZZ'],
  'POST /v1.0/purchases/void': ['purchase', 'void', '071-P-ZZZZZZZZ'],
  'PUT /v1.0/purchases/{id}': ['purchase', 'increment', '071-P-ZZZZZZZZ', '--amount', '2000'],
  'POST /v1.0/refunds/void': ['refund', 'void', '071-R-ZZZZZZZZ'],
  'PUT /v1.0/web_hooks/{id}': ['webhook', 'update', '071-WH-ZZZZZZZZ', '--name', 'x'],
  'POST /v1.0/web_hooks': ['webhook', 'create', '--url', 'http://127.0.0.1:9/hooks'],
  'DELETE /v1.0/web_hooks/{id}': ['webhook', 'delete', '071-WH-ZZZZZZZZ'],
  'POST /v1.0/plans': ['plan', 'create', '--name', 'Gold', '--amount', '1000', '--reference', ref('plan'), '--description', 'Gold'],
  'PUT /v1.0/plans/{id}': ['plan', 'update', '071-PL-ZZZZZZZZ', '--name', 'Silver'],
  'POST /v1.0/customers': ['customer', 'create', '--first-name', 'Jane', '--last-name', 'Citizen', '--reference', ref('cust'), '--email', 'jane@example.com', '--card', '-'],
  'PUT /v1.0/customers/{id}.json': ['customer', 'update', '071-C-ZZZZZZZZ', '--first-name', 'Jo'],
  'DELETE /v1.0/customers/{id}.json': ['customer', 'delete', '071-C-ZZZZZZZZ'],
  'POST /v1.0/subscriptions': ['subscription', 'create', '--customer', '071-C-ZZZZZZZZ', '--plan', 'gold', '--frequency', 'daily', '--start-date', '2030-01-01', '--reference', ref('sub')],
  'PUT /v1.0/subscriptions/{id}.json': ['subscription', 'update', '071-S-ZZZZZZZZ', '--inactive'],
  'POST /v1.0/payment_plans': ['payment-plan', 'create', '--customer', '071-C-ZZZZZZZZ', '--amount', '1000', '--frequency', 'weekly', '--anniversary', '5', '--start-date', '2030-01-04', '--total-count', '5', '--reference', ref('pp')],
  'PUT /v1.0/payment_plans/{id}': ['payment-plan', 'suspend', '071-PP-ZZZZZZZZ'],
  'DELETE /v1.0/payment_plans/{id}': ['payment-plan', 'cancel', '071-PP-ZZZZZZZZ'],
  'POST /v1.0/direct_debits': ['direct-debit', 'create', '--amount', '1000', '--description', 'Rent', '--bsb', '123-456', '--account-name', 'Jane', '--account-number', '42'],
  'DELETE /v1.0/direct_debits/{id}': ['direct-debit', 'delete', '071-DD-ZZZZZZZZ'],
  'POST /_sandbox/clock/advance': ['sandbox', 'clock', 'advance', '--days', '1'],
  'POST /_sandbox/trigger': ['sandbox', 'trigger', 'card:expiring'],
  'POST /_sandbox/faults': ['sandbox', 'fault', 'add', '--method', 'POST', '--path', '/v1.0/purchases', '--action', 'drop-before'],
  'DELETE /_sandbox/faults': ['sandbox', 'fault', 'clear'],
  'POST /_sandbox/deliveries/{id}/redeliver': ['sandbox', 'redeliver', 'any-delivery'],
  // Sent by a fixture step's `at`, after the step's record is made: the read-only profile refuses that first.
  'POST /_sandbox/dated/{key}': ['sandbox', 'seed', datedFixture()],
  'POST /_sandbox/history': ['sandbox', 'seed', '--purchases', '10', '--refunds', '5'],
}

/** A fixtures file whose one step dates its purchase in the past. */
function datedFixture(): string {
  const file = join(isolatedHome().HOME!, 'dated.json')
  writeFileSync(file, JSON.stringify({steps: [{name: 'card', create: 'card', fields: {card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123', alias: ref('dated-card')}}, {name: 'old', create: 'purchase', at: '2024-03-12', fields: {card_token: '{{card.token}}', amount: 1000, reference: ref('dated')}}]}))
  return file
}

const writers = allEndpoints().filter(writes)
/** The second command of a method and path two commands send (an increment and an extension are both a PUT of the purchase; a refund of a purchase and an unmatched one a POST of refunds). */
const secondCommandFor: Record<string, string[]> = {
  'PUT /v1.0/purchases/{id}': ['purchase', 'extend', '071-P-ZZZZZZZZ'],
  'POST /v1.0/refunds': ['refund', 'create', '--card-token', 'tok_any', '--amount', '100', '--reference', ref('unmatched')],
}
const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}
const exists = (args: string[]) => Object.keys(manifest.commands).some((id) => id.split(':').every((word, index) => args[index] === word))

/** How many requests that write reached the gateway. */
const writesReceived = () => gateway.received.filter((request) => request.method !== 'GET').length

describe('a read-only profile refuses every endpoint that writes', () => {
  it('every writer in the endpoint table has a command here, and every command here exists', () => {
    expect(writers.map((endpoint) => `${endpoint.method} ${endpoint.path}`).filter((key) => !commandFor[key])).toEqual([])
    expect([...Object.values(commandFor), ...Object.values(secondCommandFor)].filter((args) => !exists(args))).toEqual([])
  })

  const seen = new Set<string>()
  for (const endpoint of writers) {
    const key = `${endpoint.method} ${endpoint.path}`
    const args = (seen.has(key) ? secondCommandFor[key] : commandFor[key]) ?? []
    seen.add(key)
    it(`${key}: gw ${args.slice(0, 2).join(' ')} exits 6 and sends nothing`, async () => {
      const before = writesReceived()
      const result = await runGw([...args, '--profile', 'support', '--yes'], {env: home, stdin: CARD_JSON})
      expect(result.code, result.stderr).toBe(6)
      expect(result.stderr).toMatch(/Error: Profile support is read-only and gw .+ changes something at the gateway: nothing was sent\n/)
      expect(result.stdout).toBe('')
      expect(writesReceived()).toBe(before)
    })

    it(`${key}: gw api exits 6 and sends nothing`, async () => {
      const path = buildPath(endpoint.path, Object.fromEntries([...endpoint.path.matchAll(/\{(\w+)\}/g)].map((match) => [match[1]!, 'ZZZZZZZZ'])))
      const before = writesReceived()
      const result = await runGw(['api', endpoint.method, path, '--data', '{}', '--profile', 'support', '--yes'], {env: home})
      expect(result.code, result.stderr).toBe(6)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain(`Error: Profile support is read-only and gw api ${endpoint.method} ${path} changes something at the gateway: nothing was sent\n`)
      expect(writesReceived()).toBe(before)
    })
  }

  it('gw sandbox seed is refused before anything is sent, looking up included', async () => {
    const file = join(home.HOME!, 'fixtures.json')
    writeFileSync(file, JSON.stringify({steps: [{name: 'gold', create: 'plan', fields: {name: 'Gold', amount: 1000, reference: ref('plan'), description: 'Gold'}}]}))
    const before = gateway.received.length
    const result = await runGw(['sandbox', 'seed', file, '--profile', 'support'], {env: home})
    expect(result.code, result.stderr).toBe(6)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('Error: Profile support is read-only and gw sandbox seed changes something at the gateway: nothing was sent\n')
    expect(gateway.received.length).toBe(before)
  })

  it('still reads', async () => {
    const result = await runGw(['purchase', 'get', 'no-such-purchase', '--profile', 'support'], {env: home})
    expect(result.code).toBe(5)
  })
})
