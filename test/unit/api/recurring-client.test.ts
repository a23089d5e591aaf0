import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterEach, describe, expect, it} from 'vitest'
import {GatewayClient} from '../../../src/api/client.js'
import {walkList} from '../../../src/api/paging.js'
import {Customer} from '../../../src/api/schemas/customer.js'
import {Plan} from '../../../src/api/schemas/plan.js'
import {Subscription} from '../../../src/api/schemas/subscription.js'

describe('recurring schemas accept what the gateway sends', () => {
  it.each([
    ['plan with extra fields', Plan, {id: '071-PL-ABCDEFGH', name: 'Gold', amount: 2500, currency: 'AUD', subscription_count: 3, created_at: '2026-11-22T10:00:00+11:00'}],
    ['plan refused: every field null', Plan, {id: null, name: null, reference: null, description: null, amount: null}],
    ['customer with address', Customer, {id: '071-C-ABCDEFGH', email: 'j@example.com', address: {city: 'Sydney', unit: '4'}, card_token: 'abc'}],
    ['customer refused: id and created_at null', Customer, {id: null, created_at: null, first_name: ''}],
    ['subscription with the customer id', Subscription, {id: '071-S-ABCDEFGH', customer: '071-C-ABCDEFGH', end_date: null, next_billing_date: '2026-12-01', is_active: true}],
    ['subscription with a customer object (event payloads)', Subscription, {customer: {id: '071-C-ABCDEFGH', email: 'j@example.com'}, last_status: 'Failed (2), Pending'}],
    ['subscription refused: no id', Subscription, {reference: '', is_active: false}],
  ])('%s, unknown fields kept', (_, schema, record) => {
    const parsed = schema.safeParse(record)
    expect(parsed.success).toBe(true)
    expect(parsed.data).toEqual(record)
  })
})

/** A gateway answering plan lists as the live one does: `page` from 0 and `total_pages`. */
let server: Server | undefined
afterEach(async () => {
  const running = server
  server = undefined
  if (running) await new Promise((resolve) => running.close(resolve))
})

async function liveGateway(total: number): Promise<{url: string; queries: string[]}> {
  const queries: string[] = []
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x')
    queries.push(url.search)
    const size = Number(url.searchParams.get('per_page') ?? url.searchParams.get('limit') ?? 10)
    const page = Number(url.searchParams.get('page') ?? 0)
    const response = Array.from({length: total}, (_, i) => ({id: `071-PL-${String(i).padStart(8, '0')}`, extra: i, created_at: `2026-11-17T09:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}+11:00`})).slice(page * size, page * size + size)
    // Creation answers 200 here, as the live gateway may.
    res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({successful: true, response, errors: [], page, total_pages: Math.ceil(total / size)}))
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return {url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, queries}
}

describe('GatewayClient plan lists', () => {
  it('pages a gateway that counts pages from 0 and pages by page number, newest first', async () => {
    const {url, queries} = await liveGateway(120)
    const client = new GatewayClient({baseUrl: url, username: 'TEST', token: 'TEST', userAgent: 'test'})
    try {
      const plans: Record<string, unknown>[] = []
      for await (const page of walkList((at) => client.plans.list(at), {order: 'newest', ahead: 2})) plans.push(...page)
      expect(plans.map((plan) => plan.id)).toEqual(Array.from({length: 120}, (_, i) => `071-PL-${String(119 - i).padStart(8, '0')}`))
      expect(plans[0]).toMatchObject({extra: 119})
      expect(queries.toSorted()).toEqual(['?offset=0&limit=50', '?offset=100&limit=50&page=2&per_page=50', '?offset=50&limit=50&page=1&per_page=50'])
      expect(await client.plans.list({offset: 100, limit: 50, page: 2})).toMatchObject({paging: {page: 2, pages: 3, total: undefined}})
    } finally {
      await client.close()
    }
  })
})
