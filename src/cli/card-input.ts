import {UsageError} from '../errors.js'
import type {CardDetails} from '../operations/deps.js'
import type {Io} from '../output/io.js'
import {checkedBy, type Prompter} from '../output/prompter.js'
import type {Factory} from './factory.js'
import {refuseWhenReadOnly} from './live-safety.js'
import * as validate from './validate.js'

export interface CardFlags {
  card?: string
  'card-token'?: string
  'card-holder'?: string
  'card-number'?: string
  'card-expiry'?: string
  cvv?: string
}

const STDIN_SHAPE = '{"card_holder":"NAME","card_number":"NUMBER","card_expiry":"MM/YYYY","cvv":"CVV"}'

/**
 * The card for a command that takes one in full: from stdin as JSON (`--card -`), from the flags,
 * or asked for on a terminal, the number and CVV masked. On a live profile the number and CVV are
 * never taken from the command line: arguments stay in shell history and show in `ps` (design.md §5).
 * Undefined when a stored card (--card-token) is used, or no card was given and there is no
 * terminal to ask on.
 */
export async function readCard(
  flags: CardFlags,
  context: {live: boolean; io: Io; prompter: () => Promise<Prompter>; commandId: string; holderOptional?: boolean},
): Promise<CardDetails | undefined> {
  if (flags.card === '-') return cardFromJson(await context.io.readStdin())
  const inArgv = [flags['card-number'] !== undefined && '--card-number', flags.cvv !== undefined && '--cvv'].filter(Boolean)
  if (context.live && inArgv.length > 0) {
    throw new UsageError(
      `${inArgv.join(' and ')} cannot be given on the command line with a live profile: arguments stay in shell history and show in ps`,
      `Leave ${inArgv.length > 1 ? 'them' : 'it'} out and gw asks on a terminal, masked; or give the card as JSON on stdin, from a file or another program (not echo, which is history too): gw ${context.commandId} ... --card - < card.json, shaped ${STDIN_SHAPE}`,
    )
  }
  if (flags['card-token'] !== undefined) return undefined
  if (flags['card-number'] !== undefined) {
    if ((!flags['card-holder'] && !context.holderOptional) || !flags['card-expiry']) throw new UsageError('--card-number needs --card-holder and --card-expiry')
    return {card_holder: flags['card-holder'] ?? '', card_number: flags['card-number'], card_expiry: flags['card-expiry'], ...(flags.cvv ? {cvv: flags.cvv} : {})}
  }
  if (!context.io.canPrompt()) return undefined
  const prompter = await context.prompter()
  return {
    card_holder: flags['card-holder'] ?? (await prompter.text('Name on the card', {validate: checkedBy(validate.notBlank, 'card-holder')})),
    card_number: validate.cardNumber('card-number', await prompter.secret('Card number', checkedBy(validate.cardNumber, 'card-number'))),
    card_expiry: flags['card-expiry'] ?? validate.cardExpiry('card-expiry', await prompter.text('Expiry (MM/YY)', {validate: checkedBy(validate.cardExpiry, 'card-expiry')})),
    cvv: await prompter.secret('CVV', checkedBy(validate.cvv, 'cvv')),
  }
}

/**
 * The error for a command that cannot go on without a card (a purchase may name a stored one
 * instead): names the flags that give it. `why` says what the CVV is needed for.
 */
export function missingCard(commandId: string, {orToken = false, cvv = false, why}: {orToken?: boolean; cvv?: boolean; why?: string} = {}): UsageError {
  return new UsageError(`give the card: ${cardFlagsText({orToken, cvv})}`, why ?? `See gw ${commandId} --help for examples.`)
}

/** The flags that give a card, as an error names them. */
function cardFlagsText({orToken = false, cvv = false}): string {
  return `${orToken ? '--card-token, or ' : ''}--card-holder, --card-number${cvv ? ', --card-expiry and --cvv' : ' and --card-expiry'}, or --card - with the card as JSON on stdin`
}

/**
 * The card, when no flag gives one, as a missing flag is named (without a terminal, beside the
 * required flags left out): none given, or (`cvv`) a card number without its CVV. A card on
 * stdin (--card -) is read later, and checked there.
 */
export function cardLeftOut(flags: CardFlags, {orToken = false, cvv = false} = {}): string | undefined {
  if (flags.card !== undefined || (orToken && flags['card-token'] !== undefined)) return undefined
  if (flags['card-number'] !== undefined && (!cvv || flags.cvv !== undefined)) return undefined
  return `Missing the card: ${cardFlagsText({orToken, cvv})}`
}

/** `--card -`: one JSON object on stdin, checked like the flags it stands for. */
export function cardFromJson(text: string): CardDetails {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new UsageError('--card - expects the card as one JSON object on stdin, and what came is not JSON', `Shape: ${STDIN_SHAPE}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--card - expects a JSON object on stdin', `Shape: ${STDIN_SHAPE}`)
  const fields = parsed as Record<string, unknown>
  const field = (name: string, optional = false): string | undefined => {
    const value = fields[name]
    if (value === undefined && optional) return undefined
    if (typeof value !== 'string') throw new UsageError(`the card on stdin needs "${name}" as a string`, `Shape: ${STDIN_SHAPE}`)
    return value
  }
  const onStdin = <T>(check: () => T): T => {
    try {
      return check()
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`the card on stdin: ${err.message}`, err.hint)
      throw err
    }
  }
  const [holder, number, expiry, cvv] = [field('card_holder')!, field('card_number')!, field('card_expiry')!, field('cvv', true)]
  return {
    card_holder: onStdin(() => validate.notBlank('card-holder', holder)),
    card_number: onStdin(() => validate.cardNumber('card-number', number)),
    card_expiry: onStdin(() => validate.cardExpiry('card-expiry', expiry)),
    ...(cvv === undefined ? {} : {cvv: onStdin(() => validate.cvv('cvv', cvv))}),
  }
}

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
