import {describe, expect, it} from 'vitest'
import {CardTokenize, CustomerCreate, PlanCreate, PurchaseCreate, RefundCreate, SubscriptionCreate} from '../../../src/api/schemas/index.js'
import * as rules from '../../../src/api/schemas/rules.js'
import {purchaseRows, refundRows} from '../../../src/batch/rows.js'
import {fieldProblems} from '../../../src/seed/file.js'
import * as validate from '../../../src/cli/validate.js'
import {UsageError} from '../../../src/errors.js'
import {expectThrow} from '../../expect-error.js'

// A rule is worded once. A flag, a batch row, a request body and a fixtures file's step
// refuse the same value in the same words, each naming what holds it.
const purchase = {amount: 1000, reference: 'order-1', card_holder: 'Jo Citizen', card_number: '4242424242424242', card_expiry: '12/2099', cvv: '123'}
const bodyProblem = (schema: {safeParse(value: unknown): {success: boolean; error?: {issues: {path: PropertyKey[]; message: string}[]}}}, body: unknown) =>
  schema.safeParse(body).error?.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`)

describe('one wording per rule', () => {
  it.each([
    ['0', 'must be greater than 0, got 0'],
    ['-5', `must be a positive whole number in the currency's minor unit, got "-5"`],
    ['12.50', `must be a positive whole number in the currency's minor unit, got "12.50"`],
    ['99999999999999999999', 'must be at most 2^53 - 1, the largest whole number gw holds exactly, got 99999999999999999999'],
  ])('an amount of %s: flag, batch row and fixtures step alike', (text, problem) => {
    expect(rules.amount(text)).toMatchObject({problem})
    expectThrow(() => validate.amount('amount', text), UsageError, `--amount ${problem}`)
    expect(refundRows.read({transaction_id: '071-P-A', amount: text, reference: 'r'})).toEqual({errors: [`amount ${problem}`], reference: 'r'})
    expect(purchaseRows.read({card_token: 'tok', amount: text, reference: 'r'})).toEqual({errors: [`amount ${problem}`], reference: 'r'})
    // A fixtures file holds JSON numbers: 0 is one as written.
    if (text === '0') expect(fieldProblems('refund', {transaction_id: 'x', amount: Number(text), reference: 'r'})).toEqual([`fields.amount ${problem}`])
  })

  it('a request body takes no amount of 0, below 0 or with a fraction (z.number().int() took 0 and -5)', () => {
    expect(bodyProblem(PurchaseCreate, {...purchase, amount: 0})).toEqual(['amount must be greater than 0, got 0'])
    expect(bodyProblem(RefundCreate, {transaction_id: 'x', amount: -5, reference: 'r'})).toEqual(['amount must be greater than 0, got -5'])
    expect(bodyProblem(PlanCreate, {name: 'Gold', amount: 10.5, reference: 'gold', description: 'g'})).toEqual([`amount must be a positive whole number in the currency's minor unit, got "10.5"`])
    expect(bodyProblem(PurchaseCreate, purchase)).toBeUndefined()
  })

  it.each([
    ['currency', 'dollars', `must be a three-letter ISO 4217 code such as AUD, got "dollars"`],
    ['reference', '  ', 'must not be blank'],
  ])('a %s of %j in a flag, a batch row and a request body', (field, value, problem) => {
    expectThrow(() => (field === 'currency' ? validate.currency(field, value) : validate.notBlank(field, value)), UsageError, `--${field} ${problem}`)
    expect(purchaseRows.read({card_token: 'tok', amount: '100', reference: 'r', [field]: value.trim() === '' ? '' : value})).toMatchObject({errors: [`${field} ${problem}`]})
    expect(bodyProblem(PurchaseCreate, {...purchase, [field]: value})).toEqual([`${field} ${problem}`])
  })

  it.each([
    [CardTokenize, {card_holder: 'Jo', card_number: '4242424242424241', card_expiry: '12/2099', cvv: '123'}, 'card_number fails the Luhn check: a digit is wrong or missing', '--card-number fails the Luhn check: a digit is wrong or missing'],
    [CardTokenize, {card_holder: 'Jo', card_number: '4242424242424242', card_expiry: '01/2020', cvv: '123'}, 'card_expiry 01/2020 is in the past: the card has expired', '--card-expiry 01/2020 is in the past: the card has expired'],
    [CardTokenize, {card_holder: 'Jo', card_number: '4242424242424242', card_expiry: '12/2099', cvv: '12'}, 'cvv must be 3 or 4 digits', '--cvv must be 3 or 4 digits'],
    [CustomerCreate, {first_name: 'Jo', last_name: 'C', reference: 'c', email: 'jo', card: {card_number: '4242424242424242', expiry_date: '12/2099', cvv: '123'}}, 'email must be an email address, got "jo"', '--email must be an email address, got "jo"'],
    [SubscriptionCreate, {customer: 'c', plan: 'p', frequency: 'Monthly', start_date: '2027-02-30', reference: 'r', is_active: true}, 'start_date must be a date as YYYY-MM-DD, got "2027-02-30"', '--start-date must be a date as YYYY-MM-DD, got "2027-02-30"'],
  ])('a request body and its flag refuse alike: %#', (schema, body, problem, flagMessage) => {
    expect(bodyProblem(schema, body)).toEqual([problem])
    const [field, value] = problem.split(' ') as [string, string]
    const flag = field === 'start_date' ? 'start-date' : field.replace('_', '-')
    const check = {card_number: validate.cardNumber, card_expiry: validate.cardExpiry, cvv: validate.cvv, email: validate.email, start_date: validate.date}[field]!
    const given = field === 'card_expiry' ? value : ((body as Record<string, unknown>)[field] as string)
    expect(() => check(flag, given)).toThrow(flagMessage)
  })
})

describe('an expiry typed MM/YY, wherever an expiry is taken', () => {
  const card = {card_holder: 'Jo', card_number: '4242424242424242', cvv: '123'}
  it('a request body sends it as MM/YYYY, through the one rule', () => {
    expect(CardTokenize.parse({...card, card_expiry: '12/30'}).card_expiry).toBe('12/2030')
    expect(PurchaseCreate.parse({...purchase, card_expiry: '3/31'}).card_expiry).toBe('03/2031')
    expect(CustomerCreate.parse({first_name: 'Jo', last_name: 'C', reference: 'c', email: 'jo@example.com', card: {card_number: '4242424242424242', expiry_date: '12/30', cvv: '123'}}).card.expiry_date).toBe('12/2030')
  })

  it('a fixtures step takes it, and refuses what is not one in the same words as a flag', () => {
    expect(fieldProblems('card', {...card, card_expiry: '12/30', alias: 'jo'})).toEqual([])
    expect(fieldProblems('card', {...card, card_expiry: '12/3', alias: 'jo'})).toEqual(['fields.card_expiry must be MM/YY or MM/YYYY, got "12/3"'])
    expectThrow(() => validate.cardExpiry('card-expiry', '12/3'), UsageError, '--card-expiry must be MM/YY or MM/YYYY, got "12/3"')
  })
})
