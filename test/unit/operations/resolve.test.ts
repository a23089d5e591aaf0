import {describe, expect, it} from 'vitest'
import {NotFoundError} from '../../../src/errors.js'
import {foundAfterMiss, hasIdShape, missing, resolveKey, resolver} from '../../../src/operations/resolve.js'
import {fakeClient} from './fake-client.js'

describe('hasIdShape: an id is its merchant prefix, its record type and 7 or 8 upper-case letters and digits', () => {
  it.each([
    ['purchases', '071-P-52NRCGCF', true],
    ['purchases', '071-P-SMNJVDM', true],
    ['purchases', '071-R-52NRCGCF', false],
    ['purchases', 'ship-7001', false],
    ['purchases', '071-p-52nrcgcf', false],
    ['refunds', '071-R-6AV8WYL', true],
    ['paymentPlans', '071-PP-EJOMRMB', true],
    ['paymentPlans', '071-P-EJOMRMB', false],
    ['customers', '071-C-ZZZZZZZZ', true],
  ] as const)('%s %s: %s', (resource, key, shaped) => {
    expect(hasIdShape(resource, key)).toBe(shaped)
  })
})

describe('resolveKey', () => {
  it('sends an id as it is, looking nothing up', async () => {
    const {client, calls} = fakeClient({})
    expect(await resolveKey('purchases', '071-P-52NRCGCF', {client})).toEqual({key: '071-P-52NRCGCF', id: '071-P-52NRCGCF'})
    expect(calls).toEqual([])
  })

  it('looks a reference up once, keeping the record it found', async () => {
    const record = {id: '071-P-52NRCGCF', reference: 'ship-7001', amount: 5000}
    const {client, calls, verify} = fakeClient({'purchases.get': () => record})
    const {resolve, lookUp} = resolver('purchases', {client})
    expect(await resolve('ship-7001')).toEqual({key: 'ship-7001', id: '071-P-52NRCGCF', record})
    expect(await resolve('ship-7001')).toEqual({key: 'ship-7001', id: '071-P-52NRCGCF', record})
    expect(await lookUp('ship-7001')).toEqual({key: 'ship-7001', id: '071-P-52NRCGCF', record})
    expect(calls).toEqual([{method: 'purchases.get', args: ['ship-7001']}])
    verify()
  })

  it('lookUp looks even an id-shaped key up (a reference may be written as an id), once', async () => {
    const record = {id: '071-P-52NRCGCF', reference: '071-P-ABCDEFGH'}
    const {client, calls} = fakeClient({'purchases.get': () => record})
    const {resolve, lookUp} = resolver('purchases', {client})
    expect(await resolve('071-P-ABCDEFGH')).toEqual({key: '071-P-ABCDEFGH', id: '071-P-ABCDEFGH'})
    expect(calls).toEqual([])
    expect(await lookUp('071-P-ABCDEFGH')).toEqual({key: '071-P-ABCDEFGH', id: '071-P-52NRCGCF', record})
    await lookUp('071-P-ABCDEFGH')
    expect(calls).toEqual([{method: 'purchases.get', args: ['071-P-ABCDEFGH']}])
  })

  it('a miss says it tried the key as an id and a reference, in the gateway\'s words too (exit 5)', async () => {
    const {client} = fakeClient({'purchases.get': () => Promise.reject(new NotFoundError('Purchase not found', {status: 404, requestId: 'r-1'}))})
    await expect(resolveKey('purchases', 'ship-7009', {client})).rejects.toMatchObject({
      exitCode: 5,
      message: 'No purchase has the id or reference ship-7009: Purchase not found',
      status: 404,
      requestId: 'r-1',
      messages: ['Purchase not found'],
    })
  })

  it('a record found without an id is no record to act on', async () => {
    const {client} = fakeClient({'paymentPlans.get': () => ({reference: 'plan-42'})})
    await expect(resolveKey('paymentPlans', 'plan-42', {client})).rejects.toMatchObject({exitCode: 5, message: 'No payment plan has the id or reference plan-42: the payment plan found has no id'})
  })
})

describe('foundAfterMiss: an id-shaped key the gateway answered 404 for, looked up', () => {
  const answered = new NotFoundError('Could not find Purchase', {status: 404, requestId: 'req-capture'})

  it('found under another id (a reference written as an id): that record, to act on', async () => {
    const found = {key: '071-P-ABCDEFGH', id: '071-P-52NRCGCF'}
    expect(await foundAfterMiss('purchases', '071-P-ABCDEFGH', answered, () => Promise.resolve(found))).toBe(found)
  })

  it('found with that very id: missed by the id, in the words of the answer to the request asked for', async () => {
    await expect(foundAfterMiss('purchases', '071-P-ABCDEFGH', answered, (key) => Promise.resolve({key, id: key}))).rejects.toMatchObject({
      exitCode: 5,
      message: 'No purchase has the id 071-P-ABCDEFGH: Could not find Purchase',
      requestId: 'req-capture',
      messages: ['Could not find Purchase'],
    })
  })

  it('missed by the look-up too: said as an id or reference, in the words of the first answer; any other failure of the look-up as it came', async () => {
    const lookUpMissed = () => Promise.reject(new NotFoundError('Purchase not found', {status: 404, requestId: 'req-get'}))
    await expect(foundAfterMiss('refunds', '071-R-ABCDEFGH', answered, lookUpMissed)).rejects.toMatchObject({
      message: 'No refund has the id or reference 071-R-ABCDEFGH (the gateway answered: Could not find Purchase)',
      requestId: 'req-capture',
    })
    const down = new Error('socket hang up')
    await expect(foundAfterMiss('purchases', '071-P-ABCDEFGH', answered, () => Promise.reject(down))).rejects.toBe(down)
  })
})

describe("missing: gw's words, and the gateway's as its own where they name another kind of record", () => {
  it.each([
    ['refunds', 'Purchase not found', 'No refund has the id or reference nope (the gateway answered: Purchase not found)'],
    ['purchases', 'Purchase not found', 'No purchase has the id or reference nope: Purchase not found'],
    ['customers', 'Record not found', 'No customer has the id or reference nope: Record not found'],
    ['paymentPlans', 'Could not find Payment Plan', 'No payment plan has the id or reference nope: Could not find Payment Plan'],
    ['plans', 'Could not find Payment Plan', 'No plan has the id or reference nope: Could not find Payment Plan'],
    ['plans', 'Subscription not found', 'No plan has the id or reference nope (the gateway answered: Subscription not found)'],
  ] as const)('%s, %s', (resource, said, message) => {
    expect(missing(resource, 'nope', new NotFoundError(said, {status: 404}), 'id or reference')).toMatchObject({exitCode: 5, message})
  })
})
