import {spawn} from 'node:child_process'
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {delimiter, join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {countingProxy} from '../counting-proxy.js'
import {withoutRequestIds} from '../log-text.js'
import {baseEnv, CARDS, GW, isolatedHome, ref, runProgram, type Sandbox, sharedSandbox} from './helpers.js'
import {until} from '../until.js'
import {ownValue} from '../own-value.js'
import {DEV_FULL, POSIX_SCRIPTS} from '../only-on.js'

// A merchant with a token of its own, so the test can look for it (TEST's token is its name).
const TOKEN = 's3cret-token-4417'
const CVV = '7391'
const THE_CVV = ownValue(CVV)
const dir = mkdtempSync(join(tmpdir(), 'gw-e2e-logs-'))
const stateFile = join(dir, 'gateway.json')
const logFile = join(dir, 'gateway.requests.ndjson')
let sandbox: Sandbox

sharedSandbox((started) => void (sandbox = started), ['--state', stateFile, '--merchant', `ACME:${TOKEN}`])

/** A purchase as an integrator's app makes it: curl, Basic credentials, a CVV. */
function curlPurchase(reference: string, amount = 1000) {
  const body = JSON.stringify({card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: CVV, amount, reference})
  return runProgram('curl', ['-sS', '-u', `ACME:${TOKEN}`, '-H', 'Content-Type: application/json', '-d', body, `${sandbox.url}/v1.0/purchases`])
}

describe('gw sandbox logs', () => {
  it('shows a purchase made with curl, its status and masked card; no CVV or token reaches the log file', async () => {
    const reference = ref('curl')
    const made = await curlPurchase(reference)
    expect(made.code, made.stderr).toBe(0)
    expect(JSON.parse(made.stdout)).toMatchObject({successful: true, response: {reference, message: 'Approved'}})

    const logs = await sandbox.gw(['sandbox', 'logs', '--merchant', 'ACME', '--json'])
    expect(logs.code, logs.stderr).toBe(0)
    expect(logs.stderr).toBe('')
    const entry = logs.records.find((record) => (record as {reference: string}).reference === reference)
    expect(entry).toStrictEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      merchant: 'ACME',
      method: 'POST',
      path: '/v1.0/purchases',
      status: 200,
      ms: expect.any(Number),
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reference,
      card_number: '424242XXXXXX4242',
      error: null,
    })

    // The file beside the state file holds the same line once the gateway has written it (within 100 ms).
    const text = await until('the log file to hold the purchase', () => (existsSync(logFile) && readFileSync(logFile, 'utf8').includes(reference) ? readFileSync(logFile, 'utf8') : undefined))
    expect(text.trim().split('\n').map((line) => JSON.parse(line))).toContainEqual(entry)
    expect(withoutRequestIds(text)).not.toMatch(THE_CVV)
    for (const secret of [TOKEN, Buffer.from(`ACME:${TOKEN}`).toString('base64'), CARDS.visa, '"cvv"', 'authorization']) expect(withoutRequestIds(text)).not.toContain(secret)
  })

  it('keeps no text of a body that is not JSON, and a stored card token by its last four only, in the path and in the error', async () => {
    const curl = (args: string[]) => runProgram('curl', ['-sS', '-u', `ACME:${TOKEN}`, ...args])
    const form = await curl(['-H', 'Content-Type: application/x-www-form-urlencoded', '-d', `cvv=${CVV}&card_number=${CARDS.visa}`, `${sandbox.url}/v1.0/purchases`])
    expect(JSON.parse(form.stdout)).toMatchObject({successful: false, errors: ['Request body is not valid JSON']})
    const card = await curl(['-H', 'Content-Type: application/json', '-d', JSON.stringify({card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: CVV}), `${sandbox.url}/v1.0/credit_cards`])
    const token = (JSON.parse(card.stdout) as {response: {token: string}}).response.token
    const masked = '*'.repeat(16) + token.slice(-4)
    const reference = ref('tok')
    await curl([`${sandbox.url}/v1.0/credit_cards/${token}`])
    await curl(['-X', 'PUT', '-H', 'Content-Type: application/json', '-d', '{"alias":"jane-visa"}', `${sandbox.url}/v1.0/credit_cards/${token}.json`])
    const unknown = 'zzzzzzzzzzzzzzzz9876'
    const refused = await curl(['-H', 'Content-Type: application/json', '-d', JSON.stringify({card_token: unknown, amount: 1000, reference}), `${sandbox.url}/v1.0/purchases`])
    // The interface's own words reach the app that sent the token; only the log leaves it out.
    expect(JSON.parse(refused.stdout)).toMatchObject({errors: [`Card ${unknown} could not be found`]})
    await curl([`${sandbox.url}/v1.0/credit_cards/${token}/extra`])

    // The last has no merchant: a path that matches no route is refused before its credentials are read.
    const logs = await sandbox.gw(['sandbox', 'logs', '--json', '--limit', '6'])
    expect(logs.code, logs.stderr).toBe(0)
    expect(logs.records.map((entry) => [(entry as {method: string}).method, (entry as {path: string}).path, (entry as {error: string | null}).error])).toStrictEqual([
      ['POST', '/v1.0/purchases', 'Request body is not valid JSON'],
      ['POST', '/v1.0/credit_cards', null],
      ['GET', `/v1.0/credit_cards/${masked}`, null],
      ['PUT', `/v1.0/credit_cards/${masked}.json`, null],
      ['POST', '/v1.0/purchases', 'Card ****************9876 could not be found'],
      ['GET', `/v1.0/credit_cards/${masked}/extra`, 'Not Found'],
    ])
    const text = await until('the log file to hold the refused purchase', () => (readFileSync(logFile, 'utf8').includes(reference) ? readFileSync(logFile, 'utf8') : undefined))
    for (const written of [logs.stdout, text]) expect(withoutRequestIds(written)).not.toMatch(THE_CVV)
    for (const secret of ['cvv=', token, unknown, CARDS.visa]) {
      expect(withoutRequestIds(logs.stdout)).not.toContain(secret)
      expect(withoutRequestIds(text)).not.toContain(secret)
    }
  })

  it('prints a request made after --follow started by its second poll once it is answered, and stops quietly on Ctrl-C (130)', async ({onTestFinished}) => {
    await curlPurchase(ref('before'))
    // Its polls counted by a proxy, not timed: a loaded machine slows them, never their count.
    const proxy = await countingProxy(sandbox.url)
    onTestFinished(() => proxy.close())
    const child = spawn(process.execPath, [GW, 'sandbox', 'logs', '--follow', '--limit', '1', '--merchant', 'ACME'], {env: baseEnv({...sandbox.env(), GW_BASE_URL: proxy.url}), stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    const polledAfter = (from: number) => proxy.gets(from).map((path) => new URL(path, proxy.url).searchParams.get('after'))
    try {
      // The latest request first; once a poll asks for what came after it, the follower is polling.
      await until('the latest request', () => (stdout.includes('"before-') && polledAfter(0).some(Boolean) ? true : undefined))
      const reference = ref('after')
      await curlPurchase(reference, 10051)
      const answered = proxy.seen.length
      const cursor = polledAfter(0).at(-1)
      const line = await until('the new request', () => stdout.split('\n').find((text) => text.includes(reference)))
      expect(JSON.parse(line)).toMatchObject({merchant: 'ACME', method: 'POST', path: '/v1.0/purchases', status: 200, reference, card_number: '424242XXXXXX4242'})
      // Polls sent from the old cursor after the answer: none (one in flight found it), the one that found it, and one before it at most.
      await until('a poll from the new cursor', () => (polledAfter(answered).some((after) => after !== cursor) ? true : undefined))
      expect(polledAfter(answered).findIndex((after) => after !== cursor)).toBeLessThanOrEqual(2)
    } finally {
      child.kill('SIGINT')
    }
    expect(await exited).toBe(130)
    expect(stderr).toBe('')
  })

  it('--status 4xx --json keeps only the refused requests', async () => {
    const merchant = ['--merchant', 'TEST']
    const missing = ref('missing')
    await sandbox.gw(['purchase', 'get', missing])
    await runProgram('curl', ['-sS', '-u', 'TEST:TEST', '-H', 'Content-Type: application/json', '-d', '{"amount":1000}', `${sandbox.url}/v1.0/refunds`])
    await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card-holder', 'Jane Citizen', '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])

    const all = await sandbox.gw(['sandbox', 'logs', ...merchant, '--json', '--limit', '3'])
    expect(all.records.map((entry) => (entry as {status: number}).status)).toStrictEqual([404, 400, 200])
    const refused = await sandbox.gw(['sandbox', 'logs', ...merchant, '--status', '4xx', '--json', '--limit', '2'])
    expect(refused.code, refused.stderr).toBe(0)
    expect(refused.records).toStrictEqual([
      expect.objectContaining({method: 'GET', path: `/v1.0/purchases/${missing}`, status: 404, error: 'Purchase not found', reference: null, card_number: null}),
      expect.objectContaining({method: 'POST', path: '/v1.0/refunds', status: 400, error: 'Invalid credit card for unmatched refund', reference: null}),
    ])
    const only404 = await sandbox.gw(['sandbox', 'logs', ...merchant, '--status', '404', '--path', '/v1.0/purchases/', '--json', '--limit', '1'])
    expect(only404.records).toStrictEqual([expect.objectContaining({path: `/v1.0/purchases/${missing}`})])
  })

  it('shows one line per request on a terminal', async () => {
    const reference = ref('tty')
    await curlPurchase(reference)
    const shown = await sandbox.gw(['sandbox', 'logs', '--merchant', 'ACME', '--limit', '1'], {env: {GW_FORCE_TTY: '200', NO_COLOR: '1'}})
    expect(shown.code).toBe(0)
    expect(shown.stdout).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  ACME  POST /v1\\.0/purchases  200  [\\d.]+ ms  ${reference}  424242XXXXXX4242  req [0-9a-f-]{36}\\n$`))
  })

  it.skipIf(DEV_FULL.skip)(`stops when its reader goes away (141), and says when stdout cannot be written (1)${DEV_FULL.note}`, async () => {
    await curlPurchase(ref('pipe'))
    const child = spawn('bash', ['-c', `"${process.execPath}" "${GW}" sandbox logs --follow --limit 2 | head -1; echo "exit \${PIPESTATUS[0]}" >&2`], {env: baseEnv(sandbox.env()), stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
    await until('head to print a line', () => (stdout.includes('\n') ? true : undefined))
    // The next request is the next write, which finds the reader gone.
    await curlPurchase(ref('after-head'))
    await exited
    expect(stdout.trim().split('\n')).toHaveLength(1)
    // A closed pipe is silent, as gh and coreutils leave.
    expect(stderr).toBe('exit 141\n')

    const full = await runProgram('bash', ['-c', `"${process.execPath}" "${GW}" sandbox logs > /dev/full`], {env: sandbox.env()})
    expect(full.code).toBe(1)
    expect(full.stderr).toContain('Error: stdout could not be written (ENOSPC)')
  })

  it('refuses a --status it cannot read (exit 2), and says when nothing matches', async () => {
    const bad = await sandbox.gw(['sandbox', 'logs', '--status', '4x'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('Error: --status must be a status class such as 4xx, a status such as 404, or several separated by commas, not "4x"\nHint: For example --status 4xx, --status 404 or --status 4xx,503.\n')
    const none = await sandbox.gw(['sandbox', 'logs', '--merchant', 'NOBODY'])
    expect(none.code).toBe(0)
    expect(none.stdout).toBe('')
    expect(none.stderr).toBe('No requests to show.\n')
  })
})

describe("docs/local-gateway.md's CI lines", () => {
  it.skipIf(POSIX_SCRIPTS.skip)(`start a detached gateway with a state file, seed it, and print its log when the tests fail${POSIX_SCRIPTS.note}`, async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'local-gateway.md'), 'utf8')
    const script = /### In CI\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(script, "docs/local-gateway.md's CI lines").toBeDefined()
    expect(script).toContain('npm test')
    const home = isolatedHome()
    const work = join(home.HOME!, 'app')
    mkdirSync(join(work, 'test'), {recursive: true})
    mkdirSync(join(work, 'bin'))
    writeFileSync(join(work, 'bin', 'gw'), `#!/bin/sh\nexec "${process.execPath}" "${GW}" "$@"\n`)
    chmodSync(join(work, 'bin', 'gw'), 0o755)
    writeFileSync(join(work, 'test', 'fixtures.json'), JSON.stringify({steps: [{name: 'gold', create: 'plan', fields: {name: 'Gold', amount: 2500, reference: 'gold', description: 'Gold'}}]}))
    // The app's tests, failing: a request the gateway refuses.
    const failing = script!.replace('npm test', 'curl -fsS -u TEST:TEST "$GATEWAY_URL/v1.0/plans/silver" > /dev/null')
    const run = await runProgram('bash', ['-e', '-c', failing], {cwd: work, env: {...home, RUNNER_TEMP: home.HOME, PATH: [join(work, 'bin'), process.env.PATH].join(delimiter)}})
    expect(run.code, run.stderr).toBe(1)
    expect(run.records).toContainEqual(expect.objectContaining({method: 'POST', path: '/v1.0/plans', status: 201, reference: 'gold'}))
    expect(run.records).toContainEqual(expect.objectContaining({method: 'GET', path: '/v1.0/plans/silver', status: 404, error: 'Record not found'}))
    expect(existsSync(join(home.HOME!, 'gateway.requests.ndjson'))).toBe(true)
    // The trap stopped it.
    const status = await runProgram(process.execPath, [GW, 'sandbox', 'status'], {env: home})
    expect(status.code).toBe(1)
  })
})
