import {VoidCommand, voidInputs} from '../../cli/void-command.js'
import {purchaseColumns} from '../../output/columns.js'

export default class PurchaseVoid extends VoidCommand {
  static override summary = 'Void purchases or authorizations the same day, instead of refunding them'
  static override description = `Voids each purchase given by its id or reference (or - to read them from stdin, one a line, or --input FILE): the gateway keeps the record, its message Voided and nothing captured. A purchase can be voided until its settlement date is over; after that, refund it (gw refund create).
Each void is sent once and never retried; if no answer comes back, gw looks the purchase up by its id and reports what it shows. A purchase voided already is reported as done before (exit 0), so running the same command again is safe. On a live profile the id must be typed back to confirm (--yes without a terminal).
Several ids print a record each; the exit code is the worst any had.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> purchase create --amount 900 --reference order-3001 --card-token customer-42 --json | jq -r .id)"',
    '<%= config.bin %> <%= command.id %> order-2001 order-3001 --json',
  ]

  // Its own, not inherited: oclif's parse reads a command's own static fields.
  static override strict = false
  static override args = voidInputs('purchase').args
  static override flags = voidInputs('purchase').flags
  static override columns = purchaseColumns

  protected readonly noun = 'purchase'
}
