import {UsageError} from '../../errors.js'
import {shellQuote} from '../../output/hints.js'
import {maskCardDataIn} from '../../safety/redact.js'
import {tokens} from '../startup/argv.js'

/** What gw reads of a flag's definition (oclif's, loaded with its parse). */
export interface FlagShape {
  type: 'boolean' | 'option'
  char?: string
  required?: boolean
  options?: readonly string[]
  allowNo?: boolean
  parse?: (input: string, context: unknown, options: never) => Promise<unknown>
}

/**
 * argv as a command's flags read it (the pre-parser's reading, startup/argv.ts): the flags given
 * (by name), and the words that are neither a flag nor a flag's value, which a command that takes
 * no argument cannot place.
 */
export function readArgv(argv: readonly string[], flags: Record<string, FlagShape>): {given: Set<string>; stray: string[]} {
  const read = tokens(argv, flags)
  return {
    given: new Set(read.flatMap((token) => (token.kind === 'flag' ? [token.name] : []))),
    stray: read.flatMap((token) => (token.kind === 'word' ? [token.text] : [])),
  }
}

/**
 * Each stray word matched to a required flag (those gw asks for when left out) that was not given
 * and would take it: the first in the command's order whose own check accepts the word, each flag
 * once. `gw refund create order-2003` → `--transaction-id order-2003`.
 */
export async function flagsForStray(stray: readonly string[], flags: Record<string, FlagShape>, given: ReadonlySet<string>): Promise<[string, string][]> {
  const open = Object.entries(flags).filter(([name, flag]) => flag.type === 'option' && flag.required && !given.has(name))
  const matched: [string, string][] = []
  for (const word of stray) {
    for (const [name, flag] of open) {
      if (matched.some(([taken]) => taken === name)) continue
      if (await accepts({...flag, name}, word)) {
        matched.push([name, word])
        break
      }
    }
  }
  return matched
}

async function accepts(flag: FlagShape & {name: string}, word: string): Promise<boolean> {
  if (flag.options) return flag.options.includes(word)
  try {
    await flag.parse?.(word, {}, flag as never)
    return true
  } catch {
    return false
  }
}

/**
 * Words a command takes no place for: named, card numbers masked, and when a word fits a required
 * flag left out, that flag suggested with it (design.md §4: usage, exit 2).
 */
export async function strayArgumentsError(command: string, argv: readonly string[], flags: Record<string, FlagShape>, {takesArguments = false} = {}): Promise<UsageError> {
  const {given, stray} = readArgv(argv, flags)
  const words = maskCardDataIn(stray.join(' '))
  const message = takesArguments ? `${command}: unexpected argument${stray.length === 1 ? '' : 's'} ${JSON.stringify(words)}` : `${command} takes no argument ${JSON.stringify(words)}`
  const help = `See ${command} --help for its flags and examples.`
  // A word holding card data is not repeated, even masked, as if it were a value to use.
  const matched = (await flagsForStray(stray, flags, given)).filter(([, word]) => maskCardDataIn(word) === word)
  if (matched.length === 0) return new UsageError(message, help)
  return new UsageError(message, `Did you mean ${matched.map(([name, word]) => `--${name} ${shellQuote(word)}`).join(' ')}? ${help}`)
}
