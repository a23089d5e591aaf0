import {describe, expect, it} from 'vitest'
import {directDebitBatch, directDebitRows, paymentPlanBatch, paymentPlanRows} from '../../../src/batch/recurring-kinds.js'
import {debitReferences} from '../../../src/operations/direct-debits.js'
import {countedPlan, newDebit} from '../../fixtures/recorded-plans-debits.js'
import {fakeClient} from '../operations/fake-client.js'

const planFields = {customer: 'cust-42', amount: '1000', frequency: 'weekly', anniversary: '5', start_date: '2027-01-01', total_count: '5', reference: 'plan-42'}
const plan = {customer: 'cust-42', reference: 'plan-42', amount: 1000, currency: undefined, setupFee: undefined, startDate: '2027-01-01', frequency: 'Weekly' as const, anniversary: 5, totalCount: 5, endDate: undefined, description: undefined}
const debitFields = {amount: '4242', description: 'November rent', bsb: '123456', account_name: 'Jane Citizen', account_number: '012345678', reference: 'dd-42'}
const debit = {amount: 4242, description: 'November rent', bsb: '123-456', accountName: 'Jane Citizen', accountNumber: '012345678', reference: 'dd-42'}

describe('a payment plan row', () => {
  it.each<[string, Record<string, string>, unknown]>([
    ['with a count', planFields, {input: plan, reference: 'plan-42'}],
    [
      'with an end date, a currency, a fee and a description',
      {...planFields, total_count: '', end_date: '2027-12-31', currency: 'nzd', setup_fee: '0', description: 'Gym'},
      {input: {...plan, totalCount: undefined, endDate: '2027-12-31', currency: 'NZD', setupFee: 0, description: 'Gym'}, reference: 'plan-42'},
    ],
    ['with neither a count nor an end date', {...planFields, total_count: ''}, {errors: ['total_count or end_date must be given: a plan says when it ends'], reference: 'plan-42'}],
    [
      'wrong in every field',
      {customer: ' ', amount: '10.00', frequency: 'hourly', anniversary: '32', start_date: '2027-02-30', total_count: '0', end_date: 'soon', currency: 'dollars', setup_fee: '-1', description: ' ', reference: ''},
      {
        errors: [
          'customer must not be blank',
          'reference must not be blank',
          `amount must be a positive whole number in the currency's minor unit, got "10.00"`,
          'frequency must be one of Daily, Weekly, Fortnightly, Monthly, Quarterly, Bi-Annually, Annually, got "hourly"',
          'anniversary must be a whole number from 0 to 31 (a day of the week, 1 Monday, or of the month), got "32"',
          'start_date must be a date as YYYY-MM-DD, got "2027-02-30"',
          'total_count must be a whole number, 1 or more, got "0"',
          'end_date must be a date as YYYY-MM-DD, got "soon"',
          'currency must be a three-letter ISO 4217 code such as AUD, got "dollars"',
          'setup_fee must be a whole number of the minor unit, 0 or more, got "-1"',
          'description must not be blank',
        ],
        reference: undefined,
      },
    ],
    ['a blank amount', {...planFields, amount: ''}, {errors: ['amount must not be blank'], reference: 'plan-42'}],
  ])('%s', (_, fields, expected) => {
    expect(paymentPlanRows.read(fields)).toEqual(expected)
  })
})

describe('a direct debit row', () => {
  it.each<[string, Record<string, string>, unknown]>([
    ['with a reference', debitFields, {input: debit, reference: 'dd-42'}],
    ['without one: made when it is sent', {...debitFields, reference: ''}, {input: {...debit, reference: undefined}, reference: undefined}],
    [
      'wrong in every field',
      {amount: '42.42', description: '', bsb: '12-3456', account_name: ' ', account_number: '0123-456', reference: 'x'.repeat(256)},
      {
        errors: [
          `amount must be a positive whole number in the currency's minor unit, got "42.42"`,
          'description must not be blank',
          'bsb must be six digits as 123-456, got "12-3456"',
          'account_name must not be blank',
          'account_number must be digits only (at most 20), got "0123-456"',
          'reference is 256 characters long; the gateway takes at most 255',
        ],
        reference: 'x'.repeat(256),
      },
    ],
    ['blank where required', {...debitFields, amount: '', bsb: '', account_number: ''}, {errors: ['amount must not be blank', 'bsb must not be blank', 'account_number must not be blank'], reference: 'dd-42'}],
  ])('%s', (_, fields, expected) => {
    expect(directDebitRows.read(fields)).toEqual(expected)
  })
})

describe('references made for debit rows that give none', () => {
  it('dd-<day>-<random>-R<n>, in the run\'s order, passing over those taken', () => {
    const next = debitReferences(new Set(['dd-20261126-00000a-R2']), new Date('2026-11-26T23:59:00Z'), () => 10 / 36 ** 6)
    expect([next(), next(), next()]).toEqual(['dd-20261126-00000a-R1', 'dd-20261126-00000a-R3', 'dd-20261126-00000a-R4'])
  })

  it('a random part of six letters and digits', () => {
    expect(debitReferences(new Set(), new Date('2027-01-02T00:00:00Z'), () => 0.999999999)()).toMatch(/^dd-20270102-[0-9a-z]{6}-R1$/)
  })

  it('a row without one gets the next when it is sent, and keeps it', async () => {
    const fake = fakeClient({})
    const sender = directDebitBatch.sender({client: fake.client}, new Set(), {dataDir: '/nonexistent'} as never, {name: 'batch', alike: () => 1})
    const input = {...debit, reference: undefined as string | undefined}
    const body = await sender.request(input, 1)
    expect(body).toEqual({description: 'November rent', amount: 42.42, bsb: '123-456', account_name: 'Jane Citizen', account_number: '012345678', reference: input.reference})
    expect(input.reference).toMatch(/^dd-\d{8}-[0-9a-z]{6}-R1$/)
    expect((await sender.request({...debit, reference: undefined}, 2)).reference).toMatch(/-R2$/)
    expect(sender.asksFirst(input)).toBe(false)
  })
})

describe('what a batch row sends, asks and shows', () => {
  it('a debit: dollars sent, cents asked and shown (the file\'s own), in AUD', () => {
    expect(directDebitBatch.preview(debit)).toEqual({description: 'November rent', amount: 4242, bsb: '123-456', account_name: 'Jane Citizen', account_number: '012345678', reference: 'dd-42', currency: 'AUD'})
    const sender = directDebitBatch.sender({client: fakeClient({}).client}, new Set(), {} as never, {name: 'batch', alike: () => 1})
    expect(sender.asked(debit)).toEqual(directDebitBatch.preview(debit))
    expect(sender.money({description: 'x', amount: 42.42, bsb: '123-456', account_name: 'x', account_number: '1', reference: 'dd-1'})).toEqual({amount: 4242, currency: 'AUD'})
  })

  it('a plan whose customer is a reference: looked up first, and sent by its id', async () => {
    const fake = fakeClient({'customers.get': () => ({id: '071-C-AXMHJRZV'})})
    const sender = paymentPlanBatch.sender({client: fake.client}, new Set(), {} as never, {name: 'batch', alike: () => 1})
    expect(sender.asksFirst(plan)).toBe(true)
    expect(sender.asksFirst({...plan, customer: '071-C-AXMHJRZV'})).toBe(false)
    const body = await sender.request(plan, 1)
    expect(body).toMatchObject({customer: '071-C-AXMHJRZV', reference: 'plan-42', total_amount: 5000, payment_method: 'Credit Card'})
    expect(sender.asked(plan)).toMatchObject({customer: 'cust-42'})
    expect(paymentPlanBatch.preview(plan)).toEqual(sender.asked(plan))
    fake.verify()
  })

  it('a plan\'s money: each payment\'s amount, in the currency sent, else the one answered, else none', () => {
    const sender = paymentPlanBatch.sender({client: fakeClient({}).client}, new Set(), {} as never, {name: 'batch', alike: () => 1})
    const body = {...countedPlan, payment_method: 'Credit Card' as const, frequency: 'Weekly' as const, start_date: '2018-10-10', total_count: 5, customer: 'c', reference: 'r', end_date: undefined, description: undefined, currency: undefined}
    expect(sender.money(body)).toEqual({amount: 100, currency: undefined})
    expect(sender.money(body, {currency: 'AUD'})).toEqual({amount: 100, currency: 'AUD'})
    expect(sender.money({...body, currency: 'NZD'}, {currency: 'AUD'})).toEqual({amount: 100, currency: 'NZD'})
    expect(sender.money(body, {currency: null})).toEqual({amount: 100, currency: undefined})
  })

  it('a plan sent, found and looked up through the client', async () => {
    const fake = fakeClient({'paymentPlans.create': () => countedPlan, 'paymentPlans.get': () => countedPlan})
    const sender = paymentPlanBatch.sender({client: fake.client}, new Set(), {} as never, {name: 'batch', alike: () => 1})
    const body = {customer: '071-C-AXMHJRZV', payment_method: 'Credit Card' as const, reference: countedPlan.reference, amount: 100, setup_fee: 0, start_date: '2018-10-10', frequency: 'Weekly' as const, anniversary: 5, total_count: 5, total_amount: 500}
    expect(await sender.findEarlier(body)).toMatchObject({decided: {outcome: 'made', source: 'earlier'}})
    expect(fake.calls).toEqual([{method: 'paymentPlans.get', args: [countedPlan.reference]}])
  })

  it('a debit sent, found and looked up through the client', async () => {
    const fake = fakeClient({'directDebits.get': () => newDebit})
    const sender = directDebitBatch.sender({client: fake.client}, new Set(), {} as never, {name: 'batch', alike: () => 1})
    const body = {description: 'Confirmation', amount: 42, bsb: '123-123', account_name: 'Test', account_number: '012345678', reference: newDebit.reference}
    expect(await sender.findEarlier(body)).toMatchObject({decided: {outcome: 'made', source: 'earlier'}})
    expect(fake.calls).toEqual([{method: 'directDebits.get', args: [newDebit.reference]}])
  })
})
