import * as gwFlags from '../../cli/flags.js'
import * as paymentFlags from '../../cli/payment-flags.js'
import {ExitStatus, GwCommand} from '../../cli/gw-command.js'
import {paymentPlanColumns} from '../../output/payment-columns.js'
import type {PaymentPlanInput} from '../../operations/payment-plans.js'

/** One plan, or a batch of them from a file. */
type PaymentPlanCreateInput = {plan: PaymentPlanInput} | {batch: gwFlags.BatchFlags}

const ROWS = 'customer,amount,frequency,anniversary,start_date,total_count,end_date,reference,currency,setup_fee,description'

export default class PaymentPlanCreate extends GwCommand<PaymentPlanCreateInput> {
  static override summary = "Bill a customer's stored card on a schedule: a payment plan"
  static override description = `From --start-date (or today, if later) the gateway charges --amount on the customer's card at --frequency, on the day --anniversary names, --total-count times or until --end-date. Prints the plan with its schedule of payments.
The customer may be given by id or by your reference. On a live profile gw asks you to type the amount first (--yes skips that). It is sent once: if its answer is lost, gw looks it up by its reference and never sends it again; a reference taken by this same plan earlier is that plan.
--input FILE makes a batch of plans: a CSV with a header ${ROWS} (total_count or end_date, or both; the rest after reference optional) or NDJSON. Every row is checked before any is sent; each is journaled before it is sent and after its answer, and a plan made counts as made (exit 0). Running the same command again after a crash or Ctrl-C looks the rows in doubt up by reference before sending anything, and never makes a plan twice.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --customer cust-42 --amount 1000 --frequency weekly --anniversary 5 --start-date 2030-01-01 --total-count 5 --reference plan-42',
    '<%= config.bin %> <%= command.id %> --customer cust-42 --amount 2500 --currency AUD --frequency monthly --anniversary 1 --start-date 2030-01-01 --end-date 2030-12-31 --reference plan-43 --json',
    '<%= config.bin %> <%= command.id %> --input plans.csv --dry-run',
  ]

  static override flags = {
    customer: gwFlags.requiredText({description: 'customer id or reference (a reference is looked up first)', required: true}),
    amount: gwFlags.amount({description: 'amount of each payment in the minor currency unit (1000 is 10.00 AUD)', required: true}),
    frequency: gwFlags.frequency({required: true}),
    anniversary: paymentFlags.anniversary({required: true}),
    'start-date': gwFlags.date({description: 'first day payments may fall on, as YYYY-MM-DD', required: true}),
    'total-count': paymentFlags.totalCount({atLeastOne: ['total-count', 'end-date']}),
    'end-date': gwFlags.date({description: 'last day payments may fall on, as YYYY-MM-DD (or --total-count)'}),
    reference: gwFlags.requiredText({description: 'your reference for the plan, unique; used to look it up', required: true}),
    currency: gwFlags.currency({description: 'ISO 4217 currency code of the payments; default AUD, as every official library sends'}),
    'setup-fee': paymentFlags.setupFee(),
    description: gwFlags.requiredText({description: 'what the plan is for'}),
    ...gwFlags.batch(ROWS),
  }

  static override columns = paymentPlanColumns

  protected override currencyOf(flags: {currency?: string}): string {
    return flags.currency ?? 'AUD'
  }

  protected async input(): Promise<PaymentPlanCreateInput> {
    const {flags} = await this.parse(PaymentPlanCreate)
    gwFlags.refuseRowFlagsInBatch(flags, PaymentPlanCreate.flags)
    if (flags.input !== undefined) return {batch: gwFlags.batchFlags({...flags, input: flags.input})}
    const plan: PaymentPlanInput = {
      customer: flags.customer,
      reference: flags.reference,
      amount: flags.amount,
      currency: flags.currency,
      setupFee: flags['setup-fee'],
      startDate: flags['start-date'],
      frequency: flags.frequency,
      anniversary: flags.anniversary,
      totalCount: flags['total-count'],
      endDate: flags['end-date'],
      description: flags.description,
    }
    return {plan}
  }

  protected async operate(input: PaymentPlanCreateInput) {
    if ('batch' in input) {
      const [{paymentPlanBatch}, {runBatch}, {batchDeps}] = await Promise.all([import('../../batch/recurring-kinds.js'), import('../../batch/run-batch.js'), import('../../cli/batch-deps.js')])
      return new ExitStatus(await runBatch(paymentPlanBatch, input.batch, batchDeps(this.factory)))
    }
    const [{createPaymentPlan}, {settle}] = await Promise.all([import('../../operations/payment-plans.js'), import('../../output/sent.js')])
    return settle(this.io, await createPaymentPlan(input.plan, await this.factory.deps()))
  }
}
