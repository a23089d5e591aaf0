import {type CardDetails, type CardFlags, readCard} from './card-input.js'
import {refuseWhenReadOnly} from './live-safety.js'
import type {Factory} from './factory.js'

/**
 * A card given in full: from stdin (--card -), the flags, or asked for; on a live profile never
 * from argv. A card is only ever read to be sent in a write, so a read-only profile refuses
 * here, before anyone types a card number.
 */
export async function cardFor(flags: CardFlags, f: Factory, {holderOptional = false} = {}): Promise<CardDetails | undefined> {
  const target = await f.target()
  refuseWhenReadOnly(target, f.commandName)
  return readCard(flags, {live: target.environment === 'live', io: f.io, prompter: () => f.prompter(), commandId: f.commandName, holderOptional})
}
