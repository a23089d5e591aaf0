import * as gwFlags from '../../cli/flags.js'
import {ExitStatus, GwCommand} from '../../cli/gw-command.js'
import {refundColumns} from '../../output/columns.js'
import type {RefundInput} from '../../operations/refunds.js'
import type {UnmatchedRefundInput} from '../../operations/unmatched-refunds.js'

/** One refund of a purchase, one to a card alone (unmatched), or a batch of them from a file. */
type RefundCreateInput = {refund: RefundInput} | {unmatched: UnmatchedRefundInput} | {batch: gwFlags.BatchFlags}

export default class RefundCreate extends GwCommand<RefundCreateInput> {
  static override summary = 'Refund a purchase, in full or in part; or a batch of refunds from a file'
  static override description = `Refunds --amount (in cents) of the purchase ID: its id or reference, or --transaction-id. Several partial refunds may add up to its amount. Without --amount it refunds the purchase in full; if some of it was refunded already, that is refused before anything is sent (exit 7).
Without --reference, the reference derives from the purchase's: order-1001-R1, then -R2. At a terminal gw asks for the amount and the reference, offering what is left and the derived reference.
The refund is sent once and never retried. If no answer comes back, gw looks it up by its reference and reports what the gateway has.
With a card instead of --transaction-id, it is an unmatched refund to that card: --amount and --reference are required.
--input FILE sends a batch from a CSV (transaction_id,amount,reference) or NDJSON; run it again after a crash and only what was not sent is sent.
More: docs/finding-records.md (references, what is left), docs/money-safety.md (unmatched refunds), docs/batches.md.`

  // oclif's own line joins the purchase and every way to give a card with |, as if each excluded the others: the three kinds of refund, each whole.
  static override usage = [
    '<%= command.id %> ID [--amount N] [--reference REF] [flags]',
    '<%= command.id %> --amount N --reference REF (--card-token TOKEN | --card-holder NAME --card-number NUMBER --card-expiry MM/YYYY --cvv CVV | --card -) [flags]',
    '<%= command.id %> --input FILE [--dry-run] [--journal FILE] [flags]',
  ]

  static override examples = [
    '<%= config.bin %> <%= command.id %> order-1001 --amount 1000 --reference refund-1001',
    '<%= config.bin %> <%= command.id %> --transaction-id order-1002 --reference refund-1002 --json | jq -r .id',
    '<%= config.bin %> <%= command.id %> --input refunds.csv --concurrency 8 | jq -c "select(.status != \\"approved\\")"',
    '<%= config.bin %> <%= command.id %> --card-token customer-42 --amount 1500 --reference goodwill-77 --metadata ticket=77',
  ]

  static override args = {id: gwFlags.idOptional('id or reference of the purchase to refund; the same as --transaction-id')}

  static override flags = {
    // A card named, even in part (its holder: at a terminal the rest is asked, as a live profile must), makes an unmatched refund: no purchase is required then (cli/parse.ts).
    'transaction-id': gwFlags.requiredText({description: 'id or reference of the purchase to refund', required: true, exclusive: ['card-token', 'card-number', 'card', 'card-holder', 'card-expiry']}),
    amount: gwFlags.amount({description: 'amount to refund in the minor currency unit; default: the purchase in full'}),
    reference: gwFlags.reference({description: "your reference, unique per refund; default: the purchase's with -R and the first free number (order-1001-R1)"}),
    metadata: gwFlags.metadata(),
    currency: gwFlags.currency({description: 'an unmatched refund\'s currency; default AUD', helpGroup: 'UNMATCHED REFUND'}),
    'card-token': gwFlags.cardToken({helpGroup: 'UNMATCHED REFUND', exclusive: ['card-number', 'card-holder', 'card-expiry', 'card']}),
    ...Object.fromEntries(Object.entries(gwFlags.cardDetails).map(([name, flag]) => [name, {...flag, helpGroup: 'UNMATCHED REFUND'}])) as typeof gwFlags.cardDetails,
    ...gwFlags.batch('transaction_id,amount,reference'),
    ...gwFlags.newBatch(),
  }

  static override columns = refundColumns

  protected override async alsoMissing(): Promise<string | undefined> {
    return 'Or, for an unmatched refund, give a card instead: --card-token, --card-number, or --card -.'
  }

  protected async input(): Promise<RefundCreateInput> {
    const [{purchaseAsFlag}, {grammarOf}] = await Promise.all([import('../../cli/purchase-argument.js'), import('../../cli/startup/argv.js')])
    // The purchase as an argument is read as --transaction-id: asked for when left out, refused beside a card, as the flag is.
    const argv = await purchaseAsFlag(this.argv, {command: `${this.config.bin} ${this.factory.commandName}`, flag: 'transaction-id', grammar: grammarOf(RefundCreate), excludes: [...RefundCreate.flags['transaction-id'].exclusive ?? [], 'input']})
    const {flags} = await this.parse(RefundCreate, argv)
    gwFlags.refuseRowFlagsInBatch(flags, RefundCreate.flags)
    if (flags.input !== undefined) return {batch: gwFlags.batchFlags({...flags, input: flags.input})}
    const metadata = gwFlags.metadataOf(flags.metadata)
    if (flags['transaction-id'] === undefined) return {unmatched: await this.unmatched(flags, metadata)}
    if (flags.currency !== undefined) throw new (await import('../../errors.js')).UsageError('--currency is for an unmatched refund: a refund of a purchase is in its currency')
    const given = {transactionId: flags['transaction-id'], amount: flags.amount, reference: flags.reference, metadata}
    // At a terminal what is left out is asked, what is left of the purchase and a derived reference
    // offered; elsewhere no amount is the purchase in full, and no reference the derived one.
    if (!this.io.canPrompt() || (given.amount !== undefined && given.reference !== undefined)) return {refund: given}
    const [{askRefund}, {madeRecords, refundBook}] = await Promise.all([import('../../cli/ask-amount.js'), import('../../lists/refunds-of-purchase.js')])
    const deps = await this.factory.deps()
    return {refund: await askRefund(given, {...deps, prompter: await this.factory.prompter(), made: await madeRecords(this.factory, deps.client), book: refundBook(this.factory, deps.client)})}
  }

  /** No purchase: a card, and the amount and reference that no purchase can give. */
  private async unmatched(flags: {amount?: number; reference?: string; currency?: string; 'customer-ip'?: string} & import('../../cli/card-input.js').CardFlags, metadata?: Record<string, string>): Promise<UnmatchedRefundInput> {
    const [{cardFor}, {UsageError}] = await Promise.all([import('../../cli/card-input.js'), import('../../errors.js')])
    // Only a card flag (which --transaction-id excludes) lets the parse go without --transaction-id (cli/parse.ts).
    const missing = [flags.amount === undefined && '--amount', flags.reference === undefined && '--reference'].filter(Boolean)
    if (missing.length > 0) throw new UsageError(`an unmatched refund needs ${missing.join(' and ')}: no purchase gives ${missing.length > 1 ? 'them' : 'it'}`)
    const card = flags['card-token'] === undefined ? await cardFor(flags, this.factory) : {token: flags['card-token']}
    if (!card) throw new UsageError('give the card for the unmatched refund: --card-holder, --card-number, --card-expiry and --cvv, or --card -')
    return {amount: flags.amount!, reference: flags.reference!, currency: flags.currency ?? 'AUD', card, metadata}
  }

  protected async operate(input: RefundCreateInput) {
    if ('unmatched' in input) {
      const [{submitUnmatchedRefund}, {settle}, {recordMade}] = await Promise.all([import('../../operations/unmatched-refunds.js'), import('../../output/sent.js'), import('../../lists/refunds-of-purchase.js')])
      const deps = await this.factory.deps()
      const sent = await submitUnmatchedRefund(input.unmatched, deps)
      // Recorded as of no purchase: refund list --purchase and purchase get count it for none.
      await recordMade(sent, '', this.factory, deps.client)
      return settle(this.io, sent)
    }
    if ('batch' in input) {
      const [{refundBatch}, {runBatch}, {batchDeps}] = await Promise.all([import('../../batch/refund-kind.js'), import('../../batch/run-batch.js'), import('../../cli/batch-deps.js')])
      return new ExitStatus(await runBatch(refundBatch, input.batch, batchDeps(this.factory)))
    }
    const [{submitRefund}, {settle}, {recordMade, madeRecords, refundBook}, {refundable}, {refuseUnsendable}, {hintedMiss}, {showingProgress}] = await Promise.all([
      import('../../operations/refunds.js'),
      import('../../output/sent.js'),
      import('../../lists/refunds-of-purchase.js'),
      import('../../lists/refund-room.js'),
      import('../../cli/live-safety.js'),
      import('../../cli/resolve-key.js'),
      import('../../output/progress.js'),
    ])
    // Refused before the purchase is looked up: nothing is read for a refund that cannot be sent.
    refuseUnsendable(await this.factory.target(), this.factory.commandName, this.factory.flags.yes, this.io)
    const deps = await this.factory.deps()
    // As at a terminal: what is left of the purchase is learned first, and more than is left for certain is refused unsent.
    // A purchase not found, looked up or refused by the gateway, is said with the list that finds purchases.
    const sent = await hintedMiss('purchases', async () => {
      const book = refundBook(this.factory, deps.client)
      const made = await madeRecords(this.factory, deps.client)
      // A first walk of the merchant's refunds (gw's index) can take a while: at a terminal it says how far it is.
      const refund = await showingProgress(this.factory, deps.client, (progress) => refundable(input.refund, {concurrency: gwFlags.DEFAULT_CONCURRENCY, made, book, onState: (state) => progress.state('refunds', state)}, deps))
      return submitRefund(refund, {...deps, book})
    })
    const recorded = await recordMade(sent, input.refund.transactionId, this.factory, deps.client)
    return settle(this.io, {...sent, unrecorded: !recorded})
  }
}
