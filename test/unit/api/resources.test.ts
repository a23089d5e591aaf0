import {describe, expect, it} from 'vitest'
import {type Endpoint, endpoints} from '../../../src/api/endpoints.js'
import {resources, type Sender, type SendOptions} from '../../../src/api/resources.js'

function recordingSender() {
  const calls: [string, Endpoint, SendOptions | undefined][] = []
  const record = (how: string) => async (endpoint: Endpoint, options?: SendOptions) => {
    calls.push([how, endpoint, options])
    return {}
  }
  return {calls, sender: {send: record('send'), sendList: record('sendList'), answer: record('answer')} as unknown as Sender}
}

describe('the client resource methods, made from the endpoint table', () => {
  it('has a method for every endpoint declared, and nothing else', () => {
    const made = resources(recordingSender().sender) as unknown as Record<string, Record<string, unknown>>
    expect(Object.keys(made)).toEqual(Object.keys(endpoints))
    for (const [group, members] of Object.entries(endpoints)) {
      expect(Object.keys(made[group]!), group).toEqual(Object.keys(members))
      for (const name of Object.keys(members)) expect(typeof made[group]![name], `${group}.${name}`).toBe('function')
    }
  })

  it.each([
    ['a key in the path is the first argument, by its name', (r: ReturnType<typeof resources>) => r.purchases.get('order/1'), ['send', endpoints.purchases.get, {params: {id: 'order/1'}, body: undefined}]],
    ['a card is looked up by token', (r: ReturnType<typeof resources>) => r.cards.get('tok'), ['send', endpoints.cards.get, {params: {token: 'tok'}, body: undefined}]],
    ['a subscription by reference', (r: ReturnType<typeof resources>) => r.subscriptions.get('sub-1'), ['send', endpoints.subscriptions.get, {params: {reference: 'sub-1'}, body: undefined}]],
    ['a key and a body', (r: ReturnType<typeof resources>) => r.plans.update('gold', {name: 'Gold'}), ['send', endpoints.plans.update, {params: {id: 'gold'}, body: {name: 'Gold'}}]],
    ['a body alone', (r: ReturnType<typeof resources>) => r.plans.create({name: 'Gold', amount: 100, reference: 'gold', description: 'Gold tier'}), ['send', endpoints.plans.create, {body: {name: 'Gold', amount: 100, reference: 'gold', description: 'Gold tier'}}]],
    ['money answers whole', (r: ReturnType<typeof resources>) => r.refunds.create({transaction_id: 'p-1', amount: 5, reference: 'r-1'}), ['answer', endpoints.refunds.create, {body: {transaction_id: 'p-1', amount: 5, reference: 'r-1'}}]],
    [
      'a paged list is asked for by offset and limit, and by page and per_page alike',
      (r: ReturnType<typeof resources>) => r.purchases.list({offset: 50, limit: 50, page: 2, from: '2026/11/01'}),
      ['sendList', endpoints.purchases.list, {query: {offset: 50, limit: 50, page: 2, per_page: 50, from: '2026/11/01', to: undefined}}],
    ],
    ['anything else takes a query', (r: ReturnType<typeof resources>) => r.sandbox.deliveries({status: 'failed'}), ['send', endpoints.sandbox.deliveries, {query: {status: 'failed'}}]],
    ['a key with no body', (r: ReturnType<typeof resources>) => r.sandbox.redeliver('d-1'), ['send', endpoints.sandbox.redeliver, {params: {id: 'd-1'}, body: undefined}]],
  ] as const)('%s', async (_, use, expected) => {
    const {calls, sender} = recordingSender()
    await use(resources(sender))
    expect(calls).toEqual([expected])
  })
})

describe('a request body that fails its schema', () => {
  it('is refused before anything is sent: exit 2, naming the field in the rule\'s words, never a bare schema error', async () => {
    const {GatewayClient} = await import('../../../src/api/client.js')
    const {UsageError} = await import('../../../src/errors.js')
    // Port 9 (discard): were anything sent, the connection would be refused, exit 1, not 2.
    const client = new GatewayClient({baseUrl: 'http://127.0.0.1:9', username: 'TEST', token: 'TEST', userAgent: 'test'})
    try {
      const refused = await client.refunds.create({transaction_id: 'p-1', amount: 0, reference: 'r-1'}).catch((err: unknown) => err)
      expect(refused).toBeInstanceOf(UsageError)
      expect(refused).toMatchObject({exitCode: 2, message: 'amount must be greater than 0, got 0: nothing was sent'})
    } finally {
      await client.close()
    }
  })
})
