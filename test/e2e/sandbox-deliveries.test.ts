import {spawn} from 'node:child_process'
import {describe, expect, it} from 'vitest'
import {startRecorder} from './listen-helpers.js'
import {baseEnv, GW, type Sandbox, sharedSandbox} from './helpers.js'
import {until} from '../until.js'

let sandbox: Sandbox
// Eight attempts 5 ms apart at first: a receiver that keeps refusing is given up in about a second.
sharedSandbox((started) => void (sandbox = started), ['--webhook-backoff', '5'])

type Delivery = {id: string; event: string; status: string; attempts: number; last_answer: string | null; hook: string; redelivery_of: string | null}

const listed = async (args: string[] = []) => (await sandbox.gw(['sandbox', 'deliveries', '--json', ...args])).records as Delivery[]

describe('gw sandbox deliveries and redeliver', () => {
  it('lists a delivery its receiver answered 500 as failed, and redeliver reaches gw listen on that address', async () => {
    const app = await startRecorder(() => ({status: 500}))
    const address = `${app.url}/hooks`
    const triggered = await sandbox.gw(['sandbox', 'trigger', 'card:expiring', '--webhook', address, '--json'])
    expect(triggered.code, triggered.stderr).toBe(0)

    const failed = await until('the delivery to fail', async () => (await listed(['--status', 'failed'])).find((delivery) => delivery.hook === address))
    expect(failed).toMatchObject({event: 'card:expiring', status: 'failed', attempts: 8, last_answer: 'HTTP 500', last_error: 'HTTP 500', redelivery_of: null})
    expect(app.requests).toHaveLength(8)
    expect(await listed(['--status', 'failed', '--event', 'charge:failed'])).toStrictEqual([])

    // The app is fixed: gw listen now answers on the address the delivery went to.
    await app.close()
    const port = new URL(app.url).port
    const listen = spawn(process.execPath, [GW, 'listen', '--port', port, '--path', '/hooks', '--json'], {env: baseEnv(sandbox.env()), stdio: ['ignore', 'pipe', 'pipe']})
    let heard = ''
    let said = ''
    listen.stdout.on('data', (chunk: Buffer) => (heard += chunk.toString()))
    listen.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()))
    try {
      await until('gw listen to listen', () => (said.includes('Listening for web hooks') ? true : undefined))
      const again = await sandbox.gw(['sandbox', 'redeliver', failed.id, '--json'])
      expect(again.code, again.stderr).toBe(0)
      expect(again.json).toMatchObject({event: 'card:expiring', hook: address, status: 'pending', attempts: 0, redelivery_of: failed.id})
      const line = await until('gw listen to print the event', () => heard.split('\n').find(Boolean))
      expect(JSON.parse(line)).toMatchObject({event: 'card:expiring', mode: 'Sandbox', payload: (triggered.json as {payload: unknown[]}).payload})
      const delivered = await until('the new delivery to be delivered', async () => (await listed(['--status', 'delivered'])).find((delivery) => delivery.redelivery_of === failed.id))
      expect(delivered).toMatchObject({id: (again.json as Delivery).id, attempts: 1, last_answer: 'HTTP 200'})
    } finally {
      listen.kill('SIGTERM')
    }
  })

  it('shows a table on a terminal, and refuses an unknown id (exit 5) or status (exit 2)', async () => {
    const table = await sandbox.gw(['sandbox', 'deliveries', '--status', 'failed'], {env: {GW_FORCE_TTY: '200', NO_COLOR: '1'}})
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(/Id\s+│\s+Event\s+│\s+Status\s+│\s+Address\s+│\s+Last answer\s+│\s+Attempts\s+│\s+Last attempt/)
    expect(table.stdout).toMatch(/card:expiring\s+│\s+failed\s+│\s+http:\/\/\S+\s+│\s+HTTP 500\s+│\s+8\s+│/)

    const unknown = await sandbox.gw(['sandbox', 'redeliver', 'no-such-id'])
    expect(unknown.code).toBe(5)
    expect(unknown.stderr).toContain('Error: No delivery no-such-id: gw sandbox deliveries lists them')
    const badStatus = await sandbox.gw(['sandbox', 'deliveries', '--status', 'lost'])
    expect(badStatus.code).toBe(2)
    expect(badStatus.stderr).toContain('Expected --status=lost to be one of: pending, delivered, failed')
  })
})
