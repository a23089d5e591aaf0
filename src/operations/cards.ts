import type {CardDetails, Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'

/** Stores a card given in full; the gateway needs its CVV to do so. */
export async function tokenizeCard(card: CardDetails & {cvv: string}, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.cards.tokenize(card)
}

export interface CardChanges {
  token: string
  alias?: string
  cardExpiry?: string
}

/** An alias or a new expiry for a stored card; only what is given is sent. */
export async function updateCard(input: CardChanges, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.cards.update(input.token, {
    ...(input.alias === undefined ? {} : {alias: input.alias}),
    ...(input.cardExpiry === undefined ? {} : {card_expiry: input.cardExpiry}),
  })
}
