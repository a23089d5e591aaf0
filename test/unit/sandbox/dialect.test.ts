import {describe, expect, it} from 'vitest'
import {type Exchange, inDialect, LIVE_DIFFERENCES} from '../../../src/sandbox/dialect.js'

// Differences between gateways are data (style.md §14): the live dialect is the contract's answer changed by one table of differences.
const answer = (pathname: string, status: number, body: Record<string, unknown>, method = 'GET', query: Record<string, string> = {}): Exchange => ({method, pathname, query, status, body})
const envelope = (response: unknown, errors: string[] = []) => ({successful: errors.length === 0, response, errors, test: true})

describe('inDialect', () => {
  it('leaves the contract dialect\'s answers as the routes give them, but for a customer\'s address', () => {
    const list = answer('/v1.0/refunds', 200, {...envelope([{amount: -500}]), records: 1, total_records: 1, pages: 1, current_page: 1})
    expect(inDialect('contract', list)).toBe(list)
  })

  it.each<[string, Exchange, Partial<Exchange>]>([
    [
      'a list asked with offset pages as page (from 0: page 0 for offset 0, as recorded) and total_pages beside records and total_records',
      answer('/v1.0/purchases', 200, {...envelope([]), records: 0, total_records: 23, pages: 3, current_page: 2}, 'GET', {offset: '10', limit: '10'}),
      {body: {...envelope([]), records: 0, total_records: 23, page: 1, total_pages: 3}},
    ],
    [
      'a list asked without offset counts its page from 1, as recorded (Rb:Customer/_search 2018, asked with `offets`)',
      answer('/v1.0/customers', 200, {...envelope([]), records: 0, total_records: 23, pages: 3, current_page: 1}, 'GET', {limit: '10'}),
      {body: {...envelope([]), records: 0, total_records: 23, page: 1, total_pages: 3}},
    ],
    [
      'a customer list counts its page from 1 even when asked with offset, as recorded (Rb:Customer/_search/1_2_1, 2019: page 1 at offset=0)',
      answer('/v1.0/customers', 200, {...envelope([]), records: 0, total_records: 23, pages: 3, current_page: 1}, 'GET', {offset: '0', limit: '10'}),
      {body: {...envelope([]), records: 0, total_records: 23, page: 1, total_pages: 3}},
    ],
    [
      'a refused card: a card holder not sent as "", authorized false, transaction_count 0, and 422 (Rb:Card/_create/validations, 2017)',
      answer('/v1.0/credit_cards', 400, envelope({token: null, card_holder: null, authorized: null, transaction_count: null, alias: null}, ["Card holder can't be blank"]), 'POST'),
      {status: 422, body: envelope({token: null, card_holder: '', authorized: false, transaction_count: 0, alias: null}, ["Card holder can't be blank"])},
    ],
    [
      'a refused web hook: authentication_password "" and is_active null, in the recorded order (Rb:WebHook/_create/validations, 2017)',
      answer('/v1.0/web_hooks', 422, envelope({id: null, name: null, address: null, events: null, mode: null, authentication_username: null}, ["Address can't be blank"]), 'POST'),
      {body: envelope({address: null, events: null, mode: null, authentication_username: null, authentication_password: '', is_active: null, name: null, id: null}, ["Address can't be blank"])},
    ],
    ['the settlement look-up is page 1 of 1', answer('/v1.0/purchases/settlement', 200, {...envelope([{id: '071-P-1'}]), records: 1, total_records: 1, pages: 1, current_page: 1}), {body: {...envelope([{id: '071-P-1'}]), records: 1, total_records: 1, page: 1, total_pages: 1}}],
    ['a refund and a list of refunds carry positive amounts', answer('/v1.0/refunds', 200, envelope([{amount: -500}, {amount: 0}])), {body: envelope([{amount: 500}, {amount: 0}])}],
    ['a refund made', answer('/v1.0/refunds', 200, envelope({id: '071-R-1', amount: -700}), 'POST'), {body: envelope({id: '071-R-1', amount: 700})}],
    ['creation answers 200', answer('/v1.0/customers', 201, envelope({id: '071-C-1'}), 'POST'), {status: 200}],
    ['an unknown purchase: its words, and `response` {} (Rb:Purchase/_find/404_error, 2017-11-30)', answer('/v1.0/purchases/nope', 404, envelope(null, ['Purchase not found'])), {body: envelope({}, ['Could not find Purchase'])}],
    ['an unknown refund: the words and `{}` of an unknown purchase, whose words the contract gives it', answer('/v1.0/refunds/nope', 404, envelope(null, ['Purchase not found'])), {body: envelope({}, ['Could not find Purchase'])}],
    ['an unknown refund to void', answer('/v1.0/refunds/void', 404, envelope(null, ['Purchase not found']), 'POST'), {body: envelope({}, ['Could not find Purchase'])}],
    [
      "a customer made without a card: the gateway's words (gateway-beyond.md §14.7), 422",
      answer('/v1.0/customers', 400, envelope({id: null}, ["First name can't be blank", "Card can't be blank"]), 'POST'),
      {status: 422, body: envelope({id: null}, ["First name can't be blank", "Card token Card '' could not be found."])},
    ],
    ['a card number that fails the Luhn check', answer('/v1.0/purchases', 400, envelope(null, ['Invalid Card Number', 'Amount must be greater than or equal to 0']), 'POST'), {body: envelope(null, ['Card number is invalid', 'Amount must be greater than or equal to 0'])}],
    ["a customer's validation errors are 422", answer('/v1.0/customers/071-C-1.json', 400, envelope(null, ['Invalid Card Number']), 'PUT'), {status: 422, body: envelope(null, ['Card number is invalid'])}],
    ["a stored card's too", answer('/v1.0/credit_cards', 400, envelope(null, ["Card holder can't be blank"]), 'POST'), {status: 422}],
    [
      'a payment plan made without a currency: AUD on the plan and each payment',
      answer('/v1.0/payment_plans', 201, envelope({id: '071-PP-1', currency: null, payments: [{id: '071-PT-1', currency: null}]}), 'POST'),
      {body: envelope({id: '071-PP-1', currency: 'AUD', payments: [{id: '071-PT-1', currency: 'AUD'}]})},
    ],
    ['a list of payment plans', answer('/v1.0/payment_plans', 200, envelope([{currency: null, payments: []}, {currency: 'NZD', payments: []}])), {body: envelope([{currency: 'AUD', payments: []}, {currency: 'NZD', payments: []}])}],
    ["a direct debit's metadata is null", answer('/v1.0/direct_debits', 201, envelope({id: '071-DD-1', metadata: {}}), 'POST'), {body: envelope({id: '071-DD-1', metadata: null})}],
    ['a request over the rate limit: no `test`, as the 401', answer('/v1.0/purchases', 429, envelope(null, ['Too Many Requests']), 'POST'), {body: {successful: false, response: null, errors: ['Too Many Requests']}}],
    ["a fault's 503 with Retry-After", answer('/v1.0/purchases/x', 503, envelope(null, ['Service Unavailable'])), {body: {successful: false, response: null, errors: ['Service Unavailable']}}],
    ["a refused direct debit's too", answer('/v1.0/direct_debits', 422, envelope({id: null, metadata: {}}, ['Amount must be greater than 0']), 'POST'), {body: envelope({id: null, metadata: null}, ['Amount must be greater than 0'])}],
  ])('live: %s', (_, exchange, expected) => {
    expect(inDialect('live', exchange)).toEqual({...exchange, ...expected})
  })

  it.each<[string, Exchange]>([
    ["a purchase's amount, whatever its sign", answer('/v1.0/purchases/071-P-1', 200, envelope({amount: -1}))],
    ["a purchase's validation error stays 400", answer('/v1.0/purchases', 400, envelope(null, ["Reference can't be blank"]), 'POST')],
    ['a 404 of another record keeps its words', answer('/v1.0/customers/nope', 404, envelope(null, ['Record not found']))],
    ['a 201 nobody sends is left alone only where it is not one', answer('/v1.0/purchases', 200, envelope({id: '071-P-1'}), 'POST')],
    ['a payment plan made: 201, as recorded', answer('/v1.0/payment_plans', 201, envelope({id: '071-PP-1', currency: 'AUD', payments: []}), 'POST')],
    ['a direct debit made: 201, as recorded', answer('/v1.0/direct_debits.json', 201, envelope({id: '071-DD-1', metadata: null}), 'POST')],
    ["a payment plan's or a direct debit's 404", answer('/v1.0/direct_debits/nope', 404, envelope({}, ['Could not find Direct Entry']))],
  ])('live leaves alone %s', (_, exchange) => {
    expect(inDialect('live', exchange)).toEqual(exchange)
  })

  it("a customer's address: kept by the live dialect, shown by the contract's on creation only", () => {
    const customer = {id: '071-C-1', reference: 'jo', address: {city: 'Sydney'}}
    const created = answer('/v1.0/customers', 201, envelope(customer), 'POST')
    const fetched = answer('/v1.0/customers/jo.json', 200, envelope(customer))
    const listed = answer('/v1.0/customers', 200, envelope([customer]))
    const {address: _address, ...withoutAddress} = customer
    expect(inDialect('contract', created).body.response).toEqual(customer)
    expect(inDialect('contract', fetched).body.response).toEqual(withoutAddress)
    expect(inDialect('contract', listed).body.response).toEqual([withoutAddress])
    for (const exchange of [fetched, listed]) expect(inDialect('live', exchange).body).toEqual(exchange.body)
  })

  it("a refused web hook's fields come in the recorded order; a hook made is left alone", () => {
    const refused = answer('/v1.0/web_hooks', 422, envelope({id: null, name: null, address: null, events: null, mode: null, authentication_username: null}, ["Address can't be blank"]), 'POST')
    expect(Object.keys(inDialect('live', refused).body.response as object)).toEqual(['address', 'events', 'mode', 'authentication_username', 'authentication_password', 'is_active', 'name', 'id'])
    expect(inDialect('contract', refused)).toBe(refused)
    const made = answer('/v1.0/web_hooks', 200, envelope({id: '071-WH-1', name: 'x', address: 'http://x', events: '*', mode: 'Test', authentication_username: null}), 'POST')
    expect(inDialect('live', made)).toEqual(made)
  })

  it('says what each difference is, one row each', () => {
    expect(LIVE_DIFFERENCES.map((difference) => difference.live)).toHaveLength(new Set(LIVE_DIFFERENCES.map((difference) => difference.live)).size)
    expect(LIVE_DIFFERENCES.length).toBe(14)
  })
})
