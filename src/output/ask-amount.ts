import {lookUp} from '../operations/look-up.js'
import type {Deps} from '../operations/deps.js'
import * as validate from '../validate.js'
import {formatMoney} from './money.js'
import {checkedBy, type Prompter} from './prompt.js'
import {sanitizeLine} from './sanitize.js'

/**
 * How much of a purchase to refund, asked at a terminal: the purchase is looked up first so its
 * full amount is offered (Enter takes it), and the answer is checked as --amount is.
 */
export async function askRefundAmount(transactionId: string, {client, prompter}: Pick<Deps, 'client'> & {prompter: Prompter}): Promise<number> {
  const purchase = await lookUp('purchases', transactionId, {client})
  const full = typeof purchase.amount === 'number' ? purchase.amount : undefined
  const currency = typeof purchase.currency === 'string' ? sanitizeLine(purchase.currency) : undefined
  const offered = full === undefined ? '' : `; Enter for the purchase in full, ${formatMoney(full, currency)}`
  const answer = await prompter.text(`amount to refund in the minor currency unit (--amount)${offered}`, {
    default: full === undefined ? undefined : String(full),
    validate: checkedBy(validate.amount, 'amount'),
  })
  return validate.amount('amount', answer)
}
