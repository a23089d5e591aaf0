import {describe, expect, it} from 'vitest'
import type {Frequency} from '../../../src/api/schemas/recurring-rules.js'
import {
  billingDateAfter,
  billingDateFrom,
  daysBetween,
  occurrence,
  shiftDays,
  shiftMonths,
} from '../../../src/sandbox/domain/schedule.js'

describe('shiftDays and daysBetween', () => {
  it.each([
    ['2026-11-22', 1, '2026-11-23'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2027-02-28', 1, '2027-03-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-11-22', 365, '2027-11-22'],
  ])('%s %+d days → %s', (date, days, expected) => {
    expect(shiftDays(date, days)).toBe(expected)
    expect(daysBetween(date, expected)).toBe(days)
  })
})

describe('shiftMonths', () => {
  it.each([
    ['2027-01-31', 1, '2027-02-28'],
    ['2028-01-31', 1, '2028-02-29'],
    ['2027-01-30', 1, '2027-02-28'],
    ['2027-03-31', 1, '2027-04-30'],
    ['2027-08-31', 6, '2028-02-29'],
    ['2028-02-29', 12, '2029-02-28'],
    ['2026-11-22', 3, '2027-02-22'],
    ['2026-12-15', 1, '2027-01-15'],
  ])('%s + %i months → %s', (date, months, expected) => {
    expect(shiftMonths(date, months)).toBe(expected)
  })
})

describe('occurrence', () => {
  it.each<[string, Frequency, number, string]>([
    ['2026-11-22', 'Daily', 3, '2026-11-25'],
    ['2026-11-22', 'Weekly', 2, '2026-12-06'],
    ['2026-11-22', 'Fortnightly', 1, '2026-12-06'],
    ['2027-01-31', 'Monthly', 1, '2027-02-28'],
    ['2027-01-31', 'Monthly', 2, '2027-03-31'],
    ['2027-01-31', 'Monthly', 3, '2027-04-30'],
    ['2026-11-30', 'Quarterly', 1, '2027-02-28'],
    ['2026-11-30', 'Quarterly', 2, '2027-05-30'],
    ['2027-08-31', 'Bi-Annually', 1, '2028-02-29'],
    ['2028-02-29', 'Annually', 1, '2029-02-28'],
    ['2028-02-29', 'Annually', 4, '2032-02-29'],
  ])('%s %s #%i → %s', (start, frequency, index, expected) => {
    expect(occurrence(start, frequency, index)).toBe(expected)
  })
})

describe('billingDateAfter and billingDateFrom', () => {
  it.each<[string, Frequency, string, string, string]>([
    // start, frequency, day, first date after it, first date on or after it
    ['2026-11-22', 'Daily', '2026-11-22', '2026-11-23', '2026-11-22'],
    ['2026-11-22', 'Daily', '2026-11-01', '2026-11-22', '2026-11-22'],
    ['2026-11-22', 'Weekly', '2026-11-29', '2026-12-06', '2026-11-29'],
    ['2026-11-22', 'Weekly', '2026-12-01', '2026-12-06', '2026-12-06'],
    ['2026-11-22', 'Fortnightly', '2026-12-05', '2026-12-06', '2026-12-06'],
    ['2027-01-31', 'Monthly', '2027-01-31', '2027-02-28', '2027-01-31'],
    ['2027-01-31', 'Monthly', '2027-02-28', '2027-03-31', '2027-02-28'],
    ['2027-01-31', 'Monthly', '2027-03-01', '2027-03-31', '2027-03-31'],
    ['2027-01-31', 'Monthly', '2029-12-31', '2030-01-31', '2029-12-31'],
    ['2026-11-22', 'Quarterly', '2026-11-25', '2027-02-22', '2027-02-22'],
    ['2027-08-31', 'Bi-Annually', '2027-09-01', '2028-02-29', '2028-02-29'],
    ['2028-02-29', 'Annually', '2028-02-29', '2029-02-28', '2028-02-29'],
    ['2028-02-29', 'Annually', '2031-03-01', '2032-02-29', '2032-02-29'],
  ])('%s %s around %s → after %s, from %s', (start, frequency, day, after, from) => {
    expect(billingDateAfter(start, frequency, day)).toBe(after)
    expect(billingDateFrom(start, frequency, day)).toBe(from)
  })
})
