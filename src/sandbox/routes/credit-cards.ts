import {checkCardDetails, newCardRecord, readExpiry, submittedCard} from '../domain/card.js'
import {formatDate} from '../domain/clock.js'
import type {SandboxContext} from '../context.js'
import {badRequest} from '../domain/errors.js'
import {cvvProblem} from '../domain/extras.js'
import {pageOf} from '../domain/paging.js'
import {pathParam, type MerchantRequest, type RouteResult} from './route.js'
import {blankMessage, isBlank, readFields} from '../domain/input.js'
import {CARD_FIELDS, echo} from '../domain/records.js'

const TOKENIZE_FIELDS = {card_number: 'string', card_holder: 'string', card_expiry: 'string', cvv: 'string', is_billing: 'boolean'} as const
const UPDATE_FIELDS = {card_expiry: 'string', alias: 'string'} as const
const CARD_NOT_FOUND = 'Record not found'

/**
 * Validation errors are a 400, as the contract's are (the live dialect's 422: dialect.ts). A card
 * needs its CVV unless it is stored for billing (`is_billing`, gateway-beyond.md §13).
 */
export function tokenizeCard({input, merchant}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const fields = readFields(input, TOKENIZE_FIELDS)
  const {errors, details} = checkCardDetails(fields, formatDate(ctx.clock.now()), fields.is_billing === true ? undefined : cvvProblem(true, fields.cvv, {}))
  if (!details || errors.length > 0) throw badRequest(errors, echo(CARD_FIELDS, submittedCard(fields)))
  const card = newCardRecord(details)
  ctx.store.save('cards', merchant, card)
  return {status: 200, response: card}
}

/**
 * gateway-notes.md: GET /v1.0/credit_cards with offset and limit; newest first. A card record
 * carries no date, so from and to have nothing to go by and are not applied.
 */
export function listCards({merchant, query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {records, fields} = pageOf(ctx.store.ordered('cards', merchant), query)
  return {status: 200, response: records, fields}
}

export function getCard(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: ctx.store.get('cards', request.merchant, pathParam(request, 'key'), CARD_NOT_FOUND)}
}

/** A new expiry keeps the token; an alias must be unique among the merchant's tokens and aliases. */
export function updateCard(request: MerchantRequest, ctx: SandboxContext): RouteResult {
  const {merchant} = request
  const card = ctx.store.get('cards', merchant, pathParam(request, 'key'), CARD_NOT_FOUND)
  const {card_expiry: expiry, alias} = readFields(request.input, UPDATE_FIELDS)
  const newExpiry = expiry === undefined ? undefined : readExpiry(expiry, formatDate(ctx.clock.now()))
  const holder = alias === undefined ? undefined : ctx.store.find('cards', merchant, alias)
  const errors = [
    expiry === undefined && alias === undefined ? 'Give card_expiry or alias to update' : undefined,
    newExpiry && 'error' in newExpiry ? newExpiry.error : undefined,
    alias !== undefined && isBlank(alias) ? blankMessage('alias') : undefined,
    holder?.found === 'own' && holder.record.token !== card.token ? 'Alias has already been taken' : undefined,
  ].filter((error) => error !== undefined)
  if (errors.length > 0) throw badRequest(errors, card)
  const updated = {
    ...card,
    card_expiry: newExpiry && 'date' in newExpiry ? newExpiry.date : card.card_expiry,
    alias: alias ?? card.alias,
  }
  ctx.store.save('cards', merchant, updated)
  return {status: 200, response: updated}
}
