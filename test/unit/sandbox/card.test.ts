import {describe, expect, it} from 'vitest'
import {
  cardType,
  checkCardDetails,
  expiryDate,
  maskCardNumber,
  newCardRecord,
  newCardToken,
  readExpiry,
  submittedCard,
} from '../../../src/sandbox/domain/card.js'

const TODAY = '2026-11-22'

describe('maskCardNumber', () => {
  it.each([
    ['5123456789012346', '512345XXXXXX2346'],
    ['4005550000000001', '400555XXXXXX0001'],
    ['378282246310005', '378282XXXXX0005'],
    ['4111111111111111111', '411111XXXXXXXXX1111'],
    ['12345678901', '123456X8901'],
    ['1234567890', 'XXXXXXXXXX'],
    ['', ''],
  ])('%s → %s', (number, masked) => {
    expect(maskCardNumber(number)).toBe(masked)
  })
})

describe('cardType', () => {
  it.each([
    ['4005550000000001', 'VISA'],
    ['5123456789012346', 'MasterCard'],
    ['5555555555554444', 'MasterCard'],
    ['2221000000000009', 'MasterCard'],
    ['2720990000000007', 'MasterCard'],
    ['2220990000000008', 'Unknown'],
    ['378282246310005', 'AMEX'],
    ['341111111111111', 'AMEX'],
    ['30569309025904', 'Diners'],
    ['6011111111111117', 'Discover'],
    ['3530111333300000', 'JCB'],
    ['9999999999999995', 'Unknown'],
  ])('%s is %s', (number, type) => {
    expect(cardType(number)).toBe(type)
  })
})

describe('expiryDate', () => {
  it.each([
    ['02/2030', '2030-02-28'],
    ['02/2028', '2028-02-29'],
    ['04/2030', '2030-04-30'],
    ['12/2030', '2030-12-31'],
    ['01/2031', '2031-01-31'],
    ['2/2030', '2030-02-28'],
  ])('%s ends on %s', (expiry, date) => {
    expect(expiryDate(expiry)).toBe(date)
  })

  it.each(['13/2030', '00/2030', '0/2030', '02/30', '02-2030', 'soon'])('%s is not MM/YYYY', (expiry) => {
    expect(expiryDate(expiry)).toBeUndefined()
  })
})

describe('readExpiry', () => {
  it.each([
    // The gateway's words, missing or not MM/YYYY alike (gateway-beyond.md §14.7).
    [undefined, {error: 'Expiry date is missing or invalid.'}],
    ['  ', {error: 'Expiry date is missing or invalid.'}],
    ['13/2030', {error: 'Expiry date is missing or invalid.'}],
    ['10/2026', {error: 'Expiry date is invalid (expired)'}],
    ['11/2026', {date: '2026-11-30'}],
    [' 02/2030 ', {date: '2030-02-28'}],
  ])('%j → %j', (expiry, result) => {
    expect(readExpiry(expiry, TODAY)).toEqual(result)
  })

  it('treats a card as valid through the last day of its month', () => {
    expect(readExpiry('11/2026', '2026-11-30')).toEqual({date: '2026-11-30'})
    expect(readExpiry('11/2026', '2026-12-01')).toEqual({error: 'Expiry date is invalid (expired)'})
  })
})


describe('checkCardDetails', () => {
  const valid = {card_number: '5123 4567 8901 2346', card_holder: ' Jo Citizen ', card_expiry: '02/2030', cvv: '123'}

  it('accepts a valid card, with spaces in the number, and keeps no CVV', () => {
    expect(checkCardDetails(valid, TODAY)).toEqual({
      errors: [],
      details: {number: '5123456789012346', holder: 'Jo Citizen', expiry: '2030-02-28'},
    })
  })

  it.each([
    [{card_number: '5123456789012345'}, ['Invalid Card Number']],
    [{card_number: '12'}, ['Invalid Card Number']],
    // A card without a number has no scheme: the gateway says so, its blank name in front.
    [{card_number: ''}, ["Card number can't be blank", ' is not an accepted card type']],
    [{card_number: undefined}, ["Card number can't be blank", ' is not an accepted card type']],
    [{card_holder: ' '}, ["Card holder can't be blank"]],
    [{card_expiry: '01/2020'}, ['Expiry date is invalid (expired)']],
    [{card_expiry: '1/30'}, ['Expiry date is missing or invalid.']],
    [
      {card_number: undefined, card_holder: undefined, card_expiry: undefined},
      ["Card holder can't be blank", "Card number can't be blank", 'Expiry date is missing or invalid.', ' is not an accepted card type'],
    ],
  ])('%j → %j', (change, errors) => {
    expect(checkCardDetails({...valid, ...change}, TODAY)).toEqual({errors})
  })

  it("puts the caller's CVV problem where the gateway's empty card has it, before the scheme's (gateway-beyond.md §14.7)", () => {
    expect(checkCardDetails({}, TODAY, 'CVV is required')).toEqual({
      errors: ["Card holder can't be blank", "Card number can't be blank", 'Expiry date is missing or invalid.', 'CVV is required', ' is not an accepted card type'],
    })
    expect(checkCardDetails(valid, TODAY, 'CVV is required')).toEqual({errors: ['CVV is required']})
  })
})

describe('newCardRecord', () => {
  it('keeps only the masked number', () => {
    const card = newCardRecord({number: '4005550000000001', holder: 'Jo', expiry: '2030-02-28'})
    expect(card).toEqual({
      token: expect.stringMatching(/^[a-z0-9]{20}$/),
      card_holder: 'Jo',
      card_number: '400555XXXXXX0001',
      card_expiry: '2030-02-28',
      card_type: 'VISA',
      card_category: 'Credit',
      card_subcategory: 'Standard',
      card_issuer: 'Sandbox Bank',
      card_country: 'Australia',
      authorized: true,
      transaction_count: 0,
      alias: null,
    })
    expect(JSON.stringify(card)).not.toContain('4005550000000001')
  })
})

describe('newCardToken', () => {
  it('is 20 lower-case letters and digits, different each time', () => {
    const tokens = new Set(Array.from({length: 50}, newCardToken))
    expect(tokens.size).toBe(50)
    for (const token of tokens) expect(token).toMatch(/^[a-z0-9]{20}$/)
  })
})

describe('submittedCard', () => {
  it('masks the number and leaves the CVV out', () => {
    // As a request's fields come: the CVV among them.
    const fields = {card_number: '4111 1111 1111 1112', card_holder: 'Jo', card_expiry: '02/2030', cvv: '123'}
    expect(submittedCard(fields)).toEqual({
      card_holder: 'Jo',
      card_number: '411111XXXXXX1112',
      card_expiry: '02/2030',
    })
  })
})
