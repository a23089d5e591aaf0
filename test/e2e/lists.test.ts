import {describe, expect, it} from 'vitest'
import {CARDS, cardArgs, ref, type Sandbox, sharedSandbox} from './helpers.js'

// gateway-notes.md: GET /v1.0/purchases, /refunds, /customers, /subscriptions.json and /credit_cards
// list with offset, limit, from and to. The local gateway answers them, oldest first, in the
// contract's list envelope; gw api sends them as the vendor's libraries would.
let sandbox: Sandbox
const purchases: string[] = []

interface Listed {
  successful: boolean
  response: {reference?: string; id?: string}[]
  records: number
  total_records: number
  pages: number
  current_page: number
}

sharedSandbox(async (started) => {
  sandbox = started
  for (const amount of ['1000', '2000', '3000']) {
    const reference = ref('listed')
    const made = await sandbox.gw(['purchase', 'create', '--amount', amount, '--reference', reference, ...cardArgs(CARDS.visa), '--json'])
    expect(made.code, made.stderr).toBe(0)
    purchases.push(reference)
  }
})

async function list(path: string, ...query: string[]): Promise<Listed> {
  const result = await sandbox.gw(['api', 'GET', path, ...query.flatMap((pair) => ['--query', pair])])
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as Listed
}

const today = () => {
  const now = new Date()
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
}

describe('GET /v1.0/purchases', () => {
  it('pages newest first (as the live gateway lists) with offset and limit, in the list envelope', async () => {
    const first = await list('/v1.0/purchases', 'limit=2')
    expect(first.response.map((purchase) => purchase.reference)).toEqual([purchases[2], purchases[1]])
    expect(first).toMatchObject({successful: true, records: 2, total_records: 3, pages: 2, current_page: 1})
    const second = await list('/v1.0/purchases', 'offset=2', 'limit=2')
    expect(second.response.map((purchase) => purchase.reference)).toEqual([purchases[0]])
    expect(second).toMatchObject({records: 1, total_records: 3, current_page: 2})
  })

  it('pages with page and per_page too', async () => {
    const listed = await list('/v1.0/purchases', 'page=2', 'per_page=1')
    expect(listed.response.map((purchase) => purchase.reference)).toEqual([purchases[1]])
    expect(listed).toMatchObject({total_records: 3, pages: 3, current_page: 2})
  })

  it('keeps the span from and to give, both days included', async () => {
    expect((await list('/v1.0/purchases', `from=${today()}`, `to=${today()}`)).total_records).toBe(3)
    expect(await list('/v1.0/purchases', 'from=2001-01-01', 'to=2001-12-31')).toMatchObject({response: [], total_records: 0})
  })

  it('refuses a from that is not a date: HTTP 400 naming it, exit 7', async () => {
    const result = await sandbox.gw(['api', 'GET', '/v1.0/purchases', '--query', 'from=yesterday'])
    expect(JSON.parse(result.stdout)).toMatchObject({successful: false, errors: ['from must be a date such as 2026-11-01, or a date-time']})
    expect(result.code).toBe(7)
    expect(result.stderr).toContain('from must be a date such as 2026-11-01, or a date-time (HTTP 400')
  })
})

describe('the other lists', () => {
  it('refunds, credit cards, customers and subscriptions (with or without .json) answer the same envelope', async () => {
    const purchase = (await sandbox.gw(['purchase', 'get', purchases[0]!, '--json'])).json as {id: string}
    const refund = ref('listed-refund')
    expect((await sandbox.gw(['refund', 'create', '--transaction-id', purchase.id, '--amount', '100', '--reference', refund])).code).toBe(0)
    expect((await list('/v1.0/refunds')).response.map((record) => record.reference)).toEqual([refund])
    expect(await list('/v1.0/credit_cards', 'limit=50')).toMatchObject({records: 3, total_records: 3})
    expect(await list('/v1.0/customers')).toMatchObject({successful: true, response: [], total_records: 0, pages: 1, current_page: 1})
    expect(await list('/v1.0/subscriptions.json')).toMatchObject({successful: true, response: [], total_records: 0})
    expect(await list('/v1.0/subscriptions')).toMatchObject({successful: true, response: [], total_records: 0})
  })
})
