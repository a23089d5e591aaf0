import {describe, expect, it} from 'vitest'
import {debitOutcome} from '../../../src/api/schemas/debit-outcomes.js'
import type {Frequency} from '../../../src/api/schemas/recurring-rules.js'
import {businessDayFrom, firstDebitDay, processDay} from '../../../src/sandbox/domain/direct-debit.js'
import {anniversaryProblem, firstPaymentDate, nextPaymentDate, paymentDates} from '../../../src/sandbox/domain/plan-schedule.js'

describe('a payment plan\'s schedule', () => {
  it.each<[string, string, string]>([
    // Recorded: created Mon 2017-06-26 with an older start, a Wednesday start, a Sunday start.
    ['2017-06-26', '2017-06-30', 'Monday'],
    ['2018-10-10', '2018-10-12', 'Wednesday'],
    ['2019-07-28', '2019-08-02', 'Sunday'],
    ['2019-08-02', '2019-08-02', 'Friday: that day'],
    ['2019-08-03', '2019-08-09', 'Saturday'],
  ])('Weekly, anniversary 5: from %s the first payment is Friday %s (%s)', (from, first) => {
    expect(firstPaymentDate('Weekly', 5, from)).toBe(first)
    expect(nextPaymentDate('Weekly', 5, first)).toBe(new Date(Date.parse(`${first}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10))
  })

  it('gives the recorded 12 of the 13 Fridays before an end date to a window of 12', () => {
    const dates = paymentDates('Weekly', 5, '2023-01-04', 12, '2023-04-04')
    expect(dates).toHaveLength(12)
    expect([dates[0], dates.at(-1)]).toStrictEqual(['2023-01-06', '2023-03-24'])
    expect(paymentDates('Weekly', 5, '2023-01-04', 99, '2023-04-04').at(-1)).toBe('2023-03-31')
  })

  it.each<[Frequency, number, string, string[]]>([
    ['Fortnightly', 0, '2026-11-25', ['2026-11-29', '2026-12-13']],
    ['Monthly', 31, '2027-01-31', ['2027-01-31', '2027-02-28', '2027-03-31']],
    ['Monthly', 30, '2027-01-31', ['2027-02-28', '2027-03-30']],
    ['Quarterly', 31, '2026-11-25', ['2026-11-30', '2027-02-28', '2027-05-31']],
    ['Annually', 29, '2028-02-01', ['2028-02-29', '2029-02-28', '2030-02-28']],
    ['Daily', 3, '2026-12-31', ['2026-12-31', '2027-01-01']],
  ])('%s on %i from %s', (frequency, anniversary, from, expected) => {
    expect(paymentDates(frequency, anniversary, from, expected.length, null)).toStrictEqual(expected)
  })

  it.each<[Frequency, number, string | undefined]>([
    ['Weekly', 7, undefined],
    ['Weekly', -1, 'Anniversary must be from 0 to 7 for a Weekly plan: the day of the week, 1 Monday to 7 Sunday (0 is Sunday too)'],
    ['Fortnightly', 8, 'Anniversary must be from 0 to 7 for a Fortnightly plan: the day of the week, 1 Monday to 7 Sunday (0 is Sunday too)'],
    ['Bi-Annually', 32, 'Anniversary must be from 1 to 31 for a Bi-Annually plan: the day of the month'],
    ['Annually', 1, undefined],
    ['Daily', 1000, undefined],
  ])('%s with anniversary %i: %s', (frequency, anniversary, problem) => {
    expect(anniversaryProblem(frequency, anniversary)).toBe(problem)
  })
})

describe('a direct debit\'s days', () => {
  it.each([
    [new Date(2026, 10, 26, 15, 59), '2026-11-26'],
    [new Date(2026, 10, 26, 16, 0), '2026-11-27'],
    [new Date(2026, 10, 27, 16, 0), '2026-11-30'],
    [new Date(2026, 10, 29, 3, 0), '2026-11-30'],
  ])('made at %s, goes to the bank on %s', (now, day) => {
    expect(firstDebitDay(now)).toBe(day)
  })

  it('is answered the next business day', () => {
    expect([processDay('2026-11-26'), processDay('2026-11-27'), businessDayFrom('2026-11-28')]).toStrictEqual(['2026-11-27', '2026-11-30', '2026-11-30'])
  })

  it.each([
    [42, {rejected: false}],
    [42.42, {rejected: false}],
    [42.07, {rejected: false}],
    [42.01, {rejected: true, reason: 'Invalid BSB Number'}],
    [0.06, {rejected: true, reason: 'Refer to Customer'}],
    [1234.09, {rejected: true, reason: 'Technically Invalid'}],
  ])('%f dollars: %o', (dollars, outcome) => {
    expect(debitOutcome(dollars)).toStrictEqual(outcome)
  })
})
