import {describe, expect, it} from 'vitest'
import {holdsCardNumber, maskCardDataIn, maskCardNumbersIn, redact} from '../../../src/safety/redact.js'

// A card number inside a text is shown masked, wherever it stands and whoever
// sent it (design.md §3): every run of 13 to 19 digits, spaces or dashes between them, that passes
// the Luhn check.
describe('card numbers inside a text', () => {
  it.each([
    ['x4111111111111111y', 'x411111XXXXXX1111y'],
    ['4111 1111 1111 1111', '411111XXXXXX1111'],
    ['card 4242424242424242 declined', 'card 424242XXXXXX4242 declined'],
    ['card 4242-4242-4242-4242 declined', 'card 424242XXXXXX4242 declined'],
    ['two: 4242424242424242 and 5123456789012346.', 'two: 424242XXXXXX4242 and 512345XXXXXX2346.'],
    ['order 12 4111 1111 1111 1111', 'order 12 411111XXXXXX1111'],
    ['4222222222222', '422222XXX2222'],
    ['x 4222222222222 y', 'x 422222XXX2222 y'],
    // Two card numbers in one run of groups, side by side: each masked as itself.
    ['4242 4242 4242 4242 5123 4567 8901 2346', '424242XXXXXX4242 512345XXXXXX2346'],
    // The last four of one masked number and the groups after it make another (found by the idempotence property on Node 26's CI run).
    ['4242424242424242-4242 4242 4242 42424242424242424242', '424242XXXXXX424242XXXXXX4242 42424242424242424242'],
    ['x 4111111111111111110 y', 'x 411111XXXXXXXXX1110 y'],
    // Two card numbers overlap (groups 1-4 and 2-5 both pass the check): every digit of both is hidden.
    ['4242 4242 4242 4242 0000', 'XXXXXXXXXXXXXXXXXXXX'],
  ])('%s is shown as %s', (text, shown) => {
    expect(maskCardNumbersIn(text)).toBe(shown)
    expect(holdsCardNumber(text)).toBe(true)
  })

  it.each([
    ['a run that fails the Luhn check', 'order 4111111111111112'],
    ['a date and a time', '2026-11-25T04:32:44+00:00'],
    ['a phone number', '+61 2 9999 9999'],
    ['a gateway id and an authorization', '071-P-52NRCGCF 361315'],
    ['twelve digits', 'ref 424242424242'],
    ['twenty digits together', '42424242424242424242'],
    ['a masked number', '424242XXXXXX4242'],
    ['twenty digits that pass the check only all together', 'ref 2201 9325 1033 4179 1931'],
    ['spaces that do not run between digits', 'n 12 34 56 x'],
  ])('leaves %s alone', (_, text) => {
    expect(maskCardNumbersIn(text)).toBe(text)
    expect(holdsCardNumber(text)).toBe(false)
  })

  it('masks them in every string of a record, the fields around them kept, the record given left alone', () => {
    const record = {id: '071-P-1', reference: 'x4111111111111111y', card_holder: '4111 1111 1111 1111', metadata: {note: 'card 4242424242424242 declined'}, amount: 1000}
    expect(redact(record)).toEqual({id: '071-P-1', reference: 'x411111XXXXXX1111y', card_holder: '411111XXXXXX1111', metadata: {note: 'card 424242XXXXXX4242 declined'}, amount: 1000})
    expect(record.reference).toBe('x4111111111111111y')
  })

  it('hands a record with no card number in its text back as it is', () => {
    const record = {id: '071-P-1', reference: 'order-4111', message: 'Approved'}
    expect(redact(record)).toBe(record)
  })
})

describe("a person's typing (maskCardDataIn): 12 to 19 digits masked whether or not they pass the check", () => {
  it.each([
    ['card 4242424242424241 typed', 'card 424242XXXXXX4241 typed'],
    ['card 4242-4242-4242-4241 typed', 'card 424242XXXXXX4241 typed'],
    ['n 123456789012 x', 'n 123456XX9012 x'],
    ['n 1234 5678 9012 x', 'n 123456XX9012 x'],
    ['ref 2201 9325 1033 4179 1931', 'ref 220193XXXXXX4179 1931'],
    ['n 12345678901 x', 'n 12345678901 x'],
    ['n 12 34 56 x', 'n 12 34 56 x'],
  ])('%s is shown as %s', (text, shown) => {
    expect(maskCardDataIn(text)).toBe(shown)
  })
})
