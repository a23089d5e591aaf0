import * as gwFlags from '../../cli/flags.js'
import {ExitStatus, GwCommand} from '../../cli/gw-command.js'
import {purchaseColumns} from '../../output/columns.js'

/** One capture, or a batch of them from a file. */
type CaptureInput = {id: string; amount?: number} | {batch: gwFlags.BatchFlags}

export default class PurchaseCapture extends GwCommand<CaptureInput> {
  static override summary = 'Capture an authorization, in full or in part; or a batch of captures from a file'
  static override description = `Captures --amount (minor units) of the authorization ID, by its id or its reference (made with gw purchase create --no-capture); without --amount, all of it, its amount looked up first. More than was authorized is refused by the gateway (exit 7, in its words). An authorization is captured once: a partial capture releases the rest.
The capture is sent once and never retried; if no answer comes back, gw looks the purchase up by its id (captured, and for how much) and reports what the gateway has. Run again, a capture of the same amount that was made already is reported as done before (exit 0); never captured twice.
--input FILE captures a batch: a CSV with a header id,amount (an id or a reference; a blank amount captures in full) or NDJSON. Each row is journaled before it is sent and after its answer, so running the same command again after a crash or Ctrl-C sends only what was not sent. On a live profile the amount (or the batch's number of rows) must be typed back to confirm (--yes without a terminal).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> order-2001 --amount 4000 --json | jq .captured_amount',
    '<%= config.bin %> <%= command.id %> --input shipped.csv --dry-run',
  ]

  static override args = {id: gwFlags.idOptional('id or reference of the authorization to capture (purchase create --no-capture)')}

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
    const missing = new (await import('../../errors.js')).UsageError('give the id or reference of the authorization to capture, or --input FILE', 'See gw purchase capture --help for examples.')
    const id = args.id ?? (await (await import('../../cli/resolve-key.js')).askKey(this.factory, 'the authorization to capture', missing))
    return {id, amount: flags.amount}
  }

  protected async operate(input: CaptureInput) {
    if ('batch' in input) {
      const [{captureBatch}, {runBatch}, {batchDeps}] = await Promise.all([import('../../batch/capture-kind.js'), import('../../batch/run-batch.js'), import('../../cli/batch-deps.js')])
      return new ExitStatus(await runBatch(captureBatch, input.batch, batchDeps(this.factory)))
    }
    const {captureOne} = await import('../../cli/follow-up.js')
    return captureOne(this.factory, input.id, input.amount)
  }
}
