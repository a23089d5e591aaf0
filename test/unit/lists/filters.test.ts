import {describe, expect, it} from 'vitest'
import {UsageError} from '../../../src/errors.js'
import {matchesFilters, parseCard, type RecordFilters} from '../../../src/lists/filters.js'
import {livePurchase, liveRefund, otherCard} from '../../fixtures/live-records.js'
import {expectThrow} from '../../expect-error.js'

const declined = {...livePurchase, id: '071-P-DECLINED', successful: false, message: 'Insufficient Funds', amount: 1051, reference: 'order-1043'}
const contractRefund = {...liveRefund, amount: -5000}
const customer = {id: '071-C-AAAAAAAA', reference: 'cust-1', email: 'Jane@Example.com', first_name: 'Jane'}
const subscription = {id: '071-S-AAAAAAAA', reference: 'sub-1', customer: '071-C-AAAAAAAA', plan: '071-PL-AAAAAAAA', is_active: true}
const card = {token: '2vbk6ahx0cwzgqf3ynsi', alias: 'jane-visa', card_number: '512345XXXXXX2346', card_holder: 'Jane Citizen'}

describe('parseCard', () => {
  it.each([
    ['2346', {lastFour: '2346'}],
    [' 2346 ', {lastFour: '2346'}],
    ['512345XXXXXX2346', {masked: '512345XXXXXX2346'}],
    ['5123-45xx-xxxx-2346', {masked: '512345xxxxxx2346'}],
    ['2vbk6ahx0cwzgqf3ynsi', {token: '2vbk6ahx0cwzgqf3ynsi'}],
    ['jane-visa', {token: 'jane-visa'}],
  ])('%j is %j', (input, filter) => {
    expect(parseCard(input)).toEqual(filter)
  })

  it('refuses a whole card number, masked in the message (it would stay in shell history)', () => {
    expect(() => parseCard('5123456789012346')).toThrow(UsageError)
    expectThrow(() => parseCard('5123456789012346'), UsageError, '--card 512345XXXXXX2346 is a whole card number: it would stay in shell history')
  })
})

describe('matchesFilters', () => {
  it.each<[string, RecordFilters, Record<string, unknown>, boolean]>([
    ['no filter takes every record', {}, livePurchase, true],
    ['reference, exactly', {reference: 'order-1042'}, livePurchase, true],
    ['reference, not a part of it', {reference: 'order-104'}, livePurchase, false],
    ['reference, not in another case', {reference: 'ORDER-1042'}, livePurchase, false],
    ['approved', {status: 'approved'}, livePurchase, true],
    ['approved, not a decline', {status: 'approved'}, declined, false],
    ['declined', {status: 'declined'}, declined, true],
    ['declined, not an approval', {status: 'declined'}, livePurchase, false],
    // A voided record is neither, whatever its successful says (2019 builds keep it true, 2017-2018 set it false).
    ['approved, not a voided purchase that says successful', {status: 'approved'}, {...livePurchase, message: 'Voided', captured_amount: 0}, false],
    ['approved, not a voided refund that says successful', {status: 'approved'}, {...liveRefund, refunded: 'Voided', message: 'Voided'}, false],
    ['declined, not a voided refund that says unsuccessful', {status: 'declined'}, {...liveRefund, refunded: 'Voided', message: 'Voided', successful: false}, false],
    ['voided, a voided purchase', {status: 'voided'}, {...livePurchase, message: 'Voided', captured_amount: 0}, true],
    ['voided, a voided refund of either build', {status: 'voided'}, {...liveRefund, refunded: 'Voided', message: 'Voided', successful: false}, true],
    ['voided, not an approval', {status: 'voided'}, livePurchase, false],
    ['voided, not a decline', {status: 'voided'}, declined, false],
    ['no status said: no status matches', {status: 'approved'}, {...livePurchase, successful: undefined}, false],
    ['last four', {card: {lastFour: '2346'}}, livePurchase, true],
    ['last four of another card', {card: {lastFour: '4242'}}, livePurchase, false],
    ['masked number', {card: {masked: '512345XXXXXX2346'}}, livePurchase, true],
    ['masked number of another card', {card: {masked: otherCard.card_number}}, livePurchase, false],
    ['a purchase by its stored card token', {card: {token: ['jane-visa', '2vbk6ahx0cwzgqf3ynsi']}}, livePurchase, true],
    ['a stored card by its alias', {card: {token: ['jane-visa']}}, card, true],
    ['another token', {card: {token: ['zzzz']}}, livePurchase, false],
    ['amount', {amount: 10000}, livePurchase, true],
    ['another amount', {amount: 1000}, livePurchase, false],
    ["a refund's amount, positive as the live gateway sends it", {amount: 5000}, liveRefund, true],
    ["a refund's amount, negative as the contract has it", {amount: 5000}, contractRefund, true],
    ['currency in any case', {currency: 'aud'}, livePurchase, true],
    ['another currency', {currency: 'NZD'}, livePurchase, false],
    ['holder, a part in any case', {holder: 'citiz'}, livePurchase, true],
    ['holder that is not there', {holder: 'smith'}, livePurchase, false],
    ['email in any case', {email: 'jane@example.COM'}, customer, true],
    ['another email', {email: 'john@example.com'}, customer, false],
    ['customer by id or reference', {customer: ['cust-1', '071-C-AAAAAAAA']}, subscription, true],
    ['another customer', {customer: ['cust-2']}, subscription, false],
    ['plan', {plan: ['gold', '071-PL-AAAAAAAA']}, subscription, true],
    ['active', {active: true}, subscription, true],
    ['inactive', {active: false}, subscription, false],
    ['every filter at once', {reference: 'order-1043', status: 'declined', card: {lastFour: '2346'}, amount: 1051, currency: 'AUD', holder: 'jane'}, declined, true],
    ['every filter but one', {reference: 'order-1043', status: 'approved', card: {lastFour: '2346'}, amount: 1051}, declined, false],
    ['a record without the field filtered on', {holder: 'jane'}, customer, false],
  ])('%s', (_, filters, record, matches) => {
    expect(matchesFilters(filters, record)).toBe(matches)
  })

  describe("a refund of a purchase (a live refund names no purchase: its card, no more than it, since it)", () => {
    it.each<[string, Record<string, unknown>, boolean]>([
      ['the live refund of it', liveRefund, true],
      ['in the contract shape, negative', contractRefund, true],
      ["on another card", {...liveRefund, ...otherCard}, false],
      ['another holder on the same card', {...liveRefund, card_holder: 'John Citizen'}, false],
      ['more than the purchase', {...liveRefund, amount: 10001}, false],
      ['made before the purchase', {...liveRefund, transaction_date: '2026-11-17T10:00:00+11:00'}, false],
    ])('%s: %s', (_, refund, matches) => {
      expect(matchesFilters({purchase: livePurchase}, refund)).toBe(matches)
    })
  })
})
