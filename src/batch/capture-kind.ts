import * as rules from '../api/schemas/rules.js'
import {asSent, captureAmount, findEarlierFollowUp, sendFollowUp} from '../operations/follow-ups.js'
import {NotFoundError} from '../errors.js'
import {foundAfterMiss, hasIdShape, lookUpKey, resolveKey} from '../operations/resolve.js'
import {type BatchKind, purchaseCurrencies} from './kinds.js'
import type {RowSchema} from './rows.js'

/** A capture row: the authorization's id or reference, and the amount to capture (none: all that was authorized, looked up when the row is sent). */
export interface CaptureInput {
  id: string
  amount?: number
}

/** What a capture row sends; its id is the row's key in the journal (`reference`), as an authorization is captured once. */
export type CaptureBody = {
  id: string
  amount: number
  reference: string
}


export const captureRows: RowSchema<CaptureInput> = {
  required: ['id'],
  optional: ['amount'],
  example: 'id,amount',
  read(fields) {
    const errors: string[] = []
    const id = rules.notBlank(fields.id ?? '')
    if ('problem' in id) errors.push(`id ${id.problem}`)
    const blank = fields.amount === '' || fields.amount === undefined
    const amount = blank ? undefined : rules.amount(fields.amount!)
    if (amount && 'problem' in amount) errors.push(`amount ${amount.problem}`)
    const reference = 'value' in id ? id.value : undefined
    if (errors.length > 0 || reference === undefined) return {errors, reference}
    return {input: {id: reference, amount: amount && 'value' in amount ? amount.value : undefined}, reference}
  },
}

const asked = (input: CaptureInput) => ({id: input.id, amount: input.amount})

/**
 * `gw purchase capture --input FILE`: each authorization captured once, journaled as purchases
 * are (design.md §5). A row an earlier run sent with no answer kept is looked up by its id: captured
 * for its amount is done, not captured is sent once the gateway's processing window is over, and
 * captured for another amount is refused, never captured twice.
 */
export const captureBatch: BatchKind<CaptureInput, CaptureBody> = {
  noun: 'purchase',
  action: 'capture',
  commandId: 'purchase capture',
  schema: captureRows,
  preview: asked,
  dryCurrency: (f) => purchaseCurrencies(f, (input) => input.id),
  sender: (deps) => ({
    noun: 'purchase',
    action: 'capture',
    // A row may name its authorization by reference: its id is looked up (operations/resolve.ts), the row keyed as the file has it.
    // Captured in full, the key is looked up whatever its shape (its amount is wanted), and the id it finds captured.
    request: async (input) => {
      const {id, record} = input.amount === undefined ? await lookUpKey('purchases', input.id, deps) : await resolveKey('purchases', input.id, deps)
      return {id, amount: input.amount ?? (await captureAmount(id, deps, record)), reference: input.id}
    },
    asksFirst: (input) => input.amount === undefined || !hasIdShape('purchases', input.id),
    send: async (body, options) => {
      const capture = (id: string) => sendFollowUp({kind: 'capture', id, amount: body.amount}, deps, options)
      try {
        return asSent(await capture(body.id), body)
      } catch (err) {
        // A reference written as an id was sent as one (cli/resolve-key.ts onRecord): a 404 is the gateway acting on nothing, so the id a look-up finds is captured, once.
        if (!(err instanceof NotFoundError) || body.id !== body.reference) throw err
        const found = await foundAfterMiss('purchases', body.id, err, (key) => lookUpKey('purchases', key, deps))
        return asSent(await capture(found.id), body)
      }
    },
    findEarlier: async (body) => {
      const found = await findEarlierFollowUp({kind: 'capture', id: body.id, amount: body.amount}, deps)
      return found && asSent(found, body)
    },
    asked,
    money: (body, record) => ({amount: body.amount, currency: typeof record?.currency === 'string' ? record.currency : undefined}),
  }),
}
