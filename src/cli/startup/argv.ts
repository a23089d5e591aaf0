import type {Column} from '../../output/columns.js'

/**
 * gw's one reading of a command line before oclif's, shared by the built gw (bin/run.js, through
 * the bundle's placeGlobalFlags) and the in-process tests (test/unit/commands/run-command.ts), so
 * that what one accepts the other does. It knows the command ids and each command's flags as oclif
 * declares them, and reads argv as oclif's parser does: a flag that takes a value takes the next
 * word, a repeatable one every word up to the next flag, `--` ends the flags.
 */

/** A flag as oclif declares it, as far as reading a command line goes. */
export interface FlagGrammar {
  type: 'boolean' | 'option'
  char?: string
  multiple?: boolean
  multipleNonGreedy?: boolean
  allowNo?: boolean
}

export type FlagTable = Readonly<Record<string, FlagGrammar>>

/** What the pre-parser reads of a command class: its flags, its arguments, and the columns its records show in. */
export interface CommandShape {
  flags?: object
  baseFlags?: object
  args?: object
  strict?: boolean
  columns?: Column[]
}

/** Every command by its id, each loaded when it is asked for (the bundle's COMMANDS). */
export type CommandTable = Readonly<Record<string, CommandShape>>

/**
 * The global flags (GwCommand.baseFlags, cli/global-flags.ts, which a unit test holds to this):
 * `--json` alone, or `--json FIELDS` as gh's (`--json id,amount`, read as `--json --fields id,amount`).
 */
export const GLOBAL_GRAMMAR: FlagTable = {
  json: {type: 'boolean'},
  verbose: {type: 'boolean'},
  yes: {type: 'boolean'},
  'no-input': {type: 'boolean'},
  profile: {type: 'option'},
  fields: {type: 'option'},
  jq: {type: 'option', char: 'q'},
}
export const GLOBAL_FLAGS = Object.keys(GLOBAL_GRAMMAR)

export type Token =
  | {kind: 'flag'; name: string; value?: string; raw: string[]}
  | {kind: 'word'; text: string; afterDashes: boolean}
  | {kind: 'unknown'; text: string}
  | {kind: 'dashes'}

/** `--name`, `--name=value`, `--no-name`, `-c`, `-cVALUE`: the flag it names in `flags`, and a value glued to it. */
function findFlag(arg: string, flags: FlagTable): {name: string; glued?: string} | undefined {
  if (arg.startsWith('--')) {
    const equals = arg.indexOf('=')
    const long = equals === -1 ? arg.slice(2) : arg.slice(2, equals)
    const glued = equals === -1 ? undefined : arg.slice(equals + 1)
    if (Object.hasOwn(flags, long)) return {name: long, glued}
    const negated = long.startsWith('no-') ? long.slice(3) : undefined
    if (negated !== undefined && flags[negated]?.type === 'boolean' && flags[negated].allowNo) return {name: negated, glued}
    return undefined
  }
  // A word that does not start with a dash is no flag, whatever its second letter (oclif's findFlag).
  if (!arg.startsWith('-')) return undefined
  const name = Object.keys(flags).find((flag) => flags[flag]!.char === arg[1])
  if (name === undefined || arg.length < 2) return undefined
  return {name, glued: arg.length > 2 ? arg.slice(arg[2] === '=' ? 3 : 2) : undefined}
}

const isFlagLike = (arg: string) => arg.startsWith('-') && arg !== '-' && !/^-\d/.test(arg)

/** argv read with a command's flags, word by word, as oclif's parser reads it. */
export function tokens(argv: readonly string[], flags: FlagTable): Token[] {
  const read: Token[] = []
  let dashes = false
  // A repeatable flag takes the words after it too, until another flag that takes a value (oclif's greedy `multiple`).
  let greedy: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (dashes || !isFlagLike(arg)) {
      if (!dashes && greedy !== undefined) read.push({kind: 'flag', name: greedy, value: arg, raw: [arg]})
      else read.push({kind: 'word', text: arg, afterDashes: dashes})
      continue
    }
    if (arg === '--') {
      dashes = true
      read.push({kind: 'dashes'})
      continue
    }
    const found = findFlag(arg, flags)
    if (found === undefined) {
      read.push({kind: 'unknown', text: arg})
      continue
    }
    const flag = flags[found.name]!
    if (flag.type === 'boolean') {
      read.push({kind: 'flag', name: found.name, raw: [arg], ...(found.glued === undefined ? {} : {value: found.glued})})
      continue
    }
    greedy = flag.multiple && !flag.multipleNonGreedy ? found.name : undefined
    if (found.glued !== undefined) read.push({kind: 'flag', name: found.name, value: found.glued, raw: [arg]})
    else if (i + 1 < argv.length && findFlag(argv[i + 1]!, flags) === undefined) read.push({kind: 'flag', name: found.name, value: argv[i + 1]!, raw: [arg, argv[++i]!]})
    else read.push({kind: 'flag', name: found.name, raw: [arg]})
  }
  return read
}

/** A token as the words of argv it was read from. */
export function wordsOf(token: Token): string[] {
  if (token.kind === 'flag') return token.raw
  if (token.kind === 'dashes') return ['--']
  return [token.text]
}

/** The flags argv gives, by name, read with the command's flags (`--reference --json` gives no --json). */
export function flagsGiven(argv: readonly string[], flags: FlagTable = GLOBAL_GRAMMAR): Set<string> {
  return new Set(tokens(argv, {...GLOBAL_GRAMMAR, ...flags}).flatMap((token) => (token.kind === 'flag' ? [token.name] : [])))
}

/** A command's flags, its own and the global ones, as oclif declares them. */
export function grammarOf(command: CommandShape): FlagTable {
  return {...GLOBAL_GRAMMAR, ...(command.baseFlags as FlagTable), ...(command.flags as FlagTable)}
}

const FIELD = /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$/i

/**
 * Whether the word after --json is the fields it picks (gh's `--json id,amount`) rather than an
 * argument (`gw purchase get --json ship-7001`): always for a command that takes no arguments;
 * else a list of names (a comma says so, and --fields refuses a name the records lack), or one
 * field of this command's records.
 */
async function pickedFields(word: string, command: CommandShape): Promise<boolean> {
  const parts = word.split(',').map((part) => part.trim())
  if (!parts.every((part) => part === '' || FIELD.test(part)) || parts.every((part) => part === '')) return false
  const takesArguments = command.strict === false || Object.keys(command.args ?? {}).length > 0
  if (!takesArguments || parts.length > 1) return true
  const {knownFields} = await import('../../output/fields.js')
  return (await knownFields(command.columns ?? [])).includes(parts[0]!.replaceAll('-', '_'))
}

/** The command words typed as far as they name a command or topic; the rest are its arguments. */
function commandId(words: string[], ids: string[]): string | undefined {
  for (let count = words.length; count > 0; count--) {
    const id = words.slice(0, count).join(':')
    if (ids.includes(id)) return id
  }
  return undefined
}

/**
 * argv as oclif is to get it. Global flags typed before or between the command words move after
 * them, so oclif finds the command id (it reads words up to the first flag): `gw --json purchase
 * get ID` → `gw purchase get ID --json`. `--json FIELDS` becomes `--json --fields FIELDS`, so the
 * fields are never taken for an id. Returns the command's id too, when the words name one.
 */
export async function readCommandLine(argv: readonly string[], commands: CommandTable): Promise<{id?: string; argv: string[]}> {
  const ids = Object.keys(commands)
  const words: string[] = []
  const globals: string[] = []
  let i = 0
  for (; i < argv.length; i++) {
    const arg = argv[i]!
    const found = isFlagLike(arg) && arg !== '--' ? findFlag(arg, GLOBAL_GRAMMAR) : undefined
    if (found === undefined) {
      if (isFlagLike(arg)) break
      words.push(arg)
      continue
    }
    const next = argv[i + 1]
    const takesNext = found.glued === undefined && next !== undefined && !isFlagLike(next)
    // `gw --json id,amount purchase list`, `gw purchase get --json amount ID`: a word that goes on no
    // command's words, a list or after the command's words, is --json's fields, as the command will judge.
    const continuesWords = ids.some((id) => `${id}:`.startsWith([...words, next].join(':') + ':'))
    const jsonFields = found.name === 'json' && takesNext && !continuesWords && (next.includes(',') || commandId(words, ids) !== undefined)
    if ((GLOBAL_GRAMMAR[found.name]!.type === 'option' || jsonFields) && takesNext) globals.push(arg, argv[++i]!)
    else if (GLOBAL_GRAMMAR[found.name]!.type === 'option' && found.glued === undefined) break
    else globals.push(arg)
  }
  const id = commandId(words, ids)
  if (id === undefined) return {argv: globals.length === 0 ? [...argv] : [...words, ...globals, ...argv.slice(i)]}
  const idWords = words.slice(0, id.split(':').length)
  const command = commands[id]!
  const rest = [...words.slice(idWords.length), ...globals, ...argv.slice(i)]
  return {id, argv: [...idWords, ...(await withJsonFields(rest, command))]}
}

/** `--json FIELDS` and `--json=FIELDS` as `--json --fields FIELDS`; everything else as typed. */
async function withJsonFields(argv: string[], command: CommandShape): Promise<string[]> {
  const read = tokens(argv, grammarOf(command))
  const out: string[] = []
  for (let at = 0; at < read.length; at++) {
    const token = read[at]!
    const next = read[at + 1]
    if (token.kind === 'flag' && token.name === 'json' && token.value !== undefined) out.push('--json', '--fields', token.value)
    else if (token.kind === 'flag' && token.name === 'json' && next?.kind === 'word' && !next.afterDashes && (await pickedFields(next.text, command))) {
      out.push('--json', '--fields', next.text)
      at++
    } else if (token.kind === 'flag') out.push(...token.raw)
    else if (token.kind === 'word' || token.kind === 'unknown') out.push(token.text)
    else out.push('--')
  }
  return out
}
