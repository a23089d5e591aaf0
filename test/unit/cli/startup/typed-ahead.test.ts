import {readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join, relative} from 'node:path'
import {describe, expect, it} from 'vitest'

// A command that will ask for a secret at a terminal turns echo off as gw starts
// (bin/typed-ahead.js), decided from argv alone, before the bundle loads.
const root = join(import.meta.dirname, '..', '..', '..', '..')
const {asksForSecret, ASKS_FOR_SECRETS} = createRequire(import.meta.url)(join(root, 'bin', 'typed-ahead.js')) as {
  asksForSecret(argv: string[]): boolean
  ASKS_FOR_SECRETS: {command: string}[]
}
const words = (line: string) => line.split(' ')

describe('which command lines hold the terminal as gw starts', () => {
  it.each([
    'purchase create --amount 1000 --reference ta-1 --card-holder J --card-expiry 12/30',
    'purchase create',
    'purchase:create --amount 1000',
    '--profile live purchase create --amount 1000',
    'purchase create --amount 1000 -- --card-number',
    'refund create --amount 100 --reference r-1 --card-holder J',
    'card tokenize --card-holder J',
    'customer create --first-name J',
    'login',
    'login --profile staging',
  ])('gw %s: may ask for a secret', (line) => {
    expect(asksForSecret(words(line))).toBe(true)
  })

  it.each([
    'purchase create --card-number 4242424242424242 --card-holder J --card-expiry 12/30',
    'purchase create --card-token=tok_1',
    'purchase create --card -',
    'purchase create --input rows.csv',
    'purchase create --help',
    'purchase create -h',
    'purchase create --no-input',
    'purchase get create',
    'purchase list --reference login',
    'refund create --transaction-id order-1 --amount 100',
    'refund create --amount 100 --reference r-1 --card-token tok_1',
    'login --token-stdin',
    'help purchase create',
    '--profile purchase status',
  ])('gw %s: asks for none', (line) => {
    expect(asksForSecret(words(line))).toBe(false)
  })

  it('names every command that reads a card or a token at a terminal (cardFor, login), and no other', () => {
    const commands = join(root, 'src', 'commands')
    const reading = readdirSync(commands, {recursive: true, encoding: 'utf8'})
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /\bcardFor\(|\blogin\(flags/.test(readFileSync(join(commands, file), 'utf8')))
      .map((file) => relative('.', file).replace(/\.ts$/, '').split(/[\\/]/).join(' '))
    // customer update reads a card only when --card-number or --card gives it: nothing is asked.
    expect(ASKS_FOR_SECRETS.map(({command}) => command).sort()).toEqual(reading.filter((id) => id !== 'customer update').sort())
  })
})
