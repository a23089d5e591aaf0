import {cardColumns} from '../../api/schemas/columns.js'
import * as gwFlags from '../../flags.js'
import {GwCommand} from '../../gw-command.js'

export default class CardTokenize extends GwCommand {
  static override summary = 'Store a card and get a token for it'
  static override description = 'The gateway keeps the card and answers with a token (and the masked number) to use with purchase create --card-token. The CVV is sent once and never stored.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> --card-holder "Jane Citizen" --card-number 5123456789012346 --card-expiry 05/2031 --cvv 123',
    '<%= config.bin %> <%= command.id %> --card-holder "Jane Citizen" --card-number 4242424242424242 --card-expiry 12/2030 --cvv 123 --json | jq -r .token',
  ]

  static override flags = {
    'card-holder': gwFlags.cardHolder({required: true}),
    'card-number': gwFlags.cardNumber({required: true}),
    'card-expiry': gwFlags.cardExpiry({required: true}),
    cvv: gwFlags.cvv({required: true}),
  }

  static override writes = true
  static override columns = cardColumns

  async run() {
    const {flags} = await this.parse(CardTokenize)
    const client = await this.client()
    return client.cards.tokenize({
      card_holder: flags['card-holder'],
      card_number: flags['card-number'],
      card_expiry: flags['card-expiry'],
      cvv: flags.cvv,
    })
  }
}
