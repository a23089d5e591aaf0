import {describe, expect, it} from 'vitest'
import {Purchase} from '../../src/api/schemas/purchase.js'
import {ACME_AUTH, approvedPurchase as approved, CARD, CENTS_CARD, call, purchase, sandbox} from './helpers.js'

/** The fields of a record made with CENTS_CARD where CARD's differ. */
const VISA = {card_number: '424242XXXXXX4242', card_type: 'VISA'}


describe('POST /v1.0/purchases', () => {
  it('approves a purchase with card details, tokenizing the card', async () => {
    const gateway = await sandbox()
    const answer = await purchase(gateway)

    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({successful: true, response: approved(), errors: [], test: true})
    expect(answer.body.response.transaction_id).toBe(answer.body.response.id)
    expect(Purchase.parse(answer.body.response)).toEqual(answer.body.response)
    expect(answer.text).not.toContain('5123456789012346')
    expect(answer.text).not.toContain('"cvv"')
    // A float, as the live gateway writes it: a client in Ruby or Python reads a Float, not an Integer.
    expect(answer.text).toContain('"decimal_amount":10.0,')

    const card = await call(gateway, 'GET', `/v1.0/credit_cards/${answer.body.response.card_token}`)
    expect(card.body.response).toMatchObject({card_number: '512345XXXXXX2346', transaction_count: 1})
  })

  it('approves what the vendor libraries send: cvv and card number as JSON numbers, amount as a string, extra fields', async () => {
    const answer = await call(await sandbox(), 'POST', '/v1.0/purchases', {
      raw: '{"card_holder":"Jo Citizen","card_number":5123456789012346,"card_expiry":"02/2030","cvv":123,"amount":"1000","reference":"order-1","test":true,"customer_ip":"203.0.113.9","fraud":{"score":0},"metadata":{"order":"a","count":2,"gift":true}}',
    })
    expect(answer.status).toBe(200)
    // The merchant's metadata comes back, each value as text, as the gateway's own keys are.
    expect(answer.body).toStrictEqual({successful: true, response: approved({metadata: {order: 'a', count: '2', gift: 'true'}}), errors: [], test: true})
  })

  it('refuses metadata it cannot echo as text', async () => {
    const answer = await purchase(await sandbox(), {metadata: {order: {id: 1}, tags: ['a']}})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(['Metadata order, tags must be text, a number or true/false'])
  })

  it.each(['12', 12, '9999'])('takes any CVV given, %j too, and never keeps it', async (cvv) => {
    const answer = await purchase(await sandbox(), {cvv})
    expect(answer.status).toBe(200)
    expect(answer.text).not.toContain('"cvv"')
  })

  it.each([undefined, '', ' '])('refuses card details without a CVV (%j): CVV is required', async (cvv) => {
    const answer = await purchase(await sandbox(), {cvv})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(['CVV is required'])
    expect(answer.body.response).toMatchObject({id: null, successful: false})
  })

  it.each([{ecm: '32'}, {ecm: 32}])('takes card details without a CVV on a recurring charge (extra %j), its CVV match unknown', async (extra) => {
    const answer = await purchase(await sandbox(), {cvv: undefined, extra})
    expect(answer.status).toBe(200)
    expect(answer.body.response).toStrictEqual(approved({cvv_match: 'U'}))
  })

  it.each<[Record<string, unknown>, string[]]>([
    [{sli: '05', cavv: 'MDRjN2MxZTAxYjllNTBkNmM2MTA=', xid: 'MGVmMmNlMzI4NjAyOWU2ZDgwNTQ='}, []],
    [{sli: '05', cavv: 'MDRjN2MxZTAxYjllNTBkNmM2MTA=', threeds_version: '2.2.0', directory_server_txn_id: 'f38e6947-5388-41a6-bca4-b49723c1a437'}, []],
    [{sli: '07'}, []],
    [{sli: '05', cavv: 'MDRjN2MxZTAxYjllNTBkNmM2MTA='}, ['Extra/xid is required for SLI 05']],
    [{sli: '05', xid: 'MGVmMmNlMzI4NjAyOWU2ZDgwNTQ='}, ['Extra/cavv is required for SLI 05']],
    [{sli: '02', threeds_version: '2.1.0'}, ['Extra/cavv is required for SLI 02']],
    [{sli: '05', cavv: 'x', threeds_version: '3.0'}, ['Extra/threeds_version is not valid', 'Extra/xid is required for SLI 05']],
    [{threeds_version: 'two'}, ['Extra/threeds_version is not valid']],
  ])('checks the 3-D Secure fields of extra %j: %j', async (extra, errors) => {
    const answer = await purchase(await sandbox(), {extra})
    expect(answer.status).toBe(errors.length === 0 ? 200 : 400)
    expect(answer.body.errors).toEqual(errors)
  })

  it('takes an expiry month without its leading zero, as ActiveMerchant sends it', async () => {
    const answer = await purchase(await sandbox(), {card_expiry: '2/2030'})
    expect(answer.status).toBe(200)
    expect(answer.body.response.card_expiry).toBe('2030-02-28')
  })

  it.each([
    [10051, '51', 'Insufficient Funds'],
    [1005, '05', 'Refer to Card Issuer'],
    [1054, '54', 'Expired Card'],
    [1090, '90', 'Declined - Please Retry'],
    [1077, '77', 'Declined'],
  ])('declines %i with response code %s (%s), stores it and answers 200', async (amount, code, message) => {
    const gateway = await sandbox()
    const answer = await purchase(gateway, {...CENTS_CARD, amount})

    expect(answer.status).toBe(200)
    expect(answer.body.successful).toBe(true)
    expect(answer.body.errors).toEqual([])
    expect(answer.body.response).toStrictEqual(
      approved({
        ...VISA,
        amount,
        decimal_amount: amount / 100,
        authorization: null,
        successful: false,
        message,
        response_code: code,
        captured: false,
        captured_amount: 0,
        // A decline has no retrieval number (the recorded settlement lists).
        rrn: null,
      }),
    )
    const fetched = await call(gateway, 'GET', `/v1.0/purchases/${answer.body.response.id}`)
    expect(fetched.body.response).toEqual(answer.body.response)
  })

  it.each([
    [1008, '08'],
    [1010, '10'],
    [1011, '11'],
    [1016, '16'],
  ])('approves %i with response code %s', async (amount, code) => {
    const answer = await purchase(await sandbox(), {...CENTS_CARD, amount})
    expect(answer.body.response).toMatchObject({successful: true, message: 'Approved', response_code: code})
  })

  it.each([1000, 123, 10051, 1005, 1095])('approves %i on 5123…2346 and 4005…0001 with response code 00, whatever the cents (as recorded)', async (amount) => {
    const gateway = await sandbox()
    for (const card_number of ['5123456789012346', '4005550000000001']) {
      const answer = await purchase(gateway, {card_number, amount, reference: `order-${card_number}`})
      expect(answer.body.response).toMatchObject({successful: true, message: 'Approved', response_code: '00', amount})
    }
  })

  it.each([1000, 10051])('always declines the declined test card, 05 with Declined (as recorded; for %i)', async (amount) => {
    const answer = await purchase(await sandbox(), {card_number: '4557012345678902', amount})
    expect(answer.status).toBe(200)
    expect(answer.body.response).toMatchObject({
      successful: false,
      message: 'Declined',
      response_code: '05',
      authorization: null,
      card_number: '455701XXXXXX8902',
      card_type: 'VISA',
    })
  })

  it('charges a stored card by token or alias, without a CVV, counting its transactions', async () => {
    const gateway = await sandbox()
    const {cvv: _cvv, ...cardWithoutCvv} = CARD
    const tokenized = await call(gateway, 'POST', '/v1.0/credit_cards', {body: {...cardWithoutCvv, is_billing: true}})
    const token = tokenized.body.response.token
    await call(gateway, 'PUT', `/v1.0/credit_cards/${token}`, {body: {alias: 'customer-42'}})

    const byToken = await call(gateway, 'POST', '/v1.0/purchases', {body: {card_token: token, amount: 1000, reference: 'a'}})
    const byAlias = await call(gateway, 'POST', '/v1.0/purchases', {
      body: {card_token: 'customer-42', cvv: '123', amount: 1000, reference: 'b', currency: 'USD'},
    })

    expect(byToken.status).toBe(200)
    // No CVV came with it: whether one would have matched is unknown.
    expect(byToken.body.response).toStrictEqual(approved({card_token: token, reference: 'a', cvv_match: 'U'}))
    expect(byAlias.body.response).toStrictEqual(approved({card_token: token, reference: 'b', currency: 'USD'}))
    const card = await call(gateway, 'GET', `/v1.0/credit_cards/${token}`)
    expect(card.body.response.transaction_count).toBe(2)
  })

  it.each([
    ['JPY', 1000, 'JPY', 1000],
    ['nzd', 1234, 'NZD', 12.34],
    ['EUR', 5, 'EUR', 0.05],
  ])('takes currency %s: %i is %s %d', async (currency, amount, stored, decimal) => {
    const answer = await purchase(await sandbox(), {currency, amount})
    expect(answer.body.response).toMatchObject({amount, currency: stored, decimal_amount: decimal})
  })

  /** A purchase refused before any bank sees it, as the live gateway answers one (the recorded currency refusal): null where it has null. */
  const refusedRecord = (fields: Record<string, unknown> = {}) => ({
    ...approved(),
    authorization: null,
    successful: false,
    message: null,
    settlement_date: null,
    transaction_date: null,
    response_code: '99',
    captured: false,
    captured_amount: null,
    rrn: null,
    cvv_match: 'U',
    ...fields,
  })

  it('refuses a currency the merchant may not take with HTTP 200, a whole record and the permitted ones named', async () => {
    const gateway = await sandbox()
    const answer = await purchase(gateway, {currency: 'XYZ'})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({
      successful: false,
      response: refusedRecord({currency: 'XYZ'}),
      errors: ['Currency XYZ is not valid for this merchant. Permitted currencies: USD, AUD, NZD, GBP, EUR, JPY, CHF, CAD, HKD, and SGD'],
      test: true,
    })
    expect(answer.body.response.transaction_id).toBe(answer.body.response.id)
    expect(answer.text).toContain('"decimal_amount":10.0,')
    // Nothing was charged: the reference stays free, and the card it tokenized can be used.
    expect((await call(gateway, 'GET', '/v1.0/purchases/order-1')).status).toBe(404)
    expect((await call(gateway, 'GET', `/v1.0/credit_cards/${answer.body.response.card_token}`)).status).toBe(200)
    expect((await purchase(gateway)).body.successful).toBe(true)
  })

  it.each(['CHF', 'CAD', 'HKD'])('takes %s, which the gateway lists among the permitted', async (currency) => {
    const answer = await purchase(await sandbox(), {currency})
    expect(answer.body.response).toMatchObject({successful: true, currency})
  })

  it('refuses a reference the merchant already used with HTTP 200 and a whole record, and lets another merchant use it', async () => {
    const gateway = await sandbox()
    const first = await purchase(gateway)
    const again = await purchase(gateway, {amount: 2000, metadata: {order: '7'}})

    expect(again.status).toBe(200)
    expect(again.body).toStrictEqual({
      successful: false,
      response: refusedRecord({amount: 2000, decimal_amount: 20, metadata: {order: '7'}}),
      errors: ['Reference is already taken'],
      test: true,
    })
    // Its id is no transaction: nothing was charged, and the reference still finds the first purchase.
    expect(again.body.response.id).not.toBe(first.body.response.id)
    expect((await call(gateway, 'GET', `/v1.0/purchases/${again.body.response.id}`)).status).toBe(404)
    const refund = await call(gateway, 'POST', '/v1.0/refunds', {body: {transaction_id: again.body.response.id, amount: 100, reference: 'r-1'}})
    expect(refund.body).toStrictEqual({successful: false, response: {}, errors: ['Original transaction could not be found'], test: true})
    expect((await call(gateway, 'GET', '/v1.0/purchases/order-1')).body.response.id).toBe(first.body.response.id)

    const acme = await purchase(gateway, {}, ACME_AUTH)
    expect(acme.body.successful).toBe(true)
    expect(acme.body.response.id).toMatch(/^\d{3}-P-[A-Z0-9]{8}$/)
    expect(acme.body.response.id.slice(0, 3)).not.toBe('071')
  })

  it.each([
    [{card_number: '4111111111111112'}, ['Invalid Card Number']],
    [{card_expiry: '01/2020'}, ['Expiry date is invalid (expired)']],
    [{card_expiry: '13/2030'}, ['Expiry date is missing or invalid.']],
    [{amount: -1}, ['Amount must be greater than or equal to 0']],
    [{amount: undefined}, ["Amount can't be blank"]],
    [{amount: null}, ["Amount can't be blank"]],
    [{reference: ''}, ["Reference can't be blank"]],
    [{reference: undefined}, ["Reference can't be blank"]],
    [{customer_ip: ''}, ["Customer ip can't be blank"]],
    [{currency: ' '}, ["Currency can't be blank"]],
    [
      {card_number: undefined, card_holder: undefined, card_expiry: undefined, cvv: undefined},
      // The card group's problems in the order and words of the gateway's empty card (gateway-beyond.md §14.7).
      ["Card holder can't be blank", "Card number can't be blank", 'Expiry date is missing or invalid.', 'CVV is required', ' is not an accepted card type'],
    ],
    [{card_number: undefined, card_token: 'no-such-card'}, ['Card no-such-card could not be found']],
    [{amount: -5, reference: ''}, ['Amount must be greater than or equal to 0', "Reference can't be blank"]],
  ])('%j is a 400: %j', async (fields, errors) => {
    const answer = await purchase(await sandbox(), fields)
    expect(answer.status).toBe(400)
    expect(answer.body.successful).toBe(false)
    expect(answer.body.errors).toEqual(errors)
    expect(answer.body.test).toBe(true)
    expect(answer.body.response).not.toHaveProperty('cvv')
  })

  it.each([
    [{amount: '10.50'}, ['Amount must be an integer']],
    [{amount: 10.5}, ['Amount must be an integer']],
    [{amount: true}, ['Amount must be an integer']],
    [{reference: true, card_number: ['5123456789012346']}, ['Reference must be a string', 'Card number must be a string']],
    [{reference: 'r'.repeat(256)}, ['Reference is too long (maximum is 255 characters)']],
    [{card_holder: 'J'.repeat(256)}, ['Card holder is too long (maximum is 255 characters)']],
  ])('%j has a wrong type: 400 naming the field', async (fields, errors) => {
    const answer = await purchase(await sandbox(), fields)
    expect(answer.status).toBe(400)
    expect(answer.body).toStrictEqual({successful: false, response: null, errors, test: true})
  })

  it('echoes the submitted fields in a 400, the card number masked, no CVV, successful false, the rest null', async () => {
    const answer = await purchase(await sandbox(), {card_number: '4111 1111 1111 1112', cvv: '987', customer_ip: '203.0.113.9'})
    expect(answer.status).toBe(400)
    expect(answer.body.response).toStrictEqual({
      id: null,
      authorization: null,
      card_number: '411111XXXXXX1112',
      card_holder: 'Jo Citizen',
      card_expiry: '02/2030',
      card_type: null,
      card_category: null,
      card_subcategory: null,
      card_token: null,
      amount: 1000,
      decimal_amount: null,
      successful: false,
      message: null,
      reference: 'order-1',
      currency: null,
      settlement_date: null,
      transaction_date: null,
      response_code: null,
      transaction_id: null,
      captured: null,
      captured_amount: null,
      rrn: null,
      cvv_match: null,
      metadata: null,
      addendum_data: null,
      customer_ip: '203.0.113.9',
    })
    // The CVV as no field of it: a random id or authorization code may hold the digits 987 by chance.
    expect(answer.text).not.toMatch(/"cvv"|:"987"/)
  })

  it('does not let a merchant charge another merchant’s card token', async () => {
    const gateway = await sandbox()
    const token = (await purchase(gateway)).body.response.card_token
    const answer = await call(gateway, 'POST', '/v1.0/purchases', {
      body: {card_token: token, amount: 1000, reference: 'x'},
      auth: ACME_AUTH,
    })
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual([`Card ${token} could not be found`])
  })
})

describe('GET /v1.0/purchases/{id_or_reference}', () => {
  it('finds a purchase by id or by reference, with or without .json, references URL-encoded', async () => {
    const gateway = await sandbox()
    const created = (await purchase(gateway, {reference: 'order/7 ü?'})).body.response
    const encoded = encodeURIComponent('order/7 ü?')

    for (const path of [
      `/v1.0/purchases/${created.id}`,
      `/v1.0/purchases/${created.id}.json`,
      `/v1.0/purchases/${created.id}/`,
      `/v1.0/purchases/${encoded}`,
      `/v1.0/purchases/${encoded}.json`,
    ]) {
      const answer = await call(gateway, 'GET', path)
      expect(answer.status, path).toBe(200)
      expect(answer.body, path).toStrictEqual({successful: true, response: created, errors: [], test: true})
    }
  })

  it('answers 404 Purchase not found for an unknown one', async () => {
    const answer = await call(await sandbox(), 'GET', '/v1.0/purchases/071-P-NOTHERE0')
    expect(answer.status).toBe(404)
    expect(answer.body).toStrictEqual({successful: false, response: null, errors: ['Purchase not found'], test: true})
  })

  it('answers 403 for another merchant’s purchase id, and 404 for its reference', async () => {
    const gateway = await sandbox()
    const created = (await purchase(gateway)).body.response

    const byId = await call(gateway, 'GET', `/v1.0/purchases/${created.id}`, {auth: ACME_AUTH})
    expect(byId.status).toBe(403)
    expect(byId.body).toStrictEqual({
      successful: false,
      response: null,
      errors: ['You do not have permissions to access this record'],
      test: true,
    })
    expect((await call(gateway, 'GET', '/v1.0/purchases/order-1', {auth: ACME_AUTH})).status).toBe(404)
  })
})
