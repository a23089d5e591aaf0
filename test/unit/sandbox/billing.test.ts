import {describe, expect, it} from 'vitest'
import {ABORTED, SCHEDULED, SUCCESSFUL, afterCharge, expiryNotice, isDue, queuedRetry, resumed} from '../../../src/sandbox/domain/billing.js'
import type {CardRecord, SubscriptionRecord} from '../../../src/sandbox/domain/records.js'

const subscription = (fields: Partial<SubscriptionRecord> = {}): SubscriptionRecord => ({
  id: '071-S-ABCDEFGH',
  customer: '071-C-ABCDEFGH',
  plan: '071-PL-ABCDEFGH',
  frequency: 'Monthly',
  start_date: '2027-01-31',
  end_date: null,
  next_billing_date: '2027-01-31',
  reference: 'sub',
  last_status: SCHEDULED,
  is_active: true,
  created_at: '2027-01-01T09:00:00+00:00',
  ...fields,
})

describe('isDue', () => {
  it.each<[string, Partial<SubscriptionRecord>, string, boolean]>([
    ['on its billing date', {}, '2027-01-31', true],
    ['before it', {}, '2027-01-30', false],
    ['after a missed date', {}, '2027-02-01', true],
    ['when stopped', {is_active: false}, '2027-01-31', false],
    ['with a retry queued', {last_status: 'Failed (1), Pending'}, '2027-01-31', false],
    ['after an abandoned charge', {last_status: ABORTED}, '2027-01-31', true],
    ['without a billing date', {next_billing_date: null}, '2027-01-31', false],
  ])('%s', (_name, fields, day, expected) => {
    expect(isDue(subscription(fields), day)).toBe(expected)
  })
})

describe('queuedRetry', () => {
  it.each([
    [SCHEDULED, undefined],
    [SUCCESSFUL, undefined],
    ['Failed (1), Pending', 1],
    ['Failed (3), Pending', 3],
    [ABORTED, undefined],
  ])('%s → %s', (lastStatus, expected) => {
    expect(queuedRetry(subscription({last_status: lastStatus}))).toBe(expected)
  })
})

describe('afterCharge: the retry chain', () => {
  it('runs a card that always declines through three retries to Failed (3), Aborted', () => {
    let current = subscription()
    const steps: [string, string, string | null][] = []
    for (const day of ['2027-01-31', '2027-02-01', '2027-02-02', '2027-02-03']) {
      const {subscription: next, event} = afterCharge(current, false, day)
      steps.push([event, next.last_status, next.next_billing_date])
      current = next
    }
    expect(steps).toStrictEqual([
      ['charge:retry', 'Failed (1), Pending', '2027-01-31'],
      ['charge:retry', 'Failed (2), Pending', '2027-01-31'],
      ['charge:retry', 'Failed (3), Pending', '2027-01-31'],
      ['charge:failed', ABORTED, '2027-02-28'],
    ])
  })

  it.each<[string, string, string, string]>([
    ['a first charge', SCHEDULED, '2027-01-31', '2027-02-28'],
    ['a charge after a success', SUCCESSFUL, '2027-02-28', '2027-03-31'],
    ['a second retry', 'Failed (2), Pending', '2027-02-02', '2027-02-28'],
    ['the last retry', 'Failed (3), Pending', '2027-02-03', '2027-02-28'],
  ])('an approved %s is charge:successful and moves to the next date', (_name, lastStatus, day, next) => {
    expect(afterCharge(subscription({last_status: lastStatus}), true, day)).toStrictEqual({
      subscription: subscription({last_status: SUCCESSFUL, next_billing_date: next}),
      event: 'charge:successful',
    })
  })

  it('skips the dates a long retry chain covered', () => {
    const daily = subscription({frequency: 'Daily', start_date: '2027-01-01', next_billing_date: '2027-01-05', last_status: 'Failed (3), Pending'})
    expect(afterCharge(daily, false, '2027-01-08').subscription.next_billing_date).toBe('2027-01-09')
  })
})

describe('resumed', () => {
  it.each<[string, string | null, string, string | null]>([
    ['keeps a date still to come', '2027-03-31', '2027-03-01', '2027-03-31'],
    ['keeps a date due today', '2027-03-31', '2027-03-31', '2027-03-31'],
    ['skips the dates missed while stopped', '2027-02-28', '2027-05-01', '2027-05-31'],
    ['bills today when today is a billing date', '2027-02-28', '2027-04-30', '2027-04-30'],
    ['leaves a subscription without a date alone', null, '2027-05-01', null],
  ])('%s', (_name, next, today, expected) => {
    expect(resumed(subscription({is_active: false, next_billing_date: next}), today)).toStrictEqual(
      subscription({is_active: true, next_billing_date: expected}),
    )
  })
})

describe('expiryNotice', () => {
  const card = {card_expiry: '2026-12-31'} as CardRecord
  it.each([
    ['2026-11-30', undefined],
    ['2026-12-01', 'card:expiring'],
    ['2026-12-30', 'card:expiring'],
    ['2026-12-31', 'card:expired'],
    ['2027-01-15', 'card:expired'],
  ])('on %s → %s', (day, expected) => {
    expect(expiryNotice(card, day)).toBe(expected)
  })
})
