import {expect} from 'vitest'
import {afterThisTest} from '../after-each-test.js'
import {type Clock, formatDate, formatDateTime} from '../../src/sandbox/domain/clock.js'
import {startSandbox, type RunningSandbox, type SandboxOptions} from '../../src/sandbox/server/server.js'

/** A fixed instant, so dates in answers can be asserted exactly. */
export const NOW = new Date('2026-11-22T08:31:05Z')
export const fixedClock: Clock = {now: () => NOW}

export const TEST_AUTH = basicAuth('TEST', 'TEST')
export const ACME_AUTH = basicAuth('ACME', 'acme-token')

export function basicAuth(username: string, token: string): string {
  return `Basic ${Buffer.from(`${username}:${token}`).toString('base64')}`
}

/** A sandbox on a free port with merchants TEST and ACME, closed after the test. */
export async function sandbox(options: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  const started = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    mode: 'sandbox',
    merchants: [{username: 'ACME', token: 'acme-token'}],
    clock: fixedClock,
    ...options,
  })
  afterThisTest(() => started.close())
  return started
}

export interface Answer {
  status: number
  headers: Headers
  text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read whatever the sandbox sent
  body: any
}

export interface CallOptions {
  body?: unknown
  /** A raw body, sent as is. */
  raw?: string
  auth?: string | null
}

export async function call(base: RunningSandbox, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {'Content-Type': 'application/json'}
  const auth = options.auth === undefined ? TEST_AUTH : options.auth
  if (auth !== null) headers.Authorization = auth
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
  const response = await fetch(base.url + path, {method, headers, body})
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return {status: response.status, headers: response.headers, text, body: parsed}
}

export const CARD = {
  card_holder: 'Jo Citizen',
  card_number: '5123456789012346',
  card_expiry: '02/2030',
  cvv: '123',
}

/**
 * A card the cents of the amount decide (10051 declines with 51): CARD's 5123…2346 approves
 * whatever the amount, as the recorded gateway does (gateway-beyond.md §14.4).
 */
export const CENTS_CARD = {card_number: '4242424242424242'}

export function purchase(base: RunningSandbox, fields: Record<string, unknown> = {}, auth?: string): Promise<Answer> {
  return call(base, 'POST', '/v1.0/purchases', {body: {...CARD, amount: 1000, reference: 'order-1', ...fields}, auth})
}

/** A purchase of 1000 approved with CARD, as the local gateway answers it (its random fields matched by their shape). */
export const approvedPurchase = (fields: Record<string, unknown> = {}) => ({
  id: expect.stringMatching(/^071-P-[A-Z0-9]{8}$/),
  authorization: expect.stringMatching(/^\d{6}$/),
  card_number: '512345XXXXXX2346',
  card_holder: 'Jo Citizen',
  card_expiry: '2030-02-28',
  card_type: 'MasterCard',
  card_category: 'Credit',
  card_subcategory: 'Standard',
  card_token: expect.stringMatching(/^[a-z0-9]{20}$/),
  amount: 1000,
  decimal_amount: 10,
  successful: true,
  message: 'Approved',
  reference: 'order-1',
  currency: 'AUD',
  // Captured at once, a purchase settles on its own day (2017-2019 recordings).
  settlement_date: formatDate(NOW),
  transaction_date: formatDateTime(NOW),
  response_code: '00',
  transaction_id: expect.stringMatching(/^071-P-[A-Z0-9]{8}$/),
  captured: true,
  captured_amount: 1000,
  rrn: expect.stringMatching(/^071P[A-Z0-9]{8}$/),
  cvv_match: 'M',
  metadata: {},
  addendum_data: {},
  ...fields,
})
