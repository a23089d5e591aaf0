import {describe, expect, it} from 'vitest'
import {backoffMs, classifyFailure, errorCode, isCertificateFailure, MAX_RETRIES, proxyRefusal, shouldRetry} from '../../../src/api/retry.js'

const coded = (code: string) => Object.assign(new Error(code), {code})

describe('shouldRetry', () => {
  it.each([
    [{method: 'GET', attempt: 0, status: 503}, true],
    [{method: 'GET', attempt: 0, status: 502}, true],
    [{method: 'GET', attempt: 2, status: 504}, true],
    [{method: 'GET', attempt: 0, status: 408}, true],
    [{method: 'POST', attempt: 0, status: 408}, false],
    [{method: 'GET', attempt: 3, status: 503}, false],
    [{method: 'GET', attempt: 0, status: 500}, false],
    [{method: 'GET', attempt: 0, status: 404}, false],
    [{method: 'GET', attempt: 0, failure: 'maybe_processed'}, true],
    [{method: 'GET', attempt: 0, failure: 'not_sent'}, true],
    [{method: 'POST', attempt: 0, status: 503}, false],
    [{method: 'POST', attempt: 0, failure: 'not_sent'}, false],
    [{method: 'PUT', attempt: 0, status: 502}, false],
    [{method: 'DELETE', attempt: 0, failure: 'maybe_processed'}, false],
    // Nothing went wrong: nothing to try again.
    [{method: 'GET', attempt: 0}, false],
    [{method: 'GET', attempt: 2, failure: 'maybe_processed'}, true],
  ] as const)('%j → %s', (input, expected) => {
    expect(shouldRetry(input)).toBe(expected)
  })
})

describe('classifyFailure', () => {
  it('retries a read at most 3 times', () => {
    expect(MAX_RETRIES).toBe(3)
  })

  it.each([
    ['ECONNREFUSED', 'not_sent'],
    ['UND_ERR_CONNECT_TIMEOUT', 'not_sent'],
    ['ENOTFOUND', 'not_sent'],
    ['EAI_AGAIN', 'not_sent'],
    ['EHOSTUNREACH', 'not_sent'],
    ['ENETUNREACH', 'not_sent'],
    ['ERR_INVALID_URL', 'not_sent'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'not_sent'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'not_sent'],
    ['CERT_HAS_EXPIRED', 'not_sent'],
    ['CERT_NOT_YET_VALID', 'not_sent'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'not_sent'],
    ['UNABLE_TO_GET_ISSUER_CERT', 'not_sent'],
    ['', 'maybe_processed'],
    ['UND_ERR_HEADERS_TIMEOUT', 'maybe_processed'],
    ['UND_ERR_BODY_TIMEOUT', 'maybe_processed'],
    ['UND_ERR_SOCKET', 'maybe_processed'],
    ['ECONNRESET', 'maybe_processed'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'not_sent'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'not_sent'],
    ['UND_ERR_PRX_TLS', 'not_sent'],
    ['EAI_AGAIN', 'not_sent'],
    ['EHOSTUNREACH', 'not_sent'],
    ['ENETUNREACH', 'not_sent'],
    ['ERR_INVALID_URL', 'not_sent'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'not_sent'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'not_sent'],
    ['CERT_HAS_EXPIRED', 'not_sent'],
    ['CERT_NOT_YET_VALID', 'not_sent'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'not_sent'],
    ['UNABLE_TO_GET_ISSUER_CERT', 'not_sent'],
    ['EPIPE', 'maybe_processed'],
  ])('%s → %s', (code, expected) => {
    expect(classifyFailure(coded(code))).toBe(expected)
  })

  it('follows the cause chain to its end and treats an unknown failure as possibly processed', () => {
    expect(classifyFailure(new TypeError('fetch failed', {cause: coded('ECONNREFUSED')}))).toBe('not_sent')
    let deep: unknown = coded('ECONNREFUSED')
    for (let i = 0; i < 8; i++) deep = new Error(`wrapped ${i}`, {cause: deep})
    expect(classifyFailure(deep)).toBe('not_sent')
    expect(classifyFailure(new Error('mystery'))).toBe('maybe_processed')
    // A numeric code is no code: the one in its cause is.
    expect(classifyFailure(Object.assign(new Error('numbered'), {code: 111, cause: coded('ENOTFOUND')}))).toBe('not_sent')
  })

  it('ends at a cause that is null or not an object, and at a chain that loops back on itself', () => {
    expect(classifyFailure(Object.assign(new Error('no cause'), {cause: null}))).toBe('maybe_processed')
    expect(classifyFailure(Object.assign(new Error('text cause'), {cause: 'ECONNREFUSED'}))).toBe('maybe_processed')
    const looped = new Error('looped') as Error & {cause?: unknown}
    looped.cause = new Error('back', {cause: looped})
    expect(classifyFailure(looped)).toBe('maybe_processed')
    expect(isCertificateFailure(looped)).toBe(false)
    expect(classifyFailure(undefined)).toBe('maybe_processed')
    expect(classifyFailure('ECONNREFUSED')).toBe('maybe_processed')
  })
})

describe('errorCode', () => {
  /** An error whose code sits `depth` causes down. */
  const nested = (depth: number, code = 'ECONNREFUSED'): unknown => (depth === 0 ? coded(code) : new Error(`wrapped ${depth}`, {cause: nested(depth - 1, code)}))

  it('follows `cause` to its end, and stops where the chain loops back', () => {
    expect(errorCode(nested(0))).toBe('ECONNREFUSED')
    expect(errorCode(nested(8))).toBe('ECONNREFUSED')
    const looped = new Error('outer') as Error & {cause?: unknown}
    looped.cause = new Error('inner', {cause: looped})
    expect(errorCode(looped)).toBeUndefined()
  })

  it('takes the first code met, and only a string one', () => {
    expect(errorCode(Object.assign(new Error('outer'), {code: 'UND_ERR_SOCKET', cause: coded('ECONNRESET')}))).toBe('UND_ERR_SOCKET')
    expect(errorCode(Object.assign(new Error('numbered'), {code: 5, cause: coded('ECONNRESET')}))).toBe('ECONNRESET')
  })

  it('stops at what is no object: nothing, null, a string, a function', () => {
    expect(errorCode(undefined)).toBeUndefined()
    expect(errorCode(null)).toBeUndefined()
    expect(errorCode(new Error('null cause', {cause: null}))).toBeUndefined()
    expect(errorCode('ECONNREFUSED')).toBeUndefined()
    expect(errorCode(new Error('odd cause', {cause: Object.assign(() => undefined, {code: 'ECONNREFUSED'})}))).toBeUndefined()
  })
})

describe('backoffMs', () => {
  it('grows exponentially within half and all of the ceiling, and is capped', () => {
    expect(backoffMs(0, 200, 2000, () => 0)).toBe(100)
    expect(backoffMs(0, 200, 2000, () => 1)).toBe(200)
    expect(backoffMs(2, 200, 2000, () => 1)).toBe(800)
    expect(backoffMs(10, 200, 2000, () => 1)).toBe(2000)
  })
})

describe('proxyRefusal', () => {
  // undici's words for a proxy that refused before passing anything on; the e2e proxy tests pin them.
  it.each([
    [Object.assign(new Error('Proxy response (407) !== 200 when HTTP Tunneling'), {code: 'UND_ERR_ABORTED'}), 407],
    [Object.assign(new Error('Proxy response (502) !== 200 when HTTP Tunneling'), {code: 'UND_ERR_ABORTED'}), 502],
    [Object.assign(new Error('Proxy Authentication Required (407)'), {code: 'UND_ERR_INVALID_ARG'}), 407],
    [Object.assign(new Error('Request aborted'), {code: 'UND_ERR_ABORTED'}), undefined],
    [new Error('other side closed'), undefined],
    // Only undici's own words, whole: a message that quotes them (an answer's text, say) is no refusal.
    [new Error('Proxy response (502) !== 200 when HTTP Tunneling, then more'), undefined],
    [new Error('upstream: Proxy response (502) !== 200 when HTTP Tunneling'), undefined],
    [new Error('Proxy Authentication Required (407) by upstream'), undefined],
    [new Error('upstream: Proxy Authentication Required (407)'), undefined],
    [null, undefined],
    // Thrown as text rather than an Error, the words are still undici's.
    ['Proxy response (503) !== 200 when HTTP Tunneling', 503],
  ])('%s → %s', (err, status) => {
    expect(proxyRefusal(err)).toBe(status)
    expect(classifyFailure(err)).toBe(status === undefined ? 'maybe_processed' : 'not_sent')
  })
})

describe('isCertificateFailure', () => {
  it.each([
    ['DEPTH_ZERO_SELF_SIGNED_CERT', true],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', true],
    ['ERR_TLS_CERT_ALTNAME_INVALID', true],
    ['UND_ERR_PRX_TLS', true],
    ['ECONNREFUSED', false],
    ['UND_ERR_SOCKET', false],
    ['', false],
  ])('%s → %s', (code, expected) => {
    expect(isCertificateFailure(new Error('tls', {cause: coded(code)}))).toBe(expected)
  })
})

describe('isCertificateFailure without a code', () => {
  it('is false', () => {
    expect(isCertificateFailure(new Error('tls'))).toBe(false)
    expect(isCertificateFailure(undefined)).toBe(false)
  })
})
