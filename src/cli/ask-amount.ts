import type {RefundedState} from '../lists/refund-match.js'
import {DEFAULT_CONCURRENCY, type Deps} from '../operations/deps.js'
import {lookUp} from '../operations/look-up.js'
import {freeRefundReference, type RefundInput} from '../operations/refunds.js'
import {refundedState, type RefundsOfRequest} from '../operations/purchase-refunds.js'
import {amountReadBack, checkedBy, type Prompter} from '../output/prompter.js'
import {amountOffer, beyondLeft, nothingLeft} from '../output/refund-match-text.js'
import {sanitizeLine} from '../safety/sanitize.js'
import {purchaseName} from '../lists/refund-room.js'
import * as validate from './validate.js'

/**
 * How much of a purchase to refund, asked at a terminal: what is left of it is offered (Enter
 * takes it), from the gateway's own figure where it gives one, else from the refunds found on its
 * card; never more than the gateway would take, so nothing is offered when nothing is surely left.
 * The answer is checked as --amount is.
 */
export async function askRefundAmount(state: RefundedState, prompter: Prompter, purchase: string): Promise<number> {
  const offer = amountOffer(state)
  // Nothing left for certain: the gateway would refuse any amount, so none is asked for; refused as it would refuse it.
  if (state.left === 0) throw nothingLeft(purchase, state)
  const answer = await prompter.text(`amount to refund in the minor currency unit (--amount)${offer.words}`, {
    default: offer.amount === undefined ? undefined : String(offer.amount),
    // More than is left is refused here, saying what is left, not by the gateway after the reference is asked.
    validate: (value) => {
      const checked = checkedBy(validate.amount, 'amount')(value)
      return checked === true ? (beyondLeft(state, validate.amount('amount', value)) ?? true) : checked
    },
    readBack: amountReadBack('amount to refund (--amount)', state.currency ? sanitizeLine(state.currency) : undefined),
  })
  return validate.amount('amount', answer)
}

/**
 * The refund's reference, asked at a terminal: the one derived from the purchase's is offered
 * (Enter takes it), shown once, where the prompt shows what Enter takes; one typed is used as it is.
 */
export async function askRefundReference(derived: string, prompter: Prompter): Promise<string> {
  // Text from the gateway never reaches the terminal raw: one that would is not offered, only asked for.
  const shown = sanitizeLine(derived) === derived
  const answer = await prompter.text(`your reference for the refund (--reference)${shown ? "; Enter for the one derived from the purchase's" : ''}`, {
    default: shown ? derived : undefined,
    validate: checkedBy(validate.notBlank, 'reference'),
    readBack: {question: 'your reference for the refund (--reference)'},
  })
  return validate.notBlank('reference', answer)
}

/**
 * A refund's amount and reference left out at a terminal, asked in that order once the purchase is
 * looked up: the amount offered from what is left of it (the refunds on its card, matched as
 * `refund list --purchase` matches them), the reference offered derived from the purchase's.
 */
export async function askRefund(
  input: RefundInput,
  {client, prompter, made, book}: Pick<Deps, 'client'> & {prompter: Prompter} & Pick<RefundsOfRequest, 'made' | 'book'>,
): Promise<RefundInput> {
  const purchase = input.purchase ?? (await lookUp('purchases', input.transactionId, {client}))
  let {amount, reference, referenceDerived} = input
  if (amount === undefined) {
    amount = await askRefundAmount(await refundedState(purchase, {concurrency: DEFAULT_CONCURRENCY, made, book}), prompter, purchaseName(purchase, input.transactionId))
  }
  if (reference === undefined) {
    const derived = await freeRefundReference(purchase, {client, book})
    reference = await askRefundReference(derived, prompter)
    referenceDerived = reference === derived
  }
  return {...input, purchase, amount, reference, referenceDerived}
}
