import {VoidCommand, voidInputs} from '../../cli/void-command.js'
import {refundColumns} from '../../output/columns.js'

export default class RefundVoid extends VoidCommand {
  static override summary = 'Void refunds made by mistake, before they settle'
  static override description = `Voids each refund given by its id or reference (or - to read them from stdin, one a line, or --input FILE): the gateway keeps the record, refunded and message Voided, and its purchase may be refunded that much again. A refund can be voided until its settlement date (the day after it was made) is over.
Each void is sent once and never retried; if no answer comes back, gw looks the refund up by its id and reports what it shows. A refund voided already is reported as done before (exit 0), so running the same command again is safe. On a live profile the id must be typed back to confirm (--yes without a terminal).
Several ids print a record each; the exit code is the worst any had.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> refund-1002',
    "printf '%s\\n' refund-1001 | <%= config.bin %> <%= command.id %> - --json",
  ]

  // Its own, not inherited: oclif's parse reads a command's own static fields.
  static override strict = false
  static override args = voidInputs('refund').args
  static override flags = voidInputs('refund').flags
  static override columns = refundColumns

  protected readonly noun = 'refund'
}
