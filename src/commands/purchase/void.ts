import {Flags} from '@oclif/core'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {purchaseColumns} from '../../output/columns.js'

export default class PurchaseVoid extends GwCommand<{ids: string[]; input?: string}> {
  static override strict = false
  static override summary = 'Void purchases or authorizations the same day, instead of refunding them'
  static override description = `Voids each purchase ID given (or - to read them from stdin, one a line, or --input FILE): the gateway keeps the record, its message Voided and nothing captured. A purchase can be voided until its settlement date is over; after that, refund it (gw refund create).
Each void is sent once and never retried; if no answer comes back, gw looks the purchase up by its id and reports what it shows. A purchase voided already is reported as done before (exit 0), so running the same command again is safe. On a live profile the id must be typed back to confirm (--yes without a terminal).
Several ids print a record each; the exit code is the worst any had.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> purchase create --amount 900 --reference order-3001 --card-token customer-42 --json | jq -r .id)"',
    '<%= config.bin %> purchase get order-2001 order-3001 --json | jq -r .id | <%= config.bin %> <%= command.id %> - --json',
  ]

  static override args = gwFlags.ids('id', 'ids of the purchases to void')

  static override flags = {
    input: Flags.string({description: 'a file of purchase ids: one a line, a CSV with an id column, or NDJSON; - reads stdin'}),
  }

  static override columns = purchaseColumns

  protected async input() {
    const {argv, flags} = await this.parse(PurchaseVoid)
    return {ids: argv as string[], input: flags.input}
  }

  protected async operate({ids, input}: {ids: string[]; input?: string}) {
    const {followUpIds} = await import('../../cli/follow-up.js')
    return followUpIds(this.factory, ids, input, 'purchase id', (id) => ({kind: 'void', noun: 'purchase', id}))
  }
}
