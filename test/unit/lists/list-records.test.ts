import {describe, expect, it} from 'vitest'
import type {ListQuery} from '../../../src/api/client.js'
import {type ListRequest, listRecords} from '../../../src/operations/lists.js'
import {fakeClient, fakeDeps} from '../operations/fake-client.js'

/** 120 purchases a minute apart from 2026-11-17 09:00 UTC, every sixth declined; the gateway pages them oldest first. */
const purchases = Array.from({length: 120}, (_, i) => ({
  id: `071-P-${String(i).padStart(8, '0')}`,
  reference: `order-${i}`,
  amount: i % 6 === 5 ? 1051 : 1000,
  successful: i % 6 !== 5,
  transaction_date: new Date(Date.UTC(2026, 10, 17, 9, i)).toISOString().replace('.000Z', '+00:00'),
}))

function gateway() {
  const asked: ListQuery[] = []
  const fake = fakeClient({
    'purchases.list': (query: ListQuery) => {
      asked.push(query)
      const records = purchases.slice(query.offset, query.offset + query.limit)
      return {records, paging: {page: query.offset / query.limit + 1, pages: Math.ceil(purchases.length / query.limit), total: purchases.length}}
    },
  })
  return {asked, deps: fakeDeps(fake.client)}
}

const request = (changes: Partial<ListRequest>): ListRequest => ({resource: 'purchases', window: {}, filters: {}, order: 'newest', limit: 30, concurrency: 4, ...changes})

async function list(changes: Partial<ListRequest>) {
  const {asked, deps} = gateway()
  const listing = listRecords(request(changes), deps)
  const references: string[] = []
  for await (const page of listing.pages) references.push(...page.map((record) => String(record.reference)))
  return {references, summary: listing.summary(), asked}
}

describe('listRecords', () => {
  it('newest first, stopped at the limit, saying there are more and how many the gateway holds', async () => {
    const {references, summary} = await list({limit: 5})
    expect(references).toEqual(['order-119', 'order-118', 'order-117', 'order-116', 'order-115'])
    expect(summary).toEqual({shown: 5, more: true, total: 120, order: 'newest'})
  })

  it('oldest first; every record with no limit, and nothing more to show', async () => {
    const {references, summary} = await list({order: 'oldest', limit: undefined})
    expect(references).toEqual(purchases.map((purchase) => purchase.reference))
    expect(summary).toEqual({shown: 120, more: false, total: 120, order: 'oldest'})
  })

  it('a limit the list does not reach is no "more"', async () => {
    expect((await list({limit: 120})).summary).toEqual({shown: 120, more: false, total: 120, order: 'newest'})
  })

  it('filters applied to each record as it comes; the count of the gateway is not said for a narrowed list', async () => {
    const {references, summary} = await list({filters: {status: 'declined'}, limit: undefined})
    expect(references).toHaveLength(20)
    expect(references.slice(0, 2)).toEqual(['order-119', 'order-113'])
    expect(summary).toEqual({shown: 20, more: false, order: 'newest'})
  })

  it('a filter that matches nothing hands over nothing', async () => {
    expect(await list({filters: {reference: 'order-x'}})).toMatchObject({references: [], summary: {shown: 0, more: false}})
  })

  it('sends the window as whole days, widened, and holds the records to it exactly', async () => {
    const window = {from: new Date('2026-11-17T09:10:00Z'), to: new Date('2026-11-17T09:14:59Z')}
    const {references, asked} = await list({window})
    expect(references).toEqual(['order-14', 'order-13', 'order-12', 'order-11', 'order-10'])
    expect(asked[0]).toEqual({offset: 0, limit: 50, from: '2026/11/16', to: '2026/11/18'})
  })
})

describe('listRecords of web hooks, which carry no dates', () => {
  /** Four hooks in one answer, as the gateway of 2018 listed them: newest first. */
  const hooks = ['h4', 'h3', 'h2', 'h1'].map((name) => ({id: `071-WH-${name}`, name}))
  async function hookList(changes: Partial<ListRequest>) {
    const fake = fakeClient({'webHooks.list': () => ({records: hooks, paging: {}})})
    const listing = listRecords({...request(changes), resource: 'webHooks'}, fakeDeps(fake.client))
    const names: string[] = []
    for await (const page of listing.pages) names.push(...page.map((hook) => String(hook.name)))
    return {names, summary: listing.summary()}
  }

  it('in the order undatedOrder tells from the first page, none assumed', async () => {
    const told: unknown[] = []
    const undatedOrder = async (first: readonly Record<string, unknown>[]) => (told.push(first), 'newest' as const)
    expect(await hookList({undatedOrder})).toEqual({names: ['h4', 'h3', 'h2', 'h1'], summary: {shown: 4, more: false, total: 4, order: 'newest'}})
    expect(await hookList({undatedOrder, order: 'oldest', limit: 1})).toEqual({names: ['h1'], summary: {shown: 1, more: true, total: 4, order: 'oldest'}})
    expect(told).toEqual([hooks, hooks])
  })

  it('nothing told: oldest first is assumed, and the summary says it was', async () => {
    expect(await hookList({undatedOrder: async () => undefined})).toEqual({names: ['h1', 'h2', 'h3', 'h4'], summary: {shown: 4, more: false, total: 4, order: 'newest', assumed: true}})
    expect((await hookList({})).summary.assumed).toBe(true)
  })
})
