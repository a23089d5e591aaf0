import {Flags} from '@oclif/core'
import type {GwRecord} from '../api/schemas/record.js'
import * as gwFlags from './flags.js'
import {GwCommand} from './gw-command.js'

type Voided = 'purchase' | 'refund'

/** The ids and the file to void, the arguments and --input of gw purchase void and gw refund void. */
export function voidInputs(noun: Voided) {
  return {
    args: gwFlags.ids('id', `ids or references of the ${noun}s to void`),
    flags: {input: Flags.string({description: `a file of ${noun} ids or references: one a line, a CSV with an id or reference column, or NDJSON; - reads stdin`})},
  }
}

/**
 * gw purchase void and gw refund void: each id or reference given voided once, never retried, a
 * lost answer looked up by the id (cli/follow-up.ts); at a terminal, one left out is asked for.
 * Each says only its words and its noun.
 */
export abstract class VoidCommand extends GwCommand<{ids: string[]; input?: string}> {
  protected abstract readonly noun: Voided

  protected async input() {
    const {argv, flags} = await this.parse(this.constructor as typeof VoidCommand)
    const input = flags.input as string | undefined
    if (argv.length > 0 || input !== undefined) return {ids: argv as string[], input}
    const [{askKey}, {UsageError}] = await Promise.all([import('./resolve-key.js'), import('../errors.js')])
    const missing = new UsageError(`give at least one ${this.noun} id or reference, or - to read them from stdin, or --input FILE`)
    return {ids: [await askKey(this.factory, `the ${this.noun} to void`, missing)]}
  }

  protected async operate({ids, input}: {ids: string[]; input?: string}): Promise<GwRecord | undefined> {
    const {followUpIds} = await import('./follow-up.js')
    const noun = this.noun
    return followUpIds(this.factory, ids, input, `${noun}s`, (id) => ({kind: 'void', noun, id}))
  }
}
