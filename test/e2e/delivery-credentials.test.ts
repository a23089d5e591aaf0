import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {isolatedHome, type Sandbox, sharedSandbox} from './helpers.js'
import {until} from '../until.js'
import {chargeSuccessful, type Listener, type Recorder, type RecordedRequest, startListen, startRecorder} from './listen-helpers.js'

// Deliveries prove where they came from: the gateway sends the HTTP Basic credentials a web hook
// was registered with (gateway-notes.md), and gw listen takes only deliveries carrying them.

/**
 * The local gateway's dialects (design.md §2): every test here runs against each. The live one
 * runs once this build's gw sandbox start takes --dialect, and is skipped, saying so, before.
 */
const startFlags = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'oclif.manifest.json'), 'utf8')).commands['sandbox:start'].flags
const DIALECTS = [
  {dialect: 'contract', args: [] as string[], missing: undefined},
  {dialect: 'live', args: ['--dialect', 'live'], missing: 'dialect' in startFlags ? undefined : 'gw sandbox start takes no --dialect in this build'},
]

const basic = (credentials: string) => 'Basic ' + Buffer.from(credentials).toString('base64')

for (const {dialect, args, missing} of DIALECTS) {
  if (missing) console.warn(`Skipping the delivery credentials tests in the ${dialect} dialect: ${missing}`)

  describe.skipIf(missing !== undefined)(`deliveries and their credentials, the local gateway in its ${dialect} dialect`, () => {
    let sandbox: Sandbox
    const running: (Listener | Recorder)[] = []
    sharedSandbox((started) => void (sandbox = started), args)
    afterEach(async () => {
      await Promise.all(running.splice(0).map((item) => ('stop' in item ? item.stop('SIGINT') : item.close())))
    })

    async function recorder(): Promise<Recorder> {
      const app = await startRecorder()
      running.push(app)
      return app
    }
    async function listen(listenArgs: string[], options: Parameters<typeof startListen>[1]): Promise<Listener> {
      const listener = await startListen(listenArgs, options)
      running.push(listener)
      return listener
    }
    async function gw(gwArgs: string[], options: {stdin?: string} = {}): Promise<unknown> {
      const result = await sandbox.gw([...gwArgs, '--json'], options)
      expect(result.code, result.stderr).toBe(0)
      return result.json
    }
    const expiring = (requests: RecordedRequest[]) => requests.find((request) => request.body.includes('"card:expiring"'))

    it("sends a registration's credentials with each delivery, a sample to its address too, and none where none were registered", async () => {
      const [guarded, open] = [await recorder(), await recorder()]
      const hook = (await gw(['webhook', 'create', '--url', `${guarded.url}/hooks`, '--auth', '-'], {stdin: 'hooks:s3cret\n'})) as {id: string}
      const openHook = (await gw(['webhook', 'create', '--url', `${open.url}/hooks`])) as {id: string}
      await gw(['sandbox', 'trigger', 'card:expiring'])
      const [sent, sentOpen] = [await until('the delivery with credentials', () => expiring(guarded.requests)), await until('the delivery without', () => expiring(open.requests))]
      expect(sent.headers).toMatchObject({authorization: basic('hooks:s3cret'), 'content-type': 'application/json'})
      expect(sentOpen.headers.authorization).toBeUndefined()

      await gw(['sandbox', 'trigger', 'charge:failed', '--webhook', `${guarded.url}/hooks`])
      const sample = await until('the sample', () => guarded.requests.find((request) => request.body.includes('"charge:failed"')))
      expect(sample.headers.authorization).toBe(basic('hooks:s3cret'))
      await gw(['webhook', 'delete', hook.id])
      await gw(['webhook', 'delete', openHook.id])
    })

    it('gw listen --register takes only deliveries carrying its fresh credentials; anything else is 401, said on stderr, never forwarded', async () => {
      const app = await recorder()
      const listener = await listen(['--register', '--json', '--forward-to', `${app.url}/hooks`], {env: sandbox.env()})
      const stderr = listener.stderr()
      expect(stderr).toContain('Only deliveries carrying the credentials it was registered with (fresh for this run) are taken; anything else is refused (401), never forwarded.')
      expect(stderr).not.toContain('takes deliveries from anyone')
      const hooks = (await sandbox.gw(['webhook', 'list', '--json'])).records as {address: string; authentication_username: string}[]
      const username = hooks.find((hook) => hook.address === listener.url)!.authentication_username
      expect(username).toMatch(/^gw-listen-[\da-f]{8}$/)

      // A forged delivery: from anything on this machine but the gateway.
      expect(await listener.post(chargeSuccessful())).toBe(401)
      expect(await listener.post(chargeSuccessful(), {authorization: basic(`${username}:guessed`)})).toBe(401)
      await listener.waitForStderr(/(Warning: refused a request \(401\): POST \/ without the credentials of this receiver's web hook \(HTTP Basic\): not taken, not forwarded\n[^]*){2}/)

      await gw(['sandbox', 'trigger', 'card:expiring'])
      const [line] = await listener.waitForLines(1)
      expect(JSON.parse(line!)).toMatchObject({event: 'card:expiring', headers: {'content-type': 'application/json'}})
      await until("the app's one delivery", () => (app.requests.length > 0 ? true : undefined))
      // The gateway's delivery alone reached the app, without gw listen's own credentials, which mean nothing to it.
      expect(app.requests).toHaveLength(1)
      expect(app.requests[0]!.body).toContain('"card:expiring"')
      expect(app.requests[0]!.headers.authorization).toBeUndefined()
      const stopped = await listener.stop('SIGINT')
      expect(stopped.stderr).toContain('Stopped. 1 event shown, 2 requests refused.')
    })

    it('gw listen --auth takes the credentials of a registration made elsewhere, from stdin, and passes them on to the app', async () => {
      const app = await recorder()
      const listener = await listen(['--auth', '-', '--forward-to', `${app.url}/hooks`, '--json'], {env: sandbox.env(), stdin: 'shop:0ther-s3cret\n'})
      expect(listener.stderr()).toContain('Only deliveries carrying the --auth credentials are taken; anything else is refused (401), never forwarded.')
      const hook = (await gw(['webhook', 'create', '--url', listener.url, '--auth', '-'], {stdin: 'shop:0ther-s3cret\n'})) as {id: string}
      expect(await listener.post(chargeSuccessful())).toBe(401)
      await gw(['sandbox', 'trigger', 'card:expiring'])
      await listener.waitForLines(1)
      await until("the app's delivery", () => (app.requests.length > 0 ? true : undefined))
      expect(app.requests.map((request) => request.headers.authorization)).toStrictEqual([basic('shop:0ther-s3cret')])
      expect(listener.stderr() + listener.stdout()).not.toContain('0ther-s3cret')
      await gw(['webhook', 'delete', hook.id])
    })

    it('gw listen with neither says once, at start, that anyone on this machine can deliver, and takes the local gateway\'s deliveries', async () => {
      const listener = await listen(['--json'], {env: isolatedHome()})
      const warning = 'Warning: gw listen takes deliveries from anyone on this machine: --register has it registered with credentials of its own, and --auth - (USER:PASS read from stdin, or --auth-file FILE) takes only those of a registration made elsewhere, with no password in argv.'
      expect(listener.stderr()).toContain(warning)
      await gw(['sandbox', 'trigger', 'card:expiring', '--webhook', listener.url])
      await listener.waitForLines(1)
      expect(listener.stderr().split(warning)).toHaveLength(2)
    })
  })
}
