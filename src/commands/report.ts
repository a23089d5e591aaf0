import {Flags} from '@oclif/core'
import * as gwFlags from '../cli/flags.js'
import {GwCommand} from '../cli/gw-command.js'
import {reportColumns} from '../output/columns.js'
import type {Window} from '../lists/window.js'
import type {SettlementDays} from '../operations/settlement.js'

/** The window whose totals are made, and how its pages are read. */
interface ReportInput {
  window: Window
  /** The gateway's now: the window's days run to its today. */
  now: Date
  concurrency: number
  maxPages?: number
  includeSamples: boolean
  /** --settlement: the days whose settlement is looked up too. */
  settlement?: SettlementDays
}

export default class Report extends GwCommand<ReportInput> {
  static override summary = "The day's totals of money moved: purchases captured, held, voided and declined, refunds, plan payments, direct debits, net, per day and currency"
  static override description = `Adds up the money that moved in a window, per day and currency: today without --from, --to or --on. A day is the day each record was made, in this machine's time zone.
Each row counts purchases approved, uncaptured, voided and declined, refunds and voided refunds, plan payments, direct debits completed, and net. Net is what was captured and debited, less what was refunded.
--settlement adds what settles on each day, from the gateway's settlement look-up.
Every day of the window has a row in each currency it saw, zeros where nothing moved; currencies are never added together.
Piped, one JSON line a day and currency, amounts in cents; at a terminal, a table with a bar of each day's net and a total row per currency. It only reads, so a read-only profile runs it.
What each field counts, and sample events left out: docs/finding-records.md.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Yesterday alone (--from yesterday runs until now)', command: '<%= config.bin %> <%= command.id %> --on yesterday'},
    {description: 'The latest Tuesday (today, if it is one), and every day since it', command: '<%= config.bin %> <%= command.id %> --from tuesday'},
    {description: 'Last week, Monday to Sunday', command: '<%= config.bin %> <%= command.id %> --on last-week'},
    {description: 'What settles on Friday (the latest; or --on 2026-11-27 for a day ahead), captured per currency', command: '<%= config.bin %> <%= command.id %> --on friday --settlement --json | jq "{currency, settling_amount}"'},
    '<%= config.bin %> <%= command.id %> --from 7d | jq -s "map(.net) | add"',
  ]

  static override flags = {
    from: gwFlags.windowEdge('from', 'purchases and refunds made'),
    to: gwFlags.windowEdge('to', 'purchases and refunds made'),
    on: gwFlags.windowOn('purchases and refunds made'),
    concurrency: gwFlags.concurrency({helpGroup: 'PAGES'}),
    'max-pages': gwFlags.maxPages(),
    'include-samples': Flags.boolean({description: 'count the purchases gw sandbox trigger made too (metadata gw_sample), left out without it'}),
    settlement: Flags.boolean({description: "add what settles on each day of the window, from the gateway's settlement look-up: settling, settling_amount (captured), settling_voided"}),
  }

  static override columns = reportColumns

  protected async input(): Promise<ReportInput> {
    const {flags} = await this.parse(Report)
    const {parseWindow} = await import('../lists/window.js')
    // Without a window, today; with one end, the other is left open; --on names both.
    const bounds = flags.from === undefined && flags.to === undefined && flags.on === undefined ? {on: 'today'} : {from: flags.from, to: flags.to, on: flags.on}
    // Named days are the gateway's (a local gateway's clock may have moved on).
    const {now, calendar} = await this.factory.gatewayTime()
    const window = parseWindow(bounds, now, calendar)
    let settlement: SettlementDays | undefined
    if (flags.settlement) {
      settlement = (await import('../operations/report.js')).settlementDaysOf(window, now)
      if (!settlement) throw new (await import('../errors.js')).UsageError("--settlement needs the window's first day: the gateway's settlement look-up takes both ends", `Give --from or --on too, e.g. --on friday --settlement.`)
    }
    return {window, now, concurrency: flags.concurrency ?? gwFlags.DEFAULT_CONCURRENCY, maxPages: flags['max-pages'], includeSamples: flags['include-samples'] ?? false, settlement}
  }

  protected async operate({window, now, concurrency, maxPages, includeSamples, settlement}: ReportInput) {
    const [{reportTotals}, {showingProgress}, {renderReport}] = await Promise.all([import('../operations/report.js'), import('../output/progress.js'), import('../output/report-table.js')])
    const deps = await this.factory.deps()
    let samples = 0
    const unlisted: string[] = []
    const onUnlisted = (resource: 'paymentPlans' | 'directDebits') => unlisted.push(resource === 'paymentPlans' ? 'payment plans (their payments are among the purchases, not counted apart)' : 'direct debits (none are counted)')
    const totals = await showingProgress(this.factory, deps.client, (progress) => reportTotals(window, deps, {concurrency, maxPages, onState: progress.state, includeSamples, onSampleLeftOut: () => samples++, onUnlisted, settlement, now}))
    for (const what of unlisted) this.io.err(`This gateway has no list of ${what}.\n`)
    if (samples > 0) this.io.err(`Left out ${samples === 1 ? '1 purchase' : `${samples} purchases`} gw sandbox trigger made for sample events (metadata gw_sample); --include-samples counts them.\n`)
    await renderReport(this.io, totals, this.factory.columns, this.factory.render)
    return undefined
  }
}
