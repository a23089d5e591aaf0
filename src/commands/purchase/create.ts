import type {CardFlags} from '../../cli/card-input.js'
import {Flags} from '@oclif/core'
import * as gwFlags from '../../cli/flags.js'
import {ExitStatus, GwCommand} from '../../cli/gw-command.js'
import {purchaseColumns} from '../../output/columns.js'
import type {PurchaseInput} from '../../operations/purchases.js'

/** One purchase, or a batch of them from a file. */
type PurchaseCreateInput = {purchase: PurchaseInput} | {batch: gwFlags.BatchFlags}

export default class PurchaseCreate extends GwCommand<PurchaseCreateInput> {
  static override summary = 'Charge a card; or stored cards in a batch from a file'
  static override description = `Charges a card given in full (--card-holder, --card-number, --card-expiry, --cvv; or as JSON on stdin with --card -; or asked for on a terminal) or stored earlier (--card-token, a token or alias).
On a live profile the card number and CVV are never taken from the command line, and the amount must be typed back to confirm (--yes without a terminal).
The purchase is sent once and never retried; if no answer comes back, gw looks it up by --reference and reports what the gateway has.
--no-capture authorizes only (capture later with gw purchase capture, release with gw purchase void); --metadata KEY=VALUE (repeatable) keeps keys of your own with the record.
Exits 0 when approved, 3 when the issuer declines (the record is still printed), 8 when the outcome could not be learned. A reference already taken by this same purchase is reported as done earlier.
--input FILE charges stored cards in a batch: a CSV with a header card_token,amount,reference (and optional currency, customer_ip) or NDJSON; a file with card numbers is refused. Every row is checked before any is sent; each is journaled before it is sent and after its answer, so running the same command again after a crash or Ctrl-C sends only what was not sent.`

  // oclif's own line joins every exclusive flag with |, as if the card's number, holder and expiry excluded each other: the ways to give a card, each whole.
  static override usage = [
    '<%= command.id %> --amount N --reference REF --card-holder NAME --card-number NUMBER --card-expiry MM/YYYY --cvv CVV [flags]',
    '<%= command.id %> --amount N --reference REF --card - [flags] < card.json',
    '<%= command.id %> --amount N --reference REF --card-token TOKEN_OR_ALIAS [--cvv CVV] [flags]',
    '<%= command.id %> --input FILE [--dry-run] [--journal FILE] [flags]',
  ]

  static override examples = [
    '<%= config.bin %> <%= command.id %> --amount 1000 --reference order-1001 --card-holder "Jane Citizen" --card-number 4242424242424242 --card-expiry 12/2030 --cvv 123',
    '<%= config.bin %> <%= command.id %> --amount 2500 --currency NZD --reference order-1002 --card-token customer-42 --json',
    '<%= config.bin %> <%= command.id %> --amount 1000 --reference order-1003 --card - --yes < card.json',
    '<%= config.bin %> <%= command.id %> --amount 5000 --reference order-2001 --card-token customer-42 --no-capture --metadata order=2001',
    '<%= config.bin %> <%= command.id %> --input invoices.csv --dry-run',
  ]

  static override flags = {
    amount: gwFlags.amount({required: true}),
    reference: gwFlags.reference({required: true}),
    currency: gwFlags.currency({description: 'ISO 4217 currency code; default AUD'}),
    'customer-ip': gwFlags.requiredText({description: "the customer's IP address"}),
    'card-token': gwFlags.cardToken({exclusive: ['card-number', 'card-holder', 'card-expiry', 'card']}),
    ...gwFlags.cardDetails,
    capture: Flags.boolean({allowNo: true, description: 'with --no-capture, authorize only: the money is held, and taken later with gw purchase capture (or released with gw purchase void)'}),
    metadata: gwFlags.metadata(),
    ...gwFlags.batch('card_token,amount,reference,currency,customer_ip'),
  }

  static override columns = purchaseColumns

  /** No terminal to ask on: the card left out is named with the flags left out. */
  protected override currencyOf(flags: {currency?: string}): string {
    return flags.currency ?? 'AUD'
  }

  protected override async alsoMissing(flags: CardFlags): Promise<string | undefined> {
    const {cardLeftOut} = await import('../../cli/card-input.js')
    return cardLeftOut(flags, {orToken: true})
  }

  protected async input(): Promise<PurchaseCreateInput> {
    const {flags} = await this.parse(PurchaseCreate)
    gwFlags.refuseRowFlagsInBatch(flags, PurchaseCreate.flags)
    if (flags.input !== undefined) return {batch: gwFlags.batchFlags({...flags, input: flags.input})}
    const {cardFor, missingCard} = await import('../../cli/card-input.js')
    const card = await cardFor(flags, this.factory)
    const token = flags['card-token']
    if (!card && token === undefined) throw missingCard(this.factory.commandName, {orToken: true})
    return {purchase: {amount: flags.amount!, reference: flags.reference!, currency: flags.currency ?? 'AUD', customerIp: flags['customer-ip'], card: card ?? {token: token!, cvv: flags.cvv}, capture: flags.capture, metadata: gwFlags.metadataOf(flags.metadata)}}
  }

  protected async operate(input: PurchaseCreateInput) {
    if ('batch' in input) {
      const [{purchaseBatch}, {runBatch}, {batchDeps}] = await Promise.all([import('../../batch/kinds.js'), import('../../batch/run-batch.js'), import('../../cli/batch-deps.js')])
      return new ExitStatus(await runBatch(purchaseBatch, input.batch, batchDeps(this.factory)))
    }
    const [{submitPurchase}, {settle}] = await Promise.all([import('../../operations/purchases.js'), import('../../output/sent.js')])
    return settle(this.io, await submitPurchase(input.purchase, await this.factory.deps()))
  }
}
