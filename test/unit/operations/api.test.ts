import {describe, expect, it} from 'vitest'
import type {GatewayClient} from '../../../src/api/client.js'
import {UsageError} from '../../../src/errors.js'
import {holdsCard, readData, readMethod, readPath, readQueryPair, sendRequest} from '../../../src/operations/api.js'
import {testIo} from '../../../src/output/io.js'
import {fakeDeps} from './fake-client.js'

describe('gw api input', () => {
  it.each([
    ['get', 'GET'],
    [' Delete ', 'DELETE'],
  ])('method %j is %s', (input, method) => expect(readMethod(input)).toBe(method))

  it('refuses a method the interface does not use', () => {
    expect(() => readMethod('PATCH')).toThrow(UsageError)
  })

  it.each([
    ['/v1.0/plans.json', '/v1.0/plans.json'],
    ['v1.0/plans.json?limit=1', '/v1.0/plans.json?limit=1'],
  ])('path %s is sent as %s', (input, path) => expect(readPath(input)).toBe(path))

  it.each(['https://elsewhere.example/v1.0/plans.json', '', '/v1.0/a b'])('refuses the path %j', (input) => {
    expect(() => readPath(input)).toThrow(UsageError)
  })

  it('splits --query at the first =', () => {
    expect(readQueryPair('from=a=b')).toEqual(['from', 'a=b'])
    expect(readQueryPair('empty=')).toEqual(['empty', ''])
    expect(() => readQueryPair('=x')).toThrow('--query must be KEY=VALUE')
  })

  it('reads --data inline or from stdin, checked as JSON, and never repeats what it could not read', async () => {
    expect(await readData('{"a":1}', 'POST', testIo())).toEqual({a: 1})
    expect(await readData('-', 'PUT', testIo({stdin: '{"b":2}'}))).toEqual({b: 2})
    const bad = readData('{"card_number":"4242424242424242",', 'POST', testIo())
    await expect(bad).rejects.toThrow('--data is not JSON')
    await expect(bad).rejects.not.toThrow('4242')
    await expect(readData('{}', 'GET', testIo())).rejects.toThrow('a GET has none')
    await expect(readData('@/no/such/file.json', 'POST', testIo())).rejects.toThrow('cannot read /no/such/file.json: ENOENT')
  })

  it.each([
    [{card_number: '4242424242424242'}, true],
    [{card: {cvv: '123'}}, true],
    [[{cvv: '1'}], true],
    [{card_token: 'abc', amount: 1}, false],
    ['card_number', false],
  ])('holdsCard(%j) is %s', (body, expected) => expect(holdsCard(body)).toBe(expected))

  it('adds --query to the path, after any query it has', async () => {
    const sent: unknown[][] = []
    const client = {sendRaw: async (...args: unknown[]) => (sent.push(args), {status: 200, text: '{}'})} as unknown as GatewayClient
    await sendRequest({method: 'GET', path: '/v1.0/plans.json?page=1', query: [['limit', '5'], ['q', 'a b']]}, fakeDeps(client))
    expect(sent).toEqual([['GET', '/v1.0/plans.json?page=1&limit=5&q=a+b', undefined]])
  })
})
