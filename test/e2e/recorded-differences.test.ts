import {expect, it} from 'vitest'
import {writeTemp} from './batch-helpers.js'
import {cardArgs, CARDS, describeInBothDialects, DIALECT, ref, type Sandbox, sharedSandbox} from './helpers.js'

// Where the local gateway answered otherwise than the recorded live gateway, it now answers
// as the gateway does (both dialects where the contract is silent; --dialect live where it is not),
// field for field; docs/sandbox-dialects.md lists the choices made where no recording shows one.

let sandbox: Sandbox
sharedSandbox((started) => {
  sandbox = started
})

/** The gateway's answer as `gw api` prints it: its body as sent. */
async function api(args: string[], exitCode = 0): Promise<{text: string; body: Record<string, unknown>}> {
  const result = await sandbox.gw(['api', ...args])
  expect(result.code, result.stderr).toBe(exitCode)
  return {text: result.stdout, body: JSON.parse(result.stdout) as Record<string, unknown>}
}

/** The gateway's answer over HTTP as it came: its status and body (content type as a client labels it). */
async function http(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{status: number; body: Record<string, unknown>}> {
  const headers = {authorization: 'Basic ' + Buffer.from('TEST:TEST').toString('base64'), 'content-type': contentType}
  const answer = await fetch(`${sandbox.url}${path}`, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)})
  return {status: answer.status, body: (await answer.json()) as Record<string, unknown>}
}

const live = DIALECT === 'live'
/** The interface's status for bad data (§7), or the live gateway's 422 for cards and customers. */
const REFUSED_CARD_STATUS = live ? 422 : 400

const DEBIT = {description: 'Confirmation', amount: 42, bsb: '123-123', account_name: 'Test', account_number: '012345678'}

describeInBothDialects(`the recorded answers, in the ${DIALECT} dialect`, () => {
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

  it("a list's page: from 0 when asked with offset (0 for offset 0), from 1 when not, and from 1 always for customers, as recorded (live); the contract's current_page from 1", async () => {
    const withOffset = (await api(['/v1.0/plans?offset=0&limit=10'])).body
    const without = (await api(['/v1.0/plans?limit=10'])).body
    const customers = (await api(['/v1.0/customers?offset=0&limit=10'])).body
    if (DIALECT === 'live') {
      expect(withOffset).toMatchObject({page: 0})
      expect(without).toMatchObject({page: 1})
      // Rb:Customer/_search/1_2_1 (2019-04-29): GET /v1.0/customers?limit=10&offset=0 answered page 1.
      expect(customers).toMatchObject({page: 1})
      expect(withOffset).not.toHaveProperty('current_page')
    } else {
      expect(withOffset).toMatchObject({current_page: 1})
      expect(without).toMatchObject({current_page: 1})
      expect(customers).toMatchObject({current_page: 1})
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

  it("gw's own JSON keeps the gateway's floats as written: a direct debit's 42.0 and a purchase's decimal_amount 10.0, in a record, with --fields, in a list and in a batch's lines", async () => {
    const reference = ref('dd-float')
    const made = await sandbox.gw(['direct-debit', 'create', '--amount', '4200', '--description', 'Float', '--bsb', '123-123', '--account-name', 'Test', '--account-number', '012345678', '--reference', reference, '--json'])
    expect(made.code, made.stderr).toBe(0)
    const {id} = made.json as {id: string}
    // The record gw prints is the gateway's `response`, byte for byte.
    const sent = /"response":(\{.*\}),"errors"/.exec((await api([`/v1.0/direct_debits/${id}`])).text)![1]!
    expect(sent).toContain('"amount":42.0,')
    expect(made.stdout).toBe(`${sent}\n`)
    expect((await sandbox.gw(['direct-debit', 'get', id, '--json'])).stdout).toBe(`${sent}\n`)
    expect((await sandbox.gw(['direct-debit', 'get', reference, '--json', 'id,amount'])).stdout).toBe(`{"id":"${id}","amount":42.0}\n`)
    expect((await sandbox.gw(['direct-debit', 'list', '--limit', '1', '--fields', 'amount,reference'])).stdout).toBe(`{"amount":42.0,"reference":"${reference}"}\n`)
    const batch = writeTemp('debits.csv', `amount,description,bsb,account_name,account_number,reference\n4200,Float,123-123,Test,012345678,${reference}-b\n`)
    const lines = await sandbox.gw(['direct-debit', 'create', '--input', batch, '--json', 'amount,reference'])
    expect(lines.code, lines.stderr).toBe(0)
    expect(lines.stdout).toBe(`{"row":1,"line":2,"reference":"${reference}-b","status":"made","exit_code":0,"record":{"amount":42.0,"reference":"${reference}-b"}}\n`)
    const bought = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref('float'), ...cardArgs(), '--fields', 'amount,decimal_amount'])
    expect(bought.stdout).toBe('{"amount":1000,"decimal_amount":10.0}\n')
  })

  it('an unknown route answers in the gateway\'s envelope, "Not Found": ActiveMerchant\'s failed void, POST /v1.0//void?id=123', async () => {
    const {body} = await api(['POST', '/v1.0//void?id=123', '--data', '{}'], 5)
    expect(body).toStrictEqual({successful: false, response: {}, errors: ['Not Found'], test: true})
    expect((await api(['/v1.0/invoices'], 5)).body).toStrictEqual({successful: false, response: {}, errors: ['Not Found'], test: true})
  })

  it('the test cards: 5123…2346 and 4005…0001 approve with 00 whatever the cents, the decline card is 05 Declined, the cents decide on 4242… and 5555… (gateway-beyond.md §14.4, §14.5)', async () => {
    const purchase = async (card: string, amount: number) => {
      const made = await sandbox.gw(['purchase', 'create', '--amount', String(amount), '--reference', ref('card'), ...cardArgs(card), '--json'])
      const record = made.json as Record<string, unknown>
      return {code: made.code, outcome: [record.successful, record.response_code, record.message]}
    }
    expect(await purchase(CARDS.mastercard, 123)).toStrictEqual({code: 0, outcome: [true, '00', 'Approved']})
    expect(await purchase(CARDS.mastercard, 10051)).toStrictEqual({code: 0, outcome: [true, '00', 'Approved']})
    expect(await purchase('4005550000000001', 1095)).toStrictEqual({code: 0, outcome: [true, '00', 'Approved']})
    expect(await purchase(CARDS.declined, 1000)).toStrictEqual({code: 3, outcome: [false, '05', 'Declined']})
    expect(await purchase(CARDS.visa, 10051)).toStrictEqual({code: 3, outcome: [false, '51', 'Insufficient Funds']})
    expect(await purchase('5555555555554444', 10005)).toStrictEqual({code: 3, outcome: [false, '05', 'Refer to Card Issuer']})
    expect(await purchase('5555555555554444', 1010)).toStrictEqual({code: 0, outcome: [true, '10', 'Approved']})
  })

  it(`an empty card is refused with the recorded errors, in their order (HTTP ${REFUSED_CARD_STATUS}; gateway-beyond.md §14.7)`, async () => {
    expect(await http('POST', '/v1.0/credit_cards', {test: true})).toMatchObject({
      status: REFUSED_CARD_STATUS,
      body: {successful: false, errors: ["Card holder can't be blank", "Card number can't be blank", 'Expiry date is missing or invalid.', 'CVV is required', ' is not an accepted card type'], test: true},
    })
    // The recorded record beside them (live): the card holder not sent as "", authorized false, no transactions; the contract's nulls.
    const record = (await http('POST', '/v1.0/credit_cards', {test: true})).body.response
    expect(record).toMatchObject(live ? {token: null, card_holder: '', card_number: null, authorized: false, transaction_count: 0, alias: null} : {token: null, card_holder: null, authorized: null, transaction_count: null})
    const badExpiry = await http('POST', '/v1.0/credit_cards', {card_holder: 'Jo', card_number: CARDS.visa, card_expiry: '13/2030', cvv: '123'})
    expect(badExpiry).toMatchObject({status: REFUSED_CARD_STATUS, body: {errors: ['Expiry date is missing or invalid.']}})
  })

  it(`a customer without a card: ${live ? "`Card token Card '' could not be found.`, as recorded" : "`Card can't be blank`, in the interface's form"} (gateway-beyond.md §14.7)`, async () => {
    const noCard = live ? "Card token Card '' could not be found." : "Card can't be blank"
    const empty = await http('POST', '/v1.0/customers', {test: true})
    expect(empty.status).toBe(REFUSED_CARD_STATUS)
    // The recorded answer has no `Email can't be blank`: the local gateway requires the email the interface requires (docs/sandbox-dialects.md).
    expect(empty.body.errors).toStrictEqual(["First name can't be blank", "Last name can't be blank", "Reference can't be blank", "Email can't be blank", noCard])
    const withEmail = await http('POST', '/v1.0/customers', {email: 'jo@example.com'})
    expect(withEmail.body.errors).toStrictEqual(["First name can't be blank", "Last name can't be blank", "Reference can't be blank", noCard])
  })

  it(`an empty web hook is refused 422 with the recorded errors, and (live) the recorded record: authentication_password "", is_active null, in that order`, async () => {
    const refused = await http('POST', '/v1.0/web_hooks', {test: true})
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toStrictEqual(["Address can't be blank", 'Events is not included in the list', 'Mode is not included in the list'])
    if (live) {
      // Rb:WebHook/_create/validations/1_1_4_1 (2017-07-03), word for word.
      expect(JSON.stringify(refused.body.response)).toBe('{"address":null,"events":null,"mode":null,"authentication_username":null,"authentication_password":"","is_active":null,"name":null,"id":null}')
    } else {
      expect(refused.body.response).toStrictEqual({id: null, name: null, address: null, events: null, mode: null, authentication_username: null})
    }
  })

  it(`an unknown refund is the unknown purchase's 404: ${live ? '`Could not find Purchase` with `{}`' : '`Purchase not found` with null'}, looked up or voided`, async () => {
    const expected = live ? {successful: false, response: {}, errors: ['Could not find Purchase'], test: true} : {successful: false, response: null, errors: ['Purchase not found'], test: true}
    expect(await http('GET', '/v1.0/refunds/no-such-refund')).toStrictEqual({status: 404, body: expected})
    expect(await http('POST', '/v1.0/refunds/void', {id: '071-R-NOTHERE0'})).toStrictEqual({status: 404, body: expected})
    expect(await http('GET', '/v1.0/purchases/no-such-purchase')).toStrictEqual({status: 404, body: expected})
  })

  it("a purchase refused for a taken reference carries an id, and refunding that id is `Original transaction could not be found` (gateway-beyond.md §14.10)", async () => {
    const body = {card_holder: 'Jo', card_number: CARDS.visa, card_expiry: '02/2030', cvv: '123', amount: 1000, reference: ref('taken')}
    expect((await http('POST', '/v1.0/purchases', body)).status).toBe(200)
    const refused = await http('POST', '/v1.0/purchases', body)
    expect(refused).toMatchObject({status: 200, body: {successful: false, errors: ['Reference is already taken'], response: {id: expect.stringMatching(/^071-P-/), successful: false, response_code: '99'}}})
    const id = (refused.body.response as {id: string}).id
    expect(await http('POST', '/v1.0/refunds', {transaction_id: id, amount: 100, reference: ref('refund')})).toStrictEqual({
      status: 200,
      body: {successful: false, response: {}, errors: ['Original transaction could not be found'], test: true},
    })
  })

  it('takes a JSON body labelled application/x-www-form-urlencoded, as the gateway did (gateway-beyond.md §14.12)', async () => {
    const card = await http('POST', '/v1.0/credit_cards', {card_holder: 'Jo', card_number: CARDS.visa, card_expiry: '02/2030', cvv: '123'}, 'application/x-www-form-urlencoded')
    expect(card).toMatchObject({status: 200, body: {successful: true, response: {card_number: '424242XXXXXX4242', card_holder: 'Jo'}}})
  })
})
