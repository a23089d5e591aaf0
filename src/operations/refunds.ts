import type {GatewayClient} from '../api/client.js'
import type {RefundCreate} from '../api/schemas/refund.js'
import {GatewayError, NotFoundError} from '../errors.js'
import {derivationBase, refundReference} from '../lists/refund-match.js'
import type {RefundBook} from '../lists/refund-book.js'
import {recordInstant} from '../lists/window.js'
import {DEFAULT_CONCURRENCY, type Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {clientLookups, findEarlier, type MoneyRequest, type Sent, sendOnce} from './money.js'
import {recordOf} from './resolve.js'

export interface RefundInput {
  transactionId: string
  /** Minor units; none refunds the purchase's full amount, looked up first. */
  amount?: number
  /** None: one derived from the purchase's (`<purchase-ref>-R<n>`, the first free), looked up first. */
  reference?: string
  /** The purchase, when it was looked up already (at a terminal, for the amount offered). */
  purchase?: GwRecord
  /** The reference given is the one derived from the purchase's and found free (offered at a terminal, and taken). */
  referenceDerived?: boolean
  /** The merchant's own keys, kept with the refund. */
  metadata?: Record<string, string>
}

/** A refund's request body, and how it came to be: the purchase looked up, the amount or the reference made from it. */
export interface RefundRequest {
  body: RefundCreate
  purchase?: GwRecord
  /** No amount was given: the purchase's full amount is sent. */
  inFull?: boolean
  /**
   * The reference was made here, and was free when looked up: it was never sent before, so a
   * gateway that says it is taken had another refund take it meanwhile.
   */
  derived?: boolean
}

/**
 * The request body: the amount given, or the purchase's full amount as the gateway has it; the
 * reference given, used as it is, or the first free one derived from the purchase's. `reserved`
 * holds references handed out already (a batch's rows of one purchase), which are not handed out again.
 */
export async function refundBody(input: RefundInput, {client, book}: Pick<Deps, 'client'> & IndexedRefunds, reserved?: Set<string>): Promise<RefundRequest> {
  const {transactionId} = input
  if (input.amount !== undefined && input.reference !== undefined) {
    return {body: {transaction_id: transactionId, amount: input.amount, reference: input.reference, ...metadataOf(input)}, purchase: input.purchase, derived: input.referenceDerived}
  }
  const purchase = input.purchase ?? (await recordOf('purchases', transactionId, {client}))
  if (input.amount === undefined && typeof purchase.amount !== 'number') {
    throw new GatewayError('unreadable', `Purchase ${transactionId} came back without an amount, so its full amount is not known: nothing was sent`, {hint: 'Give the amount to refund.'})
  }
  const amount = input.amount ?? (purchase.amount as number)
  const reference = input.reference ?? (await freeRefundReference(purchase, {client, book}, reserved))
  return {body: {transaction_id: transactionId, amount, reference, ...metadataOf(input)}, purchase, inFull: input.amount === undefined, derived: input.reference === undefined}
}

function metadataOf(input: RefundInput): {metadata?: Record<string, string>} {
  return input.metadata ? {metadata: input.metadata} : {}
}

/** How many derived references are tried before gw gives up: a gateway that has every one is not answering about references. */
export const MOST_REFUNDS = 1000

/** What the purchase's refunds' references derive from (lists/refund-match.ts); a purchase with neither reference nor id gives none. */
export function refundBase(purchase: GwRecord): string {
  const base = derivationBase(purchase)
  if (base === undefined) {
    throw new GatewayError('unreadable', 'The purchase came back without a reference or an id, so no reference can be derived from it: nothing was sent', {hint: 'Give the refund a reference of your own.'})
  }
  return base
}

/** Every derived reference taken, MOST_REFUNDS of them. */
export function noFreeReference(base: string): GatewayError {
  return new GatewayError('unreadable', `The gateway has a refund under each of ${refundReference(base, 1)} to ${refundReference(base, MOST_REFUNDS)}: no reference was derived, nothing was sent`, {hint: 'Give the refund a reference of your own.'})
}

/** The merchant's refunds as gw's index has them (lists/refund-book.ts), where the command keeps one. */
export interface IndexedRefunds {
  book?: RefundBook
}

/**
 * The first `<purchase-ref>-R<n>` no refund has (lists/refund-match.ts): those gw's index holds
 * since the purchase passed over, then each asked of the gateway (it has the last word) one n at a
 * time; each is reserved before it is asked about, so two rows of one purchase in flight at once
 * never get the same one.
 */
export async function freeRefundReference(purchase: GwRecord, {client, book}: Pick<Deps, 'client'> & IndexedRefunds, reserved: Set<string> = new Set()): Promise<string> {
  const base = refundBase(purchase)
  const since = recordInstant(purchase.transaction_date)
  for (let n = 1; n <= MOST_REFUNDS; n++) {
    const candidate = refundReference(base, n)
    if (reserved.has(candidate)) continue
    if (book && since !== undefined && ((await book.underReference(candidate, since, {concurrency: DEFAULT_CONCURRENCY}))?.length ?? 0) > 0) continue
    reserved.add(candidate)
    try {
      await client.refunds.get(candidate)
    } catch (err) {
      if (err instanceof NotFoundError) return candidate
      throw err
    }
  }
  throw noFreeReference(base)
}

/**
 * Sends a refund once and decides what came of it (operations/money.ts): approved or declined, a
 * lost answer recovered or left unknown, or a reference already taken: this same refund done
 * earlier, or another one.
 */
export function sendRefund(request: RefundRequest, {client}: Pick<Deps, 'client'>, options?: {lookFirst?: boolean}): Promise<Sent> {
  return sendOnce(moneyRequest(request, client), options)
}

/** A refund row an earlier run may have sent: what the gateway holds under its reference, decided. */
export function findEarlierRefund(request: RefundRequest, {client}: Pick<Deps, 'client'>): Promise<Sent | undefined> {
  return findEarlier(moneyRequest(request, client))
}

/** Refunds part or all of a purchase once. */
export async function submitRefund(input: RefundInput, deps: Pick<Deps, 'client'> & IndexedRefunds): Promise<Sent & Omit<RefundRequest, 'body'>> {
  const {body, ...request} = await refundBody(input, deps)
  return {...(await sendRefund({body, ...request}, deps)), ...request}
}

function moneyRequest({body, purchase, derived}: RefundRequest, client: GatewayClient): MoneyRequest {
  return {noun: 'refund', body, post: () => client.refunds.create(body), lookUp: (reference) => client.refunds.get(reference), lookups: clientLookups(client), purchase, freshReference: derived}
}

/** The currency of the purchase refunded, for a live refund's confirmation; undefined when it cannot be looked up (the refund then says why). */
export async function purchaseCurrency(transactionId: string, {client}: Pick<Deps, 'client'>): Promise<string | undefined> {
  try {
    const purchase = await client.purchases.get(transactionId)
    // Shown in the question: a code of three letters, or not known.
    return typeof purchase.currency === 'string' && /^[A-Za-z]{3}$/.test(purchase.currency) ? purchase.currency : undefined
  } catch {
    return undefined
  }
}
