import {describe, expect, it} from 'vitest'
import {cardArgs, type Sandbox, sharedSandbox} from './helpers.js'

// `gw sandbox start --dialect live` answers as the recorded live gateway does wherever it
// differs from the contract (src/sandbox/dialect.ts); the contract's dialect stays the default.
const basic = 'Basic ' + Buffer.from('TEST:TEST').toString('base64')

async function call(sandbox: Sandbox, method: string, path: string, body?: unknown) {
  const response = await fetch(sandbox.url + path, {method, headers: {authorization: basic, 'content-type': 'application/json', accept: 'application/json'}, body: body === undefined ? undefined : JSON.stringify(body)})
  return {status: response.status, body: (await response.json()) as Record<string, unknown> & {response: Record<string, unknown> & Record<string, unknown>[]; errors: string[]}}
}

const customer = (cardNumber: string) => ({first_name: 'Jo', last_name: 'Citizen', reference: `dialect-${cardNumber.slice(-4)}-${Date.now()}`, email: 'jo@example.com', card: {card_number: cardNumber, expiry_date: '12/2030', cvv: '123'}})

describe.each([
  {dialect: 'contract', args: [] as string[]},
  {dialect: 'live', args: ['--dialect', 'live']},
])('gw sandbox start in the $dialect dialect', ({dialect, args}) => {
  const live = dialect === 'live'
  let sandbox: Sandbox
  let purchaseId: string
  sharedSandbox(async (started) => {
    sandbox = started
    const made = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', `dialect-${dialect}`, ...cardArgs(), '--json'])
    expect(made.code, made.stderr).toBe(0)
    purchaseId = (made.json as {id: string}).id
    const refunded = await sandbox.gw(['refund', 'create', '--transaction-id', purchaseId, '--amount', '400', '--json'])
    expect(refunded.code, refunded.stderr).toBe(0)
  }, args, {asProcess: true})

  it('gw sandbox status names the dialect', async () => {
    const status = await sandbox.gw(['sandbox', 'status', '--json'])
    expect(status.code, status.stderr).toBe(0)
    expect(status.records[0]).toMatchObject({dialect, url: sandbox.url})
  })

  it(live ? 'lists page with page from 0 and total_pages' : 'lists page with current_page and pages', async () => {
    const {body} = await call(sandbox, 'GET', '/v1.0/purchases?offset=0&limit=10')
    expect(body).toMatchObject(live ? {page: 0, total_pages: 1, total_records: 1} : {current_page: 1, pages: 1, total_records: 1, records: 1})
    expect(Object.keys(body)).not.toContain(live ? 'current_page' : 'total_pages')
  })

  it(live ? "a refund's amount is positive" : "a refund's amount is negative", async () => {
    const {body} = await call(sandbox, 'GET', '/v1.0/refunds')
    expect(body.response.map((refund) => refund.amount)).toEqual([live ? 400 : -400])
  })

  it(`an unknown purchase is 404 ${live ? 'Could not find Purchase' : 'Purchase not found'}`, async () => {
    const {status, body} = await call(sandbox, 'GET', '/v1.0/purchases/no-such-purchase')
    expect(status).toBe(404)
    expect(body.errors).toEqual([live ? 'Could not find Purchase' : 'Purchase not found'])
  })

  it(`a customer is made with ${live ? '200' : '201'}; one with a card number that fails the Luhn check is ${live ? '422 Card number is invalid' : '400 Invalid Card Number'}`, async () => {
    expect((await call(sandbox, 'POST', '/v1.0/customers', customer('4242424242424242'))).status).toBe(live ? 200 : 201)
    const refused = await call(sandbox, 'POST', '/v1.0/customers', customer('4242424242424241'))
    expect(refused.status).toBe(live ? 422 : 400)
    expect(refused.body.errors).toContain(live ? 'Card number is invalid' : 'Invalid Card Number')
  })

  it(live ? "a customer keeps its address on get" : "a customer's address is shown on creation only", async () => {
    const made = await call(sandbox, 'POST', '/v1.0/customers', {...customer('5123456789012346'), address: {address: '1 George St', city: 'Sydney', state: 'NSW', postcode: '2000', country: 'Australia'}})
    expect(made.body.response).toMatchObject({address: {city: 'Sydney'}, bank_account: null, metadata: null, card_number: '512345XXXXXX2346'})
    const fetched = await call(sandbox, 'GET', `/v1.0/customers/${made.body.response.id as string}.json`)
    expect(fetched.body.response).toMatchObject({bank_account: null, metadata: null, card_number: '512345XXXXXX2346'})
    if (live) expect(fetched.body.response).toMatchObject({address: {city: 'Sydney'}})
    else expect(fetched.body.response).not.toHaveProperty('address')
  })

  it('gw reads its lists and the refunds of a purchase all the same', async () => {
    const listed = await sandbox.gw(['purchase', 'list', '--json'])
    expect(listed.records.map((record) => (record as {id: string}).id)).toEqual([purchaseId])
    const shown = await sandbox.gw(['purchase', 'get', purchaseId], {env: {GW_FORCE_TTY: '120', NO_COLOR: '1'}})
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toMatch(/Left to refund +6\.00 AUD/)
  })
})
