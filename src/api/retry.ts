import type {HttpMethod} from './endpoints.js'

export const MAX_RETRIES = 3

/** What a transport failure means for whether the gateway may have acted on the request. */
export type FailureClass = 'not_sent' | 'maybe_processed'

// The connection never opened: the gateway cannot have seen the request. (A failure with no code is in neither set.)
const NOT_SENT_CODES = new Set<string | undefined>([
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_INVALID_URL',
])

// TLS refused the peer before a byte of the request was written: not sent either.
const CERTIFICATE_CODES = new Set<string | undefined>([
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  // An https proxy whose own certificate does not match its name.
  'UND_ERR_PRX_TLS',
])

/** The certificate of the gateway (or of the proxy) is not trusted here. */
export function isCertificateFailure(err: unknown): boolean {
  return CERTIFICATE_CODES.has(errorCode(err))
}

/** The code of a failure: undici and node nest the useful one in `cause`, followed to its end (a chain that loops back ends too). */
export function errorCode(err: unknown): string | undefined {
  const seen = new Set<unknown>()
  for (let current = err; typeof current === 'object' && current !== null && !seen.has(current); current = (current as {cause?: unknown}).cause) {
    seen.add(current)
    const code = (current as {code?: unknown}).code
    if (typeof code === 'string') return code
  }
  return undefined
}

/**
 * The status a proxy refused the request with, before anything went on to the gateway: a CONNECT
 * answered with anything but 200, or a 407 to a plain-http request (undici's wording of each).
 */
export function proxyRefusal(err: unknown): number | undefined {
  const message = err instanceof Error ? err.message : String(err)
  const match = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/.exec(message) ?? /^Proxy Authentication Required \((407)\)$/.exec(message)
  return match ? Number(match[1]) : undefined
}

export function classifyFailure(err: unknown): FailureClass {
  const code = errorCode(err)
  // Anything after the connection opened (reset, headers or body timeout, socket closed) may
  // have reached the gateway, which processes a purchase even if we never read the answer.
  return proxyRefusal(err) !== undefined || NOT_SENT_CODES.has(code) || CERTIFICATE_CODES.has(code) ? 'not_sent' : 'maybe_processed'
}

/** 502/503/504 come from proxies and overloaded front ends: worth another try for a read. */
const RETRYABLE_STATUSES = new Set([502, 503, 504])

export interface RetryInput {
  method: HttpMethod
  attempt: number
  status?: number
  failure?: FailureClass
}

export function shouldRetry({method, attempt, status, failure}: RetryInput): boolean {
  // Never repeat anything but a read: a repeated POST could charge a card twice (design.md §5).
  if (method !== 'GET') return false
  // Bounded, so a gateway that is down fails in seconds rather than hanging a script.
  if (attempt >= MAX_RETRIES) return false
  if (status !== undefined) return RETRYABLE_STATUSES.has(status)
  return failure !== undefined
}

/** Exponential backoff with equal jitter (half fixed, half random), so many clients retrying do not arrive in step. */
export function backoffMs(attempt: number, baseMs = 200, capMs = 2000, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
