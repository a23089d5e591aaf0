import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {cardArgs, CARDS, describeInBothDialects, describeOnce, isolatedHome, ref, runGw, type Sandbox, sharedSandbox} from './helpers.js'

// A decline at the local gateway names the rule that decided it (api/schemas/test-outcomes.ts, what
// gw help test-cards prints), for a person at a terminal only, and only when the gateway says it
// is the local one (X-Sandbox-Instance), never because its address is on this machine.

let sandbox: Sandbox
let stub: Server
let stubUrl: string

/** A gateway on this machine that is not gw's: it answers every purchase with a decline whose cents say 50, and names no run of data. */
function startStub(): Promise<string> {
  stub = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const sent = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {reference?: string; amount?: number}
      const record = {
        id: '071-P-STUBDECL',
        successful: false,
        message: 'Declined',
        response_code: '50',
        amount: sent.amount ?? 1250,
        reference: sent.reference,
        currency: 'AUD',
        card_holder: 'Jane Citizen',
        card_number: '424242XXXXXX4242',
        card_expiry: '2030-12-31',
        transaction_date: '2026-01-05T10:00:00+00:00',
      }
      res.writeHead(200, {'content-type': 'application/json', 'x-request-id': 'stub-1'})
      res.end(JSON.stringify({successful: true, response: record, errors: [], test: true}))
    })
  })
  return new Promise((resolve) => stub.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(stub.address() as AddressInfo).port}`)))
}

sharedSandbox((started) => void (sandbox = started))
beforeAll(async () => {
  stubUrl = await startStub()
})
afterAll(async () => {
  await new Promise((resolve) => stub?.close(resolve))
})

const purchaseArgs = (amount: string, card: string = CARDS.visa) => ['purchase', 'create', '--amount', amount, '--reference', ref('hint'), ...cardArgs(card)]
const atTerminal = {GW_FORCE_TTY: '100', NO_COLOR: '1'}
const hintLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('Hint:'))

describeInBothDialects('a decline from the local gateway says why, at a terminal', () => {
  it('names the cents and what they decided', async () => {
    const result = await sandbox.gw(purchaseArgs('1250'), {env: atTerminal})
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/^Error: Purchase declined: Declined \(HTTP 200, request-id [0-9a-f-]{36}\)$/m)
    expect(hintLines(result.stderr)).toEqual(["Hint: The local gateway's rule: cents 50 → Declined (cents 00 approve); gw help test-cards"])
  })

  it('names the response code message the cents gave', async () => {
    const result = await sandbox.gw(purchaseArgs('10051'), {env: atTerminal})
    expect(result.code).toBe(3)
    expect(hintLines(result.stderr)).toEqual(["Hint: The local gateway's rule: cents 51 → Insufficient Funds (cents 00 approve); gw help test-cards"])
  })

  it('names the declining test card, whatever the amount', async () => {
    const result = await sandbox.gw(purchaseArgs('1000', CARDS.declined), {env: atTerminal})
    expect(result.code).toBe(3)
    expect(hintLines(result.stderr)).toEqual(["Hint: The local gateway's rule: card 455701XXXXXX8902 → Declined, whatever the amount; gw help test-cards"])
  })

  it('says nothing of it to a pipe, or with --json at a terminal', async () => {
    const piped = await sandbox.gw(purchaseArgs('1250'))
    expect(piped.code).toBe(3)
    expect(piped.stderr).toMatch(/^Error: Purchase declined: Declined/)
    expect(piped.stderr).not.toContain('Hint:')
    const json = await sandbox.gw([...purchaseArgs('1250'), '--json'], {env: atTerminal})
    expect(json.code).toBe(3)
    expect(json.stderr).not.toContain('Hint:')
    expect(json.stderr).not.toContain('test-cards')
  })
})

describeOnce('a decline from a gateway that is not the local one', () => {
  it('carries no rule, though the gateway is on this machine and its cents would fit the rule', async () => {
    const env = {...isolatedHome(), GW_BASE_URL: stubUrl, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', ...atTerminal}
    const result = await runGw(purchaseArgs('1250'), {env})
    expect(result.stderr).toMatch(/^Error: Purchase declined: Declined \(HTTP 200, request-id stub-1\)$/m)
    expect(result.code).toBe(3)
    expect(result.stderr).not.toContain('Hint:')
    expect(result.stderr).not.toContain('test-cards')
  })
})
