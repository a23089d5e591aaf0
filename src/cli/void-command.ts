import {Flags} from '@oclif/core'
import type {GwRecord} from '../operations/deps.js'
import * as gwFlags from './flags.js'
import {GwCommand} from './gw-command.js'

type Voided = 'purchase' | 'refund'

/** The ids and the file to void, the arguments and --input of gw purchase void and gw refund void. */
export function voidInputs(noun: Voided) {
  return {
    args: gwFlags.ids('id', `ids of the ${noun}s to void`),
    flags: {input: Flags.string({description: `a file of ${noun} ids: one a line, a CSV with an id column, or NDJSON; - reads stdin`})},
  }
}

/**
 * gw purchase void and gw refund void: each id given voided once, never retried, a lost answer
 * looked up by the id (cli/follow-up.ts). Each says only its words and its noun.
 */
export abstract class VoidCommand extends GwCommand<{ids: string[]; input?: string}> {
  protected abstract readonly noun: Voided

  protected async input() {
    const {argv, flags} = await this.parse(this.constructor as typeof VoidCommand)
    return {ids: argv as string[], input: flags.input as string | undefined}
  }

  protected async operate({ids, input}: {ids: string[]; input?: string}): Promise<GwRecord | undefined> {
    const {followUpIds} = await import('./follow-up.js')
    const noun = this.noun
    return followUpIds(this.factory, ids, input, `${noun} id`, (id) => ({kind: 'void', noun, id}))
  }
}
