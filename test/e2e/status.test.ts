import {expect, it} from 'vitest'
import {terminal} from './auth-helpers.js'
import {describeInBothDialects, describeOnce, errorJson, requestLogCursor, type Sandbox, sharedSandbox, startSandbox} from './helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

describeInBothDialects('gw status --check', () => {
  it('says the gateway is reachable, takes the token, and reports test mode', async () => {
    const result = await sandbox.gw(['status', '--check', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.json).toMatchObject({chosen_by: 'GW_USERNAME and GW_TOKEN', environment: 'sandbox', base_url: sandbox.url, username: 'TEST', reachable: true, token_valid: true, gateway_mode: 'test', answers_ping: true})
    // The gateway's clock, from /ping's bare answer (whole seconds).
    const {gateway_time} = result.json as {gateway_time: string}
    expect(gateway_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/)
    expect(Math.abs(Date.parse(gateway_time) - Date.now())).toBeLessThan(60_000)
  })

  it('asks /ping first, with a text to echo, then one look-up', async () => {
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(['status', '--check', '--json'])
    expect(result.code, result.stderr).toBe(0)
    const {entries} = ((await sandbox.control('GET', `/_sandbox/requests?after=${cursor}`)) as {response: {entries: {method: string; path: string; status: number}[]}}).response
    expect(entries.filter((entry) => !entry.path.startsWith('/_sandbox')).map((entry) => [entry.method, entry.path, entry.status])).toEqual([
      ['GET', '/ping', 200],
      ['GET', '/v1.0/purchases/gw-status-check', 404],
    ])
  })

  it('a gateway without /ping (404) is checked by the look-up alone: exit 0, answers_ping false', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'GET', path: '/ping', action: 'status', status: 404})
    const result = await sandbox.gw(['status', '--check', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.json).toMatchObject({reachable: true, token_valid: true, gateway_mode: 'test', answers_ping: false, gateway_time: null})
  })

  it('exits 1 when /ping fails, saying so, and prints what it found', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'GET', path: '/ping', action: 'status', status: 503, times: 10})
    const result = await sandbox.gw(['status', '--check', '--json'])
    expect(result.code).toBe(1)
    expect(result.json).toMatchObject({reachable: true, token_valid: null, answers_ping: false, gateway_time: null})
    expect(result.stderr).toMatch(/^Error: The gateway answered its health check, GET \/ping, with a failure: Service Unavailable \(HTTP 503, request-id [0-9a-f-]+\)\n/)
    expect(errorJson(result)).toMatchObject({error: {kind: 'gateway', status: 503, messages: ['Service Unavailable'], exit_code: 1}})
  })

  it('exits 4 when the gateway refuses the token, and still prints what it found', async () => {
    const result = await sandbox.gw(['status', '--check', '--json'], {env: {GW_TOKEN: 'not-the-token'}})
    expect(result.code).toBe(4)
    expect(result.json).toMatchObject({reachable: true, token_valid: false})
    expect(result.stderr).toContain(`Error: The gateway at ${sandbox.url} refused username TEST with the token in GW_TOKEN: Incorrect Username or Token (HTTP 401`)
    expect(result.stderr).toContain('Hint: Check GW_USERNAME and GW_TOKEN.')
    expect(result.stderr).not.toContain('not-the-token')
    expect(errorJson(result)).toMatchObject({error: {kind: 'auth', status: 401, exit_code: 4}})
  })

  it('warns when the gateway answers in another mode than the profile says', async () => {
    const live = await startSandbox(['--mode', 'live'])
    try {
      const result = await runAgainst(live)
      expect(result.code, result.stderr).toBe(0)
      expect(result.json).toMatchObject({environment: 'sandbox', gateway_mode: 'live'})
      expect(result.stderr).toContain(`Warning: the credentials in GW_USERNAME and GW_TOKEN count as sandbox, but the gateway at ${live.url} answers in live mode`)
    } finally {
      await live.stop()
    }
  })
})

// How gw chooses a profile and prints a check, and what it says with no gateway reached or asked:
// the block above reads each dialect's answers to a check.
describeOnce("gw status: a saved profile, no gateway reached, a terminal's screen, no --check", () => {
  it('checks a saved profile the same way', async () => {
    // gw sandbox start set up profile local in this home.
    const result = await sandbox.gw(['status', '--check', '--profile', 'local', '--json'], {env: {GW_USERNAME: undefined, GW_TOKEN: undefined, GW_BASE_URL: undefined}})
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({profile: 'local', reachable: true, token_valid: true, gateway_mode: 'test'})
  })

  it('exits 1 when the gateway cannot be reached', async () => {
    const result = await sandbox.gw(['status', '--check', '--json'], {env: {GW_BASE_URL: 'http://127.0.0.1:9'}})
    expect(result.code).toBe(1)
    expect(result.json).toMatchObject({base_url: 'http://127.0.0.1:9', reachable: false, token_valid: null, gateway_mode: null})
    expect(result.stderr).toContain('Error: Could not reach the gateway at http://127.0.0.1:9')
    expect(errorJson(result)).toMatchObject({error: {kind: 'network', exit_code: 1}})
  })

  it('checks without being asked on a terminal', async () => {
    const t = terminal(['status'], sandbox.env({GW_TOKEN: 'not-the-token'}))
    try {
      const screen = await t.waitFor('[exit 4]')
      expect(screen).toMatch(/Reachable\W+yes/)
      expect(screen).toMatch(/Token valid\W+no/)
      expect(screen).toMatch(/Answers \/ping\W+no/)
      expect(screen).toContain('refused username TEST with the token in GW_TOKEN')
    } finally {
      t.close()
    }
  })

  it('sends nothing without --check when stdout is not a terminal', async () => {
    const result = await sandbox.gw(['status', '--json'], {env: {GW_BASE_URL: 'http://127.0.0.1:9'}})
    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.json).toEqual({
      profile: null,
      chosen_by: 'GW_USERNAME and GW_TOKEN',
      environment: 'sandbox',
      base_url: 'http://127.0.0.1:9',
      username: 'TEST',
      read_only: false,
      secret: 'environment variable GW_TOKEN',
      proxy: 'none: no proxy is set',
    })
  })
})

// Environment credentials at a loopback address count as sandbox (design.md §6).
const runAgainst = (gateway: Sandbox) => gateway.gw(['status', '--check', '--json'], {env: {GW_ENVIRONMENT: undefined}})
