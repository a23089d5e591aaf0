import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'
import {purchaseColumns} from '../../output/columns.js'

export default class PurchaseCreate extends GwCommand {
  static override summary = 'Charge a card'
  static override description = `Charges a card given in full (--card-holder, --card-number, --card-expiry, --cvv; or as JSON on stdin with --card -; or asked for on a terminal) or stored earlier (--card-token, a token or alias).
On a live profile the card number and CVV are never taken from the command line, and the amount must be typed back to confirm (--yes without a terminal).
The purchase is sent once and never retried; if no answer comes back, gw looks it up by --reference and reports what the gateway has.
Exits 0 when approved, 3 when the issuer declines (the record is still printed), 8 when the outcome could not be learned.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --amount 1000 --reference order-1001 --card-holder "Jane Citizen" --card-number 4242424242424242 --card-expiry 12/2030 --cvv 123',
    '<%= config.bin %> <%= command.id %> --amount 2500 --currency NZD --reference order-1002 --card-token customer-42 --json',
    '<%= config.bin %> <%= command.id %> --amount 1000 --reference order-1003 --card - --yes < card.json',
  ]

  static override flags = {
    amount: gwFlags.amount({required: true}),
    reference: gwFlags.reference({required: true}),
    currency: gwFlags.currency({default: 'AUD'}),
    'customer-ip': gwFlags.requiredText({description: "the customer's IP address"}),
    'card-token': gwFlags.cardToken({exclusive: ['card-number', 'card-holder', 'card-expiry', 'card']}),
    ...gwFlags.cardDetails,
  }

  static override columns = purchaseColumns

  async run() {
    const {flags} = await this.parse(PurchaseCreate)
    const card = await this.card(flags)
    const {createPurchase} = await import('../../operations/purchases.js')
    return createPurchase(
      {amount: flags.amount, reference: flags.reference, currency: flags.currency, customerIp: flags['customer-ip'], cardToken: flags['card-token'], card, cvv: flags.cvv},
      await this.deps(),
    )
  }
}
