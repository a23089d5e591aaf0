import type {Interfaces} from '@oclif/core'
import * as gwFlags from './flags.js'
import {ownFlags} from './global-flags.js'
import {GwCommand} from './gw-command.js'
import type {ListFlags} from './list-flags.js'
import type {ListResource} from '../operations/lists.js'
import type {Column} from '../output/columns.js'
import {nounOf} from './look-up-command.js'

export interface ListHelp {
  summary: string
  description: string
  examples: (string | {description: string; command: string})[]
}

/**
 * A `list` command, declared as the `get` commands are (style.md §5): the records of `resource`,
 * newest first, on the flags every list takes (cli/flags.ts listing) and the filters given
 * (cli/run-list.ts applies them).
 */
export function listCommand(resource: ListResource, help: ListHelp, filters: Interfaces.FlagInput, columns: Column[], {withTime = true, timed}: {withTime?: boolean; timed?: string} = {}) {
  const noun = nounOf(resource)
  return class List extends GwCommand<ListFlags> {
    static override summary = help.summary
    static override description = help.description
    static override examples = help.examples
    static override flags = {...gwFlags.listing(noun, {withTime, timed}), ...filters}
    static override columns = columns

    protected async input(): Promise<ListFlags> {
      const {flags} = await this.parse(List)
      return ownFlags(flags)
    }

    protected async operate(flags: ListFlags) {
      const {runList} = await import('./run-list.js')
      return runList(resource, flags, this.factory, noun)
    }
  }
}
