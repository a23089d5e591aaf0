import {describe, expect, it} from 'vitest'
import {cardArgs, DIALECT, ref, type Sandbox, sandboxForFile} from './helpers.js'

// #62.8: where the local gateway answered otherwise than the recorded live gateway, it now answers
// as the gateway does (both dialects where the contract is silent; --dialect live where it is not),
// field for field; docs/sandbox-dialects.md lists the choices made where no recording shows one.

let sandbox: Sandbox
sandboxForFile((started) => {
  sandbox = started
})

/** The gateway's answer as `gw api` prints it: its body as sent. */
async function api(args: string[], exitCode = 0): Promise<{text: string; body: Record<string, unknown>}> {
  const result = await sandbox.gw(['api', ...args])
  expect(result.code, result.stderr).toBe(exitCode)
  return {text: result.stdout, body: JSON.parse(result.stdout) as Record<string, unknown>}
}

const DEBIT = {description: 'Confirmation', amount: 42, bsb: '123-123', account_name: 'Test', account_number: '012345678'}

describe(`the recorded answers, in the ${DIALECT} dialect`, () => {
  it('a purchase made through the API has no `source` (no recording has one); its card names its country, not a code', async () => {
    const made = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref('src'), ...cardArgs(), '--json'])
    expect(made.code, made.stderr).toBe(0)
    const purchase = made.json as Record<string, unknown>
    expect(purchase).not.toHaveProperty('source')
    const card = (await api([`/v1.0/credit_cards/${String(purchase.card_token)}`])).body.response as Record<string, unknown>
    expect(card.card_country).toBe('Australia')
  })

  it("a customer has `sdk_ready` true after `metadata`, and `created_at` to the second with its offset, as recorded", async () => {
    const reference = ref('cust')
    const made = await sandbox.gw(['customer', 'create', '--first-name', 'Jo', '--last-name', 'Citizen', '--reference', reference, '--email', 'jo@example.com', ...cardArgs(), '--json'])
    expect(made.code, made.stderr).toBe(0)
    const customer = (await api([`/v1.0/customers/${reference}`])).body.response as Record<string, unknown>
    expect(customer).toMatchObject({bank_account: null, metadata: null, sdk_ready: true})
    expect(Object.keys(customer).slice(-3)).toEqual(['bank_account', 'metadata', 'sdk_ready'])
    expect(customer.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
  })

  it("a list's page: from 0 when asked with offset (0 for offset 0), from 1 when not, as recorded (live); the contract's current_page from 1", async () => {
    const withOffset = (await api(['/v1.0/customers?offset=0&limit=10'])).body
    const without = (await api(['/v1.0/customers?limit=10'])).body
    if (DIALECT === 'live') {
      expect(withOffset).toMatchObject({page: 0})
      expect(without).toMatchObject({page: 1})
      expect(withOffset).not.toHaveProperty('current_page')
    } else {
      expect(withOffset).toMatchObject({current_page: 1})
      expect(without).toMatchObject({current_page: 1})
    }
  })

  it('a web hook made through the API says `is_active` null, when made and in the list, as recorded', async () => {
    const address = `http://127.0.0.1:9/${ref('hook')}`
    const made = await api(['POST', '/v1.0/web_hooks', '--data', JSON.stringify({name: 'test hook', address, events: '*', mode: 'Test'})])
    expect(made.body.response).toMatchObject({address, is_active: null})
    const listed = ((await api(['/v1.0/web_hooks'])).body.response as {address: string; is_active: unknown}[]).find((hook) => hook.address === address)
    expect(listed).toMatchObject({is_active: null})
  })

  it("an unknown purchase: 404, `Could not find Purchase` and `response` {} (live, as recorded); the contract's words and null", async () => {
    const {body} = await api(['/v1.0/purchases/no-such-purchase'], 5)
    expect(body).toStrictEqual(DIALECT === 'live' ? {successful: false, response: {}, errors: ['Could not find Purchase'], test: true} : {successful: false, response: null, errors: ['Purchase not found'], test: true})
  })

  it("a direct debit's amount is written as a float, 42.0 for 42, made, fetched and listed", async () => {
    const made = await api(['POST', '/v1.0/direct_debits', '--data', JSON.stringify(DEBIT)])
    expect(made.text).toContain('"amount":42.0,')
    const id = String((made.body.response as {id: string}).id)
    expect((await api([`/v1.0/direct_debits/${id}`])).text).toContain('"amount":42.0,')
    expect((await api(['/v1.0/direct_debits'])).text).toMatch(/"amount":42\.0,"bsb"/)
  })

  it('an unknown route answers in the gateway\'s envelope, "Not Found": ActiveMerchant\'s failed void, POST /v1.0//void?id=123', async () => {
    const {body} = await api(['POST', '/v1.0//void?id=123', '--data', '{}'], 5)
    expect(body).toStrictEqual({successful: false, response: {}, errors: ['Not Found'], test: true})
    expect((await api(['/v1.0/invoices'], 5)).body).toStrictEqual({successful: false, response: {}, errors: ['Not Found'], test: true})
  })
})
