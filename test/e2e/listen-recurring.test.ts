import {describe, expect, it} from 'vitest'
import {CARDS, ref, type Sandbox, sharedSandbox} from './helpers.js'
import {startListen} from './listen-helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

describe('gw listen --register with the local gateway', () => {
  it('shows a subscription charged by gw sandbox clock advance, and removes its registration on Ctrl-C', async () => {
    const gw = async (args: string[]) => {
      const result = await sandbox.gw([...args, '--json'])
      expect(result.code, result.stderr).toBe(0)
      return result.json as Record<string, string>
    }
    const listener = await startListen(['--register', '--json'], {env: sandbox.env()})
    const address = listener.url
    try {
      expect(listener.stderr()).toMatch(/Registered as web hook \S+ with the gateway/)
      const plan = await gw(['plan', 'create', '--name', 'Gold', '--amount', '1500', '--reference', ref('plan'), '--description', 'Gold plan'])
      const customer = await gw(['customer', 'create', '--first-name', 'Jane', '--last-name', 'Citizen', '--reference', ref('cust'), '--email', 'jane@example.com', '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])
      const {today} = await gw(['sandbox', 'clock'])
      const tomorrow = new Date(`${today}T00:00:00Z`)
      tomorrow.setUTCDate(tomorrow.getUTCDate() + 1)
      const reference = ref('sub')
      await gw(['subscription', 'create', '--customer', customer.id!, '--plan', plan.id!, '--frequency', 'Daily', '--start-date', tomorrow.toISOString().slice(0, 10), '--reference', reference])
      await gw(['sandbox', 'clock', 'advance', '--days', '2'])

      await listener.waitForStdout(new RegExp(`"event":"charge:successful".*"reference":"${reference}"`))
      const charged = listener
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .find((event) => event.event === 'charge:successful' && event.payload[0].subscription.reference === reference)
      expect(charged).toMatchObject({mode: 'Sandbox', headers: {'x-service-mode': 'Sandbox'}})
      expect(charged.payload[0].subscription.customer.id).toBe(customer.id)
      expect(charged.payload[0].response.response).toMatchObject({amount: 1500, successful: true, source: 'Recurring'})
    } finally {
      const stopped = await listener.stop('SIGINT')
      expect(stopped.code).toBe(130)
      expect(stopped.stderr).toMatch(/Removed web hook \S+\./)
    }
    const hooks = (await registeredHooks()) as {address: string}[]
    expect(hooks.map((hook) => hook.address)).not.toContain(address)
  })
})

async function registeredHooks(): Promise<unknown> {
  const response = await fetch(`${sandbox.url}/v1.0/web_hooks`, {headers: {authorization: 'Basic ' + Buffer.from('TEST:TEST').toString('base64')}})
  return ((await response.json()) as {response: unknown}).response
}
