import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {purchaseColumns} from '../../output/columns.js'
import type {SettlementDays} from '../../operations/settlement.js'

export default class PurchaseSettlement extends GwCommand<SettlementDays> {
  static override summary = 'The purchases that settle on a day, or between two: what reaches your bank account'
  static override description = `Lists the purchases whose settlement date falls on --on DAY, or from --from to --to (both included; today without any), as the gateway's settlement look-up gives them: approved ones, captured in part (captured_amount), voided (message Voided, nothing captured) and declined; never an authorization not yet captured. Newest first, in one answer. Days are the gateway's settlement dates (YYYY-MM-DD).
It only reads, so a read-only profile runs it. Piped, one JSON line a purchase; on a terminal a table.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --from 2026-11-02 --to 2026-11-06 --json | jq -s "map(.captured_amount) | add"',
  ]

  static override flags = {
    on: gwFlags.date({description: 'the purchases that settle on this day alone (YYYY-MM-DD)', exclusive: ['from', 'to']}),
    from: gwFlags.date({description: 'the first settlement day (YYYY-MM-DD); default: --to, or today'}),
    to: gwFlags.date({description: 'the last settlement day (YYYY-MM-DD); default: --from, or today'}),
  }

  static override columns = [...purchaseColumns.slice(0, 4), {label: 'Captured', field: 'captured_amount', format: 'money' as const, need: 'most' as const}, ...purchaseColumns.slice(4)]

  protected async input(): Promise<SettlementDays> {
    const {flags} = await this.parse(PurchaseSettlement)
    // Without a day, the gateway's today: a local gateway's clock may have moved on.
    const today = flags.on ?? flags.from ?? flags.to ?? (await this.factory.gatewayNow()).toLocaleDateString('sv')
    const from = flags.on ?? flags.from ?? flags.to ?? today
    const to = flags.on ?? flags.to ?? flags.from ?? today
    if (from > to) throw new (await import('../../errors.js')).UsageError(`--from ${from} is after --to ${to}`)
    return {from, to}
  }

  protected async operate(days: SettlementDays) {
    const {settlement} = await import('../../operations/settlement.js')
    return settlement(days, await this.factory.deps())
  }
}
