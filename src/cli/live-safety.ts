import {type RequestFacts, writes} from '../api/endpoints.js'
import type {Target} from '../auth/resolve.js'
import type {BatchPlan} from '../batch/batch-deps.js'
import {PermissionError, UsageError} from '../errors.js'
import type {Io} from '../output/io.js'
import {formatMinorUnits, formatMoney, currencyExponent} from '../output/money.js'
import type {Prompter} from '../output/prompter.js'
import {sanitizeLine} from '../safety/sanitize.js'

/**
 * A read-only profile (support staff) refuses anything that writes before any request is made.
 * `commandId` names it as the person asked for it: `purchase create`, or `api POST /v1.0/purchases`.
 */
export function refuseWhenReadOnly(target: Target, commandId: string): void {
  if (!target.profile?.readOnly) return
  throw new PermissionError(`Profile ${target.profileName} is read-only and gw ${commandId} changes something at the gateway: nothing was sent`, {
    hint: 'Use a profile that may write: --profile NAME, or gw profile use NAME (gw profile list shows them).',
  })
}

/**
 * A write that cannot go ahead whatever a look-up finds: a read-only profile, or a live one with
 * no terminal to confirm on and no --yes. Asked before a command reads anything for it.
 */
export function refuseUnsendable(target: Target, commandId: string, yes: boolean, io: Io): void {
  refuseWhenReadOnly(target, commandId)
  if (target.environment === 'live' && !yes && !io.canPrompt()) throw noTerminal(commandId)
}

function noTerminal(commandId: string): UsageError {
  return new UsageError(`gw ${commandId} on a live profile must be confirmed, and there is no terminal to ask on: nothing was sent`, 'Add --yes to confirm it.')
}

/** The one line that tells a person at a terminal that this command works on real money. */
export function liveMarker(target: Target): string {
  const who = target.profileName ? `profile ${target.profileName}` : 'credentials from GW_USERNAME/GW_TOKEN'
  return `LIVE  ${who} at ${target.baseUrl}: real money, real cards`
}

/** A live target said in red on a terminal's stderr, as soon as a command knows it works on one; never to a pipe. */
export async function announceLive(io: Io, target: Target): Promise<void> {
  if (target.environment !== 'live' || !io.isStderrTTY) return
  const {paint} = await import('../output/colors.js')
  io.err(paint(io.errColor, 'red', liveMarker(target)) + '\n')
}

/** What a person types to confirm, and what it looks like in the question. */
export interface Confirmation {
  shown: string
  accepted: string[]
  /** What the question asks to type: the amount, the id, or the id or reference. */
  what?: string
}

/**
 * `--amount 1000 --currency AUD` is confirmed by typing it as shown: `10.00 AUD`, or `10.00`. Never
 * by a number that reads as the other unit: `1000` (its minor units) is also 1000.00 AUD, and `10`
 * is also 10 cents, so taking either would let the likeliest live slip, a hundredfold amount, pass
 * (design.md §5). An id is confirmed by typing the id. With no currency known the amount is shown
 * in major units all the same, saying so, as a batch's summary does.
 */
export function confirmation(kind: 'amount' | 'id', values: {amount?: number; currency?: string; id?: string; key?: string}): Confirmation {
  // The record named by a reference is confirmed by that reference as well: what the person gave, and knows.
  if (kind === 'id' && values.key !== undefined && values.key !== values.id) return {shown: `${values.id ?? ''} or ${values.key}`, accepted: [values.id ?? '', values.key], what: 'the id or reference'}
  if (kind === 'id') return {shown: values.id ?? '', accepted: [values.id ?? '']}
  const amount = values.amount ?? 0
  const major = formatMinorUnits(amount, values.currency ? currencyExponent(values.currency.toUpperCase()) : 2)
  const shown = values.currency ? formatMoney(amount, values.currency) : `${major} (currency not known)`
  return {shown, accepted: values.currency ? [shown, major] : [major]}
}

/** Typed back as the confirmation wants it: spaces and the currency's case aside. */
function matches(typed: string, expected: Confirmation): boolean {
  const normal = (text: string) => text.trim().replace(/\s+/g, ' ').toUpperCase()
  return expected.accepted.some((accepted) => normal(accepted) === normal(typed))
}

/** What to type, said after a mismatch: an amount as shown, its cents included (`10.00`); an id as it is (undefined). */
function typeable(expected: Confirmation): string | undefined {
  if (expected.what !== undefined) return undefined
  const short = expected.accepted.at(-1)
  return short === expected.shown ? undefined : short
}

/** How many times a confirmation is asked before gw gives up: a typo is asked again, alone, on a fresh line. */
const CONFIRM_TRIES = 3

/**
 * Asks until the answer matches: a mismatch is said under the question, which is asked again,
 * its field empty (what was typed before it, a card, stays), and never shown as answered. After
 * the last try nothing is sent.
 */
async function askToConfirm(prompter: Prompter, question: string, expected: Confirmation, mismatch: (typed: string) => UsageError): Promise<void> {
  let tries = 0
  await prompter.text(question, {
    retype: true,
    validate: (typed) => {
      if (matches(typed, expected)) return true
      if (++tries === CONFIRM_TRIES) throw mismatch(typed)
      return `"${sanitizeLine(typed)}" does not match ${expected.shown}; ${typeable(expected) ? `type it as shown, ${typeable(expected)}` : 'type it again'} (Ctrl-C to stop).`
    },
  })
}

/**
 * Money-moving and deleting commands on a live profile: the person at the terminal types the
 * amount or the id back; without a terminal only --yes goes ahead (design.md §5).
 */
export async function confirmLive(options: {
  commandId: string
  kind: 'amount' | 'id'
  expected: Confirmation
  yes: boolean
  io: Io
  prompter: () => Promise<Prompter>
  /** What makes it riskier than its kind, said in the question (an unmatched refund). */
  note?: string
}): Promise<void> {
  if (options.yes) return
  const noun = options.expected.what ?? (options.kind === 'amount' ? 'the amount' : 'the id')
  if (!options.io.canPrompt()) throw noTerminal(options.commandId)
  const {expected} = options
  await askToConfirm(await options.prompter(), `LIVE: type ${noun} (${expected.shown}) to confirm gw ${options.commandId}${options.note ? `, ${options.note}` : ''}`, expected, (typed) => {
    return new UsageError(`"${sanitizeLine(typed)}" does not match ${expected.shown}: nothing was sent`, `Run it again and type ${noun} ${typeable(expected) ? `as shown, ${typeable(expected)},` : 'exactly,'} or add --yes.`)
  })
}

export interface GuardOptions {
  target: Target
  /** How the person asked for it, for messages: `purchase create`, `api`. */
  commandId: string
  yes: boolean
  io: Io
  prompter: () => Promise<Prompter>
  /** A batch confirmed all its rows at once (confirmBatch): its requests are not asked about one by one. */
  confirmedUpFront?: boolean
  /** The currency of the purchase a refund is of, or a capture or increment is of (neither names one): its amount is confirmed as `10.00 AUD`. */
  purchaseCurrency?: (transactionId: string) => Promise<string | undefined>
  /** The key (a reference) the person named the record `id` by, when it was not its id: a confirmation of the id takes it too. */
  keyGiven?: (id: string) => string | undefined
}

/**
 * The check every request passes before it is sent, whoever sends it (a command, a batch row,
 * `gw api`): a read-only profile refuses a write; a live one has money and deletes confirmed.
 * Its rules come from the endpoint table's facts, by method and path.
 */
export function requestGuard(options: GuardOptions): (facts: RequestFacts, request: {params: Record<string, string>; body: unknown}) => Promise<void> {
  return async (facts, {params, body}) => {
    if (writes(facts)) refuseWhenReadOnly(options.target, options.commandId)
    if (!facts.confirm || options.target.environment !== 'live' || options.confirmedUpFront) return
    const fields = (body ?? {}) as {amount?: unknown; currency?: unknown; transaction_id?: unknown; id?: unknown}
    let currency = typeof fields.currency === 'string' ? fields.currency : undefined
    // A refund names no currency, nor does a capture or increment (the authorization's is theirs): the purchase's is looked up, to be shown.
    const purchaseId = facts.movesMoney?.noun === 'refund' ? fields.transaction_id : facts.followsUp?.noun === 'purchase' && facts.confirm === 'amount' ? params.id : undefined
    if (currency === undefined && typeof purchaseId === 'string' && !options.yes && options.io.canPrompt()) {
      currency = await options.purchaseCurrency?.(purchaseId)
    }
    // A direct debit's dollars are confirmed as the cents gw took them in, in Australian dollars, the only currency of an Australian bank account.
    const amount = typeof fields.amount !== 'number' ? undefined : facts.dollars ? Math.round(fields.amount * 100) : fields.amount
    const id = Object.values(params)[0] ?? (typeof fields.id === 'string' ? fields.id : undefined)
    const expected = confirmation(facts.confirm, {amount, currency: facts.dollars ? 'AUD' : currency, id, key: id === undefined ? undefined : options.keyGiven?.(id)})
    await confirmLive({...options, kind: facts.confirm, expected, note: facts.confirmNote})
  }
}

declare const given: unique symbol

/**
 * A batch's one confirmation, given (or needing none: not live, or --yes), as the guard of the
 * client its rows are sent with takes it (Factory.client): only confirmBatch makes one, so no
 * client passes a row unasked without it.
 */
export type BatchConfirmation = {readonly confirmedUpFront: true; readonly [given]: true}

/**
 * A batch on a live profile is confirmed once, before its first row, by typing its number of rows
 * (its amounts may be in several currencies); without a terminal only --yes goes ahead. A
 * read-only profile refuses it first.
 */
export async function confirmBatch(options: Omit<GuardOptions, 'confirmedUpFront'> & {plan: () => Promise<BatchPlan>}): Promise<BatchConfirmation> {
  const {target, commandId} = options
  refuseWhenReadOnly(target, commandId)
  const confirmed = {confirmedUpFront: true} as BatchConfirmation
  if (target.environment !== 'live' || options.yes) return confirmed
  // Read from the file only when it is to be shown: a batch of any size is totalled as it is read.
  const plan = await options.plan()
  const what = `${plan.rows} ${plan.noun}${plan.rows === 1 ? '' : 's'} (${plan.totals})`
  if (!options.io.canPrompt()) {
    throw new UsageError(`gw ${commandId} --input on a live profile must be confirmed, and there is no terminal to ask on: nothing was sent`, `Check the batch with --dry-run, then add --yes to send ${what}.`)
  }
  const rows = String(plan.rows)
  await askToConfirm(await options.prompter(), `LIVE: about to send ${what}. Type the number of rows (${rows}) to confirm`, {shown: rows, accepted: [rows]}, (typed) => {
    return new UsageError(`"${sanitizeLine(typed)}" does not match ${rows}: nothing was sent`, 'Run it again and type the number of rows exactly, or add --yes.')
  })
  return confirmed
}
