import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {UsageError} from '../../../src/errors.js'
import {readData, readMethod, readPath, readQueryPair} from '../../../src/output/api-input.js'
import {testIo} from '../../test-io.js'
import {expectReject} from '../../expect-error.js'

describe('gw api input', () => {
  it.each([
    ['get', 'GET'],
    [' Delete ', 'DELETE'],
  ])('method %j is %s', (input, method) => expect(readMethod(input)).toBe(method))

  it('refuses a method the interface does not use, with an example of one', () => {
    expect(() => readMethod('PATCH')).toThrow(UsageError)
    expect(() => readMethod('PATCH')).toThrow(expect.objectContaining({message: 'METHOD must be one of GET, POST, PUT, DELETE, got "PATCH"', hint: 'For example gw api GET /v1.0/plans.json.'}))
  })

  it.each([
    ['/v1.0/plans.json', '/v1.0/plans.json'],
    ['v1.0/plans.json?limit=1', '/v1.0/plans.json?limit=1'],
  ])('path %s is sent as %s', (input, path) => expect(readPath(input)).toBe(path))

  it.each(['https://elsewhere.example/v1.0/plans.json', '', '/v1.0/a b'])('refuses the path %j', (input) => {
    expect(() => readPath(input)).toThrow(UsageError)
  })

  it('refuses a URL, saying how to send to another gateway', () => {
    expect(() => readPath('https://elsewhere.example/v1.0/plans.json')).toThrow(expect.objectContaining({hint: 'Use --profile NAME to send it to another gateway.'}))
  })

  it('splits --query at the first =', () => {
    expect(readQueryPair('from=a=b')).toEqual(['from', 'a=b'])
    expect(readQueryPair('empty=')).toEqual(['empty', ''])
    expect(() => readQueryPair('=x')).toThrow(expect.objectContaining({message: '--query must be KEY=VALUE, got "=x"', hint: 'For example --query limit=5.'}))
  })

  it('reads --data inline or from stdin, checked as JSON, and never repeats what it could not read', async () => {
    expect(await readData('{"a":1}', 'POST', testIo())).toEqual({a: 1})
    expect(await readData('-', 'PUT', testIo({stdin: '{"b":2}'}))).toEqual({b: 2})
    const bad = readData('{"card_number":"4242424242424242",', 'POST', testIo())
    expect((await expectReject(bad, UsageError, '--data is not JSON')).message).not.toContain('4242')
    await expect(readData('{}', 'GET', testIo())).rejects.toThrow(expect.objectContaining({message: '--data is a request body, and a GET has none', hint: 'Give the values with --query KEY=VALUE, or use POST or PUT.'}))
    await expect(readData('@/no/such/file.json', 'POST', testIo())).rejects.toThrow(expect.objectContaining({message: '--data @/no/such/file.json: /no/such/file.json cannot be read: no such file', hint: 'Give a file holding the JSON body: --data @body.json.'}))
    await expect(readData('-', 'POST', testIo({tty: true}))).rejects.toThrow(expect.objectContaining({message: '--data - reads the JSON body from stdin, but stdin is a terminal'}))
  })

  it('refuses a --data that holds no body (nothing piped, an empty file, an empty value) as missing, before anything is sent', async () => {
    const missing = (message: string) => expect.objectContaining({message, hint: 'Give the JSON body, e.g. gw api POST PATH --data @body.json, or pipe it in with --data -.'})
    await expect(readData('-', 'POST', testIo({stdin: ''}))).rejects.toThrow(missing('--data - read nothing from stdin: the request body is missing, and nothing was sent'))
    await expect(readData('-', 'POST', testIo({stdin: ' \n'}))).rejects.toThrow(missing('--data - read nothing from stdin: the request body is missing, and nothing was sent'))
    await expect(readData('', 'POST', testIo())).rejects.toThrow(missing('--data is empty: the request body is missing, and nothing was sent'))
    const empty = join(mkdtempSync(join(tmpdir(), 'gw-data-')), 'empty.json')
    writeFileSync(empty, '')
    await expect(readData(`@${empty}`, 'POST', testIo())).rejects.toThrow(missing(`--data @${empty}: ${empty} is empty: the request body is missing, and nothing was sent`))
  })
})
