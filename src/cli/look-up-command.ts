import type {endpoints} from '../api/endpoints.js'
import {Flags} from '@oclif/core'
import * as gwFlags from './flags.js'
import {GwCommand} from './gw-command.js'
import type {LookUpResource} from '../operations/look-up.js'
import type {GwRecord} from '../api/schemas/record.js'
import type {Column} from '../output/columns.js'
import type {Factory} from './factory.js'

type Table = typeof endpoints

/**
 * The key in a resource's `get` path, `{id}`, `{token}` or `{reference}`, read from the endpoint
 * table's type: a command that names another fails to compile, and none loads the table to start.
 */
type KeyOf<R extends LookUpResource> = Table[R]['get']['path'] extends `${string}{${infer K}}${string}` ? K : never

/** What a key may be, as people read it: one, and several. */
const KEYS = {
  id: ['id or reference', 'ids or references'],
  token: ['token or alias', 'tokens or aliases'],
  reference: ['reference', 'references'],
} as const

/** A resource as people read it: `purchases` is a purchase, `webHooks` a web hook. */
export function nounOf(resource: string): string {
  return resource.replace(/s$/, '').replace(/[A-Z]/g, (capital) => ` ${capital.toLowerCase()}`)
}

/** How several records print: said in the description of every `get` that prints records so. */
export const MANY_RECORDS =
  'Piped, each record prints as one JSON line; on a terminal several print as one table, or with --json as the same records pretty-printed one after another (jq -s makes an array). A failed look-up is reported and the rest still run.'

export interface LookUpHelp {
  summary: string
  description: string
  examples: string[]
}

/**
 * Fields of gw's own a `get` adds after the gateway's (a purchase's refunds): at a terminal, where
 * a person reads them; elsewhere when `--<flag>` asks, or --fields names one of them.
 */
export interface Described {
  flag: {name: string; description: string}
  fields: string[]
  add: (record: GwRecord, f: Factory) => Promise<GwRecord>
}

/** What a `get` looks up: the ids given (`-` reads them from stdin), or a file's; and whether gw adds fields of its own to each (Described). */
export interface LookUpInput {
  ids: string[]
  input?: string
  concurrency?: number
  ownFields: boolean
}

/**
 * A `get` command, declared (style.md §5): records of `resource` looked up by the keys given as
 * arguments, `-` or --input, through the client's `get` for it (cli/look-ups.ts).
 */
export function lookUpCommand<R extends LookUpResource>(
  resource: R,
  key: KeyOf<R> & keyof typeof KEYS,
  help: LookUpHelp,
  columns: Column[],
  described?: Described,
) {
  const noun = nounOf(resource)
  const [one, several] = KEYS[key]
  return class LookUp extends GwCommand<LookUpInput> {
    static override summary = help.summary
    static override description = help.description
    static override examples = help.examples
    static override strict = false
    static override args = gwFlags.ids(key, `${noun} ${one}`)
    static override flags = {
      ...gwFlags.lookUps(`${noun} ${several}`),
      ...(described ? {[described.flag.name]: Flags.boolean({description: described.flag.description})} : {}),
    }
    static override columns = columns

    protected async input(): Promise<LookUpInput> {
      const {argv, flags} = await this.parse(LookUp)
      const {json, fields} = this.factory.render
      const ownFields = described !== undefined && (flags[described.flag.name as keyof typeof flags] === true || (fields ? fields.some((field) => described.fields.includes(field)) : this.io.isStdoutTTY && !json))
      return {ids: argv as string[], input: flags.input, concurrency: flags.concurrency, ownFields}
    }

    protected async operate({ids, input, concurrency, ownFields}: LookUpInput) {
      const {lookUpIds} = await import('./look-ups.js')
      const add = ownFields && described ? (record: GwRecord) => described.add(record, this.factory) : undefined
      return lookUpIds(resource, ids, this.factory, {noun: one, input, concurrency, add})
    }
  }
}
