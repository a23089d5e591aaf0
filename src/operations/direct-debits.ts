import {dollarsOf} from '../api/schemas/bank-rules.js'
import type {DirectDebitCreate} from '../api/schemas/direct-debit.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import {refundReference} from '../lists/refund-match.js'
import {makeOnce, type MadeRequest} from './made-once.js'
import type {Sent} from './money.js'

/** A debit from a bank account (gateway-beyond.md §10), its amount in cents as every amount in gw. */
export interface DirectDebitInput {
  amount: number
  description: string
  bsb: string
  accountName: string
  accountNumber: string
  reference?: string
}

/** The request body: the amount in dollars, as the gateway takes it. */
export function directDebitBody(input: DirectDebitInput): DirectDebitCreate {
  return {
    description: input.description,
    amount: dollarsOf(input.amount),
    bsb: input.bsb,
    account_name: input.accountName,
    account_number: input.accountNumber,
    ...(input.reference === undefined ? {} : {reference: input.reference}),
  }
}

/**
 * A debit sent once (made-once.ts), under a reference made for it when none is given
 * (debitReferences), so that a lost answer can be looked for; never resent.
 */
export async function createDirectDebit(input: DirectDebitInput, {client}: Pick<Deps, 'client'>): Promise<Sent> {
  const body = {...directDebitBody(input), reference: input.reference ?? debitReferences(new Set())()}
  return makeOnce(debitRequest(body, client), client)
}

export function debitRequest(body: DirectDebitCreate & {reference: string}, client: Deps['client']): MadeRequest {
  return {noun: 'direct debit', body, post: () => client.directDebits.create(body), lookUp: (reference) => client.directDebits.get(reference)}
}

/**
 * A reference for a debit that gives none: `dd-<day>-<random>-R<n>`, the n-th of this run, in
 * the shape gw gives the references it makes (refund-match.ts), so that a batch's rerun keeps it
 * for the row from the journal; the run's random part keeps it apart from every other run's.
 */
export function debitReferences(taken: ReadonlySet<string>, now: Date = new Date(), random: () => number = Math.random): () => string {
  const base = `dd-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${Math.floor(random() * 36 ** 6).toString(36).padStart(6, '0')}`
  let n = 0
  return () => {
    let reference: string
    do reference = refundReference(base, ++n)
    while (taken.has(reference))
    return reference
  }
}

/** The gateway keeps a deleted debit, `Deleted`, in its list. */
export async function deleteDirectDebit(id: string, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.directDebits.delete(id)
}
