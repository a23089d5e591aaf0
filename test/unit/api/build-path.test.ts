import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {expectThrow} from '../../expect-error.js'
import {allEndpoints, buildPath} from '../../../src/api/endpoints.js'
import {UsageError} from '../../../src/errors.js'

/**
 * The key as a gateway that strips exactly one `.json` suffix from the last segment and then
 * URL-decodes reads it back from a path: from the last segment, or from the one where the
 * template has its placeholder (`/_sandbox/deliveries/{id}/redeliver`).
 */
function keyAt(path: string, template = '/{id}'): string {
  const segments = new URL('http://gateway.test' + path).pathname.split('/')
  const index = template.split('/').findIndex((part) => /^\{\w+\}/.test(part))
  const segment = segments[index === template.split('/').length - 1 ? segments.length - 1 : index]!
  const last = segment === segments.at(-1)
  return decodeURIComponent(last && segment.endsWith('.json') ? segment.slice(0, -'.json'.length) : segment)
}

const templates = allEndpoints().filter((endpoint) => /\{\w+\}/.test(endpoint.path)).map((endpoint) => endpoint.path)

describe('buildPath: any id or reference reaches the gateway whole', () => {
  it.each([
    ['inv-a', '/v1.0/purchases/inv-a'],
    ['071-P-52NRCGCF', '/v1.0/purchases/071-P-52NRCGCF'],
    ['a.json', '/v1.0/purchases/a.json.json'],
    ['a.json.json', '/v1.0/purchases/a.json.json.json'],
    ['order.1', '/v1.0/purchases/order.1.json'],
    ['a/b', '/v1.0/purchases/a%2Fb'],
    ['50%', '/v1.0/purchases/50%25'],
    ['ü', '/v1.0/purchases/%C3%BC'],
    ['a?b', '/v1.0/purchases/a%3Fb'],
    ['a#b', '/v1.0/purchases/a%23b'],
    ['..', '/v1.0/purchases/...json'],
    ['a b', '/v1.0/purchases/a%20b'],
  ])('%s is sent as %s', (key, path) => {
    expect(buildPath('/v1.0/purchases/{id}', {id: key})).toBe(path)
    expect(keyAt(path)).toBe(key)
  })

  it('keeps the contract form of paths that end in .json, adding nothing more', () => {
    expect(buildPath('/v1.0/customers/{id}.json', {id: '071-C-1'})).toBe('/v1.0/customers/071-C-1.json')
    expect(buildPath('/v1.0/customers/{id}.json', {id: 'cust.1'})).toBe('/v1.0/customers/cust.1.json')
    expect(buildPath('/v1.0/plans.json')).toBe('/v1.0/plans.json')
  })

  it('refuses a blank key, which would address the collection, with a usage error', () => {
    expect(() => buildPath('/v1.0/purchases/{id}', {id: ''})).toThrow(UsageError)
  })

  it('refuses text no terminal can give (a lone surrogate) with a usage error, not a URIError', () => {
    expect(() => buildPath('/v1.0/purchases/{id}', {id: 'a\uD800'})).toThrow(UsageError)
  })

  it('refuses "." and ".." between two segments, where every URL parser takes them as steps in the path', () => {
    for (const key of ['.', '..']) {
      expectThrow(() => buildPath('/_sandbox/deliveries/{id}/redeliver', {id: key}), UsageError, `an id of "${key}" cannot be sent`)
      expect(keyAt(buildPath('/v1.0/purchases/{id}', {id: key}))).toBe(key)
    }
  })

  it('property: every key round-trips through every endpoint path, in one segment', () => {
    fc.assert(
      fc.property(fc.constantFrom(...templates), fc.string({unit: 'grapheme', minLength: 1}), (template, key) => {
        const name = /\{(\w+)\}/.exec(template)![1]!
        // A dot segment between two others is refused (below), not sent.
        fc.pre(template.endsWith('}') || (key !== '.' && key !== '..'))
        const path = buildPath(template, {[name]: key})
        expect(keyAt(path, template)).toBe(key)
        expect(new URL('http://gateway.test' + path).pathname.split('/')).toHaveLength(template.split('/').length)
      }),
      {numRuns: 2000},
    )
  })

  it('property: keys made of dots, .json, slashes and percent signs round-trip', () => {
    const tricky = fc.array(fc.constantFrom('.', '.json', 'json', '/', '%', '%2F', '?', '#', 'a', ' ', '..'), {minLength: 1, maxLength: 8}).map((parts) => parts.join(''))
    fc.assert(
      fc.property(tricky, (key) => {
        expect(keyAt(buildPath('/v1.0/purchases/{id}', {id: key}))).toBe(key)
      }),
      {numRuns: 2000},
    )
  })
})
