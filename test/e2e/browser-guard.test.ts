import {readFileSync} from 'node:fs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {cardArgs, isolatedHome, ref, runGw, type Sandbox, sharedSandbox, startSandbox, startSandboxProcess} from './helpers.js'
import {chargeSuccessful, type Listener, type Recorder, startListen, startRecorder} from './listen-helpers.js'
import {libraryHeaders, rawRequest} from './raw-http.js'

// Web pages kept out of gw sandbox and gw listen: a browser sends a simple cross-origin request
// (a text/plain POST, with its Origin) without asking, and DNS rebinding lets a page read the
// answers under a Host of its own. Each attack below is a request a page can make; each normal
// client beside it (gw, a vendor library, the local gateway's deliveries) must still get in.

const EVIL = {Host: 'evil.example', Origin: 'http://evil.example', 'Content-Type': 'text/plain'}
const hostRefusal = (host: string, server: string, command: string, name = host.replace(/:\d+$/, '')) =>
  `Host "${host}" names no address of this ${server}: a web page may have sent it (DNS rebinding). Reach it as localhost, 127.0.0.1 or [::1], or start it with ${command} --allow-host ${name}.`
const originRefusal = (origin: string, server: string, command: string) =>
  `Web pages are kept out of this ${server}, and this came from one (Origin "${origin}"). To let that page in, start it with ${command} --allow-origin ${origin}.`
const CONTROLS_CLOSED =
  "The local gateway's controls (/_sandbox/) need its control token (Authorization: Bearer TOKEN, printed as it started) or a merchant's credentials other than TEST's, which are published, when it listens on 0.0.0.0, beyond loopback."
const CONTENT_TYPE_REFUSAL = (given: string) =>
  `The local gateway's controls (/_sandbox/) take only Content-Type: application/json (this request had ${given}), so that no web page can send them a simple request. Send the header, as gw does: curl -H 'Content-Type: application/json' ...`

let sandbox: Sandbox
let host: string
sharedSandbox((started) => {
  sandbox = started
  host = new URL(sandbox.url).host
})

const refused = (status: number, error: string) => ({status, body: {successful: false, response: null, errors: [error], test: true}})

async function madePurchase(): Promise<string> {
  const reference = ref('guard')
  const created = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs()])
  expect(created.code, created.stderr).toBe(0)
  return reference
}

/** The latest entry of the request log with this status. */
async function latestLogEntry(status: number): Promise<Record<string, unknown>> {
  const logs = await sandbox.gw(['sandbox', 'logs', '--json', '--limit', '1', '--status', String(status)])
  expect(logs.code, logs.stderr).toBe(0)
  return logs.records[0] as Record<string, unknown>
}

describe('gw sandbox keeps web pages out (Host and Origin)', () => {
  it('a page cannot wipe the local gateway: a forged Host is refused (403, in the envelope), logged, and nothing is reset', async () => {
    const reference = await madePurchase()
    const answer = await rawRequest(sandbox.url, {method: 'POST', path: '/_sandbox/reset', headers: EVIL, body: '{}'})
    expect(answer).toMatchObject(refused(403, hostRefusal('evil.example', 'local gateway', 'gw sandbox start')))
    expect((await sandbox.gw(['purchase', 'get', reference])).code).toBe(0)
    expect(await latestLogEntry(403)).toMatchObject({method: 'POST', path: '/_sandbox/reset', status: 403, merchant: null, error: expect.stringMatching(/^Host "evil\.example" names no address of this local gateway/)})
  })

  it('nor add faults, move the clock or trigger events', async () => {
    const before = await sandbox.gw(['sandbox', 'clock', '--json'])
    for (const [path, body] of [
      ['/_sandbox/faults', {method: 'GET', path: '/v1.0/', action: 'status', status: 503}],
      ['/_sandbox/clock/advance', {days: 30}],
      ['/_sandbox/trigger', {event: 'charge:successful', webhook: 'http://127.0.0.1:9/hooks'}],
    ] as const) {
      const answer = await rawRequest(sandbox.url, {method: 'POST', path, headers: {...EVIL, Host: `evil.example:${new URL(sandbox.url).port}`}, body: JSON.stringify(body)})
      expect(answer.status, path).toBe(403)
    }
    expect(await sandbox.control('GET', '/_sandbox/faults')).toMatchObject({response: []})
    // Not moved: the same day, and its now only as far on as the wall clock went (an advance is 30 days).
    const [was, is] = [before.json, (await sandbox.gw(['sandbox', 'clock', '--json'])).json] as Array<{now: string}>
    expect({...is, now: undefined}).toStrictEqual({...was, now: undefined})
    expect(Date.parse(is!.now) - Date.parse(was!.now)).toBeLessThan(24 * 60 * 60 * 1000)
    expect(await sandbox.control('GET', '/_sandbox/deliveries')).toMatchObject({response: []})
  })

  it('a rebound page cannot read the records with the public demo credentials', async () => {
    const reference = await madePurchase()
    const answer = await rawRequest(sandbox.url, {method: 'GET', path: '/v1.0/purchases', headers: {...libraryHeaders(`evil.example:${new URL(sandbox.url).port}`, {json: false})}})
    expect(answer).toMatchObject(refused(403, hostRefusal(`evil.example:${new URL(sandbox.url).port}`, 'local gateway', 'gw sandbox start', 'evil.example')))
    expect(answer.text).not.toContain(reference)
  })

  it('a request with an Origin (a web page) is refused under the right Host too, preflights included, and moves no money', async () => {
    const reference = ref('origin')
    const body = JSON.stringify({amount: 1000, reference, card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'})
    const purchase = await rawRequest(sandbox.url, {method: 'POST', path: '/v1.0/purchases', headers: {...libraryHeaders(host), Origin: 'http://localhost:3000'}, body})
    expect(purchase).toMatchObject(refused(403, originRefusal('http://localhost:3000', 'local gateway', 'gw sandbox start')))
    expect((await sandbox.gw(['purchase', 'get', reference])).code).toBe(5)
    const read = await rawRequest(sandbox.url, {method: 'GET', path: '/v1.0/purchases', headers: {...libraryHeaders(host, {json: false}), Origin: 'null'}})
    expect(read.status).toBe(403)
    expect(read.body.errors[0]).toContain('Only a page with an http:// or https:// origin can be let in')
    const preflight = await rawRequest(sandbox.url, {method: 'OPTIONS', path: '/_sandbox/reset', headers: {Host: host, Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type'}})
    expect(preflight.status).toBe(403)
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('gw sandbox controls are never a simple request', () => {
  it('a control write takes only application/json (415 otherwise, logged), even from this machine', async () => {
    const reference = await madePurchase()
    for (const [type, given] of [['text/plain', '"text/plain"'], ['application/x-www-form-urlencoded', '"application/x-www-form-urlencoded"'], [undefined, 'none']] as const) {
      const headers = {Host: host, ...(type ? {'Content-Type': type} : {})}
      const answer = await rawRequest(sandbox.url, {method: 'POST', path: '/_sandbox/reset', headers, ...(type ? {body: '{}'} : {})})
      expect(answer).toMatchObject(refused(415, CONTENT_TYPE_REFUSAL(given)))
    }
    // The router's own reading of the path: empty segments skipped, each decoded.
    expect((await rawRequest(sandbox.url, {method: 'POST', path: '//%5Fsandbox/reset', headers: {Host: host, 'Content-Type': 'text/plain'}, body: '{}'})).status).toBe(415)
    expect((await rawRequest(sandbox.url, {method: 'DELETE', path: '/_sandbox/faults', headers: {Host: host, 'Content-Type': 'text/plain'}, body: 'x'})).status).toBe(415)
    expect((await sandbox.gw(['purchase', 'get', reference])).code).toBe(0)
    expect(await latestLogEntry(415)).toMatchObject({method: 'DELETE', path: '/_sandbox/faults', status: 415})
  })

  it('a DELETE with no body needs no Content-Type (a browser never sends one unasked): curl -X DELETE clears the faults, as docs/local-gateway.md shows', async () => {
    expect((await rawRequest(sandbox.url, {method: 'DELETE', path: '/_sandbox/faults', headers: {Host: host}})).status).toBe(200)
    expect((await rawRequest(sandbox.url, {method: 'DELETE', path: '/_sandbox/faults', headers: {Host: host, 'Content-Length': '0'}})).status).toBe(200)
  })

  it("gw's own control requests get in, bodyless writes too, and JSON with a charset", async () => {
    const charset = await rawRequest(sandbox.url, {method: 'POST', path: '/_sandbox/faults', headers: {Host: host, 'Content-Type': 'application/json; charset=utf-8'}, body: JSON.stringify({method: 'GET', path: '/v1.0/nothing-here', action: 'status', status: 503})})
    expect(charset.status).toBe(200)
    const cleared = await sandbox.gw(['api', 'DELETE', '/_sandbox/faults'])
    expect(cleared.code, cleared.stderr).toBe(0)
    expect(await sandbox.control('GET', '/_sandbox/faults')).toMatchObject({response: []})
    const advanced = await sandbox.gw(['sandbox', 'clock', 'advance', '--days', '1', '--json'])
    expect(advanced.code, advanced.stderr).toBe(0)
    const trigger = await sandbox.gw(['sandbox', 'trigger', 'card:expiring', '--webhook', 'http://127.0.0.1:9/hooks', '--json'])
    expect(trigger.code, trigger.stderr).toBe(0)
    const [delivery] = (await sandbox.gw(['sandbox', 'deliveries', '--json'])).records as {id: string}[]
    const redelivered = await sandbox.gw(['sandbox', 'redeliver', delivery!.id, '--json'])
    expect(redelivered.code, redelivered.stderr).toBe(0)
    expect((await sandbox.gw(['sandbox', 'logs', '--limit', '1', '--json'])).code).toBe(0)
  })
})

describe("gw sandbox's normal clients still get in", () => {
  it("a vendor library's requests: JSON, Basic, a library User-Agent, by every loopback name, with or without a port", async () => {
    const {port} = new URL(sandbox.url)
    const reference = ref('library')
    const body = JSON.stringify({amount: 1000, reference, card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123', test: true})
    const created = await rawRequest(sandbox.url, {method: 'POST', path: '/v1.0/purchases', headers: libraryHeaders(`127.0.0.1:${port}`), body})
    expect(created.status, created.text).toBe(200)
    for (const name of [`localhost:${port}`, 'localhost', `LOCALHOST.:${port}`, `[::1]:${port}`, '[::1]', `127.1:${port}`, `api.localhost:${port}`, `127.0.0.1.:${port}`]) {
      const found = await rawRequest(sandbox.url, {method: 'GET', path: `/v1.0/purchases/${reference}`, headers: libraryHeaders(name, {json: false})})
      expect(found.status, `Host: ${name}`).toBe(200)
      expect(found.body.response.reference).toBe(reference)
    }
    // HTTP/1.0 may leave the Host out, and no browser ever does: served.
    const old = await rawRequest(sandbox.url, {method: 'GET', path: `/v1.0/purchases/${reference}`, version: '1.0', headers: {Authorization: libraryHeaders('').Authorization!}})
    expect(old.status).toBe(200)
  })

  it("gw's own client, by URL as the profile holds it", async () => {
    const reference = await madePurchase()
    const listed = await sandbox.gw(['purchase', 'list', '--limit', '5', '--json'], {env: {GW_BASE_URL: sandbox.url.replace('127.0.0.1', 'localhost')}})
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.records.map((record) => (record as {reference: string}).reference)).toContain(reference)
  })
})

describe('gw sandbox --host beyond loopback, --allow-host and --allow-origin', () => {
  let wide: Sandbox
  let port: string
  const ACME = 'ACME:s3cret'
  beforeAll(async () => {
    wide = await startSandbox(['--host', '0.0.0.0', '--merchant', ACME, '--allow-host', 'gateway.internal', '--allow-host', '.corp.example', '--allow-origin', 'http://localhost:3000'])
    port = new URL(wide.url).port
  })
  afterAll(() => wide?.stop())
  const at = (name: string) => `${name}:${port}`
  const acme = (name: string) => libraryHeaders(at(name), {json: false, credentials: ACME})

  it("its controls need a merchant's own credentials or its control token, which gw sends", async () => {
    for (const [method, path] of [['GET', '/_sandbox/info'], ['POST', '/_sandbox/reset']] as const) {
      const answer = await rawRequest(wide.url, {method, path, headers: {Host: at('127.0.0.1'), 'Content-Type': 'application/json'}, body: '{}'})
      expect(answer).toMatchObject(refused(401, CONTROLS_CLOSED))
    }
    const wrong = await rawRequest(wide.url, {method: 'GET', path: '/_sandbox/info', headers: {...acme('127.0.0.1'), Authorization: 'Basic ' + Buffer.from('ACME:nope').toString('base64')}})
    expect(wrong.status).toBe(401)
    expect((await rawRequest(wide.url, {method: 'GET', path: '/_sandbox/info', headers: acme('127.0.0.1')})).status).toBe(200)
    const token = /Its control token \(for \/_sandbox\/ as Authorization: Bearer TOKEN; kept in (.+), readable by you alone\): (\S+)\n/.exec(wide.stderr())
    expect(token?.[2]).toMatch(/^[\w-]{43}$/)
    expect(JSON.parse(readFileSync(token![1]!, 'utf8'))).toMatchObject({controlToken: token![2], host: '0.0.0.0'})
    const bearer = await rawRequest(wide.url, {method: 'GET', path: '/_sandbox/info', headers: {Host: at('127.0.0.1'), Authorization: `Bearer ${token![2]}`}})
    expect(bearer.status).toBe(200)
    // As the user who started it (its runtime file in their data folder), gw sends the control token: every control is theirs.
    const owner = {GW_BASE_URL: `http://127.0.0.1:${port}`}
    const advanced = await wide.gw(['sandbox', 'clock', 'advance', '--days', '1', '--json'], {env: owner})
    expect(advanced.code, advanced.stderr).toBe(0)
    expect((await wide.gw(['api', 'POST', '/_sandbox/reset'], {env: owner})).code).toBe(0)
  })

  it("a merchant's credentials reach only that merchant's own records on its controls; what acts on every merchant's takes the control token", async () => {
    // Another user of the network: no runtime file of this gateway in their data folder, so no control token.
    const acmeGw = (args: string[]) => runGw(args, {env: {...isolatedHome(), GW_BASE_URL: `http://127.0.0.1:${port}`, GW_USERNAME: 'ACME', GW_TOKEN: 's3cret'}})
    const ownerOnly = (control: string) =>
      `/_sandbox/${control} acts on every merchant's records, so on a local gateway listening on 0.0.0.0, beyond loopback, it takes the control token (Authorization: Bearer TOKEN), which only the user who started it can read; merchant ACME's credentials reach only its own sample events, requests and the gateway's clock.`
    for (const [args, control] of [
      [['api', 'POST', '/_sandbox/reset'], 'reset'],
      [['sandbox', 'clock', 'advance', '--days', '1'], 'clock'],
      [['sandbox', 'fault', 'list'], 'faults'],
      [['sandbox', 'deliveries'], 'deliveries'],
    ] as const) {
      const refusedHere = await acmeGw([...args])
      expect(refusedHere.code, args.join(' ')).not.toBe(0)
      expect(refusedHere.stderr, args.join(' ')).toContain(ownerOnly(control))
    }
    // Its own: the clock read, its own requests only (never TEST's or another's), sample events in its own account only.
    expect((await acmeGw(['sandbox', 'clock', '--json'])).code).toBe(0)
    await wide.gw(['purchase', 'list'])
    expect((await acmeGw(['purchase', 'list'])).code).toBe(0)
    const logs = await acmeGw(['sandbox', 'logs', '--json'])
    expect(logs.code, logs.stderr).toBe(0)
    const entries = logs.stdout.trim().split('\n').map((line) => JSON.parse(line) as {merchant: string | null; path: string})
    expect(entries.map((entry) => [entry.merchant, entry.path])).toEqual([['ACME', '/v1.0/purchases']])
    const theirs = await acmeGw(['sandbox', 'logs', '--merchant', 'TEST', '--json'])
    expect(theirs.stderr).toContain("Merchant ACME's credentials show ACME's requests alone, not TEST's")
    const asTestToo = await rawRequest(wide.url, {method: 'POST', path: '/_sandbox/trigger', headers: {...acme('127.0.0.1'), 'Content-Type': 'application/json'}, body: JSON.stringify({event: 'charge:successful', merchant: 'TEST', webhook: 'http://127.0.0.1:9/'})})
    expect(asTestToo).toMatchObject({status: 403, body: {errors: ["Merchant ACME's credentials make sample events for ACME alone, not for TEST"]}})
    const info = await rawRequest(wide.url, {method: 'GET', path: '/_sandbox/info', headers: acme('127.0.0.1')})
    expect((info.body as {response: {merchants: string[]}}).response.merchants).toEqual(['ACME'])
  })

  it('answers the names it was given and any IP address (those cannot be rebound); any other name is refused, naming the flag', async () => {
    for (const name of ['gateway.internal', 'GATEWAY.INTERNAL.', 'corp.example', 'box.corp.example', '192.0.2.10', '[2001:db8::1]']) {
      const answer = await rawRequest(wide.url, {method: 'GET', path: '/v1.0/purchases', headers: acme(name)})
      expect(answer.status, name).toBe(200)
    }
    const other = await rawRequest(wide.url, {method: 'GET', path: '/v1.0/purchases', headers: acme('sandbox')})
    expect(other).toMatchObject({status: 403, body: {errors: [hostRefusal(at('sandbox'), 'local gateway', 'gw sandbox start', 'sandbox')]}})
  })

  it('lets the allowed page in, preflight and answers alike, with CORS headers; no other page', async () => {
    const preflight = await rawRequest(wide.url, {method: 'OPTIONS', path: '/v1.0/purchases', headers: {Host: at('localhost'), Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization'}})
    expect(preflight.status).toBe(204)
    expect(preflight.headers).toMatchObject({'access-control-allow-origin': 'http://localhost:3000', 'access-control-allow-headers': 'Authorization, Content-Type, Accept', 'access-control-allow-methods': 'GET, POST, PUT, DELETE', vary: 'Origin'})
    const read = await rawRequest(wide.url, {method: 'GET', path: '/v1.0/purchases', headers: {...acme('localhost'), Origin: 'http://localhost:3000'}})
    expect(read.status).toBe(200)
    expect(read.headers['access-control-allow-origin']).toBe('http://localhost:3000')
    const other = await rawRequest(wide.url, {method: 'GET', path: '/v1.0/purchases', headers: {...acme('localhost'), Origin: 'http://localhost:3001'}})
    expect(other.status).toBe(403)
  })
})

// A local gateway on a network is closed by default: the published TEST:TEST opens nothing there.
describe('gw sandbox --host 0.0.0.0 refuses merchant TEST, whose token is published, unless --open-test-merchant', () => {
  const TEST_REFUSED = (host: string) =>
    `Merchant TEST's token is published, so it is refused on a local gateway listening on ${host}, beyond loopback. Use a merchant of your own (gw sandbox start --merchant USER:TOKEN), or start it with --open-test-merchant to let anyone who reaches it in as TEST.`
  const asTest = (url: string, method: string, path: string) =>
    rawRequest(url, {method, path, headers: libraryHeaders(new URL(url).host.replace('0.0.0.0', '127.0.0.1')), body: method === 'POST' ? '{}' : undefined})

  it("on its controls and on every merchant route, saying what is exposed as it starts; the owner's profile gets in with the control token", async () => {
    const shut = await startSandboxProcess(['--host', '0.0.0.0'])
    try {
      const url = shut.url.replace('0.0.0.0', '127.0.0.1')
      for (const [method, path] of [['GET', '/_sandbox/info'], ['POST', '/_sandbox/reset'], ['POST', '/_sandbox/faults'], ['GET', '/_sandbox/requests']] as const) {
        expect(await asTest(url, method, path), `${method} ${path}`).toMatchObject(refused(401, CONTROLS_CLOSED))
      }
      for (const [method, path] of [['GET', '/v1.0/purchases'], ['POST', '/v1.0/purchases'], ['GET', '/ping'], ['POST', '/_sandbox/dated/x']] as const) {
        const answer = await asTest(url, method, path)
        expect(answer.status, `${method} ${path}`).toBe(401)
        if (!path.startsWith('/_sandbox/')) expect(answer.body, `${method} ${path}`).toMatchObject({errors: [TEST_REFUSED('0.0.0.0')]})
      }
      // Another user's gw, without the gateway's runtime file: TEST is refused. The owner's gw sends the control token with it.
      const stranger = await runGw(['purchase', 'list'], {env: {...isolatedHome(), GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}})
      expect(stranger.code).toBe(4)
      expect(stranger.stderr).toContain("Merchant TEST's token is published")
      expect(shut.stderr()).toContain(
        "Warning: listening on 0.0.0.0 makes the local gateway reachable from other machines, where its merchants need their own credentials (merchant TEST, whose token is published, is refused; --open-test-merchant lets it in) and its controls (/_sandbox/: reset, with the --state file; faults; the clock; sample events; every merchant's request log) need the control token (your own gw sends it from this machine; a merchant's credentials reach only that merchant's sample events and requests).\n",
      )
      expect(shut.stderr()).toContain('Profile "local" reaches it as merchant TEST from this machine only: gw sends its control token with TEST\'s credentials, and TEST alone is refused.\n')
      // The owner's own gw, through its profile: merchant routes and every control.
      const mine = {env: shut.home}
      expect((await runGw(['profile', 'show', 'local', '--json'], mine)).json).toMatchObject({base_url: url, username: 'TEST'})
      for (const args of [['purchase', 'list'], ['sandbox', 'clock'], ['sandbox', 'logs'], ['sandbox', 'fault', 'list'], ['api', 'POST', '/_sandbox/reset'], ['sandbox', 'status']]) {
        const ran = await runGw(args, mine)
        expect(ran.code, `${args.join(' ')}: ${ran.stderr}`).toBe(0)
      }
    } finally {
      await shut.stop()
    }
  })

  it('lets TEST in on both with --open-test-merchant, and says what that opens', async () => {
    const open = await startSandbox(['--host', '0.0.0.0', '--open-test-merchant'])
    try {
      const url = open.url.replace('0.0.0.0', '127.0.0.1')
      expect((await asTest(url, 'GET', '/_sandbox/info')).status).toBe(200)
      expect((await asTest(url, 'GET', '/v1.0/purchases')).status).toBe(200)
      expect(open.stderr()).toContain(
        "Warning: listening on 0.0.0.0 makes the local gateway reachable from other machines, and --open-test-merchant lets anyone who reaches it in as merchant TEST, whose token (TEST) is published: they can read and make TEST's records and use its controls (/_sandbox/: reset, with the --state file; faults; the clock; sample events; every merchant's request log).\n",
      )
      // Its profile reaches it on loopback, as merchant TEST.
      const shown = await runGw(['profile', 'show', 'local', '--json'], {env: open.home})
      expect(shown.json).toMatchObject({base_url: url, username: 'TEST'})
    } finally {
      await open.stop()
    }
  })
})

describe('gw listen keeps web pages out (Host and Origin)', () => {
  const running: (Listener | Recorder)[] = []
  afterAll(async () => {
    await Promise.all(running.map((item) => ('stop' in item ? item.stop('SIGKILL') : item.close())))
  })

  it("a page cannot make the app believe a payment went through: refused (403, in the envelope), said on stderr, never forwarded", async () => {
    const app = await startRecorder()
    running.push(app)
    const listener = await startListen(['--forward-to', `${app.url}/hooks`, '--no-register'], {env: isolatedHome()})
    running.push(listener)
    const {port} = new URL(listener.url)
    const forgedHost = await rawRequest(listener.url, {method: 'POST', path: '/', headers: EVIL, body: JSON.stringify(chargeSuccessful())})
    expect(forgedHost).toMatchObject({status: 403, body: {successful: false, errors: [hostRefusal('evil.example', 'web hook receiver', 'gw listen')], response: null}})
    const fromPage = await rawRequest(listener.url, {method: 'POST', path: '/', headers: {...EVIL, Host: `127.0.0.1:${port}`}, body: JSON.stringify(chargeSuccessful())})
    expect(fromPage).toMatchObject({status: 403, body: {errors: [originRefusal('http://evil.example', 'web hook receiver', 'gw listen')]}})
    await listener.waitForStderr(`Warning: refused a request (403): ${originRefusal('http://evil.example', 'web hook receiver', 'gw listen')}`)
    expect(listener.stderr()).toContain(`Warning: refused a request (403): ${hostRefusal('evil.example', 'web hook receiver', 'gw listen')}`)

    // The gateway's own kind of request gets through: by each loopback name, or HTTP/1.0 with no Host at all.
    for (const name of [`127.0.0.1:${port}`, `localhost.:${port}`, `[::1]:${port}`, 'localhost']) {
      expect((await rawRequest(listener.url, {method: 'POST', path: '/', headers: {Host: name, 'Content-Type': 'application/json', 'User-Agent': 'gateway-webhooks/1.0'}, body: JSON.stringify(chargeSuccessful())})).status, name).toBe(200)
    }
    expect((await rawRequest(listener.url, {method: 'POST', path: '/', version: '1.0', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(chargeSuccessful())})).status).toBe(200)
    await listener.waitForLines(5)
    expect(app.requests).toHaveLength(5)
  })

  it('--allow-origin lets that page in, preflight first', async () => {
    const listener = await startListen(['--allow-origin', 'http://localhost:3000', '--no-register'], {env: isolatedHome()})
    running.push(listener)
    const host = new URL(listener.url).host
    const preflight = await rawRequest(listener.url, {method: 'OPTIONS', path: '/', headers: {Host: host, Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'POST'}})
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:3000')
    const posted = await rawRequest(listener.url, {method: 'POST', path: '/', headers: {Host: host, Origin: 'http://localhost:3000', 'Content-Type': 'application/json'}, body: JSON.stringify(chargeSuccessful())})
    expect(posted.status).toBe(200)
    expect(posted.headers['access-control-allow-origin']).toBe('http://localhost:3000')
  })
})
