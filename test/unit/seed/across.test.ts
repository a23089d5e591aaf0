import {describe, expect, it} from 'vitest'
import {UsageError} from '../../../src/errors.js'
import {checkSeedFile} from '../../../src/seed/file.js'

const card = {card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'}
const purchase = (at?: string, reference = 'order-1') => ({name: 'order', create: 'purchase', ...(at === undefined ? {} : {at}), fields: {...card, amount: 1000, reference}})
const refund = (at: string | undefined, transactionId = '{{order.id}}', reference = 'back-1') => ({name: 'back', create: 'refund', ...(at === undefined ? {} : {at}), fields: {transaction_id: transactionId, amount: 500, reference}})
const plan = (name: string, reference: string) => ({name, create: 'plan', fields: {name: 'Gold', amount: 2500, reference, description: 'Gold'}})
const file = (steps: unknown[]) => JSON.stringify({steps})

/** The file's problems, one a line, or [] when it is taken. */
function problems(steps: unknown[]): string[] {
  try {
    checkSeedFile(file(steps), 'fixtures.json')
    return []
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError)
    return (err as UsageError).message.split('\n').slice(1).map((line) => line.trim())
  }
}

describe("a refund step's at, against its purchase step", () => {
  it('is refused before the purchase is dated, naming both steps, the field and the fix', () => {
    expect(problems([purchase('2024-03-12'), refund('2024-03-10')])).toStrictEqual([
      'step 2 "back" (refund): at 2024-03-10 is before its purchase, step 1 "order" (purchase), dated 2024-03-12: a refund is made on or after the purchase it refunds; date it 2024-03-12 or later',
    ])
  })

  it('is refused on the day of a purchase dated later that day: a day is noon of it', () => {
    expect(problems([purchase('2024-03-12T15:05:00+00:00'), refund('2024-03-12T14:00:00+00:00')])).toStrictEqual([
      'step 2 "back" (refund): at 2024-03-12T14:00:00.000Z is before its purchase, step 1 "order" (purchase), dated 2024-03-12T15:05:00.000Z: a refund is made on or after the purchase it refunds; date it 2024-03-12T15:05:00.000Z or later',
    ])
  })

  it('is refused when the purchase step has no at: the gateway dates it when the run makes it', () => {
    expect(problems([purchase(), refund('2024-03-10')])).toStrictEqual([
      'step 2 "back" (refund): at 2024-03-10 is before its purchase is made: step 1 "order" (purchase) has no at, so the gateway dates it when the run makes it, today; give step 1 an at on or before 2024-03-10, or leave at out of this step',
    ])
  })

  it.each([
    ['the same day', '2024-03-12', '{{order.id}}'],
    ['a later day', '2024-03-13', '{{order.id}}'],
    ['a later day, the purchase named by its reference', '2024-03-13', '{{ order.reference }}'],
    ['a later day, the purchase named by its reference as the file gives it', '2024-03-13', 'order-1'],
  ])('is taken on %s', (_, at, transactionId) => {
    expect(problems([purchase('2024-03-12'), refund(at, transactionId)])).toStrictEqual([])
  })

  it.each([
    ['a refund without at', [purchase(), refund(undefined)]],
    ['a refund of a purchase the file does not make', [purchase('2024-03-12'), refund('2024-03-10', '071-P-AAAA1111')]],
    ['a refund naming a field that is no key of the purchase', [purchase('2024-03-12'), refund('2024-03-10', '{{order.card_token}}')]],
  ])('leaves alone %s', (_, steps) => {
    expect(problems(steps)).toStrictEqual([])
  })

  it('finds the purchase by the reference it names, before the refund only', () => {
    const later = {...purchase('2024-03-20', 'order-2'), name: 'later'}
    expect(problems([purchase('2024-03-01'), refund('2024-03-10', 'order-1'), later])).toStrictEqual([])
    expect(problems([purchase('2024-03-01'), later, refund('2024-03-10', 'order-2')])).toHaveLength(1)
  })
})

describe('two steps of one kind with one key', () => {
  it('are refused, the later naming the earlier, in the order of the steps', () => {
    expect(problems([purchase('2024-03-12'), refund('2024-03-10'), plan('gold', 'gold'), plan('again', 'gold')])).toStrictEqual([
      'step 2 "back" (refund): at 2024-03-10 is before its purchase, step 1 "order" (purchase), dated 2024-03-12: a refund is made on or after the purchase it refunds; date it 2024-03-12 or later',
      'step 4 "again" (plan): fields.reference "gold" is also the reference of step 3 "gold" (plan): it names one plan, which this step would find made already; give each step a reference of its own',
    ])
  })

  it('names a card number in a reference masked', () => {
    expect(problems([plan('one', 'x4111111111111111y'), plan('two', 'x4111111111111111y')])).toStrictEqual([
      'step 2 "two" (plan): fields.reference "x411111XXXXXX1111y" is also the reference of step 1 "one" (plan): it names one plan, which this step would find made already; give each step a reference of its own',
    ])
  })

  it.each([
    ['a card alias', [{name: 'a', create: 'card', fields: {...card, alias: 'jane'}}, {name: 'b', create: 'card', fields: {...card, alias: 'jane'}}], 'fields.alias "jane"'],
    ['a web hook address', [{name: 'a', create: 'webhook', fields: {address: 'http://127.0.0.1:9/h'}}, {name: 'b', create: 'webhook', fields: {address: 'http://127.0.0.1:9/h'}}], 'fields.address "http://127.0.0.1:9/h"'],
  ])('%s', (_, steps, said) => {
    expect(problems(steps)).toStrictEqual([expect.stringContaining(said)])
  })

  it.each([
    ['a purchase and its refund (the gateway takes one reference for both)', [purchase(), refund(undefined, '{{order.id}}', 'order-1')]],
    ['keys made of references, which only the run resolves', [plan('gold', 'gold'), plan('one', 'x-{{gold.id}}'), plan('two', 'x-{{gold.id}}')]],
    ['two keys that differ in case', [plan('one', 'gold'), plan('two', 'Gold')]],
  ])('leaves alone %s', (_, steps) => {
    expect(problems(steps)).toStrictEqual([])
  })
})
