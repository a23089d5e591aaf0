import {Flags} from '@oclif/core'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {purchaseColumns} from '../../output/columns.js'
import type {SettlementDays} from '../../operations/settlement.js'

interface SettlementInput {
  days: SettlementDays
  includeDeclined: boolean
}

export default class PurchaseSettlement extends GwCommand<SettlementInput> {
  static override summary = 'The purchases that settle on a day, or between two: what reaches your bank account'
  static override description = `Lists the purchases whose settlement date falls on --on DAY, or from --from to --to (both included; today without any), as the gateway's settlement look-up gives them. They are approved ones, captured in part (captured_amount, what reaches the bank), and voided (message Voided, nothing captured); never an authorization not yet captured. Newest first, in one answer.
The days are read as gw purchase list and gw report read them. That is a date (2026-11-17), today, yesterday, a weekday (friday: the latest, today if it is one), this-week, last-week, this-month, last-month, or an age for --from (7d). --from alone runs to today. A day is the gateway's settlement date.
The look-up lists declined purchases too, which settle nothing: they are left out, and counted on stderr; --include-declined lists them. It only reads, so a read-only profile runs it. Piped, one JSON line a purchase; on a terminal a table.
At a terminal a total line on stderr follows the list: what settles in each currency, never added across currencies.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'What settles on Monday (the latest; today, if it is one)', command: '<%= config.bin %> <%= command.id %> --on monday'},
    '<%= config.bin %> <%= command.id %> --from 2026-11-02 --to 2026-11-06 --json | jq -s "map(.captured_amount) | add"',
  ]

  static override flags = {
    on: gwFlags.windowOn('purchases that settle'),
    from: gwFlags.windowEdge('from', 'purchases that settle'),
    to: gwFlags.windowEdge('to', 'purchases that settle'),
    'include-declined': Flags.boolean({description: 'list the declined purchases the look-up gives too, which settle nothing'}),
  }

  static override columns = [...purchaseColumns.slice(0, 4), {label: 'Captured', field: 'captured_amount', format: 'money' as const, need: 'most' as const}, ...purchaseColumns.slice(4)]

  protected async input(): Promise<SettlementInput> {
    const {flags} = await this.parse(PurchaseSettlement)
    const {settlementDaysFor} = await import('../../operations/settlement.js')
    // Named days are the gateway's: a local gateway's clock may have moved on.
    const {now, calendar} = await this.factory.gatewayTime()
    return {days: settlementDaysFor(flags, now, calendar), includeDeclined: flags['include-declined'] ?? false}
  }

  protected async operate({days, includeDeclined}: SettlementInput) {
    const [{settling, settlementSums}, {renderList}, {settlementTotalLine}] = await Promise.all([import('../../operations/settlement.js'), import('../../output/render.js'), import('../../output/settlement-total.js')])
    const {io, columns, render} = this.factory
    const {records, declined} = await settling(days, await this.factory.deps(), {includeDeclined})
    if (declined > 0 && !includeDeclined) io.err(`Left out ${declined === 1 ? '1 declined purchase' : `${declined} declined purchases`} the look-up lists, which settle nothing; --include-declined lists them.\n`)
    await renderList(io, records, columns, render)
    // Under the list, as a list's count is: for a person at a terminal, never in JSON.
    if (io.chatty && !render.json && records.length > 0 && !io.outFailure()) io.err(settlementTotalLine(settlementSums(records)))
    return undefined
  }
}
