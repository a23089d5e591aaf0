import {Flags} from '@oclif/core'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {refundColumns} from '../../output/columns.js'

export default class RefundVoid extends GwCommand<{ids: string[]; input?: string}> {
  static override strict = false
  static override summary = 'Void refunds made by mistake, before they settle'
  static override description = `Voids each refund ID given (or - to read them from stdin, one a line, or --input FILE): the gateway keeps the record, refunded and message Voided, and its purchase may be refunded that much again. A refund can be voided until its settlement date (the day after it was made) is over.
Each void is sent once and never retried; if no answer comes back, gw looks the refund up by its id and reports what it shows. A refund voided already is reported as done before (exit 0), so running the same command again is safe. On a live profile the id must be typed back to confirm (--yes without a terminal).
Several ids print a record each; the exit code is the worst any had.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> refund get refund-1002 --json | jq -r .id)"',
    '<%= config.bin %> refund get refund-1001 --json | jq -r .id | <%= config.bin %> <%= command.id %> - --json',
  ]

  static override args = gwFlags.ids('id', 'ids of the refunds to void')

  static override flags = {
    input: Flags.string({description: 'a file of refund ids: one a line, a CSV with an id column, or NDJSON; - reads stdin'}),
  }

  static override columns = refundColumns

  protected async input() {
    const {argv, flags} = await this.parse(RefundVoid)
    return {ids: argv as string[], input: flags.input}
  }

  protected async operate({ids, input}: {ids: string[]; input?: string}) {
    const {followUpIds} = await import('../../cli/follow-up.js')
    return followUpIds(this.factory, ids, input, 'refund id', (id) => ({kind: 'void', noun: 'refund', id}))
  }
}
