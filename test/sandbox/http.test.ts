import {connect} from 'node:net'
import {describe, expect, it} from 'vitest'
import {expectReject} from '../expect-error.js'
import {formatDateTime} from '../../src/sandbox/domain/clock.js'
import {NOW, basicAuth, call, purchase, sandbox} from './helpers.js'

const UNAUTHORIZED = '{"successful":false,"errors":["Incorrect Username or Token"],"response":null}'

describe('authentication', () => {
  it.each([
    ['no Authorization header', null],
    ['a wrong token', basicAuth('TEST', 'wrong')],
    ['an unknown merchant', basicAuth('NOBODY', 'TEST')],
    ['another merchant’s token', basicAuth('TEST', 'acme-token')],
    ['another scheme', 'Bearer TEST'],
    ['no colon', `Basic ${Buffer.from('TEST').toString('base64')}`],
  ])('answers %s with the gateway’s exact 401 body', async (_case, auth) => {
    const answer = await call(await sandbox(), 'GET', '/v1.0/purchases/x', {auth})
    expect(answer.status).toBe(401)
    expect(answer.text).toBe(UNAUTHORIZED)
    expect(answer.headers.get('x-service-mode')).toBe('Sandbox')
  })

  it('checks credentials before reading the body', async () => {
    const answer = await call(await sandbox(), 'POST', '/v1.0/purchases', {auth: null, raw: '{not json'})
    expect(answer.status).toBe(401)
  })

  it('lets every configured merchant in, and TEST/TEST always; a token may contain a colon', async () => {
    const gateway = await sandbox({merchants: [{username: 'ACME', token: 'acme-token'}, {username: 'SHOP', token: 'p:w'}]})
    for (const auth of [basicAuth('TEST', 'TEST'), basicAuth('ACME', 'acme-token'), basicAuth('SHOP', 'p:w')]) {
      expect((await call(gateway, 'GET', '/v1.0/purchases/x', {auth})).status).toBe(404)
    }
  })

  it('refuses a merchant list that names one username twice', async () => {
    await expectReject(
      sandbox({merchants: [{username: 'TEST', token: 'other'}]}),
      Error,
      'Merchant TEST is given twice (TEST/TEST is built in)',
    )
  })
})

describe('routing', () => {
  it.each(['contract', 'live'] as const)('answers an unknown path as the gateway does, in either dialect (%s): 404, Not Found in its envelope', async (dialect) => {
    const gateway = await sandbox({dialect})
    for (const [method, path] of [['GET', '/v1.0/x?limit=1'], ['POST', '/v1.0//void?id=123'], ['GET', '/v2/purchases']]) {
      const answer = await call(gateway, method!, path!, {body: method === 'POST' ? {} : undefined})
      expect(answer.status, path).toBe(404)
      // ActiveMerchant's failed void (POST /v1.0//void?id=123) reads its message from `errors`, and expects "Not Found".
      expect(answer.body, path).toStrictEqual({successful: false, response: {}, errors: ['Not Found'], test: true})
    }
  })

  it("names the route of its own controls that it does not have, for the developer who typed it", async () => {
    const answer = await call(await sandbox(), 'GET', '/_sandbox/nothing', {auth: null})
    expect(answer.status).toBe(404)
    expect(answer.body).toStrictEqual({successful: false, response: null, errors: ['No route matches GET /_sandbox/nothing'], test: true})
  })

  it.each([
    ['DELETE', '/v1.0/purchases', 'POST, GET'],
    ['PUT', '/v1.0/purchases.json', 'POST, GET'],
    ['GET', '/_sandbox/reset', 'POST'],
    ['DELETE', '/v1.0/credit_cards/abc', 'GET, PUT'],
    ['PATCH', '/_sandbox/faults', 'GET, POST, DELETE'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allowed) => {
    const answer = await call(await sandbox(), method, path)
    expect(answer.status).toBe(405)
    expect(answer.headers.get('allow')).toBe(allowed)
    expect(answer.body.errors).toEqual([`Method ${method} is not allowed on ${path}; allowed: ${allowed}`])
  })

  it.each(['/v1.0/purchases', '/v1.0/purchases/', '/v1.0/purchases.json'])('takes POST %s', async (path) => {
    const answer = await call(await sandbox(), 'POST', path, {
      body: {card_holder: 'Jo', card_number: '4005550000000001', card_expiry: '02/2030', cvv: '123', amount: 100, reference: path},
    })
    expect(answer.status).toBe(200)
    expect(answer.body.response.reference).toBe(path)
  })

  it('answers a badly encoded path with a 400', async () => {
    const answer = await call(await sandbox(), 'GET', '/v1.0/purchases/%E0%A4%A')
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(['Path /v1.0/purchases/%E0%A4%A is not correctly URL-encoded'])
  })

  it('keeps an encoded .json that is part of a reference', async () => {
    const gateway = await sandbox()
    await purchase(gateway, {reference: 'report.json'})
    expect((await call(gateway, 'GET', '/v1.0/purchases/report%2Ejson')).body.response?.reference).toBe('report.json')
    expect((await call(gateway, 'GET', '/v1.0/purchases/report.json.json')).body.response?.reference).toBe('report.json')
  })
})

describe('request bodies', () => {
  it('answers invalid JSON with a 400 that says so', async () => {
    const answer = await call(await sandbox(), 'POST', '/v1.0/purchases', {raw: '{"amount": 10,'})
    expect(answer.status).toBe(400)
    expect(answer.body.successful).toBe(false)
    expect(answer.body.errors).toHaveLength(1)
    expect(answer.body.errors).toEqual(['Request body is not valid JSON (it breaks at character 14)'])
  })

  it('never quotes the body it could not read (a form-encoded CVV, say)', async () => {
    const answer = await call(await sandbox(), 'POST', '/v1.0/purchases', {raw: 'cvv=642&card_number=4242424242424242'})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(['Request body is not valid JSON'])
  })

  it.each(['[]', '"text"', '42', 'null'])('answers the body %s with a 400: it must be an object', async (raw) => {
    const answer = await call(await sandbox(), 'POST', '/v1.0/purchases', {raw})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(['Request body must be a JSON object'])
  })

  it('treats an empty body as no fields', async () => {
    const answer = await call(await sandbox(), 'POST', '/v1.0/refunds', {raw: ''})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(['Invalid credit card for unmatched refund', "Amount can't be blank", "Reference can't be blank"])
  })

  it('answers a body over 1 MiB with a 413 envelope, and keeps serving', async () => {
    const gateway = await sandbox()
    const raw = JSON.stringify({reference: 'x'.repeat(1024 * 1024)})
    const answer = await call(gateway, 'POST', '/v1.0/purchases', {raw})
    expect(answer.status).toBe(413)
    expect(answer.body).toStrictEqual({
      successful: false,
      response: null,
      errors: ['Request body is larger than 1048576 bytes (1 MiB)'],
      test: true,
    })
    expect((await purchase(gateway)).status).toBe(200)
  })

  it('takes a body of just under 1 MiB', async () => {
    const raw = JSON.stringify({reference: 'x'.repeat(1024 * 1024 - 20)})
    expect(raw.length).toBeLessThanOrEqual(1024 * 1024)
    const answer = await call(await sandbox(), 'POST', '/v1.0/purchases', {raw})
    expect(answer.status).toBe(400)
  })
})

describe('headers and mode', () => {
  it('sends JSON, the mode and a fresh request id on every answer', async () => {
    const gateway = await sandbox()
    const answers = [await purchase(gateway), await call(gateway, 'GET', '/nowhere'), await call(gateway, 'GET', '/v1.0/purchases/x', {auth: null})]
    for (const answer of answers) {
      expect(answer.headers.get('content-type')).toBe('application/json')
      expect(answer.headers.get('x-service-mode')).toBe('Sandbox')
      expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    }
    expect(new Set(answers.map((answer) => answer.headers.get('x-request-id'))).size).toBe(3)
  })

  it('answers as the live gateway in live mode: X-Service-Mode Live and test false', async () => {
    const gateway = await sandbox({mode: 'live'})
    const answer = await purchase(gateway)
    expect(answer.headers.get('x-service-mode')).toBe('Live')
    expect(answer.body.test).toBe(false)
    expect(answer.body.successful).toBe(true)
    expect((await call(gateway, 'GET', '/v1.0/purchases/x')).body.test).toBe(false)
  })
})

describe('control endpoints', () => {
  it('describes the sandbox without credentials', async () => {
    const gateway = await sandbox()
    const answer = await call(gateway, 'GET', '/_sandbox/info', {auth: null})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({
      successful: true,
      response: {mode: 'sandbox', merchants: ['TEST', 'ACME'], url: gateway.url, clock: formatDateTime(NOW)},
      errors: [],
      test: true,
    })
  })

  it('empties the store on reset', async () => {
    const gateway = await sandbox()
    await purchase(gateway)
    const reset = await call(gateway, 'POST', '/_sandbox/reset', {auth: null})
    expect(reset.status).toBe(200)
    expect(reset.body.successful).toBe(true)
    expect((await call(gateway, 'GET', '/v1.0/purchases/order-1')).status).toBe(404)
    expect((await purchase(gateway)).body.successful).toBe(true)
  })
})

/** The client's rule (src/api/endpoints.ts): each key URL-encoded, and `.json` appended when the key itself holds a dot. */
const keyPath = (key: string) => encodeURIComponent(key) + (key.includes('.') ? '.json' : '')

describe('routing of any id or reference', () => {
  const REFERENCES = ['a.json', 'a.json.json', 'a/b', '50%', 'ü', 'a?b', 'a#b', 'a b+c', '.json', 'x..json', '..']

  it.each(REFERENCES)('finds a purchase, its refund and a customer by the reference %j, with and without the suffix where the rule allows', async (reference) => {
    const gateway = await sandbox()
    const created = (await purchase(gateway, {reference})).body.response
    expect(created.reference).toBe(reference)

    const found = await call(gateway, 'GET', `/v1.0/purchases/${keyPath(reference)}`)
    expect(found.status).toBe(200)
    expect(found.body.response).toStrictEqual(created)
    if (!reference.includes('.')) expect((await call(gateway, 'GET', `/v1.0/purchases/${encodeURIComponent(reference)}.json`)).body.response).toStrictEqual(created)

    const refund = await call(gateway, 'POST', '/v1.0/refunds', {body: {transaction_id: reference, amount: 100, reference}})
    expect(refund.status).toBe(200)
    expect((await call(gateway, 'GET', `/v1.0/refunds/${keyPath(reference)}`)).body.response).toStrictEqual(refund.body.response)
  })

  it('round-trips 300 random references made of the awkward characters', async () => {
    const gateway = await sandbox()
    const pieces = ['.', '.json', 'json', '/', '%', '%2F', '?', '#', '&', '=', '+', ' ', '\\', '"', "'", 'ü', '€', '😀', 'a', 'Z', '0', '-', '\t']
    let seed = 42
    // A fixed-seed LCG: the same references every run, so a failure can be replayed.
    const random = (below: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % below)
    const references = new Set<string>()
    while (references.size < 300) {
      const reference = Array.from({length: 1 + random(6)}, () => pieces[random(pieces.length)]).join('')
      if (reference.trim() !== '') references.add(reference)
    }
    for (const reference of references) {
      const created = await purchase(gateway, {reference})
      expect(created.body.response?.reference, JSON.stringify(reference)).toBe(reference)
      const found = await call(gateway, 'GET', `/v1.0/purchases/${keyPath(reference)}`)
      expect(found.body.response?.id, JSON.stringify(reference)).toBe(created.body.response.id)
    }
  })

  it('strips exactly one .json: a.json.json is the key a.json, never a', async () => {
    const gateway = await sandbox()
    await purchase(gateway, {reference: 'a'})
    const dotted = (await purchase(gateway, {reference: 'a.json'})).body.response
    expect((await call(gateway, 'GET', '/v1.0/purchases/a.json.json')).body.response).toStrictEqual(dotted)
    expect((await call(gateway, 'GET', '/v1.0/purchases/a.json')).body.response.reference).toBe('a')
    expect((await call(gateway, 'GET', '/v1.0/purchases/a.json.json.json')).status).toBe(404)
  })

  it('does not take an encoded slash as a path separator', async () => {
    const gateway = await sandbox()
    await purchase(gateway, {reference: 'a/b'})
    expect((await call(gateway, 'GET', '/v1.0/purchases/a/b')).status).toBe(404)
    expect((await call(gateway, 'GET', '/v1.0/purchases/a%2Fb')).body.response.reference).toBe('a/b')
  })
})

describe('limits', () => {
  it('answers 408 with the JSON envelope to a client that never finishes its headers', async () => {
    const gateway = await sandbox({headersTimeoutMs: 300, requestTimeoutMs: 600})
    const {port} = new URL(gateway.url)
    const socket = connect(Number(port), '127.0.0.1')
    socket.write('GET /v1.0/purchases/x HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    await new Promise((resolve) => socket.once('close', resolve))
    const text = Buffer.concat(chunks).toString()
    expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toStrictEqual({
      successful: false,
      response: null,
      errors: ['Request timed out: the request was not received in time'],
      test: true,
    })
  })

  it('reads the whole body of a request it refuses with 401, so the client sees the 401', async () => {
    const answer = await call(await sandbox(), 'POST', '/v1.0/purchases', {auth: null, raw: JSON.stringify({padding: 'x'.repeat(900_000)})})
    expect(answer.status).toBe(401)
    expect(answer.text).toBe(UNAUTHORIZED)
  })
})
