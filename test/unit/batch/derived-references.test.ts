import {describe, expect, it} from 'vitest'
import {askedOf, DerivedReferences} from '../../../src/batch/derived-references.js'
import {GatewayError, NotFoundError, OutcomeUnknownError} from '../../../src/errors.js'
import {fakeClient} from '../operations/fake-client.js'

// The walk of a blank-reference row's -R1, -R2... at the gateway (design.md §5: the gateway has the
// last word): this row's refund, made by an earlier run of its batch, is the row's; anyone else's is passed over.

const purchase = {id: '071-P-AAAAAAAA', reference: 'order-7', amount: 1000}
const BATCH = 'abcdefghabcdefgh'
const notFound = () => Promise.reject(new NotFoundError('Purchase not found', {status: 404}))

/** A gateway holding these refunds by reference; every look-up recorded. */
function holding(refunds: Record<string, Record<string, unknown>>) {
  const asked: string[] = []
  const {client} = fakeClient({
    'refunds.get': (reference: string) => {
      asked.push(reference)
      return refunds[reference] ?? notFound()
    },
  })
  return {deps: {client}, asked}
}

const ours = (row: number, amount = 1000) => ({reference: 'x', amount: -amount, metadata: {gw_batch: BATCH, gw_row: String(row)}})

describe('DerivedReferences', () => {
  it('gives a row the first free reference, asking the gateway once a reference, and no two rows the same', async () => {
    const {deps, asked} = holding({})
    const walk = new DerivedReferences((reference) => askedOf(reference, deps), BATCH, new Set())
    expect(await walk.forRow(purchase, 1, 1000, 1)).toEqual({reference: 'order-7-R1', made: false})
    expect(await walk.forRow(purchase, 2, 1000, 1)).toEqual({reference: 'order-7-R2', made: false})
    expect(asked).toEqual(['order-7-R1', 'order-7-R2'])
  })

  it('finds the row’s own refund, made by an earlier run of its batch, wherever it is among the purchase’s; passes over another row’s, another batch’s and a person’s', async () => {
    const {deps} = holding({
      'order-7-R1': {metadata: {}, amount: -1000},
      'order-7-R2': {metadata: {gw_batch: 'otherbatchnameab', gw_row: '2'}, amount: 1000},
      'order-7-R3': ours(1),
      'order-7-R4': ours(2),
    })
    const walk = new DerivedReferences((reference) => askedOf(reference, deps), BATCH, new Set())
    expect(await walk.forRow(purchase, 2, 1000, 1)).toEqual({reference: 'order-7-R4', made: true})
    expect(await walk.forRow(purchase, 1, 1000, 1)).toEqual({reference: 'order-7-R3', made: true})
    expect(await walk.forRow(purchase, 3, 1000, 1)).toEqual({reference: 'order-7-R5', made: false})
  })

  it('passes over references the batch’s rows give or its journal holds, without asking', async () => {
    const {deps, asked} = holding({})
    const walk = new DerivedReferences((reference) => askedOf(reference, deps), BATCH, new Set(['order-7-R1', 'order-7-R2']))
    expect(await walk.forRow(purchase, 1, 1000, 1)).toEqual({reference: 'order-7-R3', made: false})
    expect(asked).toEqual(['order-7-R3'])
  })

  it('shares one answer among rows that ask at once: one claims a free reference, the other finds its own past it', async () => {
    const {deps, asked} = holding({'order-7-R2': ours(2)})
    const walk = new DerivedReferences((reference) => askedOf(reference, deps), BATCH, new Set())
    const [first, second] = await Promise.all([walk.forRow(purchase, 2, 1000, 2), walk.forRow(purchase, 1, 1000, 2)])
    expect(first).toEqual({reference: 'order-7-R2', made: true})
    expect(second).toEqual({reference: 'order-7-R1', made: false})
    expect(asked.filter((reference) => reference === 'order-7-R1')).toHaveLength(1)
  })

  it('finds a row’s own refund past free references its batch’s other rows of the purchase left (claimed, never sent), as many as they could leave', async () => {
    // Three rows of one purchase: rows 1 and 2 claimed -R1 and -R2 in an earlier run and never sent them; row 3 sent -R3.
    const {deps} = holding({'order-7-R3': ours(3)})
    expect(await new DerivedReferences((reference) => askedOf(reference, deps), BATCH, new Set()).forRow(purchase, 3, 1000, 3)).toEqual({reference: 'order-7-R3', made: true})
    // Alone with its purchase, a row takes the first free at once: no row of its batch could have left one.
    const {deps: once, asked} = holding({'order-7-R3': ours(3)})
    expect(await new DerivedReferences((reference) => askedOf(reference, once), BATCH, new Set()).forRow(purchase, 3, 1000, 1)).toEqual({reference: 'order-7-R1', made: false})
    expect(asked).toEqual(['order-7-R1'])
    // Two rows: at most two free before its own (one claimed by the other row, one its journal held), then the first free is the row's.
    const {deps: two, asked: lookedAt} = holding({'order-7-R2': {metadata: {}, amount: -5}})
    expect(await new DerivedReferences((reference) => askedOf(reference, two), BATCH, new Set()).forRow(purchase, 1, 1000, 2)).toEqual({reference: 'order-7-R1', made: false})
    expect(lookedAt).toEqual(['order-7-R1', 'order-7-R2', 'order-7-R3', 'order-7-R4'])
  })

  it('walks on while every free reference it has seen is claimed by another row of this run', async () => {
    const {deps} = holding({})
    const walk = new DerivedReferences((reference) => askedOf(reference, deps), BATCH, new Set())
    const claims = await Promise.all([1, 2, 3].map((row) => walk.forRow(purchase, row, 1000, 2)))
    expect(claims.map((claim) => claim.reference).sort()).toEqual(['order-7-R1', 'order-7-R2', 'order-7-R3'])
    expect(claims.every((claim) => !claim.made)).toBe(true)
  })

  it('does not guess at a refund whose record shows no metadata (a gateway that keeps none): for the same amount nothing is sent (exit 8); for another, it is another’s', async () => {
    const {deps} = holding({'order-7-R1': {amount: -1000}, 'order-7-R2': {amount: 400, metadata: null}})
    const walk = new DerivedReferences((reference) => askedOf(reference, deps), BATCH, new Set())
    const error = await walk.forRow(purchase, 1, 1000, 1).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error).toMatchObject({
      exitCode: 8,
      noun: 'refund',
      reference: 'order-7-R1',
      message: 'The gateway has refund order-7-R1 of this purchase, for the same amount, and its record does not say which batch made it (it shows no metadata): an earlier run of this batch may have made it, so nothing was sent',
    })
    expect(await new DerivedReferences((reference) => askedOf(reference, deps), BATCH, new Set(['order-7-R1'])).forRow(purchase, 1, 1000, 1)).toEqual({reference: 'order-7-R3', made: false})
    // A record without an amount is no match either, nor one whose amount is no number (a field the record lacks is never a match).
    const {deps: amountless} = holding({'order-7-R1': {}, 'order-7-R2': {amount: '1000'}, 'order-7-R3': {amount: '-1000'}})
    expect(await new DerivedReferences((reference) => askedOf(reference, amountless), BATCH, new Set()).forRow(purchase, 1, 1000, 1)).toEqual({reference: 'order-7-R4', made: false})
  })

  it('takes a purchase without a reference by its id; refuses one with neither', async () => {
    const {deps} = holding({})
    expect(await new DerivedReferences((reference) => askedOf(reference, deps), BATCH, new Set()).forRow({id: '071-P-AAAAAAAA'}, 1, 1000, 1)).toEqual({reference: '071-P-AAAAAAAA-R1', made: false})
    await expect(new DerivedReferences((reference) => askedOf(reference, deps), BATCH, new Set()).forRow({}, 1, 1000, 1)).rejects.toThrow('The purchase came back without a reference or an id, so no reference can be derived from it: nothing was sent')
  })

  it('passes a look-up’s failure on (nothing is sent), to every row that asked', async () => {
    const down = new GatewayError('network', 'connection refused')
    const {client} = fakeClient({'refunds.get': () => Promise.reject(down)})
    const walk = new DerivedReferences((reference) => askedOf(reference, {client}), BATCH, new Set())
    await expect(walk.forRow(purchase, 1, 1000, 1)).rejects.toBe(down)
    await expect(walk.forRow(purchase, 2, 1000, 1)).rejects.toBe(down)
  })

  it('takes the 1,000th reference when it is the first free', async () => {
    const {client} = fakeClient({'refunds.get': (reference: string) => (reference === 'order-7-R1000' ? notFound() : {metadata: {}, amount: 1})})
    expect(await new DerivedReferences((reference) => askedOf(reference, {client}), BATCH, new Set()).forRow(purchase, 1, 1000, 1)).toEqual({reference: 'order-7-R1000', made: false})
  })

  it('gives up after 1,000 references, every one another’s', async () => {
    const {client} = fakeClient({'refunds.get': () => ({metadata: {}, amount: 1})})
    await expect(new DerivedReferences((reference) => askedOf(reference, {client}), BATCH, new Set()).forRow(purchase, 1, 1000, 1)).rejects.toThrow('The gateway has a refund under each of order-7-R1 to order-7-R1000: no reference was derived, nothing was sent')
  })
})
