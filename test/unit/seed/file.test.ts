import {describe, expect, it} from 'vitest'
import {UsageError} from '../../../src/errors.js'
import {checkSeedFile, datedAt, datesSteps, resolveFields} from '../../../src/seed/file.js'
import type {StepKind} from '../../../src/seed/kinds.js'
import {dayText, fixedCalendar, MACHINE_CALENDAR} from '../../../src/lib/calendar.js'
import {expectThrow} from '../../expect-error.js'

const plan = {name: 'gold', create: 'plan', fields: {name: 'Gold', amount: 2500, reference: 'gold', description: 'Gold plan'}}
const file = (steps: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({steps, ...extra})

function problems(text: string): string {
  try {
    checkSeedFile(text, 'fixtures.json')
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError)
    return (err as UsageError).message
  }
  throw new Error('the file was taken')
}

describe('a fixtures file', () => {
  it('is read into its steps, comments left out', () => {
    const steps = checkSeedFile(file([{...plan, _note: 'first'}, {name: 'sub-1', create: 'subscription', fields: {customer: 'c', plan: '{{gold.id}}', frequency: 'monthly', start_date: '2030-01-31', reference: 's', _why: 'x'}}], {_comment: 'x'}), 'fixtures.json')
    expect(steps).toStrictEqual([
      {step: 1, name: 'gold', create: 'plan', fields: plan.fields},
      {step: 2, name: 'sub-1', create: 'subscription', fields: {customer: 'c', plan: '{{gold.id}}', frequency: 'monthly', start_date: '2030-01-31', reference: 's'}},
    ])
  })

  it.each([
    ['{"steps": [\n  {"name": "gold",}\n]}', /^fixtures\.json is not JSON: .* at position 30 \(line 2, column 19\)$/],
    ['[]', /^fixtures\.json must be an object with a list of steps$/],
    [file([]), /steps is empty: give one step or more/],
    [file([plan], {stpes: []}), /stpes is not a key of a fixtures file/],
    [file([plan, plan]), /step 2: name gold is the name of an earlier step/],
    [file([{...plan, name: '1st'}]), /step 1: name must be a letter then letters, digits, _ or -/],
    [file([{...plan, create: 'invoice'}]), /step 1: create must be one of card, plan, customer, purchase, refund, subscription, webhook, payment_plan, direct_debit/],
    [file([{...plan, kind: 'plan'}]), /step 1: kind is not a key of a step: it has name, create, fields and at/],
    [file([{...plan, fields: {...plan.fields, amount: 0}}]), /step 1 "gold" \(plan\): fields\.amount must be greater than 0/],
    [file([{...plan, fields: {...plan.fields, amount: '2500'}}]), /fields\.amount must be a number/],
    [file([{name: 'c', create: 'card', fields: {card_holder: 'J', card_number: '4242424242424241', card_expiry: '12/2030', cvv: '123', alias: 'a'}}]), /fields\.card_number fails the Luhn check/],
    [file([{name: 'c', create: 'card', fields: {card_holder: 'J', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'}}]), /fields\.alias is required/],
    [file([{name: 'p', create: 'purchase', fields: {amount: 100, reference: 'r'}}]), /fields\.card_number is required \(or card_token, a stored card\)/],
    [file([{name: 'p', create: 'purchase', fields: {amount: 100, reference: 'r', card_token: '4242424242424242'}}]), /fields\.card_token 424242XXXXXX4242 is a card number, not a token or alias/],
    [file([{name: 'pp', create: 'payment_plan', fields: {customer: 'c', reference: 'pp', amount: 1000, start_date: '2030-01-01', frequency: 'Weekly', anniversary: 5}}]), /step 1 "pp" \(payment_plan\): fields\.total_count is required \(or end_date\): how many payments, or the day they end/],
    [file([{name: 'pp', create: 'payment_plan', fields: {customer: 'c', reference: 'pp', amount: 1000, start_date: '2030-01-01', frequency: 'Weekly', anniversary: 32, total_count: 2}}]), /fields\.anniversary must be a whole number from 0 to 31/],
    [file([{name: 'dd', create: 'direct_debit', fields: {amount: 4242, description: 'Rent', bsb: '12-3456', account_name: 'J', account_number: '0123-4', reference: 'dd'}}]), /fields\.bsb must be six digits as 123-456.*\n.*fields\.account_number must be digits only \(at most 20\)/],
    [file([{name: 'dd', create: 'direct_debit', fields: {amount: 42.42, description: 'Rent', bsb: '123-456', account_name: 'J', account_number: '01234'}}]), /fields\.amount must be a positive whole number in the currency's minor unit.*\n.*fields\.reference is required/],
    [file([{name: 'w', create: 'webhook', fields: {address: 'ftp://x', events: ['charge:everything']}}]), /fields\.address must be an http or https URL.*\n.*fields\.events must be "\*" or a list of event names/],
    [file([plan, {name: 'r', create: 'refund', fields: {transaction_id: '{{gold.id', amount: 1, reference: 'r'}}]), /fields\.transaction_id: a \{\{ is not closed with \}\}/],
    [file([plan, {name: 'r', create: 'refund', fields: {transaction_id: '{{ gold }}', amount: 1, reference: 'r'}}]), /fields\.transaction_id: \{\{ gold \}\} is not a reference: write \{\{step\.field\}\}/],
    [file([{name: 'r', create: 'refund', fields: {transaction_id: '{{order.id}}', amount: 1, reference: 'r'}}, {...plan, name: 'order'}]), /names order, which is not an earlier step/],
  ])('%s is refused: %s', (text, expected) => {
    expect(problems(text)).toMatch(expected)
  })

  it('names every problem, the first twenty in full', () => {
    const steps = Array.from({length: 25}, (_, index) => ({...plan, name: `p${index}`, fields: {...plan.fields, reference: ''}}))
    const message = problems(file(steps))
    expect(message.split('\n')[0]).toBe('fixtures.json has 25 problems; nothing was sent:')
    expect(message.split('\n')).toHaveLength(22)
    expect(message).toMatch(/\n {2}and 5 more$/)
  })
})

describe('a step resolved against the records before it', () => {
  const [, order] = checkSeedFile(file([plan, {name: 'order', create: 'refund', fields: {transaction_id: '{{gold.id}}', amount: '{{gold.amount}}', reference: 'refund-of-{{gold.reference}}-{{gold.amount}}'}}]), 'f')

  it('takes a value whole where it stands alone, as text within text', () => {
    const records = new Map([['gold', {id: '071-PL-AAAA1111', amount: 2500, reference: 'gold'}]])
    expect(resolveFields(order!, records)).toStrictEqual({transaction_id: '071-PL-AAAA1111', amount: 2500, reference: 'refund-of-gold-2500'})
  })

  it('checks what the references gave, and refuses an empty one', () => {
    expectThrow(() => resolveFields(order!, new Map([['gold', {id: '071-PL-AAAA1111', amount: 'lots', reference: 'gold'}]])), UsageError, 'fields.amount must be a number; it was not sent')
    expectThrow(() => resolveFields(order!, new Map([['gold', {id: null, amount: 1, reference: 'gold'}]])), UsageError, 'fields.transaction_id: {{gold.id}} is empty in the record step gold gave')
  })
})

describe("a step's at", () => {
  const now = new Date(2026, 10, 25, 9, 30)
  const here = {now, calendar: MACHINE_CALENDAR}

  it.each([
    ['a day before today: noon of it', '2026-11-17', {instant: new Date(2026, 10, 17, 12).toISOString(), day: '2026-11-17', onDay: '2026-11-17'}],
    ['today, before noon: now', '2026-11-25', {instant: now.toISOString(), day: '2026-11-25', onDay: '2026-11-25'}],
    ['a date-time with its offset', '2026-11-17T10:31:00+11:00', {instant: '2026-11-16T23:31:00.000Z', onDay: dayText(MACHINE_CALENDAR, new Date('2026-11-16T23:31:00.000Z'))}],
  ])('%s', (_, at, dated) => {
    expect(datedAt(at, 'purchase', here)).toEqual(dated)
  })

  it.each([
    ['2026-11-26', 'purchase', `2026-11-26 is in the future: the gateway's today is 2026-11-25, and a record can be dated today or before`],
    ['2026-11-26T10:00:00+00:00', 'refund', `2026-11-26T10:00:00+00:00 is in the future: the gateway's clock says ${now.toISOString()}, and a record can be dated now or before`],
    ['2026-02-30', 'customer', '"2026-02-30" must be a date (2026-11-17) or a date-time with its offset (2026-11-17T10:31:00+11:00)'],
    ['2026-11-17T10:31', 'purchase', '"2026-11-17T10:31" must be a date (2026-11-17) or a date-time with its offset (2026-11-17T10:31:00+11:00)'],
    [20261117, 'purchase', 'must be a date (2026-11-17) or a date-time with its offset (2026-11-17T10:31:00+11:00)'],
    ['2026-11-17', 'plan', 'dates the record a step makes, and a plan carries no date: give at to a purchase, refund, customer, subscription, payment_plan, direct_debit step'],
  ])('%j on a %s is refused: %s', (at, kind, problem) => {
    expect(datedAt(at, kind as StepKind, here)).toEqual({problem})
  })

  it("is judged by the gateway's today and time zone: a day after this machine's is past on a gateway whose clock moved on; noon and the day are its own", () => {
    // 2026-11-27 08:00 UTC; the gateway's clock moved on 3 days, its zone UTC-12: its now is 2026-11-29T20:00-12:00.
    const gateway = {now: new Date('2026-11-30T08:00:00Z'), calendar: fixedCalendar(-720)}
    expect(datedAt('2026-11-29', 'purchase', gateway)).toEqual({instant: '2026-11-30T00:00:00.000Z', day: '2026-11-29', onDay: '2026-11-29'})
    expect(datedAt('2026-11-30', 'purchase', gateway)).toEqual({problem: `2026-11-30 is in the future: the gateway's today is 2026-11-29, and a record can be dated today or before`})
    // 01:00 UTC on the 30th is the 29th there.
    expect(datedAt('2026-11-30T01:00:00Z', 'refund', gateway)).toEqual({instant: '2026-11-30T01:00:00.000Z', onDay: '2026-11-29'})
  })
})

describe('whether a file dates a step, for the gateway\'s today to be asked', () => {
  it.each([
    [file([plan, {name: 'order', create: 'purchase', at: '2026-11-17', fields: {}}]), true],
    [file([plan]), false],
    [file([{...plan, fields: {...plan.fields, at: 'a field, not the step\'s'}}], {_at: 'a comment'}), false],
    ['{"steps": [nul', false],
    ['null', false],
    [JSON.stringify({steps: [null, 3]}), false],
  ])('%s: %s', (text, dates) => {
    expect(datesSteps(text)).toBe(dates)
  })
})

describe("a step's day", () => {
  it("is the day the file named, or the instant's day on the gateway's calendar", () => {
    const purchase = (name: string, at: string) => ({name, create: 'purchase', at, fields: {card_holder: 'Jo', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123', amount: 100, reference: name}})
    const here = {now: new Date('2026-11-27T00:00:00Z'), calendar: fixedCalendar(-720)}
    const [named, instant] = checkSeedFile(file([purchase('named', '2024-03-12'), purchase('instant', '2024-03-12T00:30:00Z')]), 'f', here)
    expect(named!.at!.onDay).toBe('2024-03-12')
    // 00:30 UTC on the 12th is 12:30 on the 11th, twelve hours behind.
    expect(instant!.at!.onDay).toBe('2024-03-11')
  })
})
