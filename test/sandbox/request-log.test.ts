import {existsSync, mkdtempSync, readFileSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ACME_AUTH, basicAuth, call, purchase, sandbox} from './helpers.js'
import {withoutRequestIds} from '../log-text.js'

type Gateway = Awaited<ReturnType<typeof sandbox>>

const CVV = '7391'
const requests = async (gateway: Gateway, query = '') => (await call(gateway, 'GET', `/_sandbox/requests${query}`, {auth: null})).body
const logFile = () => join(mkdtempSync(join(tmpdir(), 'gw-request-log-')), 'state.requests.ndjson')

describe('the request log (GET /_sandbox/requests)', () => {
  it('keeps each request answered: merchant, method, path, status, time taken, request id, reference, card masked', async () => {
    const gateway = await sandbox()
    const answer = await purchase(gateway, {cvv: CVV, reference: 'order-7'})
    const page = await requests(gateway)

    expect(page.successful).toBe(true)
    expect(page.response.entries).toStrictEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        merchant: 'TEST',
        method: 'POST',
        path: '/v1.0/purchases',
        status: 200,
        ms: expect.any(Number),
        request_id: answer.headers.get('x-request-id'),
        reference: 'order-7',
        card_number: '512345XXXXXX2346',
        error: null,
      },
    ])
    expect(page.response.next).toBe(1)
    expect(withoutRequestIds(JSON.stringify(page))).not.toContain(CVV)
  })

  it("shows the gateway's first error, a refusal's merchant as null, and never its own /_sandbox/ requests", async () => {
    const gateway = await sandbox()
    await purchase(gateway, {amount: -1, reference: ''})
    await call(gateway, 'GET', '/v1.0/purchases/nothing', {auth: basicAuth('TEST', 'wrong')})
    await call(gateway, 'GET', '/_sandbox/clock', {auth: null})
    const {entries} = (await requests(gateway)).response
    expect(entries.map((entry: {status: number; merchant: string | null; error: string | null}) => [entry.status, entry.merchant, entry.error])).toStrictEqual([
      [400, 'TEST', 'Amount must be greater than or equal to 0'],
      [401, null, 'Incorrect Username or Token'],
    ])
  })

  it('filters by status class or code, path prefix and merchant, and keeps the latest --limit, oldest first', async () => {
    const gateway = await sandbox()
    await purchase(gateway, {reference: 'a'})
    await purchase(gateway, {reference: 'a'})
    await call(gateway, 'GET', '/v1.0/purchases/missing')
    await purchase(gateway, {reference: 'acme-1'}, ACME_AUTH)
    await call(gateway, 'GET', '/v1.0/refunds/missing')

    const refs = async (query: string) => (await requests(gateway, query)).response.entries.map((entry: {path: string; status: number; reference: string | null}) => `${entry.status} ${entry.path} ${entry.reference ?? ''}`.trim())
    // The second `a` is a taken reference, which the gateway answers with 200 and successful false.
    expect(await refs('?status=4xx')).toStrictEqual(['404 /v1.0/purchases/missing', '404 /v1.0/refunds/missing'])
    expect(await refs('?status=404,2xx&path=/v1.0/purchases&merchant=TEST')).toStrictEqual(['200 /v1.0/purchases a', '200 /v1.0/purchases a', '404 /v1.0/purchases/missing'])
    expect(await refs('?merchant=ACME')).toStrictEqual(['200 /v1.0/purchases acme-1'])
    expect(await refs('?limit=2')).toStrictEqual(['200 /v1.0/purchases acme-1', '404 /v1.0/refunds/missing'])
    expect(await refs('?after=3')).toStrictEqual(['200 /v1.0/purchases acme-1', '404 /v1.0/refunds/missing'])
    expect(await refs('?after=5')).toStrictEqual([])
    expect((await requests(gateway, '?after=5')).response).toStrictEqual({entries: [], next: 5, missed: 0})
  })

  it('logs captures, increments, voids, the settlement look-up and /ping, with the reference of the record each changed', async () => {
    const gateway = await sandbox()
    const {id} = (await purchase(gateway, {reference: 'order-7', capture: false, amount: 10000})).body.response
    await call(gateway, 'PUT', `/v1.0/purchases/${id}`, {body: {amount: 12000}})
    await call(gateway, 'POST', `/v1.0/purchases/${id}/capture`, {body: {amount: 12000}})
    const refund = (await call(gateway, 'POST', '/v1.0/refunds', {body: {transaction_id: id, amount: 500, reference: 'refund-7'}})).body.response
    await call(gateway, 'POST', '/v1.0/refunds/void', {body: {id: refund.id}})
    await call(gateway, 'POST', `/v1.0/purchases/void?id=${id}`, {body: {}})
    await call(gateway, 'POST', `/v1.0/purchases/${id}/capture`, {body: {amount: 100}})
    await call(gateway, 'POST', '/v1.0/purchases/void', {body: {id: 'order-7'}})
    await call(gateway, 'GET', '/v1.0/purchases/settlement?from=2026/11/22&to=2026/11/22')
    await call(gateway, 'GET', '/ping?echo=x')
    const {entries} = (await requests(gateway)).response
    expect(entries.map((entry: {method: string; path: string; status: number; reference: string | null; error: string | null}) => [entry.method, entry.path, entry.status, entry.reference, entry.error])).toStrictEqual([
      ['POST', '/v1.0/purchases', 200, 'order-7', null],
      ['PUT', `/v1.0/purchases/${id}`, 200, 'order-7', null],
      ['POST', `/v1.0/purchases/${id}/capture`, 200, 'order-7', null],
      ['POST', '/v1.0/refunds', 200, 'refund-7', null],
      ['POST', '/v1.0/refunds/void', 200, 'refund-7', null],
      ['POST', '/v1.0/purchases/void', 200, 'order-7', null],
      ['POST', `/v1.0/purchases/${id}/capture`, 200, 'order-7', 'Transaction has been voided'],
      ['POST', '/v1.0/purchases/void', 404, null, 'Purchase not found'],
      ['GET', '/v1.0/purchases/settlement', 200, null, null],
      ['GET', '/ping', 200, null, null],
    ])
  })

  it('refuses a filter it cannot read, naming it', async () => {
    const gateway = await sandbox()
    const answer = await call(gateway, 'GET', '/_sandbox/requests?status=4x&limit=0', {auth: null})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toStrictEqual([
      'status: must be a status class such as 4xx, a status such as 404, or several separated by commas',
      'limit: Too small: expected number to be >=1',
    ])
  })

  it('logs what a fault did: a dropped connection has no status', async () => {
    const gateway = await sandbox()
    await call(gateway, 'POST', '/_sandbox/faults', {body: {method: 'POST', path: '/v1.0/purchases', action: 'drop-after'}, auth: null})
    await expect(purchase(gateway, {reference: 'dropped'})).rejects.toThrow()
    const [entry] = (await requests(gateway)).response.entries
    expect(entry).toMatchObject({status: null, reference: 'dropped', error: 'processed, then the connection was dropped before the answer (fault drop-after; it was 200)'})
  })

  it('answers 404 when it is off', async () => {
    const gateway = await sandbox({requestLog: false})
    await purchase(gateway)
    const answer = await call(gateway, 'GET', '/_sandbox/requests', {auth: null})
    expect(answer.status).toBe(404)
    expect(answer.body.errors).toStrictEqual(['The request log is off: this gateway was started with --no-request-log'])
  })
})

describe('the request log file', () => {
  it('holds the same entries as lines, with no CVV, token or whole card number, and is read back by the next gateway', async () => {
    const file = logFile()
    const first = await sandbox({requestLog: {file}, merchants: [{username: 'ACME', token: 'acme-s3cret-token'}]})
    await purchase(first, {cvv: CVV, reference: 'kept'}, basicAuth('ACME', 'acme-s3cret-token'))
    await call(first, 'POST', '/v1.0/customers', {
      body: {first_name: 'Jo', last_name: 'Citizen', reference: 'cust-1', email: 'jo@example.com', card: {card_number: '4242424242424242', expiry_date: '12/2030', cvv: CVV}},
    })
    await call(first, 'POST', '/v1.0/web_hooks', {body: {name: 'h', address: 'http://127.0.0.1:9/h', events: '*', mode: 'Test', authentication_username: 'u', authentication_password: 'hook-pa55word'}})
    const shown = (await requests(first)).response.entries
    await first.close()

    const text = readFileSync(file, 'utf8')
    expect(text.trim().split('\n').map((line) => JSON.parse(line))).toStrictEqual(shown)
    expect(shown.map((entry: {card_number: string | null}) => entry.card_number)).toStrictEqual(['512345XXXXXX2346', '424242XXXXXX4242', null])
    for (const secret of [CVV, 'acme-s3cret-token', Buffer.from('ACME:acme-s3cret-token').toString('base64'), 'hook-pa55word', '5123456789012346', '4242424242424242', '"cvv"']) {
      expect(withoutRequestIds(text)).not.toContain(secret)
    }
    expect(statSync(file).mode & 0o777).toBe(0o600)

    const second = await sandbox({requestLog: {file}})
    await call(second, 'GET', '/v1.0/purchases/kept')
    const page = (await requests(second)).response
    expect(page.entries.map((entry: {reference: string | null; path: string}) => entry.reference ?? entry.path)).toStrictEqual(['kept', 'cust-1', '/v1.0/web_hooks', '/v1.0/purchases/kept'])
  })

  it('is rotated past its size: the file and one before it, never more', async () => {
    const file = logFile()
    const gateway = await sandbox({requestLog: {file, maxBytes: 2000}})
    for (let index = 0; index < 40; index++) await call(gateway, 'GET', `/v1.0/purchases/missing-${index}`)
    await gateway.close()
    expect(existsSync(`${file}.1`)).toBe(true)
    expect(existsSync(`${file}.2`)).toBe(false)
    expect(statSync(file).size).toBeLessThanOrEqual(2000)
    expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(2000)
    const last = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line).path)
    expect(last.at(-1)).toBe('/v1.0/purchases/missing-39')
  })
})
