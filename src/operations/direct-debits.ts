import {dollarsOf} from '../api/schemas/bank-rules.js'
import type {DirectDebitCreate} from '../api/schemas/direct-debit.js'
import type {Deps, GwRecord} from './deps.js'

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

export async function createDirectDebit(input: DirectDebitInput, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.directDebits.create(directDebitBody(input))
}

/** The gateway keeps a deleted debit, `Deleted`, in its list. */
export async function deleteDirectDebit(id: string, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.directDebits.delete(id)
}
