import {expect, it, type TestContext} from 'vitest'
import {apiRequestsSince, cardArgs, CARDS, describeInBothDialects, describeOnce, errorJson, ref, requestLogCursor, type Sandbox, sharedSandbox, startSandbox} from './helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

const create = (reference: string, env: NodeJS.ProcessEnv = {}, at: Sandbox = sandbox) =>
  at.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--json'], {env})

/**
 * A gateway of one test's own, stopped when it finishes: the tests that wait out a processing
 * window run at once, and a fault armed at a gateway answers whichever request comes first.
 */
async function ownGateway(onTestFinished: TestContext['onTestFinished']): Promise<Sandbox> {
  const own = await startSandbox()
  onTestFinished(() => own.stop())
  return own
}

describeInBothDialects('a purchase is never sent twice', () => {
  it('recovers a purchase whose answer was lost by looking its reference up', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/purchases', action: 'drop-after'})
    const reference = ref()
    const result = await create(reference)
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({reference, successful: true, message: 'Approved'})
    expect(result.stderr).toContain(`looking reference ${reference} up at the gateway`)
    expect(result.stderr).toContain('Found the purchase by its reference: the gateway processed it once.')
  })

  it.concurrent('exits 8 with the command to check later when the gateway has no record once its processing window is over', async ({onTestFinished}) => {
    const sandbox = await ownGateway(onTestFinished)
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/purchases', action: 'drop-before'})
    const reference = ref()
    // The local gateway's window, 2 s, which it proves to gw (the live gateway keeps its minute: test/unit/api/local-gateway.test.ts).
    const result = await create(reference, {}, sandbox)
    expect(result.code).toBe(8)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`, and the gateway has no purchase with reference ${reference}, even 2 s after it was sent (the most it takes to process one).`)
    expect(result.stderr).toContain(`Do not resend it until you have checked what the gateway has: gw purchase get ${reference}`)
    expect(errorJson(result)).toMatchObject({error: {kind: 'outcome_unknown', exit_code: 8}})
  })

  // A 408 says the request was not read in time, but one from a front end may not mean it: the reference settles it.
  it.concurrent.for([503, 408])('does not retry a POST answered %i: it checks the reference instead', async (status, {onTestFinished}) => {
    const sandbox = await ownGateway(onTestFinished)
    // The first POST only is answered with the fault (times: 1): a second one, a retry, would be processed.
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/purchases', action: 'status', status, times: 1})
    const cursor = await requestLogCursor(sandbox)
    const reference = ref()
    const result = await create(reference, {}, sandbox)
    expect(result.code).toBe(8)
    // One POST reached the gateway, the one the fault answered; what followed were look-ups.
    const posts = (await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')
    expect(posts.map((post) => ({path: post.path, status: post.status}))).toEqual([{path: '/v1.0/purchases', status}])
    expect(result.stderr).toContain(`The purchase was sent but no answer came back that could be read (the gateway answered HTTP ${status}`)
    expect(((await sandbox.control('GET', '/_sandbox/faults')) as {response: unknown[]}).response).toEqual([])
    // The fault's answer was not processed and gw did not send the purchase again, so there is none.
    expect((await sandbox.gw(['purchase', 'get', reference])).code).toBe(5)
  })

  it.concurrent('times out before the gateway is done: looks the reference up until the purchase shows, and reports it (exit 0), sent once', async ({onTestFinished}) => {
    const sandbox = await ownGateway(onTestFinished)
    // The gateway takes 4 s: gw gives up after 0.3 s, and its first look-up must come before the purchase is
    // made, however loaded the machine; the next, 5 s later (LOOK_AGAIN_MS), finds it. 1.5 s left that a race.
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/purchases', action: 'delay', delayMs: 4000})
    const reference = ref()
    const result = await create(reference, {GW_RESPONSE_TIMEOUT_MS: '300'}, sandbox)
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({reference, successful: true})
    expect(result.stderr).toContain(`The gateway has no purchase with reference ${reference} yet, and may still be processing it: looking again for up to `)
    expect(result.stderr).toContain('Found the purchase by its reference: the gateway processed it once.')
  })

  it.for([503, 408])('retries a GET through %is and gets the record', async (status) => {
    const created = (await create(ref())).json as {id: string}
    await sandbox.control('POST', '/_sandbox/faults', {method: 'GET', path: '/v1.0/purchases', action: 'status', status, times: 2})
    const result = await sandbox.gw(['purchase', 'get', created.id, '--json', '--verbose'])
    expect(result.code).toBe(0)
    expect(result.json).toEqual(created)
    expect(result.stderr.match(new RegExp(`< ${status} GET`, 'g'))).toHaveLength(2)
  })
})

// A fault's HTML page, or no gateway at all: no dialect answers either.
describeOnce('an HTML error page, or no gateway at the address', () => {
  it('exits 1 when the gateway sends an HTML error page', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'GET', path: '/v1.0/purchases', action: 'status', status: 500, html: true, times: 4})
    const result = await sandbox.gw(['purchase', 'get', 'anything'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Error: The gateway failed (HTTP 500) and sent a body that is not JSON')
  })

  it('exits 1 saying nothing was sent when the gateway cannot be reached', async () => {
    const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs()], {env: {GW_BASE_URL: 'http://127.0.0.1:9'}})
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Error: Could not reach the gateway at http://127.0.0.1:9')
    expect(result.stderr).toContain('Hint: Nothing was sent.')
  })
})

// What --verbose logs, redacted: no dialect changes a purchase's card fields.
describeOnce('--verbose', () => {
  it('logs requests and responses with card data and credentials redacted', async () => {
    const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs(CARDS.mastercard), '--verbose'])
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/> POST http:\/\/127\.0\.0\.1:\d+\/v1\.0\/purchases /)
    expect(result.stderr).toMatch(/< 200 POST http:\/\/127\.0\.0\.1:\d+\/v1\.0\/purchases \d+ ms request-id [0-9a-f-]+/)
    expect(result.stderr).toContain('"card_number":"512345XXXXXX2346"')
    expect(result.stderr).not.toMatch(/"cvv"/)
    expect(result.stderr).not.toContain(CARDS.mastercard)
    expect(result.stderr).not.toContain('VEVTVDpURVNU') // base64 of TEST:TEST
  })
})
