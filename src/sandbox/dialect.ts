/**
 * The two ways the local gateway answers (design.md §2): `contract`, the interface as written
 * (the default), and `live`, the gateway as its recorded answers show it wherever those differ from
 * the contract (gateway-notes.md: "Responses vary more than the contract says", "Lists", "Sandbox
 * test outcomes"). Where the contract is silent both follow the notes. The routes answer one way;
 * each place the dialects differ is one row of one table below, which changes that answer for the
 * dialect that differs from it, never an `if` in a route.
 */
export const DIALECTS = ['contract', 'live'] as const
export type Dialect = (typeof DIALECTS)[number]

/** One answer on its way out: the request it answers and what is about to be sent. */
export interface Exchange {
  method: string
  pathname: string
  /** The request's query string, read. */
  query: Record<string, string>
  status: number
  body: Record<string, unknown>
}

interface Difference {
  /** What the live gateway does otherwise, as gateway-notes.md says it. */
  live: string
  /** The dialect whose answer differs from the routes' (the live one, but for what the contract leaves out). */
  changes?: Dialect
  applies(exchange: Exchange): boolean
  change(exchange: Exchange): Exchange
}

const under = (pathname: string, ...prefixes: string[]) => prefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`) || pathname.startsWith(`${prefix}.`))
const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)
const errorsOf = (body: Record<string, unknown>): unknown[] => (Array.isArray(body.errors) ? body.errors : [])
const renamingError = (from: string, to: string) => (exchange: Exchange): Exchange => ({
  ...exchange,
  body: {...exchange.body, errors: errorsOf(exchange.body).map((error) => (error === from ? to : error))},
})

/** A refund's amount made positive, in a record or each record of a list. */
function positiveAmounts(response: unknown): unknown {
  if (Array.isArray(response)) return response.map(positiveAmounts)
  if (response === null || typeof response !== 'object') return response
  const record = response as Record<string, unknown>
  return typeof record.amount === 'number' && record.amount < 0 ? {...record, amount: -record.amount} : record
}

/** Where the live gateway answers otherwise than the contract: one row each. */
export const LIVE_DIFFERENCES: readonly Difference[] = [
  {
    live: 'The settlement look-up, one page, sends `page` 1 and `total_pages` 1 beside `records` and `total_records`',
    applies: ({pathname, body}) => under(pathname, '/v1.0/purchases/settlement') && typeof body.current_page === 'number',
    change: (exchange) => {
      const {pages, current_page: page, ...rest} = exchange.body
      return {...exchange, body: {...rest, page, total_pages: pages}}
    },
  },
  {
    live: 'Lists send `page` and `total_pages` beside `records` and `total_records`, not `pages` and `current_page`: `page` counts from 0 when `offset` was given (0 for offset 0), from 1 when it was not, and from 1 always for customers (Rb:Customer/_search, 2019: page 1 at offset=0)',
    applies: ({body}) => typeof body.current_page === 'number',
    change: (exchange) => {
      const {pages, current_page: page, ...rest} = exchange.body
      const fromZero = 'offset' in exchange.query && !under(exchange.pathname, '/v1.0/customers')
      return {...exchange, body: {...rest, page: fromZero ? (page as number) - 1 : page, total_pages: pages}}
    },
  },
  {
    live: 'A refund\'s `amount` is positive (the contract says negative)',
    applies: ({pathname}) => under(pathname, '/v1.0/refunds'),
    change: (exchange) => ({...exchange, body: {...exchange.body, response: positiveAmounts(exchange.body.response)}}),
  },
  {
    live: 'Creation answers 200, not 201 (plans, customers, subscriptions; payment plans and direct debits answer 201 in both, as recorded)',
    applies: ({pathname, status}) => status === 201 && !under(pathname, '/v1.0/payment_plans', '/v1.0/direct_debits'),
    change: (exchange) => ({...exchange, status: 200}),
  },
  {
    live: 'An unknown purchase or refund is 404 `Could not find Purchase` with `response` `{}` (the contract says `Purchase not found` for both, and its `response` may be null; only the purchase\'s is recorded, and the contract gives a refund the purchase\'s words)',
    applies: ({pathname, status, body}) => status === 404 && under(pathname, '/v1.0/purchases', '/v1.0/refunds') && errorsOf(body).includes('Purchase not found'),
    change: (exchange) => {
      const renamed = renamingError('Purchase not found', 'Could not find Purchase')(exchange)
      return {...renamed, body: {...renamed.body, response: {}}}
    },
  },
  {
    live: 'A card number failing the Luhn check is `Card number is invalid` (the contract says `Invalid Card Number`)',
    applies: ({body}) => errorsOf(body).includes('Invalid Card Number'),
    change: renamingError('Invalid Card Number', 'Card number is invalid'),
  },
  {
    live: "A customer made without a card is `Card token Card '' could not be found.` (gateway-beyond.md §14.7; the contract's form is `Card can't be blank`)",
    applies: ({method, pathname, status}) => method === 'POST' && pathname === '/v1.0/customers' && status === 400,
    change: renamingError("Card can't be blank", "Card token Card '' could not be found."),
  },
  {
    live: 'A refused card echoes a card holder not sent as `""`, `authorized` false and `transaction_count` 0, where the contract sets what was not assigned to null (Rb:Card/_create/validations, 2017)',
    applies: ({method, pathname, status, body}) => method === 'POST' && under(pathname, '/v1.0/credit_cards') && status === 400 && isRecord(body.response) && 'transaction_count' in body.response,
    change: (exchange) => {
      const card = exchange.body.response as Record<string, unknown>
      return {...exchange, body: {...exchange.body, response: {...card, card_holder: card.card_holder ?? '', authorized: card.authorized ?? false, transaction_count: card.transaction_count ?? 0}}}
    },
  },
  {
    live: 'A refused web hook carries `authentication_password` `""` and `is_active` null, its fields in the recorded order (Rb:WebHook/_create/validations, 2017)',
    applies: ({method, pathname, status, body}) => method === 'POST' && under(pathname, '/v1.0/web_hooks') && status >= 400 && isRecord(body.response) && 'authentication_username' in body.response,
    change: (exchange) => {
      const hook = exchange.body.response as Record<string, unknown>
      const {address, events, mode, authentication_username, authentication_password, is_active, name, id, ...rest} = hook
      const recorded = {address, events, mode, authentication_username, authentication_password: authentication_password ?? '', is_active: is_active ?? null, name, id}
      return {...exchange, body: {...exchange.body, response: {...recorded, ...rest}}}
    },
  },
  {
    live: 'Validation errors of cards and customers are HTTP 422, not 400',
    applies: ({pathname, status}) => status === 400 && under(pathname, '/v1.0/customers', '/v1.0/credit_cards'),
    change: (exchange) => ({...exchange, status: 422}),
  },
  {
    live: "A customer keeps its `address` on get, update and delete, and in lists (the contract shows it on creation only)",
    changes: 'contract',
    applies: ({method, pathname}) => under(pathname, '/v1.0/customers') && !(method === 'POST' && pathname === '/v1.0/customers'),
    change: (exchange) => ({...exchange, body: {...exchange.body, response: withoutAddress(exchange.body.response)}}),
  },
  {
    live: "A request refused for the rate (429, or a fault's 503 with Retry-After) has no `test`, as the 401, the one recorded refusal made before a request is served: the live gateway's own 429 was never recorded",
    applies: ({status}) => status === 429 || status === 503,
    change: (exchange) => {
      const {test: _test, ...body} = exchange.body
      return {...exchange, body}
    },
  },
  {
    live: 'A payment plan made without a currency has `currency` AUD, on the plan and each payment (the 2022 build; null in the 2017-2019 builds, as the contract dialect answers)',
    applies: ({pathname}) => under(pathname, '/v1.0/payment_plans'),
    change: (exchange) => ({...exchange, body: {...exchange.body, response: eachRecord(exchange.body.response, withCurrency)}}),
  },
  {
    live: "A direct debit's `metadata` is null (from mid-2018; `{}` before, as the contract dialect answers)",
    applies: ({pathname}) => under(pathname, '/v1.0/direct_debits'),
    change: (exchange) => ({...exchange, body: {...exchange.body, response: eachRecord(exchange.body.response, (debit) => ('metadata' in debit ? {...debit, metadata: null} : debit))}}),
  },
]

/** `change` made to a record, or to each record of a list. */
function eachRecord(response: unknown, change: (record: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(response)) return response.map((record) => eachRecord(record, change))
  return response === null || typeof response !== 'object' ? response : change(response as Record<string, unknown>)
}

/** A null `currency` made AUD, every official library's default, on a plan and its payments. */
function withCurrency(record: Record<string, unknown>): Record<string, unknown> {
  const currency = record.currency === null ? {currency: 'AUD'} : {}
  const payments = Array.isArray(record.payments) ? {payments: record.payments.map((payment) => eachRecord(payment, withCurrency))} : {}
  return {...record, ...currency, ...payments}
}

function withoutAddress(response: unknown): unknown {
  if (Array.isArray(response)) return response.map(withoutAddress)
  if (response === null || typeof response !== 'object' || !('address' in response)) return response
  const {address: _address, ...rest} = response as Record<string, unknown>
  return rest
}

/** The answer as `dialect` gives it: the routes' answer through each row that changes it for that dialect. */
export function inDialect(dialect: Dialect, exchange: Exchange): Exchange {
  return LIVE_DIFFERENCES.reduce((answer, difference) => ((difference.changes ?? 'live') === dialect && difference.applies(answer) ? difference.change(answer) : answer), exchange)
}
