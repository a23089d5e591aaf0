import {describe, expect, it} from 'vitest'
import {wordsOf} from '../../../../src/cli/help/not-found.js'
import {type FlagShape, flagsForStray, readArgv, strayArgumentsError} from '../../../../src/cli/help/stray-arguments.js'

const amount: FlagShape = {
  type: 'option',
  required: true,
  parse: async (input) => {
    if (!/^\d+$/.test(input)) throw new Error('--amount must be a whole number of cents')
    return Number(input)
  },
}
const text: FlagShape = {type: 'option', required: true, parse: async (input) => input}
const flags: Record<string, FlagShape> = {
  amount,
  reference: text,
  currency: {type: 'option', parse: async (input) => input},
  mode: {type: 'option', required: true, options: ['sandbox', 'live']},
  limit: {type: 'option', char: 'L'},
  json: {type: 'boolean'},
  color: {type: 'boolean', allowNo: true},
}

describe('readArgv', () => {
  it.each([
    [['order-1'], [], ['order-1']],
    [['--currency', 'NZD', 'order-1'], ['currency'], ['order-1']],
    [['--currency=NZD', 'order-1'], ['currency'], ['order-1']],
    [['-L', '5', 'x', '-L5', 'y'], ['limit'], ['x', 'y']],
    [['--json', 'x', '--no-color', 'y'], ['json', 'color'], ['x', 'y']],
    [['a', '--', '--amount', 'b'], [], ['a', '--amount', 'b']],
  ])('%j: given %j, stray %j', (argv, given, stray) => {
    expect(readArgv(argv, flags)).toEqual({given: new Set(given), stray})
  })
})

describe('flagsForStray', () => {
  it.each([
    [['order-1'], [], [['reference', 'order-1']]],
    [['1000'], [], [['amount', '1000']]],
    [['order-1', '1000'], [], [['reference', 'order-1'], ['amount', '1000']]],
    [['1000', '2000'], [], [['amount', '1000'], ['reference', '2000']]],
    [['live'], ['reference'], [['mode', 'live']]],
    [['order-1'], ['reference'], []],
    [['order-1', 'order-2', 'order-3'], ['mode'], [['reference', 'order-1']]],
  ])('%j with %j given: %j', async (stray, given, matched) => {
    expect(await flagsForStray(stray, flags, new Set(given))).toEqual(matched)
  })
})

describe('strayArgumentsError', () => {
  it('names the words and suggests the flag they fit, quoted for the shell', async () => {
    const error = await strayArgumentsError('gw purchase create', ["order 1's"], flags)
    expect(error.message).toBe(`gw purchase create takes no argument "order 1's"`)
    expect(error.hint).toBe(`Did you mean --reference 'order 1'\\''s'? See gw purchase create --help for its flags and examples.`)
    expect(error.exitCode).toBe(2)
  })

  it('never offers card data as a value, masked or not', async () => {
    const error = await strayArgumentsError('gw purchase create', ['4242424242424242'], {reference: text})
    expect(error.message).toBe('gw purchase create takes no argument "424242XXXXXX4242"')
    expect(error.hint).toBe('See gw purchase create --help for its flags and examples.')
  })

  it('says "unexpected" of a command that takes arguments', async () => {
    const error = await strayArgumentsError('gw card update', ['a', 'b'], flags, {takesArguments: true})
    expect(error.message).toBe('gw card update: unexpected arguments "a b"')
  })
})

describe('wordsOf', () => {
  it.each([
    [['order-1', '1000'], ['purchase', 'create', 'order-1', '1000'], ['order-1', '1000']],
    [['http', '//127.0.0.1', '9/x'], ['webhook', 'create', 'http://127.0.0.1:9/x'], ['http://127.0.0.1:9/x']],
    [['http', '//x', '1000'], ['purchase', 'create', 'http://x', '1000'], ['http://x', '1000']],
    [['a', 'b'], [], ['a:b']],
  ])('%j typed as %j: %j', (parts, typed, words) => {
    expect(wordsOf(parts, typed)).toEqual(words)
  })
})
