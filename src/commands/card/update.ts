import {cardColumns} from '../../output/columns.js'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import type {CardChanges} from '../../operations/cards.js'

export default class CardUpdate extends GwCommand<CardChanges> {
  static override summary = "Give a stored card an alias or a new expiry"
  static override description = 'The token stays the same. An alias (your customer reference, say) can be used wherever a token is taken.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> "$(<%= config.bin %> card tokenize --card-holder "Jane Citizen" --card-number 4242424242424242 --card-expiry 12/2030 --cvv 123 --json | jq -r .token)" --alias customer-42',
    '<%= config.bin %> <%= command.id %> customer-42 --card-expiry 09/2032',
  ]

  static override args = {
    token: gwFlags.id('card token or alias'),
  }

  static override flags = {
    alias: gwFlags.requiredText({description: 'alias to use in place of the token', atLeastOne: ['alias', 'card-expiry']}),
    'card-expiry': gwFlags.cardExpiry({description: 'new expiry as MM/YY or MM/YYYY'}),
  }

  static override columns = cardColumns

  protected async input() {
    const {args, flags} = await this.parse(CardUpdate)
    return {token: args.token, alias: flags.alias, cardExpiry: flags['card-expiry']}
  }

  protected async operate(changes: CardChanges) {
    const {updateCard} = await import('../../operations/cards.js')
    return updateCard(changes, await this.factory.deps())
  }
}
