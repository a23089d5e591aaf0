import {type ChildProcess, spawn} from 'node:child_process'
import {createHmac} from 'node:crypto'
import {readFileSync, statSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {baseEnv, runGw, type Sandbox, startSandbox} from './helpers.js'
import {type Listener, startListen} from './listen-helpers.js'

// Issue 49 item 5: gw listen signs each forward (Gw-Signature, as the Stripe CLI's), prints the
// secret at start, and the app docs/subscriptions-and-webhooks.md shows checks it: run here as
// the guide has it, as gw listen's --forward-to.
const sandbox: Sandbox = await startSandbox()
let app: ChildProcess | undefined
let listener: Listener | undefined
afterAll(async () => {
  await listener?.stop('SIGKILL')
  app?.kill('SIGKILL')
  await sandbox.stop()
})

/** The guide's app: the one ```js block of its section. */
function guideApp(): string {
  const guide = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'subscriptions-and-webhooks.md'), 'utf8')
  const section = guide.slice(guide.indexOf('### Checking in your app that a delivery came through gw listen'))
  const block = /```js\n([\s\S]*?)```/.exec(section)![1]!
  expect(block.split('\n').filter(Boolean).length, 'an app of about 10 lines').toBeLessThanOrEqual(12)
  return block
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as {port: number}
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** POSTs to the app once it answers (it listens as soon as node has read it: connection refused until then). */
async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  for (;;) {
    try {
      return (await fetch(url, {method: 'POST', body, headers: {'content-type': 'application/json', ...headers}})).status
    } catch (err) {
      if ((err as {cause?: {code?: string}}).cause?.code !== 'ECONNREFUSED') throw err
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}

const sign = (secret: string, body: string, seconds: number) => `t=${seconds},v1=${createHmac('sha256', secret).update(`${seconds}.${body}`).digest('hex')}`

describe('gw listen signs what it forwards, and the guide\'s app checks it', () => {
  it('--print-secret prints the same secret every time, kept in a 0600 file of gw\'s config folder', async () => {
    const [first, second] = [await runGw(['listen', '--print-secret'], {env: sandbox.home}), await runGw(['listen', '--print-secret'], {env: sandbox.home})]
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toMatch(/^gwsec_[A-Za-z0-9_-]{32}\n$/)
    expect(second.stdout).toBe(first.stdout)
    expect(statSync(join(sandbox.home.XDG_CONFIG_HOME!, 'gw', 'listen-signing-secret')).mode & 0o777).toBe(0o600)
  })

  it('a delivery the gateway makes reaches the app signed, and the app takes it (200); forged, stale or unsigned ones it refuses (400)', async () => {
    const secret = (await runGw(['listen', '--print-secret'], {env: sandbox.home})).stdout.trim()
    const file = join(sandbox.home.HOME!, 'app.mjs')
    writeFileSync(file, guideApp())
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/hooks`
    app = spawn(process.execPath, [file], {env: baseEnv({GW_LISTEN_SECRET: secret, PORT: String(port)}), stdio: 'ignore'})

    const now = Math.floor(Date.now() / 1000)
    const body = '{"event":"card:expiring","payload":[]}'
    expect(await post(url, body, {'gw-signature': sign(secret, body, now)})).toBe(200)
    expect(await post(url, body)).toBe(400)
    expect(await post(url, body, {'gw-signature': sign('gwsec_not-the-secret', body, now)})).toBe(400)
    expect(await post(url, body, {'gw-signature': sign(secret, body.replace('expiring', 'expired'), now)})).toBe(400)
    expect(await post(url, body, {'gw-signature': sign(secret, body, now - 600)})).toBe(400)

    listener = await startListen(['--json', '--forward-to', url], {env: sandbox.home})
    expect(listener.stderr()).toContain(`Forwarding to ${url}, each delivery signed: header Gw-Signature t=TIME,v1=HMAC-SHA256 of "TIME.BODY". Your signing secret is ${secret} (gw listen --print-secret prints it).`)
    expect((await sandbox.gw(['sandbox', 'trigger', 'card:expiring'], {env: {GW_BASE_URL: undefined, GW_USERNAME: undefined, GW_TOKEN: undefined}})).code).toBe(0)
    await listener.waitForStderr(/card:expiring forwarded → 200/)
  })
})
