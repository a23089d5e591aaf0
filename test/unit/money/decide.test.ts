import {describe, expect, it} from 'vitest'
import {compare, type Decided, decideAnswer, decideFound, type Evidence, exitCodeOf, sameCard} from '../../../src/money/decide.js'
import {failureOf} from '../../../src/money/failure.js'
import {maskCardToken} from '../../../src/safety/redact.js'
import {DeclinedError, OutcomeUnknownError, ReferenceTakenError} from '../../../src/errors.js'
import {livePurchase, liveRefund, otherCard} from '../../fixtures/live-records.js'
import type {GwRecord} from '../../../src/api/schemas/record.js'

// What gw sent for the records of live-records.ts: a purchase by card number, one by token, one by
// alias, and a partial refund of the purchase, named by its reference (as a person types it).
const byNumber = {card_holder: 'Jane Citizen', card_number: '5123456789012346', card_expiry: '02/2030', amount: 10000, reference: 'order-1042', currency: 'AUD'}
const byToken = {card_token: livePurchase.card_token, amount: 10000, reference: 'order-1042', currency: 'AUD'}
const byAlias = {card_token: 'jane-mastercard', amount: 10000, reference: 'order-1042', currency: 'AUD'}
const refundSent = {transaction_id: 'order-1042', amount: 5000, reference: 'refund-1042-a'}
const ofPurchase: Evidence = {purchase: {...livePurchase}}

// The contract's refund record: a negative amount, no reference, no currency.
const contractRefund = {id: '071-R-1', authorization: '1', amount: -5000, refunded: 'Approved', message: 'Approved', card_holder: 'Jane Citizen', card_number: '512345XXXXXX2346', successful: true}

describe('decideAnswer: the answer to the request itself', () => {
  it.each<[string, 'purchase' | 'refund', GwRecord, Partial<Decided>]>([
    ['a live purchase, approved', 'purchase', livePurchase, {outcome: 'approved', source: 'answer'}],
    ['a decline, with its reason', 'purchase', {...livePurchase, successful: false, message: 'Insufficient Funds'}, {outcome: 'declined', reason: 'Insufficient Funds'}],
    ['a decline without a message', 'purchase', {...livePurchase, successful: false, message: ''}, {outcome: 'declined', reason: 'Declined'}],
    ['a decline whose message is no text', 'purchase', {...livePurchase, successful: false, message: 51}, {outcome: 'declined', reason: 'Declined'}],
    ['`authorized` standing for `successful`', 'purchase', {...livePurchase, successful: undefined, authorized: false}, {outcome: 'declined'}],
    ['a record that says neither', 'purchase', {...livePurchase, successful: undefined}, {outcome: 'unknown', reason: {why: 'no_outcome'}}],
    ['a live refund, approved', 'refund', liveRefund, {outcome: 'approved'}],
  ])('%s', (_, noun, record, expected) => {
    expect(decideAnswer(noun, record)).toMatchObject(expected)
  })
})

describe('decideFound: a record found under the reference of what was sent', () => {
  const cases: [string, 'purchase' | 'refund', GwRecord, GwRecord, Evidence, Partial<Decided>, Partial<Decided>][] = [
    // name, noun, sent, found, evidence, after a lost answer (recovered), where the reference was taken or an earlier run sent it (earlier)
    ['the purchase sent, by card number', 'purchase', byNumber, livePurchase, {}, {outcome: 'approved', source: 'recovered'}, {outcome: 'approved', source: 'earlier'}],
    ['the purchase sent, by token', 'purchase', byToken, livePurchase, {}, {outcome: 'approved'}, {outcome: 'approved'}],
    ['the purchase sent, by an alias that stands for its token', 'purchase', byAlias, livePurchase, {aliasToken: livePurchase.card_token}, {outcome: 'approved'}, {outcome: 'approved'}],
    [
      'the purchase sent, its reference kept with the card number in it masked',
      'purchase',
      {...byNumber, reference: 'order-4111 1111 1111 1111'},
      {...livePurchase, reference: 'order-411111XXXXXX1111'},
      {},
      {outcome: 'approved', source: 'recovered'},
      {outcome: 'approved', source: 'earlier'},
    ],
    [
      'the purchase sent, its reference kept whole with the card number in it',
      'purchase',
      {...byNumber, reference: 'order-4111111111111111'},
      {...livePurchase, reference: 'order-4111111111111111'},
      {},
      {outcome: 'approved', source: 'recovered'},
      {outcome: 'approved', source: 'earlier'},
    ],
    [
      'a purchase whose reference shows other digits of a card number',
      'purchase',
      {...byNumber, reference: 'order-4111111111111111'},
      {...livePurchase, reference: 'order-411112XXXXXX1111'},
      {},
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'reference', against: 'sent', expected: 'order-411111XXXXXX1111', found: 'order-411112XXXXXX1111'}]}},
      {outcome: 'taken'},
    ],
    ['the refund sent, its reference kept with the card number in it masked', 'refund', {...refundSent, reference: 'x4111111111111111y'}, {...liveRefund, reference: 'x411111XXXXXX1111y'}, ofPurchase, {outcome: 'approved'}, {outcome: 'approved'}],
    ['a refund whose reference is masked text of another', 'refund', {...refundSent, reference: 'x4111111111111111y'}, {...liveRefund, reference: 'x411111XXXXXX1111z'}, ofPurchase, {outcome: 'unknown'}, {outcome: 'taken'}],
    [
      'a purchase by alias whose alias could not be looked up',
      'purchase',
      byAlias,
      livePurchase,
      {aliasToken: null},
      {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['card_token (what alias "jane-mastercard" stands for)']}},
      {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['card_token (what alias "jane-mastercard" stands for)']}},
    ],
    [
      'a purchase on the card another alias stands for',
      'purchase',
      byAlias,
      livePurchase,
      {aliasToken: 'zzzzzzzzzzzzzzzzzzzz'},
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'card_token', against: 'sent', expected: 'jane-mastercard', found: maskCardToken(livePurchase.card_token)}]}},
      {outcome: 'taken', differences: [{field: 'card_token', against: 'sent', expected: 'jane-mastercard', found: maskCardToken(livePurchase.card_token)}]},
    ],
    [
      'a purchase of another amount',
      'purchase',
      byNumber,
      {...livePurchase, amount: 2000},
      {},
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'amount', against: 'sent', expected: 10000, found: 2000}]}},
      {outcome: 'taken', differences: [{field: 'amount', against: 'sent', expected: 10000, found: 2000}]},
    ],
    ['a purchase in another currency', 'purchase', byNumber, {...livePurchase, currency: 'NZD'}, {}, {outcome: 'unknown'}, {outcome: 'taken', differences: [{field: 'currency', against: 'sent', expected: 'AUD', found: 'NZD'}]}],
    ['the currency in another case', 'purchase', {...byNumber, currency: 'aud'}, livePurchase, {}, {outcome: 'approved'}, {outcome: 'approved'}],
    [
      'a purchase on another card, sent back whole',
      'purchase',
      byNumber,
      {...livePurchase, card_number: '4242424242424242'},
      {},
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'card_number', against: 'sent', expected: '512345XXXXXX2346', found: '424242XXXXXX4242'}]}},
      {outcome: 'taken'},
    ],
    [
      'a purchase on another card than a number mistyped: the number sent is shown masked all the same',
      'purchase',
      {...byNumber, card_number: '5123456789012347'},
      livePurchase,
      {},
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'card_number', against: 'sent', expected: '512345XXXXXX2347', found: '512345XXXXXX2346'}]}},
      {outcome: 'taken'},
    ],
    ['a purchase under another reference (inv-b for inv-b.json)', 'purchase', {...byNumber, reference: 'order-1042.json'}, livePurchase, {}, {outcome: 'unknown'}, {outcome: 'taken'}],
    ['a purchase that does not say its reference', 'purchase', byNumber, {...livePurchase, reference: undefined}, {}, {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['reference']}}, {outcome: 'unknown'}],
    ['a purchase that does not say its card', 'purchase', byToken, {...livePurchase, card_token: null}, {}, {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['card_token']}}, {outcome: 'unknown'}],
    ['a purchase that does not say its card number', 'purchase', byNumber, {...livePurchase, card_number: undefined}, {}, {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['card_number']}}, {outcome: 'unknown'}],
    ['a purchase that does not say its currency', 'purchase', byNumber, {...livePurchase, currency: null}, {}, {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['currency']}}, {outcome: 'unknown'}],
    ['a purchase that does not say its amount', 'purchase', byNumber, {...livePurchase, amount: undefined}, {}, {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['amount']}}, {outcome: 'unknown'}],
    // A card is sent by its number or by a token: when both are there, the number is the card compared.
    ['sent with a card number and a token: the number is compared', 'purchase', {...byNumber, card_token: 'zzzzzzzzzzzzzzzzzzzz'}, livePurchase, {}, {outcome: 'approved'}, {outcome: 'approved'}],
    ['sent without a currency: any currency found is the default one', 'purchase', {...byNumber, currency: undefined}, {...livePurchase, currency: 'NZD'}, {}, {outcome: 'approved'}, {outcome: 'approved'}],
    [
      'a purchase by alias, with nothing learned of the alias',
      'purchase',
      byAlias,
      livePurchase,
      {},
      {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['card_token (what alias "jane-mastercard" stands for)']}},
      {outcome: 'unknown'},
    ],
    [
      'a purchase sent without a reference',
      'purchase',
      {...byNumber, reference: undefined},
      livePurchase,
      {},
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'reference', against: 'sent', expected: null, found: 'order-1042'}]}},
      {outcome: 'taken'},
    ],
    ['the same purchase, declined then', 'purchase', byNumber, {...livePurchase, successful: false, message: 'Do Not Honour'}, {}, {outcome: 'declined', source: 'recovered'}, {outcome: 'declined', source: 'earlier', reason: 'Do Not Honour'}],
    ['the same purchase, not saying whether approved', 'purchase', byNumber, {...livePurchase, successful: undefined}, {}, {outcome: 'unknown', reason: {why: 'no_outcome'}}, {outcome: 'unknown'}],

    ['same refund, done earlier: transaction_id its own id, amount positive, the purchase card', 'refund', refundSent, liveRefund, ofPurchase, {outcome: 'approved', source: 'recovered'}, {outcome: 'approved', source: 'earlier'}],
    ['a refund as the contract shapes it: negative, no reference', 'refund', refundSent, contractRefund, ofPurchase, {outcome: 'approved'}, {outcome: 'approved'}],
    [
      'another refund under that reference: another amount',
      'refund',
      refundSent,
      {...liveRefund, amount: 2500},
      ofPurchase,
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'amount', against: 'sent', expected: 5000, found: 2500}]}},
      {outcome: 'taken', differences: [{field: 'amount', against: 'sent', expected: 5000, found: 2500}]},
    ],
    [
      "another refund under that reference: the same amount of another purchase's card",
      'refund',
      refundSent,
      {...liveRefund, ...otherCard},
      ofPurchase,
      {outcome: 'unknown'},
      {
        outcome: 'taken',
        differences: [
          {field: 'card_number', against: 'purchase', expected: '512345XXXXXX2346', found: '424242XXXXXX4242'},
          {field: 'card_holder', against: 'purchase', expected: 'Jane Citizen', found: 'John Smith'},
        ],
      },
    ],
    [
      "another refund under that reference: the same holder and amount, another of her cards",
      'refund',
      refundSent,
      {...liveRefund, card_number: '424242XXXXXX4242'},
      ofPurchase,
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'card_number', against: 'purchase', expected: '512345XXXXXX2346', found: '424242XXXXXX4242'}]}},
      {outcome: 'taken', differences: [{field: 'card_number', against: 'purchase', expected: '512345XXXXXX2346', found: '424242XXXXXX4242'}]},
    ],
    [
      'another refund under that reference: the same last four digits, another card',
      'refund',
      refundSent,
      {...liveRefund, card_number: '411111XXXXXX2346'},
      ofPurchase,
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'card_number', against: 'purchase', expected: '512345XXXXXX2346', found: '411111XXXXXX2346'}]}},
      {outcome: 'taken'},
    ],
    [
      'a refund without its card number',
      'refund',
      refundSent,
      {...liveRefund, card_number: undefined},
      ofPurchase,
      {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['card_number']}},
      {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['card_number']}},
    ],
    [
      "a refund whose purchase does not say its card number",
      'refund',
      refundSent,
      liveRefund,
      {purchase: {...livePurchase, card_number: undefined}},
      {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ["purchase's card_number"]}},
      {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ["purchase's card_number"]}},
    ],
    [
      "a refund whose purchase does not say its card holder",
      'refund',
      refundSent,
      liveRefund,
      {purchase: {...livePurchase, card_holder: null}},
      {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ["purchase's card_holder"]}},
      {outcome: 'unknown'},
    ],
    ['a refund whose reference is null, as the contract shapes none', 'refund', refundSent, {...liveRefund, reference: null}, ofPurchase, {outcome: 'approved'}, {outcome: 'approved'}],
    [
      'a refund whose amount is text',
      'refund',
      refundSent,
      {...liveRefund, amount: '5000'},
      ofPurchase,
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'amount', against: 'sent', expected: 5000, found: '5000'}]}},
      {outcome: 'taken'},
    ],
    ['a refund whose currency is no text: not compared', 'refund', refundSent, {...liveRefund, currency: 36}, ofPurchase, {outcome: 'approved'}, {outcome: 'approved'}],
    ['a refund of a purchase whose currency is no text: not compared', 'refund', refundSent, liveRefund, {purchase: {...livePurchase, currency: 36}}, {outcome: 'approved'}, {outcome: 'approved'}],
    ["a refund in its purchase's currency, in another case and with spaces", 'refund', refundSent, {...liveRefund, currency: ' aud '}, ofPurchase, {outcome: 'approved'}, {outcome: 'approved'}],
    [
      'a refund whose card holder is no text',
      'refund',
      refundSent,
      {...liveRefund, card_holder: 42},
      ofPurchase,
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'card_holder', against: 'purchase', expected: 'Jane Citizen', found: 42}]}},
      {outcome: 'taken'},
    ],
    [
      'a refund in another currency than its purchase',
      'refund',
      refundSent,
      {...liveRefund, currency: 'NZD'},
      ofPurchase,
      {outcome: 'unknown'},
      {outcome: 'taken', differences: [{field: 'currency', against: 'purchase', expected: 'AUD', found: 'NZD'}]},
    ],
    ["a refund of a purchase whose holder and currency are written otherwise: the same", 'refund', refundSent, liveRefund, {purchase: {...livePurchase, card_holder: ' JANE CITIZEN', currency: 'aud '}}, {outcome: 'approved'}, {outcome: 'approved'}],
    [
      "a refund of a purchase whose card holder is no text",
      'refund',
      refundSent,
      liveRefund,
      {purchase: {...livePurchase, card_holder: 42}},
      {outcome: 'unknown', reason: {why: 'different', differences: [{field: 'card_holder', against: 'purchase', expected: 42, found: 'Jane Citizen'}]}},
      {outcome: 'taken'},
    ],
    [
      'a refund naming another reference',
      'refund',
      refundSent,
      {...liveRefund, reference: 'refund-1042-b'},
      ofPurchase,
      {outcome: 'unknown'},
      {outcome: 'taken', differences: [{field: 'reference', against: 'sent', expected: 'refund-1042-a', found: 'refund-1042-b'}]},
    ],
    ['a refund whose purchase could not be looked up', 'refund', refundSent, liveRefund, {purchase: null}, {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['purchase refunded']}}, {outcome: 'unknown'}],
    ['a refund without its card holder', 'refund', refundSent, {...liveRefund, card_holder: undefined}, ofPurchase, {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['card_holder']}}, {outcome: 'unknown'}],
    ['a refund without an amount', 'refund', refundSent, {...liveRefund, amount: null}, ofPurchase, {outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['amount']}}, {outcome: 'unknown'}],
    ['the same refund, declined then', 'refund', refundSent, {...liveRefund, successful: false, message: 'Declined'}, ofPurchase, {outcome: 'declined'}, {outcome: 'declined'}],
  ]

  it.each(cases)('%s', (_, noun, sent, found, evidence, recovered, earlier) => {
    expect(decideFound(noun, sent, found, evidence, 'recovered')).toMatchObject(recovered)
    expect(decideFound(noun, sent, found, evidence, 'earlier')).toMatchObject(earlier)
  })

  it('never reads a refund record for its purchase: transaction_id is the refund itself on the live gateway', () => {
    expect(decideFound('refund', {...refundSent, transaction_id: livePurchase.id}, liveRefund, ofPurchase, 'earlier')).toMatchObject({outcome: 'approved'})
  })
})

describe('compare: every field rule held to the record found', () => {
  it('says what differs and what could not be checked, each in its own list', () => {
    expect(compare('purchase', byNumber, {...livePurchase, amount: 2000, card_number: null})).toEqual({
      differences: [{field: 'amount', against: 'sent', expected: 10000, found: 2000}],
      unchecked: ['card_number'],
    })
    expect(compare('refund', refundSent, {...liveRefund, amount: null, reference: 'refund-1042-b'})).toEqual({
      differences: [{field: 'reference', against: 'sent', expected: 'refund-1042-a', found: 'refund-1042-b'}],
      unchecked: ['amount', 'purchase refunded'],
    })
  })
})

describe('each outcome exits as design.md §4 says, with what a person needs to see', () => {
  it('exit codes', () => {
    expect(exitCodeOf(decideAnswer('purchase', livePurchase))).toBe(0)
    expect(exitCodeOf(decideAnswer('purchase', {...livePurchase, successful: false}))).toBe(3)
    expect(exitCodeOf(decideFound('refund', refundSent, {...liveRefund, amount: 1}, ofPurchase, 'earlier'))).toBe(7)
    expect(exitCodeOf(decideAnswer('purchase', {...livePurchase, successful: undefined}))).toBe(8)
  })

  it('an approval fails nothing; a decline keeps its record; one found earlier says so', () => {
    expect(failureOf(decideAnswer('purchase', livePurchase), {sent: byNumber})).toBeUndefined()
    const declined = {...livePurchase, successful: false, message: 'Insufficient Funds'}
    const now = failureOf(decideAnswer('purchase', declined), {sent: byNumber})
    expect(now).toBeInstanceOf(DeclinedError)
    expect(now).toMatchObject({message: 'Purchase declined: Insufficient Funds', messages: ['Insufficient Funds'], record: declined, exitCode: 3})
    expect(failureOf(decideFound('purchase', byNumber, declined, {}, 'earlier'), {sent: byNumber})?.message).toBe('Purchase declined (earlier, under this reference): Insufficient Funds')
  })

  it('a reference taken by another refund names it and what differs, and says nothing was sent', () => {
    const error = failureOf(decideFound('refund', refundSent, {...liveRefund, amount: 2500}, ofPurchase, 'earlier'), {sent: refundSent})
    expect(error).toBeInstanceOf(ReferenceTakenError)
    expect(error).toMatchObject({exitCode: 7, noun: 'refund', reference: 'refund-1042-a', holder: '071-R-8KD2MZQA'})
    expect(error?.message).toBe('Reference refund-1042-a is already taken by another refund 071-R-8KD2MZQA: amount: sent 5000, found 2500. Nothing was sent.')
  })

  it("a refund of another card names the purchase's card against the one found", () => {
    const error = failureOf(decideFound('refund', refundSent, {...liveRefund, ...otherCard}, ofPurchase, 'earlier'), {sent: refundSent})
    expect(error?.message).toContain(`card_number: the purchase's "512345XXXXXX2346", found "424242XXXXXX4242"; card_holder: the purchase's "Jane Citizen", found "John Smith"`)
  })

  it('an unknown outcome after a lost answer shows both records, card masked and no CVV', () => {
    const sent = {...byNumber, cvv: '987'}
    const error = failureOf(decideFound('purchase', sent, {...livePurchase, amount: 2000, card_number: '5123456789012346'}, {}, 'recovered'), {
      sent,
      lookedUpBecause: 'The purchase was sent but no answer came back that could be read (socket hang up)',
    })
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error?.exitCode).toBe(8)
    expect(error?.message).toContain('The purchase was sent but no answer came back that could be read (socket hang up). The gateway has a purchase under reference order-1042, but not the one sent (amount: sent 10000, found 2000):\n')
    expect(error?.message).toContain('  sent:  {"card_holder":"Jane Citizen","card_number":"512345XXXXXX2346","card_expiry":"02/2030","amount":10000,"reference":"order-1042","currency":"AUD"}')
    expect(error?.message).not.toMatch(/5123456789012346|987/)
  })

  it('an alias that could not be looked up is said to be unchecked', () => {
    const error = failureOf(decideFound('purchase', byAlias, livePurchase, {aliasToken: null}, 'recovered'), {sent: byAlias})
    expect(error?.message).toMatch(/^The gateway has a purchase under reference order-1042, but whether it is the one sent could not be checked \(card_token \(what alias "jane-mastercard" stands for\) not known\): \{"id":"071-P-1VQZVNTX"/)
  })
})

describe('sameCard: card numbers whole or masked as gateways mask them', () => {
  it.each<[unknown, unknown, boolean]>([
    ['5123456789012346', '512345XXXXXX2346', true],
    ['512345XXXXXX2346', '5123456789012346', true],
    ['512345******2346', '512345••••••2346', true],
    ['2346', '2346', true],
    ['346', '346', false],
    ['42424242', '4242424242', false],
    ['5123456789012346', '512345XXXXXXXXXX', false],
    ['512345XXXXXXXXXX', '5123456789012346', false],
    ['5123456789012346', '512345XXXXXXXXX6', false],
    ['512345XXXXXXXXX6', '5123456789012346', false],
    ['5123456789012346', '5123456789012347', false],
    [undefined, '512345XXXXXX2346', false],
    ['512345XXXXXX2346', null, false],
    // A JSON number from a gateway that types the card number so: its digits, while it holds them all.
    [5123456789012346, '512345XXXXXX2346', true],
    ['512345XXXXXX2346', 5123456789012346, true],
    [5123456789012347, '512345XXXXXX2346', false],
    [2 ** 53 + 2, '900719XXXXXX0994', false],
    [-5123456789012346, '512345XXXXXX2346', false],
    ['512345XXXXXX2346', '512345xxxxxx2346', true],
    ['512345XXXXXX2346', 'XXXXXXXXXXXX2346', true],
    ['512345XXXXXX2346', '512345XXXXXX2347', false],
    ['5123 4567 8901 2346', '512345XXXXXX2346', true],
    ['512345XXXXXX2346', '512345XXXXXXX2346', false],
    ['512345XXXXXXXXXX', '512345XXXXXXXXXX', false],
  ])('%s and %s: %s', (a, b, same) => {
    expect(sameCard(a, b)).toBe(same)
  })
})
