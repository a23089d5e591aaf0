import type {Interfaces} from '@oclif/core'
import type {Factory} from './factory.js'
import type {FlagShape} from './help/stray-arguments.js'
import {UsageError} from '../errors.js'
import {flagsGiven, type FlagTable, grammarOf, tokens} from './startup/argv.js'
import {holdsReplacement, NOT_UTF8} from '../lib/utf8.js'
import {toGwError} from './to-gw-error.js'

// The shapes oclif's parse is generic over (not exported by @oclif/core).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FlagOutput = {[name: string]: any}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ArgOutput = {[name: string]: any}

type Parse<F extends FlagOutput, B extends FlagOutput, A extends ArgOutput> = (options: Interfaces.Input<F, B, A> | undefined, argv: string[]) => Promise<Interfaces.ParserOutput<F, B, A>>

export interface Asking {
  /** The command as typed (`gw refund create`), for naming it in an error. */
  command: string
  /** Handed to a flag's own parse, which checks each answer as it checks a flag. */
  context: unknown
  /** The values a missing flag or argument is chosen from, when they are fixed. */
  choicesFor: (name: string) => Promise<readonly string[] | undefined>
  /** The currency of the command's --amount, given the flags it was given, where it is known: an amount asked reads back in it. */
  currencyOf?: (flags: FlagOutput) => string | undefined
  /** What else the command cannot go without, given the flags it was given (a card): named beside the missing flags when nothing can be asked. */
  alsoMissing?: (flags: FlagOutput) => Promise<string | undefined>
}

/**
 * oclif's parse, and on a terminal a question for each required flag or argument left out
 * (design.md §1: a merchant answers prompts); without one, oclif's error naming every missing
 * flag stands.
 */
export async function parseOrAsk<F extends FlagOutput, B extends FlagOutput, A extends ArgOutput>(
  parse: Parse<F, B, A>,
  options: Interfaces.Input<F, B, A> | undefined,
  argv: string[],
  f: Factory,
  asking: Asking,
): Promise<Interfaces.ParserOutput<F, B, A>> {
  if (options) options = withArgsFromArgvOnly(options)
  refuseNotUtf8(argv, options)
  const given = options ? flagsGiven(argv, grammarOf(options)) : new Set<string>()
  // A batch (--input FILE) takes what one purchase or refund requires from the file's columns.
  if (options && given.has('input')) options = withNothingRequired(options)
  else if (options) options = withExcludedUnrequired(options, given)
  try {
    try {
      return await parse(options, argv)
    } catch (err) {
      // Every flag given is checked before anything is asked: `--ammount 100` is refused first,
      // not after the person has answered for the flags that were left out.
      const parsed = options ? await parse(withNothingRequired(options), argv) : undefined
      const answered = await answersFor(err, argv, grammarOf(options ?? {}), f, asking, parsed?.flags)
      refuseNotUtf8(answered, options)
      return await parse(options, answered)
    }
  } catch (err) {
    if (!unexpectedArguments(err) || !options) throw err
    // A word after the flags (`--amount 100 order-2003`): named, with the required flag it fits.
    const {strayArgumentsError} = await import('./help/stray-arguments.js')
    const flags = {...options.baseFlags, ...options.flags} as Record<string, FlagShape>
    throw await strayArgumentsError(asking.command, argv, flags, {takesArguments: Object.keys(options.args ?? {}).length > 0})
  }
}

/**
 * A word holding U+FFFD refused, naming its flag or argument (lib/utf8.ts: Node decodes argv's
 * bytes that are not UTF-8 so): sent, the gateway would keep another text than the one typed.
 */
function refuseNotUtf8(argv: readonly string[], options: {flags?: object; baseFlags?: object; args?: object} | undefined): void {
  if (!argv.some(holdsReplacement)) return
  const args = Object.keys(options?.args ?? {})
  let position = 0
  for (const token of tokens(argv, grammarOf(options ?? {}))) {
    const [text, name] =
      token.kind === 'flag' ? [token.value ?? '', `--${token.name}`] : token.kind === 'word' ? [token.text, args[position++]?.toUpperCase() ?? 'an argument'] : token.kind === 'unknown' ? [token.text, token.text.replace(/=.*/, '')] : ['', '']
    if (holdsReplacement(text)) throw new UsageError(`${name} ${NOT_UTF8}, and nothing was sent`, 'Type it again with the terminal set to UTF-8 (LANG or LC_ALL ending in .UTF-8).')
  }
}

/** oclif's UnexpectedArgsError (its parser's errors are not exported): words no argument takes. */
function unexpectedArguments(err: unknown): boolean {
  return err instanceof Error && Array.isArray((err as {args?: unknown}).args) && err.message.startsWith('Unexpected argument')
}

/**
 * argv with the answers to what the failed parse lacked; when nothing can be asked, the failure,
 * naming beside the missing flags whatever else the command lacks (as gh names every one at once).
 */
async function answersFor(err: unknown, argv: string[], grammar: FlagTable, f: Factory, {context, choicesFor, alsoMissing, currencyOf}: Asking, given: FlagOutput = {}): Promise<string[]> {
  const {missingFrom, askForMissing} = await import('../output/ask-missing.js')
  const missing = missingFrom(err)
  // --no-input as the pre-parser read it: the parse that would have read it failed.
  if (f.flags['no-input'] || !f.io.canPrompt()) {
    const also = missing.length > 0 ? await alsoMissing?.(given) : undefined
    if (also === undefined) throw err
    throw new UsageError(`${toGwError(err).message}\n${also}`)
  }
  if (missing.length === 0) throw err
  // A `--` typed, read as flagsGiven reads argv: one that is a flag's value (`--description --`) ends no flags.
  const dashesTyped = tokens(argv, grammar).some((token) => token.kind === 'dashes')
  return askForMissing(missing, argv, {prompter: await f.prompter(), context, choicesFor, currency: currencyOf?.(given), dashesTyped})
}

/**
 * A required flag that excludes another is not required once that other is given: refund create
 * needs --transaction-id, or a card for an unmatched refund, never both.
 */
function withExcludedUnrequired<T extends Interfaces.Input<FlagOutput, FlagOutput, ArgOutput>>(options: T, given: Set<string>): T {
  const excluded = (flag: {required?: boolean; exclusive?: string[]}) => flag.required && flag.exclusive?.some((name) => given.has(name))
  const flags = Object.entries(options.flags ?? {}) as [string, {required?: boolean; exclusive?: string[]}][]
  if (!flags.some(([, flag]) => excluded(flag))) return options
  return withFlags(options, Object.fromEntries(flags.map(([name, flag]) => [name, excluded(flag) ? {...flag, required: false} : flag])))
}

/**
 * Arguments come from argv alone. oclif otherwise reads piped stdin (everything, or what came in
 * its first 10 ms) as the first argument left out: `printf 'loop-5\n' | gw purchase capture --amount 500`
 * captured loop-5, and a `while read` loop's next lines were eaten. A left-out id is asked for at a
 * terminal or refused (design.md §1); gw reads stdin only where a flag says `-` (--input -, --data -).
 */
function withArgsFromArgvOnly<T extends Interfaces.Input<FlagOutput, FlagOutput, ArgOutput>>(options: T): T {
  const args = Object.fromEntries(Object.entries(options.args ?? {}).map(([name, definition]) => [name, {...definition, ignoreStdin: true}]))
  return withFlags(options, options.flags ?? {}, args as T['args'])
}

/** A command's flags and arguments with none required, alone or one of a group (a class's statics, inherited ones included, as oclif reads them). */
function withNothingRequired<T extends Interfaces.Input<FlagOutput, FlagOutput, ArgOutput>>(options: T): T {
  const optional = <D extends object>(definitions: Record<string, D> = {}) => Object.fromEntries(Object.entries(definitions).map(([name, definition]) => [name, {...definition, required: false, atLeastOne: undefined}]))
  return withFlags(options, optional(options.flags), optional(options.args))
}

/** A command's input with other flags (and arguments): what oclif reads of a class is named, since a spread copies no inherited statics. */
function withFlags<T extends Interfaces.Input<FlagOutput, FlagOutput, ArgOutput>>(options: T, flags: FlagOutput, args = options.args): T {
  return {...options, flags, args, baseFlags: options.baseFlags, strict: options.strict, enableJsonFlag: options.enableJsonFlag} as T
}
