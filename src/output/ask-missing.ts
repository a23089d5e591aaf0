import {Errors} from '@oclif/core'
import {amountReadBack, type Prompter} from './prompter.js'

/** A flag or argument definition as oclif keeps it, the parts a question needs. */
interface Definition {
  name?: string
  description?: string
  required?: boolean
  options?: readonly string[]
  parse?: (input: string, context: unknown, definition: unknown) => Promise<unknown>
}

/** What oclif's parse errors carry: the definitions given and what was parsed before validation failed. */
interface ParseState {
  input: {flags: Record<string, Definition>; args: Record<string, Definition>}
  output: {flags: Record<string, unknown>; args: Record<string, unknown>}
}

/** An amount's unit in its description (`, in the minor currency unit (1000 is 10.00 AUD)`): read back as money, it is said no more. */
const MINOR_UNIT = /,? in (the minor currency unit|cents)\b.*$/

/** Values a person types without echo: they would otherwise stay on the screen and in scrollback. */
const SECRET = /^(card-number|cvv)$|token|secret|password/

export interface Missing {
  kind: 'flag' | 'arg'
  name: string
  definition: Definition
}

/** The required flags and arguments a failed parse lacked, in the order they are defined; none when it failed for another reason. */
export function missingFrom(err: unknown): Missing[] {
  if (!(err instanceof Errors.CLIError)) return []
  const state = (err as {parse?: ParseState}).parse
  if (!state?.input || !state.output) return []
  const missing: Missing[] = []
  for (const [name, definition] of Object.entries(state.input.args ?? {})) {
    if (definition.required && state.output.args?.[name] === undefined) missing.push({kind: 'arg', name, definition})
  }
  for (const [name, definition] of Object.entries(state.input.flags ?? {})) {
    if (definition.required && state.output.flags?.[name] === undefined) missing.push({kind: 'flag', name, definition})
  }
  return missing
}

/**
 * Asks for each missing value on the terminal and returns argv with the answers added: flags as
 * `--name=value` in front, arguments after what was typed, in order. Each answer is checked by
 * the flag's own parse, so a bad one is asked again with the same message the flag would give.
 * Card numbers, CVVs and tokens are asked without echo; fixed values are chosen from a list. An
 * amount reads back as money, in `currency` where the command knows it. `dashesTyped`: argv ends its
 * flags with a `--` (a flag's value is none), after which an answer is an argument as it is.
 */
export async function askForMissing(
  missing: Missing[],
  argv: string[],
  {prompter, context, choicesFor, currency, dashesTyped}: {prompter: Prompter; context: unknown; choicesFor: (name: string) => Promise<readonly string[] | undefined>; currency?: string; dashesTyped: boolean},
): Promise<string[]> {
  const flags: string[] = []
  const args: string[] = []
  for (const {kind, name, definition} of missing) {
    const label = `${definition.description ?? name} (${kind === 'flag' ? `--${name}` : name.toUpperCase()})`
    const choices = definition.options ?? (await choicesFor(name))
    let answer: string
    if (choices && choices.length > 0) answer = await prompter.choose(label, choices)
    else {
      const validate = (value: string) => check(definition, value, context)
      const readBack = name === 'amount' ? amountReadBack(`${(definition.description ?? name).replace(MINOR_UNIT, '')} (--${name})`, currency) : undefined
      answer = SECRET.test(name) ? await prompter.secret(label, validate) : await prompter.text(label, {validate, readBack})
    }
    if (kind === 'flag') flags.push(`--${name}=${answer}`)
    else args.push(answer)
  }
  // An argument that looks like a flag, or one after a `--` already typed, must still be read as an argument.
  const needsSeparator = args.some((arg) => arg.startsWith('-') && arg !== '-') && !dashesTyped
  return [...flags, ...argv, ...(needsSeparator ? ['--'] : []), ...args]
}

async function check(definition: Definition, value: string, context: unknown): Promise<string | true> {
  if (value.trim() === '') return 'A value is needed (Ctrl-C to stop).'
  if (!definition.parse) return true
  try {
    await definition.parse(value.trim(), context, definition)
    return true
  } catch (err) {
    if (err instanceof Error) return err.message
    return String(err)
  }
}
