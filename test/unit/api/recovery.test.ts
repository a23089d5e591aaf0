import {afterEach, describe, expect, it} from 'vitest'
import {GatewayClient, type RecoveryEvent} from '../../../src/api/client.js'
import {GwError, InterruptedError, ModeMismatchError, OutcomeUnknownError, RejectedError} from '../../../src/errors.js'
import {hintFor} from '../../../src/output/hints.js'
import {envelope, type MisbehavingGateway, misbehavingGateway, purchaseRecord, type Reply} from '../../misbehaving-gateway.js'

let gateway: MisbehavingGateway | undefined
afterEach(async () => {
  await gateway?.close()
  gateway = undefined
})

const CARD = {card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '987'}
const purchase = {...CARD, amount: 1000, reference: 'order-1', currency: 'AUD'}

/** A gateway that answers the purchase POST with `post` and every look-up by reference with `lookup`. */
async function gatewayAnswering(post: Reply, lookup: Reply): Promise<MisbehavingGateway> {
  gateway = await misbehavingGateway((request) => (request.method === 'POST' ? post : lookup))
  return gateway
}

/** The wall clock a client sees: it moves only when the client pauses, by the pause's length. */
const START = Date.parse('2026-11-17T10:00:00Z')

function clientOf(url: string, options: Partial<ConstructorParameters<typeof GatewayClient>[0]> = {}) {
  const events: RecoveryEvent[] = []
  const paused: number[] = []
  let now = START
  const client = new GatewayClient({
    baseUrl: url,
    username: 'TEST',
    token: 'TEST',
    userAgent: 'test',
    onRecovery: (event) => events.push(event),
    sleep: async (ms) => {
      paused.push(ms)
      now += ms
    },
    now: () => now,
    ...options,
  })
  return {client, events, paused}
}

async function failure(promise: Promise<unknown>): Promise<GwError> {
  try {
    await promise
  } catch (err) {
    if (err instanceof GwError) return err
    throw err
  }
  throw new Error('expected a failure')
}

const approved = {body: envelope(purchaseRecord(purchase))}

describe('a money POST whose answer cannot be read as a whole record is looked up by its reference', () => {
  const notJson = 'The gateway answered HTTP 200 with a body that is not JSON'
  const unread = (received: string) => `The gateway's POST /v1.0/purchases answer could not be read: response: Invalid input: expected object, received ${received}`
  // The third column: why the look-up was made, as its events say (a dropped connection's in undici's words).
  it.each<[string, Reply, unknown]>([
    ['HTTP 200 with malformed JSON', {body: '{"successful":true,"response":{"id":'}, notJson],
    ['HTTP 200 with an empty body', {body: ''}, notJson],
    ['a null response', {body: envelope(null)}, unread('null')],
    ['an array response', {body: envelope([purchaseRecord(purchase)])}, unread('array')],
    ['JSON without the envelope', {body: purchaseRecord(purchase)}, unread('undefined')],
    ['HTTP 500 after processing, with the envelope', {status: 500, body: envelope(null, {successful: false, errors: ['Internal error']})}, 'the gateway answered HTTP 500'],
    ['HTTP 500 with an HTML page', {status: 500, headers: {'content-type': 'text/html'}, body: '<html>500</html>'}, 'the gateway answered HTTP 500'],
    ['HTTP 502 from a proxy', {status: 502, body: ''}, 'the gateway answered HTTP 502'],
    ['HTTP 408 with the envelope: a request read too late is not known to be unread', {status: 408, body: envelope(null, {successful: false, errors: ['Request timed out: the request was not received in time']})}, 'the gateway answered HTTP 408: it did not receive the whole request in time'],
    ['a record without successful or authorized', {body: envelope({...purchaseRecord(purchase), successful: undefined})}, "the answer's purchase does not say whether it was approved (no successful or authorized field)"],
    ['a dropped connection', 'drop', expect.any(String)],
  ])('%s: the look-up finds it, the same purchase, sent once', async (_, post, why) => {
    const {url, posts, received} = await gatewayAnswering(post, approved)
    const {client, events} = clientOf(url)
    const {record} = await client.purchases.create(purchase)
    expect(record).toMatchObject({reference: 'order-1', successful: true})
    expect(events.map((event) => [event.step, event.why])).toEqual([['looking_up', why], ['found', why]])
    expect(posts('/v1.0/purchases', 'order-1')).toBe(1)
    expect(received.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1.0/purchases', 'GET /v1.0/purchases/order-1'])
  })

  it('a 404 is "not yet": looked up again every 5 s until the 60 s window is over, then exit 8 saying so, sent once', async () => {
    const {url, posts, received} = await gatewayAnswering({body: 'not json'}, {status: 404, headers: {'x-request-id': 'req-404'}, body: envelope(null, {successful: false, errors: ['Purchase not found']})})
    const {client, events, paused} = clientOf(url)
    const error = await failure(client.purchases.create(purchase))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error).toMatchObject({exitCode: 8, noun: 'purchase', reference: 'order-1', status: 404, requestId: 'req-404'})
    expect(error.message).toBe(
      "The purchase was sent but no answer came back that could be read (The gateway answered HTTP 200 with a body that is not JSON), " +
        'and the gateway has no purchase with reference order-1, even 60 s after it was sent (the most it takes to process one).',
    )
    expect(hintFor(error)).toBe('Do not resend it until you have checked what the gateway has: gw purchase get order-1')
    expect(paused).toEqual(Array(12).fill(5000))
    expect(received.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1.0/purchases', ...Array(13).fill('GET /v1.0/purchases/order-1')])
    expect(events).toEqual([
      {step: 'looking_up', noun: 'purchase', reference: 'order-1', why: expect.any(String)},
      {step: 'waiting', noun: 'purchase', reference: 'order-1', why: expect.any(String), since: START, endsAt: START + 60_000},
      {step: 'waited', noun: 'purchase', reference: 'order-1', why: expect.any(String)},
    ])
    expect(posts('/v1.0/purchases', 'order-1')).toBe(1)
  })

  it('a 404 while the gateway is still at work, then the purchase: found, the wait told from start to end', async () => {
    gateway = await misbehavingGateway((request, index) => {
      if (request.method === 'POST') return 'drop'
      return index < 3 ? {status: 404, body: envelope(null, {successful: false, errors: ['Purchase not found']})} : approved
    })
    const {client, events, paused} = clientOf(gateway.url)
    const {record} = await client.purchases.create(purchase)
    expect(record).toMatchObject({reference: 'order-1', successful: true})
    expect(paused).toEqual([5000, 5000])
    expect(events.map((event) => event.step)).toEqual(['looking_up', 'waiting', 'waited', 'found'])
    expect(gateway.posts('/v1.0/purchases', 'order-1')).toBe(1)
  })

  it('an answer lost once the window is over (a 60 s time-out) is looked up once: a 404 then is exit 8 at once', async () => {
    gateway = await misbehavingGateway((request) => (request.method === 'POST' ? 'drop' : {status: 404, body: envelope(null, {successful: false, errors: ['Purchase not found']})}))
    // Sent at START, and its look-up made 61 s later.
    const {client, events, paused} = clientOf(gateway.url, {now: () => (gateway!.received.length === 0 ? START : START + 61_000)})
    const error = await failure(client.purchases.create(purchase))
    expect(error.message).toMatch(/, and the gateway has no purchase with reference order-1, even 60 s after it was sent \(the most it takes to process one\)\.$/)
    expect(paused).toEqual([])
    expect(events.map((event) => event.step)).toEqual(['looking_up'])
    expect(gateway.received).toHaveLength(2)
  })

  it('a shorter window (a client told one) is waited and named as it is', async () => {
    const {url} = await gatewayAnswering('drop', {status: 404, body: envelope(null, {successful: false, errors: ['Purchase not found']})})
    const {client, paused} = clientOf(url, {processingWindowMs: 7_400})
    expect(await client.processingWindow()).toBe(7_400)
    const error = await failure(client.purchases.create(purchase))
    expect(error.message).toMatch(/, even 7 s after it was sent \(the most it takes to process one\)\.$/)
    expect(paused).toEqual([5000, 2400])
  })

  it('the window is 60 s unless the client is told one or its local gateway proves another', async () => {
    expect(await clientOf('http://127.0.0.1:9').client.processingWindow()).toBe(60_000)
  })

  it('a signal while waiting stops the wait at once: interrupted, naming the purchase to check', async () => {
    const {url, received} = await gatewayAnswering('drop', {status: 404, body: envelope(null, {successful: false, errors: ['Purchase not found']})})
    const controller = new AbortController()
    const {client} = clientOf(url, {signal: controller.signal, sleep: async () => controller.abort('SIGTERM')})
    const error = await failure(client.purchases.create(purchase))
    expect(error).toBeInstanceOf(InterruptedError)
    expect(error).toMatchObject({exitCode: 143, inFlight: {noun: 'purchase', reference: 'order-1'}})
    expect(received).toHaveLength(2)
  })

  it('a look-up that cannot be made: exit 8, saying both failed', async () => {
    gateway = await misbehavingGateway(() => 'drop')
    const {client, events} = clientOf(gateway.url)
    const error = await failure(client.purchases.create(purchase))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error).toMatchObject({exitCode: 8, noun: 'purchase', reference: 'order-1'})
    expect(error.message).toBe(
      'The purchase was sent but no answer came back that could be read (other side closed (UND_ERR_SOCKET)), and looking it up failed too: other side closed (UND_ERR_SOCKET)',
    )
    expect(events.map((event) => event.step)).toEqual(['looking_up'])
  })

  it('a look-up that fails while waiting ends the wait: exit 8, saying so', async () => {
    gateway = await misbehavingGateway((request, index) => {
      if (request.method === 'POST') return 'drop'
      return index === 1 ? {status: 404, body: envelope(null, {successful: false, errors: ['Purchase not found']})} : {status: 401, body: envelope(null, {successful: false, errors: ['Invalid Login']})}
    })
    const {client, events} = clientOf(gateway.url)
    const error = await failure(client.purchases.create(purchase))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toMatch(/^The purchase was sent but no answer came back that could be read \(.+\), and its look-up gave: Invalid Login$/)
    expect(events.map((event) => event.step)).toEqual(['looking_up', 'waiting', 'waited'])
  })

  it.each([500, 503, 599])('HTTP %i with a whole approved record is still looked up: a 5xx may come after the charge was made', async (status) => {
    const {url, received} = await gatewayAnswering({status, body: envelope(purchaseRecord(purchase))}, approved)
    const {client, events} = clientOf(url)
    expect((await client.purchases.create(purchase)).record).toMatchObject({reference: 'order-1', successful: true})
    expect(events.map((event) => event.step)).toEqual(['looking_up', 'found'])
    expect(events[0]).toMatchObject({why: `the gateway answered HTTP ${status}`})
    expect(received).toHaveLength(2)
  })

  it('HTTP 501 is the contract\'s refusal of invalid data, not a failure: no look-up', async () => {
    const {url, received} = await gatewayAnswering({status: 501, body: envelope(null, {successful: false, errors: ['Invalid Card Number']})}, approved)
    const error = await failure(clientOf(url).client.purchases.create(purchase))
    expect(error).toBeInstanceOf(RejectedError)
    expect(error.message).toBe('Invalid Card Number')
    expect(received).toHaveLength(1)
  })

  it('a client told nothing of its recovery still recovers, through a wait', async () => {
    gateway = await misbehavingGateway((request, index) => {
      if (request.method === 'POST') return 'drop'
      return index < 2 ? {status: 404, body: envelope(null, {successful: false, errors: ['Purchase not found']})} : approved
    })
    const {client} = clientOf(gateway.url, {onRecovery: undefined})
    expect((await client.purchases.create(purchase)).record).toMatchObject({reference: 'order-1', successful: true})
  })

  it('a look-up answered from the other environment stops the client (exit 6), never "unknown"', async () => {
    gateway = await misbehavingGateway((request) => (request.method === 'POST' ? 'drop' : {headers: {'x-service-mode': 'Live'}, body: envelope(purchaseRecord(purchase))}))
    const error = await failure(clientOf(gateway.url, {environment: 'sandbox'}).client.purchases.create(purchase))
    expect(error).toBeInstanceOf(ModeMismatchError)
    expect(error.exitCode).toBe(6)
  })

  it('a signal before the look-up stops it: interrupted, naming the purchase', async () => {
    const {url, received} = await gatewayAnswering('drop', approved)
    const controller = new AbortController()
    const {client} = clientOf(url, {signal: controller.signal, onRecovery: () => controller.abort('SIGINT')})
    const error = await failure(client.purchases.create(purchase))
    expect(error).toBeInstanceOf(InterruptedError)
    expect(error).toMatchObject({exitCode: 130, inFlight: {noun: 'purchase', reference: 'order-1'}})
    expect(received).toHaveLength(1)
  })

  it('a look-up that finds the purchase declined gives its record: a decline is an outcome, not a failure of the client', async () => {
    const declined = purchaseRecord(purchase, {successful: false, message: 'Insufficient Funds'})
    const {url} = await gatewayAnswering('drop', {body: envelope(declined)})
    const {client, events} = clientOf(url)
    expect((await client.purchases.create(purchase)).record).toEqual(declined)
    expect(events.map((event) => event.step)).toEqual(['looking_up', 'found'])
  })

  it('a record found without successful or authorized is unknown (exit 8), never declined', async () => {
    const {url} = await gatewayAnswering({body: envelope({...purchaseRecord(purchase), successful: undefined})}, {body: envelope({...purchaseRecord(purchase), successful: undefined})})
    const error = await failure(clientOf(url).client.purchases.create(purchase))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toContain('does not say whether it was approved')
  })

  it('takes `authorized` for the outcome when `successful` is not there: a whole answer, no look-up', async () => {
    const {url, received} = await gatewayAnswering({body: envelope({...purchaseRecord(purchase), successful: undefined, authorized: false, message: 'Declined'})}, approved)
    expect((await clientOf(url).client.purchases.create(purchase)).record).toMatchObject({authorized: false})
    expect(received).toHaveLength(1)
  })

  it('a refusal in the envelope is the answer: no look-up', async () => {
    const {url, received} = await gatewayAnswering({body: envelope(null, {successful: false, errors: ['Reference is already taken']})}, approved)
    const error = await failure(clientOf(url).client.purchases.create(purchase))
    expect(error).toBeInstanceOf(RejectedError)
    expect(error.message).toBe('Reference is already taken')
    expect(received).toHaveLength(1)
  })
})

describe('recovery checks that what it finds is what was sent', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['another reference', {reference: 'order-1.json'}, 'reference: sent "order-1", found "order-1.json"'],
    ['another amount', {amount: 2000}, 'amount: sent 1000, found 2000'],
    ['another currency', {currency: 'NZD'}, 'currency: sent "AUD", found "NZD"'],
    ['another card', {card_number: '555555XXXXXX4444'}, 'card_number: sent "424242XXXXXX4242", found "555555XXXXXX4444"'],
    ['another card, sent back whole', {card_number: '5555555555554444'}, 'card_number: sent "424242XXXXXX4242", found "555555XXXXXX4444"'],
  ])('%s: unknown (exit 8) with both records shown, the card masked and no CVV', async (_, change, difference) => {
    const {url, posts} = await gatewayAnswering('drop', {body: envelope(purchaseRecord(purchase, change))})
    const error = await failure(clientOf(url).client.purchases.create(purchase))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.exitCode).toBe(8)
    expect(error.message).toMatch(/^The purchase was sent but no answer came back that could be read \(other side closed \(UND_ERR_SOCKET\)\)\. The gateway has a purchase under reference order-1, but not the one sent \(/)
    expect(error.message).toContain(`The gateway has a purchase under reference order-1, but not the one sent (${difference})`)
    expect(error.message).toContain('  sent:  {"amount":1000,"reference":"order-1","currency":"AUD","card_holder":"Jane Citizen","card_number":"424242XXXXXX4242","card_expiry":"12/2030"}')
    expect(error.message).toMatch(/\n {2}found: \{"id":"071-P-ABCDEFGH"/)
    expect(error.message).not.toContain('4242424242424242')
    expect(error.message).not.toContain('987')
    expect(posts('/v1.0/purchases', 'order-1')).toBe(1)
  })

  it('a record that does not say its amount cannot be checked: unknown (exit 8)', async () => {
    const {url} = await gatewayAnswering('drop', {body: envelope(purchaseRecord(purchase, {amount: undefined}))})
    const error = await failure(clientOf(url).client.purchases.create(purchase))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toContain('The gateway has a purchase under reference order-1, but whether it is the one sent could not be checked (amount not known)')
  })

  it('a purchase by alias is matched through the token the alias stands for', async () => {
    const byAlias = {amount: 1000, reference: 'order-2', currency: 'AUD', card_token: 'jane-visa'}
    gateway = await misbehavingGateway((request) => {
      if (request.method === 'POST') return 'drop'
      if (request.path.startsWith('/v1.0/credit_cards/')) return {body: envelope({token: 'tok0123456789abcdefgh', alias: 'jane-visa', card_number: '424242XXXXXX4242'})}
      return {body: envelope(purchaseRecord(byAlias, {card_token: 'tok0123456789abcdefgh'}))}
    })
    const {record} = await clientOf(gateway.url).client.purchases.create(byAlias)
    expect(record).toMatchObject({reference: 'order-2', card_token: 'tok0123456789abcdefgh'})
    expect(gateway.received.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1.0/purchases', 'GET /v1.0/purchases/order-2', 'GET /v1.0/credit_cards/jane-visa'])
  })

  it('a token that stands for another card is unknown', async () => {
    const byAlias = {amount: 1000, reference: 'order-3', currency: 'AUD', card_token: 'jane-visa'}
    gateway = await misbehavingGateway((request) => {
      if (request.method === 'POST') return 'drop'
      if (request.path.startsWith('/v1.0/credit_cards/')) return {body: envelope({token: 'tok-jane'})}
      return {body: envelope(purchaseRecord(byAlias, {card_token: 'tok-somebody-else'}))}
    })
    const error = await failure(clientOf(gateway.url).client.purchases.create(byAlias))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toContain('card_token: sent "jane-visa", found "tok-somebody-else"')
  })

  it('a refund found with its amount negative (the contract) or positive (the live gateway) is the same refund, its card held against the purchase', async () => {
    const bought = purchaseRecord(purchase)
    for (const sign of [-1, 1]) {
      const refund = {transaction_id: 'order-1', amount: 500, reference: `refund-${sign}`}
      const found = {id: '071-R-ABCDEFGH', transaction_id: '071-R-ABCDEFGH', amount: sign * 500, successful: true, message: 'Approved', reference: refund.reference, card_number: bought.card_number, card_holder: bought.card_holder}
      gateway = await misbehavingGateway((request) => {
        if (request.method === 'POST') return {status: 503, body: ''}
        return {body: envelope(request.path.startsWith('/v1.0/purchases/') ? bought : found)}
      })
      expect((await clientOf(gateway.url).client.refunds.create(refund)).record).toMatchObject({amount: sign * 500})
      expect(gateway.received.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1.0/refunds', `GET /v1.0/refunds/refund-${sign}`, 'GET /v1.0/purchases/order-1'])
      await gateway.close()
      gateway = undefined
    }
  })

  it("a refund found on another card than its purchase's is unknown (exit 8)", async () => {
    const refund = {transaction_id: 'order-1', amount: 500, reference: 'refund-other'}
    gateway = await misbehavingGateway((request) => {
      if (request.method === 'POST') return 'drop'
      if (request.path.startsWith('/v1.0/purchases/')) return {body: envelope(purchaseRecord(purchase))}
      return {body: envelope({id: '071-R-ABCDEFGH', amount: 500, successful: true, reference: 'refund-other', card_number: '555555XXXXXX4444', card_holder: 'John Smith'})}
    })
    const error = await failure(clientOf(gateway.url).client.refunds.create(refund))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toContain(`not the one sent (card_number: the purchase's "424242XXXXXX4242", found "555555XXXXXX4444"; card_holder: the purchase's "Jane Citizen", found "John Smith")`)
  })

  it('a purchase by alias whose alias look-up fails is unknown (exit 8): another card is never believed', async () => {
    const byAlias = {amount: 1000, reference: 'order-4', currency: 'AUD', card_token: 'jane-visa'}
    gateway = await misbehavingGateway((request) => {
      if (request.method === 'POST') return 'drop'
      if (request.path.startsWith('/v1.0/credit_cards/')) return {status: 503, body: envelope(null, {successful: false, errors: ['Service Unavailable']})}
      return {body: envelope(purchaseRecord(byAlias, {card_token: 'tok-somebody-else'}))}
    })
    const error = await failure(clientOf(gateway.url).client.purchases.create(byAlias))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.exitCode).toBe(8)
    expect(error.message).toContain('whether it is the one sent could not be checked (card_token (what alias "jane-visa" stands for) not known)')
    expect(gateway.posts('/v1.0/purchases', 'order-4')).toBe(1)
  })

  it('a reference ending in .json is looked up whole', async () => {
    const dotted = {...purchase, reference: 'inv-b.json'}
    const {url, received} = await gatewayAnswering('drop', {body: envelope(purchaseRecord({...dotted, reference: 'inv-b'}))})
    const error = await failure(clientOf(url).client.purchases.create(dotted))
    expect(received[1]!.path).toBe('/v1.0/purchases/inv-b.json.json')
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toContain('reference: sent "inv-b.json", found "inv-b"')
  })
})

describe('the mode every answer reports is checked against the environment gw takes the gateway for', () => {
  it.each<[string, Record<string, string>, object]>([
    ['X-Service-Mode: Live', {'x-service-mode': 'Live'}, envelope(null, {successful: false, errors: ['Purchase not found']})],
    ['"test": false', {}, {...envelope(null, {successful: false, errors: ['Purchase not found']}), test: false}],
  ])('%s to a sandbox profile stops the client: exit 6, and nothing more is sent', async (_, headers, body) => {
    gateway = await misbehavingGateway(() => ({status: 404, headers, body}))
    const {client} = clientOf(gateway.url, {environment: 'sandbox'})
    const first = await failure(client.purchases.get('order-1'))
    expect(first).toBeInstanceOf(ModeMismatchError)
    expect(first.exitCode).toBe(6)
    expect(first.message).toBe(`The gateway at ${gateway.url} answered in live mode, but gw takes it for the sandbox: nothing more is sent`)
    expect(await failure(client.purchases.create(purchase))).toBe(first)
    expect(gateway.received).toHaveLength(1)
  })

  it('a purchase answered in another mode keeps its record for the person to see', async () => {
    gateway = await misbehavingGateway(() => ({headers: {'x-service-mode': 'Sandbox'}, body: envelope(purchaseRecord(purchase))}))
    const error = await failure(clientOf(gateway.url, {environment: 'live'}).client.purchases.create(purchase))
    expect(error).toBeInstanceOf(ModeMismatchError)
    expect(error.record).toMatchObject({reference: 'order-1', successful: true})
  })

  it('a purchase answered in another mode with a body that cannot be read names the purchase to check', async () => {
    gateway = await misbehavingGateway(() => ({headers: {'x-service-mode': 'Live'}, body: '{'}))
    const error = await failure(clientOf(gateway.url, {environment: 'sandbox'}).client.purchases.create(purchase))
    expect(error).toBeInstanceOf(ModeMismatchError)
    expect(error.record).toBeUndefined()
    expect(hintFor(error)).toMatch(/^The purchase with reference order-1 was sent: do not resend it until you have checked it with the right profile: gw purchase get order-1\. Check the base URL/)
  })

  it('an answer in the same mode, or with none, passes and is remembered', async () => {
    gateway = await misbehavingGateway((_, index) => (index === 0 ? {body: envelope(purchaseRecord(purchase))} : {body: {successful: true, response: purchaseRecord(purchase), errors: []}}))
    const {client} = clientOf(gateway.url, {environment: 'sandbox'})
    await client.purchases.get('order-1')
    expect(client.reportedMode).toBe('sandbox')
    await client.purchases.get('order-1')
  })
})
