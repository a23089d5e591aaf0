import type {Hook} from '@oclif/core'
import {UsageError} from '../../errors.js'
import {redactFlagMessage} from '../../safety/redact.js'
import {flagsGiven, GLOBAL_FLAGS, GLOBAL_GRAMMAR, tokens} from '../startup/argv.js'
import {type FlagShape, strayArgumentsError} from './stray-arguments.js'
import {habitOf, SYNONYMS} from './habits.js'
import {closest} from './suggest.js'
import {guide} from '../../lib/guides.js'

/**
 * What was typed against the command tree, word by word: each word that names no topic or command
 * at its place is replaced by the closest one there, when one is close. Returns the words taken
 * as the command (as typed) and the suggestion, a real command or topic id, when every word could be placed.
 */
export function suggestCommand(words: string[], commandIds: Iterable<string>): {typed: string[]; suggestion?: string} {
  const ids = [...commandIds]
  const prefixes = new Set(ids.flatMap((id) => id.split(':').map((_, i, parts) => parts.slice(0, i + 1).join(':'))))
  const fixed: string[] = []
  for (const [index, word] of words.entries()) {
    const here = fixed.join(':')
    const children = new Set([...prefixes].filter((p) => p.split(':').length === fixed.length + 1 && p.startsWith(here ? here + ':' : '')).map((p) => p.split(':').at(-1)!))
    const synonym = SYNONYMS[word]?.find((verb) => children.has(verb))
    const next = children.has(word) ? word : (synonym ?? closest(word, children))
    if (!next) return {typed: words.slice(0, index + 1)}
    fixed.push(next)
    if (ids.includes(fixed.join(':'))) return {typed: words.slice(0, index + 1), suggestion: fixed.join(':')}
  }
  // Every word placed, and they name a topic: suggest it (`gw help purchse` → purchase).
  return {typed: words, suggestion: fixed.join(':')}
}

/**
 * oclif's command_not_found hook: `gw purchse get` exits 2 (a usage error, design.md §4), names the
 * command as typed, with spaces, and suggests the closest real one.
 */
export const commandNotFound: Hook.CommandNotFound = async function ({id, argv = [], config}) {
  const bin = config.bin
  const [{processIo}, {renderError}] = await Promise.all([import('../../output/io.js'), import('../../output/render.js')])
  const io = processIo(process.env)
  const error = id.startsWith('-') ? unknownGlobalFlag(id, bin) : await unknownCommand(id, argv, config)
  const given = flagsGiven(argv)
  renderError(io, error, {json: given.has('json') || given.has('jq')})
  process.exitCode = error.exitCode
}

/** The words of a command line no command takes: the id's, then argv's, read as flagsGiven reads it (`--profile prod` gives no word). */
export function typedWords(id: string, argv: readonly string[]): string[] {
  return [...id.split(':'), ...tokens(argv, GLOBAL_GRAMMAR).flatMap((token) => (token.kind === 'word' ? [token.text] : []))]
}

async function unknownCommand(id: string, argv: string[], config: Parameters<Hook.CommandNotFound>[0]['config']): Promise<UsageError> {
  const words = typedWords(id, argv)
  const bin = config.bin
  // A habit from gh or the Stripe CLI (`gw logs`): the gw command that does its work.
  const habit = habitOf(words)
  if (habit) {
    const {typed, habit: {command, does}} = habit
    return new UsageError(`unknown command: ${bin} ${typed.join(' ')}`, `${command ? `Did you mean ${bin} ${command}? ` : ''}${does} ${bin} help lists every command.`)
  }
  const {typed, suggestion} = suggestCommand(words, config.commandIDs.filter((commandId) => !config.findCommand(commandId)?.hidden))
  // The command exists, and what follows it is an argument it does not take: oclif joined it into
  // the id because it holds a colon (a URL), and looked for a command of that name.
  // A stray word before any flag is joined into the id too (`gw refund create order-2003`).
  if (suggestion !== undefined && suggestion === typed.join(':') && config.commandIDs.includes(suggestion)) {
    const loaded = await config.findCommand(suggestion)!.load()
    const flags = {...loaded.baseFlags, ...loaded.flags} as Record<string, FlagShape>
    return strayArgumentsError(`${bin} ${typed.join(' ')}`, [...wordsOf(id.split(':').slice(typed.length), process.argv), ...argv], flags)
  }
  const hint =
    findingHint(words, config.commandIDs, bin) ??
    (suggestion ? `Did you mean ${bin} ${suggestion.replaceAll(':', ' ')}? ${bin} help lists every command.` : `${bin} help lists every command.`)
  return new UsageError(`unknown command: ${bin} ${typed.join(' ')}`, hint)
}

/**
 * The words oclif joined into an id with colons, as they were typed: `order-1 1000` is two words,
 * `http://127.0.0.1:9/x` one, told apart by the command line itself.
 */
export function wordsOf(parts: string[], typed: readonly string[]): string[] {
  const words: string[] = []
  let current: string | undefined
  for (const part of parts) {
    current = current === undefined ? part : `${current}:${part}`
    if (typed.includes(current)) {
      words.push(current)
      current = undefined
    }
  }
  return current === undefined ? words : [...words, current]
}

const SEARCH_WORDS = new Set(['search', 'find', 'ls', 'query', 'filter', 'all'])

/** What each list command finds its records by, for the hint. */
export const LIST_FILTERS: Record<string, string> = {
  purchase: '--reference, --status, --card, --amount, --holder, --from and --to',
  refund: '--purchase, --reference, --status, --card, --amount, --from and --to',
  customer: '--email, --reference, --from and --to',
  subscription: '--customer, --plan, --active or --inactive',
  card: '--card and --holder',
  'payment-plan': '--customer, --reference, --from and --to',
}

/**
 * Someone looking records up (`gw purchases`, `gw purchase search`) is pointed at the list command
 * and its filters, and the guide to finding records.
 */
function findingHint(words: string[], commandIds: string[], bin: string): string | undefined {
  const [first = '', second = ''] = words
  const noun = first.endsWith('s') ? first.slice(0, -1) : first
  if (!commandIds.includes(`${noun}:list`) || (noun === first && !SEARCH_WORDS.has(second))) return undefined
  const filters = LIST_FILTERS[noun] ?? '--from and --to'
  return `${bin} ${noun} list finds ${noun}s, newest first, by ${filters}; ${guide('finding-records.md')} shows how.`
}

/**
 * A flag before the command words that is no global flag (`gw --jsn purchase get`): named as a
 * flag, without any value glued to it, with the closest global flag.
 */
function unknownGlobalFlag(typed: string, bin: string): UsageError {
  const flag = typed.replace(/=.*/s, '')
  const suggestion = closest(flag.replace(/^-+/, ''), GLOBAL_FLAGS)
  const help = `Global flags (${GLOBAL_FLAGS.map((name) => `--${name}`).join(', ')}) go before or after the command words; ${bin} help lists every command.`
  return new UsageError(redactFlagMessage(`unknown flag: ${flag}`), suggestion ? `Did you mean --${suggestion}? ${help}` : help)
}
