import {type ChildProcess, spawn} from 'node:child_process'
import {createHmac} from 'node:crypto'
import {chmodSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {baseEnv, isolatedHome, runGw, type Sandbox, sharedSandbox} from './helpers.js'
import {type Listener, startListen, startRecorder} from './listen-helpers.js'

// gw listen signs each forward (Gw-Signature, as the Stripe CLI's), prints the
// secret at start, and the app docs/subscriptions-and-webhooks.md shows checks it: run here as
// the guide has it, as gw listen's --forward-to.
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))
let app: ChildProcess | undefined
let listener: Listener | undefined
afterAll(async () => {
  await listener?.stop('SIGKILL')
  app?.kill('SIGKILL')
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

// A signature means something. An empty or short secret (a disk that filled between the
// file's making and its writing, a crash) is replaced, said so, and never signs; a delivery that
// carried no credentials of the gateway's is forwarded unsigned.
describe('signing that means something', () => {
  const secretFile = (home: NodeJS.ProcessEnv) => join(home.XDG_CONFIG_HOME!, 'gw', 'listen-signing-secret')
  const SHAPE = /^gwsec_[A-Za-z0-9_-]{32}\n$/

  it('an empty secret file never signs: --print-secret makes a new one, saying so, and forwards are signed with it', async () => {
    await runGw(['listen', '--print-secret'], {env: sandbox.home})
    writeFileSync(secretFile(sandbox.home), '')
    const printed = await runGw(['listen', '--print-secret'], {env: sandbox.home})
    expect(printed.code).toBe(0)
    expect(printed.stdout).toMatch(SHAPE)
    expect(printed.stderr).toBe(
      `Warning: the signing secret in ${secretFile(sandbox.home)} was empty (a crash or a full disk while it was made?), and a forward signed with it could be forged by anyone: gw made a new one. An app that checks Gw-Signature needs it: gw listen --print-secret prints it.\n`,
    )
    expect(readFileSync(secretFile(sandbox.home), 'utf8')).toBe(printed.stdout)
    const secret = printed.stdout.trim()

    // Emptied again, then a gw listen that forwards (registered with the local gateway: each delivery checked) signs with a new secret, never the empty key.
    writeFileSync(secretFile(sandbox.home), '')
    const app = await startRecorder()
    const signed = await startListen(['--json', '--forward-to', app.url], {env: sandbox.home})
    try {
      await signed.waitForStderr('Listening for web hooks')
      expect(signed.stderr()).toContain(`Warning: the signing secret in ${secretFile(sandbox.home)} was empty`)
      const fresh = readFileSync(secretFile(sandbox.home), 'utf8').trim()
      expect(fresh).not.toBe(secret)
      expect(signed.stderr()).toContain(`Your signing secret is ${fresh} `)
      expect((await sandbox.gw(['sandbox', 'trigger', 'card:expiring'], {env: {GW_BASE_URL: undefined, GW_USERNAME: undefined, GW_TOKEN: undefined}})).code).toBe(0)
      await signed.waitForStderr(/card:expiring forwarded → 200/)
      const [request] = app.requests
      const [, t] = /^t=(\d+),v1=/.exec(String(request!.headers['gw-signature']))!
      expect(request!.headers['gw-signature']).toBe(sign(fresh, request!.body, Number(t)))
      expect(request!.headers['gw-signature']).not.toBe(sign('', request!.body, Number(t)))
    } finally {
      await signed.stop()
      await app.close()
    }
  })

  it('a short secret is replaced too; --rotate-secret makes a new one on demand', async () => {
    const home = isolatedHome()
    const first = (await runGw(['listen', '--print-secret'], {env: home})).stdout
    writeFileSync(secretFile(home), 'gwsec_abc\n')
    const replaced = await runGw(['listen', '--print-secret'], {env: home})
    expect(replaced.stdout).toMatch(SHAPE)
    expect(replaced.stdout).not.toBe(first)
    expect(replaced.stderr).toContain("was shorter than gw makes them (3 characters after gwsec_; gw's are gwsec_ and 32 or more letters, digits, _ or -), and a short key makes a signature anyone could forge: gw made a new one.")
    const rotated = await runGw(['listen', '--rotate-secret'], {env: home})
    expect(rotated.code).toBe(0)
    expect(rotated.stdout).toMatch(SHAPE)
    expect(rotated.stdout).not.toBe(replaced.stdout)
    expect(rotated.stderr).toBe(`A new signing secret is kept in ${secretFile(home)}: give your apps the new one; a gw listen running now signs with the old one until it is started again.\n`)
    expect((await runGw(['listen', '--print-secret'], {env: home})).stdout).toBe(rotated.stdout)
    expect(statSync(secretFile(home)).mode & 0o777).toBe(0o600)
  })

  it('a delivery that carried no credentials of the gateway (no --register, no --auth) is forwarded unsigned, and gw listen says so at start', async () => {
    const app = await startRecorder()
    const open = await startListen(['--no-register', '--forward-to', app.url], {env: isolatedHome()})
    try {
      await open.waitForStderr('Listening for web hooks')
      expect(open.stderr()).toContain(`Forwarding to ${new URL(app.url).href} unsigned: gw listen signs only deliveries that carried the gateway's credentials (--register, or --auth), so that a signature says the gateway sent it.\n`)
      expect(open.stderr()).not.toContain('Your signing secret is')
      expect(await open.post({event: 'card:expiring', payload: []}, {'gw-signature': 't=1,v1=00'})).toBe(200)
      expect(app.requests).toHaveLength(1)
      expect(app.requests[0]!.headers['gw-signature']).toBeUndefined()
    } finally {
      await open.stop()
      await app.close()
    }
  })

  it('one that carried the --auth credentials, read from a file only the user can read, is signed', async () => {
    const home = isolatedHome()
    const secret = (await runGw(['listen', '--print-secret'], {env: home})).stdout.trim()
    const auth = join(home.HOME!, 'hooks.auth')
    writeFileSync(auth, 'hooks:s3cret-from-a-file\n', {mode: 0o600})
    const app = await startRecorder()
    const checked = await startListen(['--no-register', '--auth-file', auth, '--forward-to', app.url], {env: home})
    try {
      await checked.waitForStderr('Listening for web hooks')
      expect(checked.stderr()).toContain('Only deliveries carrying the --auth credentials are taken')
      expect(await checked.post({event: 'card:expiring', payload: []})).toBe(401)
      const basic = `Basic ${Buffer.from('hooks:s3cret-from-a-file').toString('base64')}`
      expect(await checked.post({event: 'card:expiring', payload: []}, {authorization: basic})).toBe(200)
      const [request] = app.requests
      const [, t] = /^t=(\d+),v1=/.exec(String(request!.headers['gw-signature']))!
      expect(request!.headers['gw-signature']).toBe(sign(secret, request!.body, Number(t)))
    } finally {
      await checked.stop()
      await app.close()
    }
    chmodSync(auth, 0o644)
    const refused = await runGw(['listen', '--no-register', '--auth-file', auth], {env: home})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toBe(`Error: --auth-file ${auth} cannot be used: ${auth} holds a secret that others than you can read (mode 0644): it may be known already\nHint: Make it yours alone (chmod 600 ${auth}) and replace the secret it holds.\n`)
  })
})
