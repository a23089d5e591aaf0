import {UsageError} from '../errors.js'
import {strayArgumentsError} from './help/stray-arguments.js'
import type {FlagShape} from './help/stray-arguments.js'
import {tokens, type FlagTable, wordsOf} from './startup/argv.js'
import * as validate from './validate.js'

/**
 * argv with a purchase given as the command's argument (`gw refund create order-1001`, as purchase
 * capture and void take it) moved into `flag` (--transaction-id). Whatever the flag does then
 * holds for both: asked for when left out, checked as it is. The same purchase given both ways
 * is taken once; two different ones are refused, naming both, as is the argument beside one of
 * `excludes` (the flags that make a refund of no purchase, or a batch).
 */
export async function purchaseAsFlag(argv: string[], {command, flag, grammar, excludes}: {command: string; flag: string; grammar: FlagTable; excludes: readonly string[]}): Promise<string[]> {
  const read = tokens(argv, grammar)
  const word = read.find((token) => token.kind === 'word')
  if (word === undefined) return argv
  const purchase = validate.notBlankArg('ID', word.text)
  const flags = read.filter((token) => token.kind === 'flag')
  const other = flags.find((token) => token.name === flag && token.value !== undefined && token.value !== purchase)
  if (other !== undefined) {
    throw new UsageError(`${command} was given two purchases: ${purchase} (the argument) and --${flag} ${other.value}`, `Name the purchase once: ${command} ${purchase} or ${command} --${flag} ${purchase}.`)
  }
  const excluded = excludes.filter((name) => flags.some((token) => token.name === name))
  if (excluded.length > 0) throw new UsageError(`${excluded.map((name) => `--${name}`).join(', ')} cannot also be provided when using ID (${purchase})`, `See ${command} --help for the flags and examples.`)
  const moved = [...(flags.some((token) => token.name === flag) ? [] : [`--${flag}=${purchase}`]), ...read.filter((token) => token !== word).flatMap(wordsOf)]
  // A second word: named as a word no argument takes.
  if (read.filter((token) => token.kind === 'word').length > 1) throw await strayArgumentsError(command, moved, grammar as Record<string, FlagShape>, {takesArguments: true})
  return moved
}
