import {describe, expect, it} from 'vitest'
import {onRecord} from '../../../src/cli/resolve-key.js'
import {NotFoundError, RejectedError} from '../../../src/errors.js'
import {resolver} from '../../../src/operations/resolve.js'
import {fakeClient} from '../operations/fake-client.js'

const notFound = () => new NotFoundError('Purchase not found', {status: 404})

/** An act that records the ids it was given and answers `answer(id)`. */
function acting(answer: (id: string) => unknown) {
  const ids: string[] = []
  return {
    ids,
    act: async ({id}: {id: string}) => {
      ids.push(id)
      const result = answer(id)
      if (result instanceof Error) throw result
      return result
    },
  }
}

describe('onRecord: an id-shaped key is evidence, not proof', () => {
  it('sent as an id; answered 404, looked up, and the record it names under another id acted on', async () => {
    const {client, calls} = fakeClient({'purchases.get': () => ({id: '071-P-52NRCGCF', reference: '071-P-ABCDEFGH'})})
    const {ids, act} = acting((id) => (id === '071-P-52NRCGCF' ? {id, captured: true} : notFound()))
    expect(await onRecord('purchases', '071-P-ABCDEFGH', resolver('purchases', {client}), act)).toEqual({id: '071-P-52NRCGCF', captured: true})
    expect(ids).toEqual(['071-P-ABCDEFGH', '071-P-52NRCGCF'])
    expect(calls).toEqual([{method: 'purchases.get', args: ['071-P-ABCDEFGH']}])
  })

  it('an id that is found and acted on is never looked up', async () => {
    const {client, calls} = fakeClient({})
    const {ids, act} = acting((id) => ({id}))
    await onRecord('purchases', '071-P-52NRCGCF', resolver('purchases', {client}), act)
    expect(ids).toEqual(['071-P-52NRCGCF'])
    expect(calls).toEqual([])
  })

  it('the look-up finds the same id: the 404 stands, said as an id', async () => {
    const {client} = fakeClient({'purchases.get': () => ({id: '071-P-52NRCGCF'})})
    const {ids, act} = acting(() => notFound())
    await expect(onRecord('purchases', '071-P-52NRCGCF', resolver('purchases', {client}), act)).rejects.toMatchObject({exitCode: 5, message: 'No purchase has the id 071-P-52NRCGCF: Purchase not found'})
    expect(ids).toEqual(['071-P-52NRCGCF'])
  })

  it('the look-up misses too: said as an id or reference, with the list that finds it', async () => {
    const {client} = fakeClient({'purchases.get': () => Promise.reject(notFound())})
    const {act} = acting(() => notFound())
    await expect(onRecord('purchases', '071-P-ZZZZZZZZ', resolver('purchases', {client}), act)).rejects.toMatchObject({
      exitCode: 5,
      message: 'No purchase has the id or reference 071-P-ZZZZZZZZ: Purchase not found',
      hint: expect.stringMatching(/^gw purchase list finds purchases, newest first/),
    })
  })

  it('any other failure of an id is not a reason to look it up', async () => {
    const {client, calls} = fakeClient({})
    const {ids, act} = acting(() => new RejectedError('Purchase already voided'))
    await expect(onRecord('purchases', '071-P-52NRCGCF', resolver('purchases', {client}), act)).rejects.toBeInstanceOf(RejectedError)
    expect(ids).toEqual(['071-P-52NRCGCF'])
    expect(calls).toEqual([])
  })

  it('a key that was looked up is acted on once: its 404 is the act\'s', async () => {
    const {client, calls} = fakeClient({'purchases.get': () => ({id: '071-P-52NRCGCF', reference: 'ship-7001'})})
    const {ids, act} = acting(() => notFound())
    await expect(onRecord('purchases', 'ship-7001', resolver('purchases', {client}), act)).rejects.toMatchObject({message: 'Purchase not found'})
    expect(ids).toEqual(['071-P-52NRCGCF'])
    expect(calls).toHaveLength(1)
  })
})
