import {Flags} from '@oclif/core'
import {UsageError} from '../errors.js'
import type {Column} from '../output/columns.js'
import type {JqFilter} from '../output/jq.js'
import {flagsGiven, type FlagTable} from './startup/argv.js'

/** The flags every command takes (style.md §2), as parsed. */
export interface GlobalFlags {
  profile?: string
  json: boolean
  verbose: boolean
  yes: boolean
  'no-input': boolean
  fields?: string
  /** --jq: the expression, checked, with jq loaded. */
  jq?: JqFilter
}

export const globalFlags = {
  profile: Flags.string({description: 'profile to use instead of the active one', helpGroup: 'GLOBAL'}),
  // `--json id,amount` picks fields as gh's does: the pre-parser (startup/argv.ts) makes it `--json --fields id,amount`.
  json: Flags.boolean({description: "print the gateway's records as JSON, one after another, pretty and coloured on a terminal (jq -s makes an array); --json FIELDS picks fields, as --fields", helpGroup: 'GLOBAL'}),
  verbose: Flags.boolean({description: 'log each request and response to stderr, secrets redacted', helpGroup: 'GLOBAL'}),
  yes: Flags.boolean({description: 'answer yes to confirmations', helpGroup: 'GLOBAL'}),
  'no-input': Flags.boolean({description: 'never prompt; fail instead when something is missing', helpGroup: 'GLOBAL'}),
  // For every command that prints records (it has columns); the others refuse it (checkFields).
  fields: Flags.string({
    description: 'fields of each record to show, in order, separated by commas (id,amount,reference); tables and JSON alike',
    helpGroup: 'GLOBAL',
    parse: async (input) => (await import('../output/fields.js')).parseFields(input).join(','),
  }),
  // gh's --jq; jq is loaded only when it is given (output/jq.ts).
  jq: Flags.custom<JqFilter>({
    char: 'q',
    description: 'filter the JSON of each record through a jq expression and print what it makes, strings raw (as gh --jq); implies --json',
    helpGroup: 'GLOBAL',
    parse: async (input) => (await import('../output/jq.js')).jqFilter(input),
  })(),
}

/** A command's own flags as parsed, without the global ones (the Factory holds those): what its operation is given. */
export function ownFlags<F extends object>(flags: F): Omit<F, keyof typeof globalFlags> {
  return Object.fromEntries(Object.entries(flags).filter(([name]) => !Object.hasOwn(globalFlags, name))) as Omit<F, keyof typeof globalFlags>
}

/**
 * The global flags before a parse has read them, or when it failed: an error is still reported as
 * JSON under --json, and --no-input still means nothing is asked.
 */
export function globalsInArgv(argv: readonly string[], flags?: FlagTable): GlobalFlags {
  const given = flagsGiven(argv, flags)
  return {json: given.has('json') || given.has('jq'), verbose: false, yes: false, 'no-input': given.has('no-input')}
}

/** --jq on a command that prints no JSON (gw sandbox start prints an address, gw logout nothing) is refused before anything runs. */
export function checkJq(jq: JqFilter | undefined, printsJson: boolean, commandName: string): void {
  if (jq !== undefined && !printsJson) throw new UsageError(`--jq filters the JSON a command prints, and gw ${commandName} prints none`, 'Leave --jq out.')
}

function jqExample(commandName: string, field: string): string {
  const name = /^[a-z_][a-z0-9_]*$/i.test(field) ? field : 'id'
  if (commandName === 'api') return `Pick from it with --jq: --jq .response.${name} from an answer, --jq .${name} from each record of --paginate.`
  return `Pick from it with --jq, for example --jq .${name}.`
}

/** --fields (or --json FIELDS) naming no field of the command's records, or on a command that prints none, is refused before anything runs (as gh does). */
export async function checkFields(fields: string | undefined, columns: Column[], commandName: string, printsJson = false): Promise<void> {
  if (fields === undefined) return
  // gw api (an answer as it came, or with --paginate its records whole), listen and seed print JSON of their own shape: --jq picks from it, as gh api's does.
  if (columns.length === 0 && printsJson) throw new UsageError(`--json FIELDS and --fields pick the fields of a command's records, and gw ${commandName} prints its JSON as it is`, jqExample(commandName, fields.split(',')[0]!))
  if (columns.length === 0) throw new UsageError(`--json FIELDS and --fields pick the fields of records, and gw ${commandName} prints none`, 'Leave the fields out.')
  const known = await (await import('../output/fields.js')).knownFields(columns)
  const unknown = fields.split(',').filter((field) => !known.includes(field))
  if (unknown.length > 0) {
    const {sanitizeLine} = await import('../safety/sanitize.js')
    throw new UsageError(`--json FIELDS or --fields: no such field ${unknown.map(sanitizeLine).join(', ')}`, `The fields of gw ${commandName}'s records: ${known.join(', ')}.`)
  }
}
