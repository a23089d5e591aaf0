import {cardColumns} from '../../output/columns.js'
import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import type {CardDetails} from '../../operations/deps.js'

export default class CardTokenize extends GwCommand<CardDetails & {cvv: string}> {
  static override summary = 'Store a card and get a token for it'
  static override description = 'The gateway keeps the card and answers with a token (and the masked number) to use with purchase create --card-token. The CVV is sent once and never stored. On a live profile the card number and CVV are never taken from the command line: give the card as JSON on stdin (--card -) or type it when asked.'

  // oclif's own line joins every exclusive flag with |, as if the card's number, holder and expiry excluded each other: the ways to give a card, each whole.
  static override usage = [
    '<%= command.id %> --card-holder NAME --card-number NUMBER --card-expiry MM/YYYY --cvv CVV [flags]',
    '<%= command.id %> --card - [flags] < card.json',
  ]

  static override examples = [
    '<%= config.bin %> <%= command.id %> --card-holder "Jane Citizen" --card-number 5123456789012346 --card-expiry 05/2031 --cvv 123',
    '<%= config.bin %> <%= command.id %> --card-holder "Jane Citizen" --card-number 4242424242424242 --card-expiry 12/2030 --cvv 123 --json | jq -r .token',
    '<%= config.bin %> <%= command.id %> --card - < card.json',
  ]

  static override flags = {
    ...gwFlags.cardDetails,
  }

  static override columns = cardColumns

  protected async input() {
    const {flags} = await this.parse(CardTokenize)
    const {cardFor, missingCard} = await import('../../cli/card-input.js')
    const card = await cardFor(flags, this.factory)
    if (!card?.cvv) throw missingCard(this.factory.commandName, {cvv: true})
    return {...card, cvv: card.cvv}
  }

  protected async operate(card: CardDetails & {cvv: string}) {
    const {tokenizeCard} = await import('../../operations/cards.js')
    return tokenizeCard(card, await this.factory.deps())
  }
}
