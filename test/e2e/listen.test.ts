import {readFileSync, writeFileSync} from 'node:fs'
import {request} from 'node:http'
import {connect} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {isolatedHome, runGw} from './helpers.js'
import {DEV_FULL} from '../only-on.js'
import {wholeCardNumbersIn} from './card-number-helpers.js'
import {chargeSuccessful, type Listener, type Recorder, startListen, startRecorder} from './listen-helpers.js'

const running: (Listener | Recorder)[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => ('stop' in item ? item.stop('SIGKILL') : item.close())))
})

async function listen(args: string[] = [], options: Parameters<typeof startListen>[1] = {}): Promise<Listener> {
  const listener = await startListen(args, {env: isolatedHome(), ...options})
  running.push(listener)
  return listener
}

async function recorder(...args: Parameters<typeof startRecorder>): Promise<Recorder> {
  const server = await startRecorder(...args)
  running.push(server)
  return server
}

const cardExpired = {event: 'card:expired', payload: [{id: '071-C-DDDD4444', email: 'sam@example.com', first_name: 'Sam', last_name: 'Lee', reference: 'cust-2'}]}

describe('gw listen: receiving and printing', () => {
  it('says where it listens on stderr and prints one line per event with ids, amount and outcome', async () => {
    const listener = await listen()
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(listener.stderr()).toContain(`To have the gateway deliver here, run with --register, or register ${listener.url} yourself.`)
    expect(await listener.post(chargeSuccessful())).toBe(200)
    expect(await listener.post(cardExpired, {'x-service-mode': 'Live'})).toBe(200)
    const lines = await listener.waitForLines(2)
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d {2}charge:successful {2}Sandbox {2}subscription 071-S-AAAA1111 customer 071-C-BBBB2222 purchase 071-P-CCCC3333 10\.00 AUD Approved$/)
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d {2}card:expired {2}Live {2}customer 071-C-DDDD4444$/)
    const stopped = await listener.stop()
    expect(stopped.code).toBe(130)
    expect(stopped.stderr).toContain('Stopped. 2 events shown, 0 requests refused.')
  })

  it('--json prints one NDJSON object per event with the selected headers and never the credentials', async () => {
    const listener = await listen(['--json', '--auth', 'hooks:s3cret'])
    const delivery = chargeSuccessful()
    const authorization = 'Basic ' + Buffer.from('hooks:s3cret').toString('base64')
    expect(await listener.post(delivery, {authorization, 'x-request-id': 'req-1'})).toBe(200)
    const [line] = await listener.waitForLines(1)
    const event = JSON.parse(line!)
    expect(Object.keys(event)).toEqual(['received_at', 'event', 'mode', 'payload', 'headers'])
    expect(event).toMatchObject({event: 'charge:successful', mode: 'Sandbox', payload: delivery.payload})
    expect(new Date(event.received_at).getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect(event.headers).toMatchObject({'content-type': 'application/json', 'x-service-mode': 'Sandbox', 'x-request-id': 'req-1'})
    expect(event.headers.authorization).toBeUndefined()
    expect(listener.stdout()).not.toContain('s3cret')
  })

  it('--json and --save print a card number sent whole masked, and never a CVV', async () => {
    const file = join(isolatedHome().HOME!, 'events.ndjson')
    const listener = await listen(['--json', '--save', file])
    const withCard = (card: object) => JSON.parse(JSON.stringify(chargeSuccessful()).replace('"source":"Recurring"', `"source":"Recurring",${JSON.stringify(card).slice(1, -1)}`))
    const delivery = withCard({card_number: '424242XXXXXX4242'})
    const leaky = withCard({card_number: '4242424242424242', cvv: '987'})
    expect(JSON.stringify(leaky)).toContain('"card_number":"4242424242424242","cvv":"987"')
    expect(await listener.post(leaky)).toBe(200)
    const [line] = await listener.waitForLines(1)
    expect(JSON.parse(line!).payload).toEqual(delivery.payload)
    await listener.stop()
    expect(readFileSync(file, 'utf8')).not.toMatch(/4242424242424242|"cvv"/)
  })

  it('--json and --save mask card numbers inside text too: spaced, dashed or run into other characters', async () => {
    const file = join(isolatedHome().HOME!, 'events.ndjson')
    const listener = await listen(['--json', '--save', file])
    const withFields = (fields: object) => JSON.parse(JSON.stringify(chargeSuccessful()).replace('"source":"Recurring"', `"source":"Recurring",${JSON.stringify(fields).slice(1, -1)}`))
    // Each alone: a delivery with no run of 12 digits together must be read for spaced or dashed ones.
    expect(await listener.post(withFields({card_holder: '4111 1111 1111 1111', message: 'card 4242-4242-4242-4242 declined'}))).toBe(200)
    expect(await listener.post(withFields({reference: 'x4111111111111111y'}))).toBe(200)
    const lines = await listener.waitForLines(2)
    expect(lines.map((line) => JSON.parse(line).payload)).toEqual([
      withFields({card_holder: '411111XXXXXX1111', message: 'card 424242XXXXXX4242 declined'}).payload,
      withFields({reference: 'x411111XXXXXX1111y'}).payload,
    ])
    await listener.stop()
    const saved = readFileSync(file, 'utf8')
    expect(saved).toContain('"card_holder":"411111XXXXXX1111"')
    expect(saved).not.toMatch(/4111[ -]?1111[ -]?1111[ -]?1111|4242[ -]?4242[ -]?4242[ -]?4242/)
  })

  it('prints each of many concurrent deliveries whole', async () => {
    const listener = await listen(['--json'])
    const statuses = await Promise.all(Array.from({length: 60}, (_, i) => listener.post(chargeSuccessful({purchase: `071-P-${String(i).padStart(8, '0')}`}))))
    expect(statuses.every((status) => status === 200)).toBe(true)
    const lines = await listener.waitForLines(60)
    const purchases = lines.map((line) => JSON.parse(line).payload[0].response.response.id).sort()
    expect(purchases).toEqual(Array.from({length: 60}, (_, i) => `071-P-${String(i).padStart(8, '0')}`))
  })

  it('--events prints only matching events; the others are acknowledged and counted', async () => {
    const listener = await listen(['--events', 'charge:*,card:expiring'])
    expect(await listener.post(cardExpired)).toBe(200)
    expect(await listener.post(chargeSuccessful())).toBe(200)
    expect(await listener.post({event: 'card:expiring', payload: cardExpired.payload})).toBe(200)
    const lines = await listener.waitForLines(2)
    expect(lines.map((line) => line.split('  ')[1])).toEqual(['charge:successful', 'card:expiring'])
    const stopped = await listener.stop()
    expect(stopped.stdout).not.toContain('card:expired')
    expect(stopped.stderr).toContain('Stopped. 2 events shown (1 more not shown: not in --events), 0 requests refused.')
  })
})

describe('gw listen --forward-to', () => {
  it("relays the exact body and the gateway's headers, and prints the app's status", async () => {
    const app = await recorder(() => ({status: 204}))
    const listener = await listen(['--forward-to', `${app.url}/hooks`])
    const body = '{"event":"charge:successful",  "payload":[{"response":{"response":{"decimal_amount":10.0}}}]}'
    expect(await listener.post(body, {'x-service-mode': 'Sandbox', 'x-request-id': 'req-7'})).toBe(204)
    const [line] = await listener.waitForLines(1)
    expect(line).toMatch(/→ 204 in \d+ ms$/)
    expect(app.requests).toHaveLength(1)
    expect(app.requests[0]).toMatchObject({method: 'POST', url: '/hooks', body})
    expect(app.requests[0]!.headers).toMatchObject({'content-type': 'application/json', 'x-service-mode': 'Sandbox', 'x-request-id': 'req-7'})
  })

  it("answers the gateway with a failing app's status, or 502 when the app is down, so the gateway retries", async () => {
    const app = await recorder(() => ({status: 500}))
    const listener = await listen(['--forward-to', app.url])
    expect(await listener.post(chargeSuccessful())).toBe(500)
    expect((await listener.waitForLines(1))[0]).toMatch(/→ 500 in \d+ ms$/)
    await app.close()
    expect(await listener.post(chargeSuccessful())).toBe(502)
    expect((await listener.waitForLines(2))[1]).toMatch(/→ not forwarded: connection refused \(\d+ ms\)$/)
  })

  it('--ack-always answers 200 whatever the app says', async () => {
    const app = await recorder(() => ({status: 503}))
    const listener = await listen(['--forward-to', app.url, '--ack-always', '--json'])
    expect(await listener.post(chargeSuccessful())).toBe(200)
    await listener.waitForLines(1)
    await listener.waitForStderr(/charge:successful forwarded → 503 in \d+ ms/)
  })

  it('gives up on an app that does not answer within --forward-timeout', async () => {
    const app = await recorder(() => ({status: 200, delayMs: 3000}))
    const listener = await listen(['--forward-to', app.url, '--forward-timeout', '1'])
    expect(await listener.post(chargeSuccessful())).toBe(502)
    expect((await listener.waitForLines(1))[0]).toMatch(/→ not forwarded: no answer within 1000 ms/)
  })
})

describe('gw listen --save and gw listen replay', () => {
  it('saves every event as received, and replays them in order to the app', async () => {
    const home = isolatedHome()
    const file = join(home.HOME!, 'events.ndjson')
    const listener = await listen(['--save', file, '--events', 'charge:*'], {env: home})
    expect(listener.stderr()).toContain(`Saving every event to ${file}`)
    const first = chargeSuccessful({purchase: '071-P-FIRST001'})
    expect(await listener.post(first)).toBe(200)
    expect(await listener.post(cardExpired)).toBe(200)
    expect(await listener.post(chargeSuccessful({purchase: '071-P-THIRD003'}))).toBe(200)
    await listener.stop()
    const saved = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    // Every event is saved, even those --events does not print.
    expect(saved.map((entry) => entry.event)).toEqual(['charge:successful', 'card:expired', 'charge:successful'])
    expect(saved[0]).toMatchObject({event: 'charge:successful', mode: 'Sandbox', payload: first.payload, headers: {'x-service-mode': 'Sandbox'}})

    const app = await recorder(() => ({status: 200}))
    const replayed = await runGw(['listen', 'replay', file, '--forward-to', app.url], {env: home})
    expect(replayed.code).toBe(0)
    expect(replayed.stderr).toBe(`Replayed 3 events to ${app.url}/.\n`)
    expect(replayed.stdout.trim().split('\n')).toHaveLength(3)
    expect(app.requests.map((r) => JSON.parse(r.body))).toEqual(saved.map(({event, payload}) => ({event, payload})))
    expect(app.requests[0]!.headers['x-service-mode']).toBe('Sandbox')

    const onlyCharges = await runGw(['listen', 'replay', file, '--forward-to', app.url, '--events', 'card:*', '--json'], {env: home})
    expect(onlyCharges.code).toBe(0)
    expect(JSON.parse(onlyCharges.stdout)).toMatchObject({event: 'card:expired', status: 200})
  })

  it('replay reports events the app refuses, sends the rest, and exits 1', async () => {
    const home = isolatedHome()
    const file = join(home.HOME!, 'events.ndjson')
    const listener = await listen(['--save', file], {env: home})
    await listener.post(cardExpired)
    await listener.post(chargeSuccessful())
    await listener.stop()
    const app = await recorder((req) => ({status: req.body.includes('card:expired') ? 500 : 200}))
    const replayed = await runGw(['listen', 'replay', file, '--forward-to', app.url], {env: home})
    expect(replayed.code).toBe(1)
    expect(app.requests).toHaveLength(2)
    expect(replayed.stdout).toMatch(/card:expired .*→ 500 in \d+ ms\n.*charge:successful .*→ 200 in \d+ ms\n$/)
    expect(replayed.stderr).toContain(`Error: 1 of 2 events were not accepted by ${app.url}/`)
  })

  it('replay refuses a file it cannot read, and a --forward-to that is not an http URL', async () => {
    const home = isolatedHome()
    const missing = await runGw(['listen', 'replay', join(home.HOME!, 'none.ndjson'), '--forward-to', 'http://127.0.0.1:9/'], {env: home})
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(`Error: Cannot read ${join(home.HOME!, 'none.ndjson')} (ENOENT)`)
    const badUrl = await runGw(['listen', 'replay', 'x.ndjson', '--forward-to', 'ftp://example.com'], {env: home})
    expect(badUrl.code).toBe(2)
    expect(badUrl.stderr).toContain('Error: --forward-to must be an http:// or https:// URL, got "ftp://example.com"')
  })

  it('replay refuses a file that is not NDJSON before sending anything', async () => {
    const home = isolatedHome()
    const file = join(home.HOME!, 'bad.ndjson')
    const {writeFileSync} = await import('node:fs')
    writeFileSync(file, JSON.stringify({...cardExpired, received_at: 'x'}) + '\nnot json\n')
    const app = await recorder()
    const replayed = await runGw(['listen', 'replay', file, '--forward-to', app.url], {env: home})
    expect(replayed.code).toBe(2)
    expect(replayed.stderr).toContain(`Error: ${file} line 2 is not JSON`)
    expect(app.requests).toHaveLength(0)
  })
})

describe('gw listen --auth', () => {
  it('answers 401 to deliveries without the Basic credentials, and takes them from stdin with -', async () => {
    const listener = await listen(['--auth', '-'], {stdin: 'hooks:s3cret\n'})
    expect(await listener.post(chargeSuccessful())).toBe(401)
    expect(await listener.post(chargeSuccessful(), {authorization: 'Basic ' + Buffer.from('hooks:wrong').toString('base64')})).toBe(401)
    expect(await listener.post(chargeSuccessful(), {authorization: 'Basic ' + Buffer.from('hooks:s3cret').toString('base64')})).toBe(200)
    expect((await listener.waitForLines(1))[0]).toContain('charge:successful')
    await listener.waitForStderr("Warning: refused a request (401): POST / without the credentials of this receiver's web hook (HTTP Basic): not taken, not forwarded")
    expect(listener.stderr()).toContain('Only deliveries carrying the --auth credentials are taken; anything else is refused (401), never forwarded.')
    expect(listener.stderr()).not.toContain('s3cret')
  })

  it('refuses a malformed --auth with exit 2', async () => {
    const result = await runGw(['listen', '--auth', 'nocolon'], {env: isolatedHome()})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: --auth must be USER:PASS')
  })
})

describe('gw listen: bad input and faults', () => {
  it('answers invalid JSON with 400 and a warning, and keeps running', async () => {
    const listener = await listen()
    expect(await listener.post('{"event": "charge:successful", ')).toBe(400)
    expect(await listener.post('[1,2]')).toBe(400)
    await listener.waitForStderr(/Warning: refused a delivery \(400\): the body is not JSON/)
    await listener.waitForStderr('Warning: refused a delivery (400): the body is not a JSON object')
    expect(await listener.post(chargeSuccessful())).toBe(200)
    expect(await listener.waitForLines(1)).toHaveLength(1)
  })

  it('answers other methods with 405 and other paths with 404', async () => {
    const listener = await listen(['--path', '/hooks'])
    expect(listener.url).toMatch(/\/hooks$/)
    const get = await fetch(listener.url)
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    expect((await fetch(listener.url, {method: 'PUT', body: '{}'})).status).toBe(405)
    expect((await fetch(listener.url.replace('/hooks', '/other'), {method: 'POST', body: '{}'})).status).toBe(404)
  })

  it('answers a body over 1 MiB with 413, declared or streamed', async () => {
    const listener = await listen()
    const big = JSON.stringify({event: 'charge:successful', payload: ['x'.repeat(1024 * 1024)]})
    expect(await listener.post(big)).toBe(413)
    expect(await chunkedPost(listener.url, big)).toBe(413)
    await listener.waitForStderr('Warning: refused a request (413)')
    expect(await listener.post(chargeSuccessful())).toBe(200)
  })

  it('prints an unknown event and flags it', async () => {
    const listener = await listen()
    expect(await listener.post({event: 'charge:refunded', payload: []})).toBe(200)
    expect((await listener.waitForLines(1))[0]).toMatch(/ {2}charge:refunded {2}\(unknown event\) {2}Sandbox$/)
    await listener.waitForStderr(`Warning: unknown event "charge:refunded": not one of the gateway's web hook events`)
  })

  it('cuts off a stalled sender with 408 without holding up other deliveries', async () => {
    const listener = await listen(['--receive-timeout', '3'])
    const {port} = new URL(listener.url)
    const stalled = connect(Number(port), '127.0.0.1')
    let answer = ''
    stalled.on('data', (chunk) => (answer += chunk.toString()))
    let cutOff = false
    const closed = new Promise((resolve) => stalled.on('close', () => resolve((cutOff = true))))
    stalled.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"event":`)
    // Not held up: another delivery is answered while the stalled sender is still connected.
    expect(await listener.post(chargeSuccessful())).toBe(200)
    expect(cutOff).toBe(false)
    await closed
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    await listener.waitForStderr('Warning: refused a request (408): a sender took more than 3000 ms to send its delivery; cut off')
    expect(await listener.post(chargeSuccessful())).toBe(200)
  })

  it('refuses a port in use with exit 2', async () => {
    const listener = await listen()
    const result = await runGw(['listen', '--port', new URL(listener.url).port], {env: isolatedHome()})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('is already in use')
  })
})

describe('gw listen: stopping', () => {
  it('on Ctrl-C finishes the delivery in flight, then exits 130', async () => {
    // The app holds its answer until gw has said it is stopping: the delivery is in flight throughout.
    let arrived!: () => void
    let release!: () => void
    const atApp = new Promise<void>((resolve) => (arrived = resolve))
    const held = new Promise<void>((resolve) => (release = resolve))
    const app = await recorder(() => (arrived(), {status: 200, until: held}))
    const listener = await listen(['--forward-to', app.url])
    const delivered = listener.post(chargeSuccessful())
    await atApp
    const stopped = listener.stop('SIGINT')
    await listener.waitForStderr('Stopping: finishing the deliveries in flight')
    release()
    expect(await delivered).toBe(200)
    const {code, stdout, stderr} = await stopped
    expect(code).toBe(130)
    expect(stdout).toMatch(/charge:successful .*→ 200 in \d+ ms\n$/)
    expect(stderr).toContain('Stopping: finishing the deliveries in flight')
  })

  it('on SIGTERM stops the same way and exits 0', async () => {
    const listener = await listen()
    const {code, stderr} = await listener.stop('SIGTERM')
    expect(code).toBe(0)
    expect(stderr).toContain('Stopped. 0 events shown, 0 requests refused.')
  })
})

describe('gw listen | a reader that goes away', () => {
  it('leaves an event nobody read unacknowledged, then stops cleanly', async () => {
    // A process: its stdout's reader is what goes away.
    const listener = await listen(['--json'], {process: true})
    expect(await listener.post(chargeSuccessful())).toBe(200)
    await listener.waitForLines(1)
    listener.process!.stdout!.destroy()
    expect(await listener.post(cardExpired)).toBe(503)
    expect(await listener.exited()).toBe(0)
    expect(listener.stderr()).toContain('Stopped. 1 event shown, 0 requests refused.')
  })
})

describe.skipIf(DEV_FULL.skip)(`gw listen > /dev/full${DEV_FULL.note}`, () => {
  it('leaves the event it could not print unacknowledged, stops, and says why: exit 1, never the 0 of a stop', async () => {
    const listener = await listen(['--json'], {stdoutTo: '/dev/full'})
    expect(await listener.post(chargeSuccessful())).toBe(503)
    expect(await listener.exited()).toBe(1)
    expect(listener.stderr()).toContain('Stopped. 0 events shown, 0 requests refused.\nError: stdout could not be written (ENOSPC): what was printed there is incomplete\n')
  })
})

describe('gw listen: warnings', () => {
  it('warns when it listens beyond loopback', async () => {
    const listener = await listen(['--host', '0.0.0.0'])
    expect(listener.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/$/)
    expect(listener.stderr()).toContain('Warning: gw listen takes deliveries from anyone who can reach 0.0.0.0, other machines too: --register has it registered with credentials of its own, and --auth - (USER:PASS read from stdin, or --auth-file FILE) takes only those of a registration made elsewhere, with no password in argv.')
    expect(await listener.post(chargeSuccessful())).toBe(200)
    expect(listener.stderr()).toContain(`register ${listener.url.replace('0.0.0.0', '127.0.0.1')} yourself`)
  })

  it("flags a delivery whose X-Service-Mode is not the profile's environment", async () => {
    const env = {...isolatedHome(), GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'live'}
    const listener = await listen([], {env})
    expect(await listener.post(chargeSuccessful(), {'x-service-mode': 'Sandbox'})).toBe(200)
    await listener.waitForStderr(/Warning: a charge:successful delivery in Sandbox mode, but the profile in force is live/)
    expect(await listener.post(chargeSuccessful(), {'x-service-mode': 'Live'})).toBe(200)
    await listener.waitForLines(2)
    expect(listener.stderr().match(/profile in force is live/g)).toHaveLength(1)
  })
})

/** A POST whose length is not declared: the limit must hold while the body streams in. */
function chunkedPost(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {method: 'POST', headers: {'content-type': 'application/json', 'transfer-encoding': 'chunked'}}, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    for (let offset = 0; offset < body.length; offset += 64 * 1024) req.write(body.slice(offset, offset + 64 * 1024))
    req.end()
  })
}

describe('gw listen --register', () => {
  /** A stand-in for the gateway's web hook registration endpoints (gateway-notes.md), recording each call; `test` is the mode it reports. */
  const fakeGateway = (test = true) =>
    recorder((req) => {
      const hook = {id: '071-WH-ABCD1234', ...(req.body ? JSON.parse(req.body) : {})}
      delete hook.authentication_password
      if (req.method === 'POST' && req.url === '/v1.0/web_hooks') return {status: 200, body: {successful: true, response: hook, errors: [], test}}
      if (req.method === 'DELETE' && req.url === '/v1.0/web_hooks/071-WH-ABCD1234') return {status: 200, body: {successful: true, response: hook, errors: [], test}}
      // Before registering, gw listen looks for registrations a killed gw listen left on a gateway on this machine.
      if (req.method === 'GET' && req.url.startsWith('/v1.0/web_hooks')) return {status: 200, body: {successful: true, response: [], errors: [], test}}
      return {status: 404, body: {successful: false, response: null, errors: ['Record not found'], test}}
    })

  for (const [signal, exitCode] of [['SIGINT', 130], ['SIGTERM', 0]] as const) {
    it(`registers this receiver with the gateway in force and removes it on ${signal}`, async () => {
      const gateway = await fakeGateway()
      const env = {...isolatedHome(), GW_BASE_URL: gateway.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}
      const listener = await listen(['--register', '--auth', 'hooks:s3cret', '--path', '/hooks'], {env})
      expect(listener.stderr()).toContain('Registered as web hook 071-WH-ABCD1234 with the gateway; it is removed when gw listen stops.')
      expect(gateway.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(['GET /v1.0/web_hooks', 'POST /v1.0/web_hooks'])
      const created = gateway.requests[1]
      expect(created!.headers.authorization).toBe('Basic ' + Buffer.from('TEST:TEST').toString('base64'))
      expect(JSON.parse(created!.body)).toEqual({
        // Its process in its name: a later gw listen tells a registration left by a killed one.
        name: `gw listen ${listener.url} (pid ${listener.pid})`,
        address: listener.url,
        events: '*',
        mode: 'Test',
        authentication_username: 'hooks',
        authentication_password: 's3cret',
      })
      const stopped = await listener.stop(signal)
      expect(stopped.code).toBe(exitCode)
      expect(gateway.requests.slice(1).map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1.0/web_hooks', 'DELETE /v1.0/web_hooks/071-WH-ABCD1234'])
      expect(stopped.stderr).toContain('Removed web hook 071-WH-ABCD1234.')
    })
  }

  it('registers in Live mode for a live profile', async () => {
    const gateway = await fakeGateway(false)
    const env = {...isolatedHome(), GW_BASE_URL: gateway.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'live'}
    const listener = await listen(['--register'], {env})
    const created = gateway.requests.find((r) => r.method === 'POST')!
    // Credentials of its own, fresh and random: only the gateway learns them, and never the terminal.
    const registered = JSON.parse(created.body)
    expect(registered).toMatchObject({mode: 'Live', address: listener.url, authentication_username: expect.stringMatching(/^gw-listen-[\da-f]{8}$/), authentication_password: expect.stringMatching(/^[\w-]{32}$/)})
    expect(listener.stderr()).not.toContain(registered.authentication_password)
    expect(listener.stderr()).toContain('Only deliveries carrying the credentials it was registered with (fresh for this run) are taken; anything else is refused (401), never forwarded.')
  })

  it('registers all the same when the gateway cannot list its web hooks, saying so', async () => {
    const gateway = await recorder((req) =>
      req.method === 'POST' ? {status: 200, body: {successful: true, response: {id: '071-WH-ABCD1234', ...JSON.parse(req.body)}, errors: [], test: true}} : {status: 404, body: {successful: false, response: null, errors: ['Record not found'], test: true}},
    )
    const env = {...isolatedHome(), GW_BASE_URL: gateway.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}
    const listener = await listen(['--register'], {env})
    expect(listener.stderr()).toContain('Warning: could not look for web hooks left by earlier gw listens (Record not found).')
    expect(listener.stderr()).toContain('Registered as web hook 071-WH-ABCD1234 with the gateway')
  })

  it('exits with the gateway error, listening no more, when the registration is refused', async () => {
    const gateway = await recorder(() => ({status: 422, body: {successful: false, response: null, errors: ['Mode is not included in the list'], test: true}}))
    const env = {...isolatedHome(), GW_BASE_URL: gateway.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}
    const result = await runGw(['listen', '--port', '0', '--register'], {env})
    expect(result.code).toBe(7)
    expect(result.stderr).toContain('Error: Mode is not included in the list (HTTP 422)')
    expect(result.stderr).not.toContain('Listening')
  })

  it('needs credentials to register', async () => {
    const result = await runGw(['listen', '--port', '0', '--register'], {env: isolatedHome()})
    expect(result.code).toBe(4)
    expect(result.stderr).toContain('Error: No credentials')
  })
})

describe('gw listen: card numbers inside text (design.md §3)', () => {
  /** A charge whose purchase has these fields: card numbers in text, as the probe sent them. */
  function chargeWith(fields: Record<string, string>): string {
    const delivery = chargeSuccessful()
    Object.assign(delivery.payload[0]!.response.response, fields)
    return JSON.stringify(delivery)
  }

  it('--json and --save print and store each masked; --forward-to passes the delivery on exact', async () => {
    const app = await recorder(() => ({status: 200}))
    const file = join(isolatedHome().HOME!, 'events.ndjson')
    const listener = await listen(['--json', '--save', file, '--forward-to', app.url])
    const body = chargeWith({reference: 'x4111111111111111y', card_holder: '4111 1111 1111 1111', description: 'card 4242424242424242 declined'})
    expect(await listener.post(body, {'x-reference': 'ord 4111-1111-1111-1111'})).toBe(200)
    // Digits in groups only: no run of digits long enough to be one on its own.
    expect(await listener.post(chargeWith({card_holder: '4111 1111 1111 1111', description: 'card 4242-4242-4242-4242 declined'}))).toBe(200)
    const lines = await listener.waitForLines(2)
    const stopped = await listener.stop()
    const [first, second] = lines.map((line) => JSON.parse(line))
    expect(first.payload[0].response.response).toMatchObject({reference: 'x411111XXXXXX1111y', card_holder: '411111XXXXXX1111', description: 'card 424242XXXXXX4242 declined'})
    expect(first.headers['x-reference']).toBe('ord 411111XXXXXX1111')
    expect(second.payload[0].response.response).toMatchObject({card_holder: '411111XXXXXX1111', description: 'card 424242XXXXXX4242 declined'})
    const saved = readFileSync(file, 'utf8')
    expect(saved).toBe(lines.map((line) => line + '\n').join(''))
    for (const text of [stopped.stdout, stopped.stderr, saved]) expect(wholeCardNumbersIn(text)).toEqual([])
    // The app is the merchant's own: it gets the delivery as the gateway sent it, to look its records up by.
    expect(app.requests[0]).toMatchObject({body, headers: {'x-reference': 'ord 4111-1111-1111-1111'}})
  })

  it('replay shows them masked when a saved file holds them whole (saved by hand)', async () => {
    const app = await recorder(() => ({status: 200}))
    const home = isolatedHome()
    const entry = {received_at: '2026-11-23T10:00:00.000Z', event: 'charge:4111111111111111', mode: 'Sandbox', payload: JSON.parse(chargeWith({message: 'card 4242 4242 4242 4242 declined'})).payload, headers: {}}
    const file = join(home.HOME!, 'old.ndjson')
    writeFileSync(file, JSON.stringify(entry) + '\n')
    const replayed = await runGw(['listen', 'replay', file, '--forward-to', app.url], {env: home})
    expect(replayed.code, replayed.stderr).toBe(0)
    expect(replayed.stdout).toMatch(/^\d\d:\d\d:\d\d {2}charge:411111XXXXXX1111 {2}\(unknown event\) {2}Sandbox {2}.* card 424242XXXXXX4242 declined {2}→ 200 in \d+ ms\n$/)
    const json = await runGw(['listen', 'replay', file, '--forward-to', app.url, '--json'], {env: home})
    expect(JSON.parse(json.stdout)).toMatchObject({event: 'charge:411111XXXXXX1111', status: 200})
    expect(wholeCardNumbersIn(replayed.stdout + replayed.stderr + json.stdout + json.stderr)).toEqual([])
  })

  it('the line per event and the warnings show them masked', async () => {
    const listener = await listen(['--path', '/hooks'])
    const delivery = chargeSuccessful({purchase: 'P-4111111111111111'})
    delivery.payload[0]!.response.response.message = 'card 4242-4242-4242-4242 declined'
    expect(await listener.post(delivery)).toBe(200)
    expect((await listener.waitForLines(1))[0]).toContain('purchase P-411111XXXXXX1111 10.00 AUD card 424242XXXXXX4242 declined')
    expect(await listener.post({event: 'refund:4111111111111111', payload: []})).toBe(200)
    await listener.waitForStderr('Warning: unknown event "refund:411111XXXXXX1111"')
    expect(await listener.post('x 4242424242424242')).toBe(400)
    await listener.waitForStderr(`Warning: refused a delivery (400): the body is not JSON (Unexpected token 'x', "x 424242XXXXXX4242" is not valid JSON)`)
    expect((await fetch(listener.url.replace('/hooks', '/4111111111111111'), {method: 'POST', body: '{}'})).status).toBe(404)
    await listener.waitForStderr('Warning: refused a request (404): POST /411111XXXXXX1111: not the path gw listens on (/hooks)')
    expect(await listener.post(chargeSuccessful(), {'x-service-mode': '4111111111111111'})).toBe(200)
    const stopped = await listener.stop()
    expect(stopped.stdout.split('\n')[2]).toMatch(/^\d\d:\d\d:\d\d {2}charge:successful {2}411111XXXXXX1111 {2}/)
    expect(wholeCardNumbersIn(stopped.stdout + stopped.stderr)).toEqual([])
  })
})
