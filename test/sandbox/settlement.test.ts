import {describe, expect, it} from 'vitest'
import {CENTS_CARD, NOW, call, purchase, sandbox} from './helpers.js'
import {advance} from './recurring-helpers.js'

type Gateway = Awaited<ReturnType<typeof sandbox>>

const settlement = (gateway: Gateway, query: string) => call(gateway, 'GET', `/v1.0/purchases/settlement?${query}`)

/**
 * On 2026-11-22: a purchase, a decline, an authorization left uncaptured, one captured the next
 * day, one captured and voided, a refund; on the 23rd, another purchase.
 */
async function aWeekOfTrade(gateway: Gateway) {
  const paid = (await purchase(gateway, {reference: 'paid'})).body.response
  const declined = (await purchase(gateway, {...CENTS_CARD, reference: 'declined', amount: 10051})).body.response
  await purchase(gateway, {reference: 'uncaptured', capture: false})
  const later = (await purchase(gateway, {reference: 'captured-later', capture: false})).body.response
  const voided = (await purchase(gateway, {reference: 'voided'})).body.response
  await call(gateway, 'POST', '/v1.0/purchases/void', {body: {id: voided.id}})
  await call(gateway, 'POST', '/v1.0/refunds', {body: {transaction_id: paid.id, amount: 100, reference: 'refund-1'}})
  await advance(gateway, {days: 1})
  const captured = (await call(gateway, 'POST', `/v1.0/purchases/${later.id}/capture`, {body: {amount: 600}})).body.response
  const next = (await purchase(gateway, {reference: 'next-day'})).body.response
  const get = async (id: string) => (await call(gateway, 'GET', `/v1.0/purchases/${id}`)).body.response
  return {paid, declined, voided: await get(voided.id), captured, next}
}

describe('GET /v1.0/purchases/settlement', () => {
  it.each([
    ['contract', {pages: 1, current_page: 1}],
    ['live', {page: 1, total_pages: 1}],
  ] as const)('lists the purchases settled in the span, newest first, declined and voided ones too, in one page (%s dialect)', async (dialect, paging) => {
    const gateway = await sandbox({dialect})
    const {paid, declined, voided, captured, next} = await aWeekOfTrade(gateway)

    const both = await settlement(gateway, 'from=2026/11/22&to=2026/11/23&test=true')
    expect(both.status).toBe(200)
    expect(both.body).toStrictEqual({successful: true, response: [next, voided, captured, declined, paid], errors: [], test: true, records: 5, total_records: 5, ...paging})
    expect(both.text).toContain('"decimal_amount":10.0,')
    expect(voided).toMatchObject({message: 'Voided', captured_amount: 0, settlement_date: '2026-11-22'})
    expect(captured).toMatchObject({settlement_date: '2026-11-23', captured_amount: 600, amount: 1000})

    expect((await settlement(gateway, 'from=2026-11-22&to=2026-11-22')).body.response).toStrictEqual([voided, declined, paid])
    expect((await settlement(gateway, 'from=2026/11/23&to=2026/11/23')).body.response).toStrictEqual([next, captured])
    const none = await settlement(gateway, 'from=2026/11/24&to=2026/12/31')
    expect(none.body).toStrictEqual({successful: true, response: [], errors: [], test: true, records: 0, total_records: 0, ...paging})
  })

  it('lists only the merchant\'s own', async () => {
    const gateway = await sandbox()
    await purchase(gateway)
    const acme = await call(gateway, 'GET', '/v1.0/purchases/settlement?from=2026/11/22&to=2026/11/22', {auth: `Basic ${Buffer.from('ACME:acme-token').toString('base64')}`})
    expect(acme.body.response).toStrictEqual([])
  })

  it.each<[string, string[]]>([
    ['', ["From can't be blank", "To can't be blank"]],
    ['from=2026/11/22', ["To can't be blank"]],
    ['from=22/11/2026&to=2026/11/30', ['from must be a date such as 2026/11/01']],
    ['from=2026/11/22&to=2026/02/30', ['to must be a date such as 2026/11/01']],
  ])('refuses %j with a 400: %j', async (query, errors) => {
    const answer = await settlement(await sandbox(), query)
    expect(answer.status).toBe(400)
    expect(answer.body).toStrictEqual({successful: false, response: null, errors, test: true})
  })
})

describe('GET /ping', () => {
  it.each(['contract', 'live'] as const)('answers the bare body the gateway does, its time and the echo, no envelope (%s dialect)', async (dialect) => {
    const gateway = await sandbox({dialect})
    const seconds = Math.floor(NOW.getTime() / 1000)
    const answer = await call(gateway, 'GET', '/ping?echo=262ca5679c2dd86ac866200a7b57fab0&test=true')
    expect(answer.status).toBe(200)
    expect(answer.text).toBe(`{"timestamp":${seconds},"echo":"262ca5679c2dd86ac866200a7b57fab0"}`)
    expect(answer.headers.get('x-request-id')).toBeTruthy()
    expect((await call(gateway, 'GET', '/ping')).body).toStrictEqual({timestamp: seconds, echo: null})
  })

  it('takes a merchant\'s credentials, as every recorded ping sent them', async () => {
    const answer = await call(await sandbox(), 'GET', '/ping?echo=x', {auth: null})
    expect(answer.status).toBe(401)
    expect(answer.body).toStrictEqual({successful: false, errors: ['Incorrect Username or Token'], response: null})
  })
})
