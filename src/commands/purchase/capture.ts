import * as gwFlags from '../../cli/flags.js'
import {ExitStatus, GwCommand} from '../../cli/gw-command.js'
import {purchaseColumns} from '../../output/columns.js'

/** One capture, or a batch of them from a file. */
type CaptureInput = {id: string; amount?: number} | {batch: gwFlags.BatchFlags}

export default class PurchaseCapture extends GwCommand<CaptureInput> {
  static override summary = 'Capture an authorization, in full or in part; or a batch of captures from a file'
  static override description = `Captures --amount (minor units) of the authorization ID (made with gw purchase create --no-capture); without --amount, all of it, its amount looked up first. More than was authorized is refused by the gateway (exit 7, in its words). An authorization is captured once: a partial capture releases the rest.
The capture is sent once and never retried; if no answer comes back, gw looks the purchase up by its id (captured, and for how much) and reports what the gateway has. Run again, a capture of the same amount that was made already is reported as done before (exit 0); never captured twice.
--input FILE captures a batch: a CSV with a header id,amount (a blank amount captures in full) or NDJSON. Each row is journaled before it is sent and after its answer, so running the same command again after a crash or Ctrl-C sends only what was not sent. On a live profile the amount (or the batch's number of rows) must be typed back to confirm (--yes without a terminal).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> purchase get order-2001 --json | jq -r .id)" --amount 4000 --json | jq .captured_amount',
    '<%= config.bin %> <%= command.id %> --input shipped.csv --dry-run',
  ]

  static override args = {id: gwFlags.idOptional('id of the authorization to capture, as purchase create --no-capture printed it')}

  static override flags = {
    amount: gwFlags.amount({description: 'amount to capture in the minor currency unit; default: all that was authorized'}),
    ...gwFlags.batch('id,amount'),
  }

  static override columns = purchaseColumns

  protected async input(): Promise<CaptureInput> {
    const {args, flags} = await this.parse(PurchaseCapture)
    gwFlags.refuseRowFlagsInBatch(flags, PurchaseCapture.flags)
    if (flags.input !== undefined) {
      if (args.id !== undefined) throw new (await import('../../errors.js')).UsageError('give an id or --input, not both')
      return {batch: gwFlags.batchFlags({...flags, input: flags.input})}
    }
    if (args.id === undefined) throw new (await import('../../errors.js')).UsageError('give the id of the authorization to capture, or --input FILE', 'See gw purchase capture --help for examples.')
    return {id: args.id, amount: flags.amount}
  }

  protected async operate(input: CaptureInput) {
    if ('batch' in input) {
      const [{captureBatch}, {runBatch}, {batchDeps}] = await Promise.all([import('../../batch/capture-kind.js'), import('../../batch/run-batch.js'), import('../../cli/batch-deps.js')])
      return new ExitStatus(await runBatch(captureBatch, input.batch, batchDeps(this.factory)))
    }
    const [{captureAmount, sendFollowUp}, {settleFollowUp, waitingSaid}, {refuseWhenReadOnly}] = await Promise.all([import('../../operations/follow-ups.js'), import('../../cli/follow-up.js'), import('../../cli/live-safety.js')])
    // Refused before the authorization's amount is looked up, as every write is before its first request.
    refuseWhenReadOnly(await this.factory.target(), this.factory.commandName)
    const deps = await this.factory.deps()
    const amount = input.amount ?? (await captureAmount(input.id, deps))
    const capture = {kind: 'capture' as const, id: input.id, amount}
    return settleFollowUp(this.factory, await sendFollowUp(capture, deps, waitingSaid(this.factory, capture)))
  }
}
