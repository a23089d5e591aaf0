import type {RawAnswer} from '../api/client.js'
import type {HttpMethod} from '../api/endpoints.js'
import type {Deps} from './deps.js'
import {holdsCardNumber, kindOf, looksLikeCardNumber} from '../safety/redact.js'

export interface ApiRequest {
  method: HttpMethod
  /** As written, from the base URL on: `/v1.0/plans.json?limit=5`. */
  path: string
  body?: unknown
  query?: [string, string][]
}

/**
 * `gw api`: any request, through the client's guard, time-outs, retries of reads and recovery of
 * money, as every command's. The answer is the gateway's body as it came, and the error it means.
 */
export async function sendRequest(request: ApiRequest, {client}: Pick<Deps, 'client'>): Promise<RawAnswer> {
  return client.sendRaw(request.method, withQuery(request.path, request.query ?? []), request.body)
}

/**
 * Whether a body carries card data: on a live profile that never comes from argv (design.md §5).
 * Judged by its values as well as its keys: a card number under any key, or inside any text (the
 * masker's rule, safety/card-text.ts), as a string or a JSON number; a key of a card number
 * (`card_number`, `Card_Number`, `pan`) or of a CVV (any key holding `cvv` or `cvc`: `card[cvv]`),
 * whatever it holds.
 */
export function holdsCard(body: unknown): boolean {
  if (typeof body === 'string') return holdsCardNumber(body)
  if (typeof body === 'number') return looksLikeCardNumber(String(body))
  if (Array.isArray(body)) return body.some(holdsCard)
  if (typeof body !== 'object' || body === null) return false
  return Object.entries(body).some(([key, value]) => kindOf(key) === 'card' || kindOf(key) === 'cvv' || holdsCard(value))
}

export function withQuery(path: string, query: [string, string][]): string {
  if (query.length === 0) return path
  const search = new URLSearchParams(query).toString()
  return path + (path.includes('?') ? '&' : '?') + search
}
