import {describe, expect, it} from 'vitest'
import {atRest, hexOfLettered, isMaskedAtRest, jsonAtRest, keyedName, letteredHex, newNameSecret} from '../../../src/safety/at-rest.js'
import {CARD_DIGITS, CARD_SEPARATORS, digitValue, DIGIT_CLASS, isCardDigit, isDigitOrSeparator, isSeparator, kindOfCode, luhnValues, NON_ASCII_LEAD_BYTES, SEPARATOR, SEPARATOR_CLASS} from '../../../src/safety/card-digits.js'
import {printsAsSent} from '../../../src/safety/prints-as-sent.js'
import {kindOf, looksLikeCardNumber, maskCardDataIn, maskCardNumber, maskCardNumbersIn, maskCardPath, redact, redactText} from '../../../src/safety/redact.js'

// The edges of the masker's rules: what the table holds, where a run starts and stops, 13 and 19
// digits, the keys of a CVV, a path, and what a file keeps.

const code = (char: string) => char.charCodeAt(0)

describe("the table holds what the issue names, whatever it is extended with", () => {
  it('its separators: spaces (a no-break and an ideographic one too), tabs, dashes, dots, underscores, slashes, in ASCII and full width; and what shows as nothing', () => {
    expect(CARD_SEPARATORS.map(({name}) => name)).toEqual(['space', 'tab', 'dash', 'dot', 'underscore', 'slash', 'invisible'])
    for (const char of ' \u00a0\u3000\t-\u2013\uff0d.\uff0e_\uff3f/\uff0f\u200b\ufeff') expect(isSeparator(code(char)), `U+${code(char).toString(16)}`).toBe(true)
    for (const char of 'aX,:;+()\n\r\u2028\\"\u0000') expect(isSeparator(code(char)), `U+${code(char).toString(16)}`).toBe(false)
  })

  it('its digits: ASCII and full-width, Arabic-Indic, Extended Arabic-Indic and Devanagari, each worth its value', () => {
    expect(CARD_DIGITS.map(({name}) => name)).toEqual(['ASCII', 'full-width', 'Arabic-Indic', 'Extended Arabic-Indic', 'Devanagari'])
    expect(['0', '9', '\uff10', '\uff19', '\u0660', '\u0669', '\u06f0', '\u06f9', '\u0966', '\u096f'].map((char) => digitValue(code(char)))).toEqual([0, 9, 0, 9, 0, 9, 0, 9, 0, 9])
    for (const char of ['/', ':', '\uff0f', '\uff1a', 'a', '.', ' ']) {
      expect(digitValue(code(char)), char).toBe(-1)
      expect(isCardDigit(code(char)), char).toBe(false)
    }
    expect([isCardDigit(0x80), isSeparator(0x80), digitValue(0x80), kindOfCode(0x80), kindOfCode(0x7f)]).toEqual([false, false, -1, 0, 0])
    expect([isDigitOrSeparator(code('7')), isDigitOrSeparator(code('\uff17')), isDigitOrSeparator(code('.')), isDigitOrSeparator(code('a')), isDigitOrSeparator(code('\u00e9'))]).toEqual([true, true, true, false, false])
    expect([kindOfCode(code('0')), kindOfCode(code('9')), kindOfCode(code('-')), kindOfCode(code('a')), kindOfCode(code('\uff15')), kindOfCode(0x10000)]).toEqual([1, 10, SEPARATOR, 0, 6, 0])
  })

  it('its character classes, and the first bytes of its characters beyond ASCII, as UTF-8 has them', () => {
    expect(new RegExp(`^[${DIGIT_CLASS}]+$`, 'u').test('09\uff10\uff19\u0660\u0969')).toBe(true)
    expect(new RegExp(`[${DIGIT_CLASS}]`, 'u').test('a/:\uff0f')).toBe(false)
    expect(new RegExp(`^[${SEPARATOR_CLASS}]+$`, 'u').test(' \t-._/\u00a0\u3000\uff0f')).toBe(true)
    expect(new RegExp(`[${SEPARATOR_CLASS}]`, 'u').test('a0,:\n')).toBe(false)
    expect([...NON_ASCII_LEAD_BYTES].sort((a, b) => a - b)).toEqual([0xc2, 0xd9, 0xdb, 0xe0, 0xe1, 0xe2, 0xe3, 0xef])
  })

  it('the Luhn check, every digit doubled or not in its place', () => {
    const values = (digits: string) => [...digits].map(Number)
    for (const valid of ['4111111111111111', '5123456789012346', '6011000990139424124', '4222222222222', '79927398713', '0']) expect(luhnValues(values(valid)), valid).toBe(true)
    for (const invalid of ['4111111111111112', '79927398710', '79927398714', '1', '19', '58', '4111111111111121']) expect(luhnValues(values(invalid)), invalid).toBe(false)
  })
})

describe('where a card number starts and stops', () => {
  it('13 and 19 digits are one, inside a text and whole; 12 and 20 are none', () => {
    for (const [text, shown] of [
      ['x4222222222222y', 'x422222XXX2222y'],
      ['n 6011000990139424124 x', 'n 601100XXXXXXXXX4124 x'],
      ['n 4222-2222-22222 x', 'n 422222XXX2222 x'],
    ]) expect(maskCardNumbersIn(text!)).toBe(shown)
    expect(looksLikeCardNumber('6011000990139424124')).toBe(true)
    expect(looksLikeCardNumber('6011.0009.9013.9424.124')).toBe(true)
    // 20 digits in one group (passing the Luhn check), and 12: no span of whole groups is a card number.
    for (const text of ['n 60110009901394241230 x', '4242 4242 4242']) expect(maskCardNumbersIn(text), text).toBe(text)
    expect(looksLikeCardNumber('60110009901394241230')).toBe(false)
    expect(looksLikeCardNumber('6011 0009 9013 9424 1230')).toBe(false)
  })

  it('a letter parts two runs of digits; a number at the very end of a text is found there', () => {
    expect(maskCardNumbersIn('4111111x111111111')).toBe('4111111x111111111')
    expect(maskCardNumbersIn('4111111\u0080111111111')).toBe('4111111\u0080111111111')
    expect(maskCardNumbersIn('ref x4222222222222')).toBe('ref x422222XXX2222')
    expect(maskCardNumbersIn('4222222222222')).toBe('422222XXX2222')
  })

  it('separators before or after a number are no part of it; two in a row part two numbers, as columns do', () => {
    expect(maskCardNumbersIn('12345/20000  1234.5/s  ETA 0:10')).toBe('12345/20000  1234.5/s  ETA 0:10')
    expect(maskCardNumbersIn('4111 1111  1111 1111')).toBe('4111 1111  1111 1111')
    expect(maskCardNumbersIn('a 4111 1111 1111 1111  2 b')).toBe('a 411111XXXXXX1111  2 b')
    expect(maskCardNumbersIn('--4111-1111-1111-1111--')).toBe('--411111XXXXXX1111--')
    expect(maskCardNumbersIn('ref 4111 1111 1111 1111')).toBe('ref 411111XXXXXX1111')
    expect(maskCardNumbersIn('4111111111111111.')).toBe('411111XXXXXX1111.')
    expect(maskCardNumber(' 4111 1111 1111 1111 ')).toBe('411111XXXXXX1111')
  })

  it('a last group of one digit is part of the number; a run of 13 digits that is none leaves the card number after it masked', () => {
    expect(maskCardNumbersIn('x 4222 2222 2222 2 y')).toBe('x 422222XXX2222 y')
    expect(maskCardNumbersIn('order 1234567890123, card 4111 1111 1111 1111')).toBe('order 1234567890123, card 411111XXXXXX1111')
  })

  it('overlapping card numbers hide every digit of both, counted in any script', () => {
    // 4242 4242 4242 4242 and 4242 4242 4242 4242 4242 ... : groups 1-4 and 2-5 both pass.
    expect(maskCardNumbersIn('a 4242 4242 4242 4242 4242 b')).toBe(`a ${'X'.repeat(20)} b`)
    expect(maskCardNumbersIn('a \uff14\uff12\uff14\uff12 4242 4242 4242 4242 b')).toBe('a XXXXXXXXXXXXXXXXXXXX b')
    // Groups of eight: groups 1-2 and 2-3 each pass, sharing group 2.
    expect(maskCardNumbersIn('a 42424242 42424242 42424242 b')).toBe(`a ${'X'.repeat(24)} b`)
    // Only the digits of the numbers that overlap: an order's 12 before them in the same run shows.
    expect(maskCardNumbersIn('order 12 4242 4242 4242 4242 4242 b')).toBe(`order 12 ${'X'.repeat(20)} b`)
  })
})

describe('the keys of a CVV', () => {
  it('any key holding cvv or cvc, in any case, whatever is around it; the gateway cvv_match is its check, kept', () => {
    for (const key of ['cvv', 'CVC', 'cvv2', 'card[cvv]', 'Card_CVC_code', 'xcvcx', 'cvcvv']) expect(kindOf(key), key).toBe('cvv')
    for (const key of ['cvv_match', 'CVV_MATCH', 'cv', 'cvx', 'vcv', 'c v v', 'card_cv', 'cvbv']) expect(kindOf(key), key).toBeUndefined()
    expect(redact({cvv_match: 'M', 'card[cvv]': '731', note: 'x'})).toStrictEqual({cvv_match: 'M', note: 'x'})
  })

  it('printsAsSent refuses a record with one under a key of any length, and passes one with a cv elsewhere', () => {
    for (const text of ['{"cvvcode":"1"}', '{"a":1,"cvvcode":"1"}', '{"xcvvx":"1"}', '{"card[CVC]":1}']) expect(printsAsSent(text), text).toBe(false)
    for (const text of ['{"cvv_match":"M"}', '{"note":"cvv","vx":1}', '{"c":"v","vv":1}', '{"abc":"x","vvv":"cv"}']) expect(printsAsSent(text), text).toBe(true)
  })
})

describe('a path or URL as gw and the local gateway show it', () => {
  it('card numbers masked, as written or percent-encoded, the token of a stored card too; the rest as it was', () => {
    expect(maskCardPath('/v1.0/purchases/ord-4111%201111%201111%201111')).toBe('/v1.0/purchases/ord-411111XXXXXX1111')
    expect(maskCardPath('/v1.0/purchases/ord-4111%091111%091111%091111?x=1')).toBe('/v1.0/purchases/ord-411111XXXXXX1111?x=1')
    expect(maskCardPath('/v1.0/purchases/%EF%BC%94%EF%BC%91%EF%BC%91%EF%BC%91111111111111')).toBe('/v1.0/purchases/411111XXXXXX1111')
    expect(maskCardPath('http://127.0.0.1:8787/v1.0/purchases?reference=x%204111.1111.1111.1111&limit=5')).toBe('http://127.0.0.1:8787/v1.0/purchases?reference=x%20411111XXXXXX1111&limit=5')
    expect(maskCardPath('/v1.0/purchases/4111111111111111/refunds')).toBe('/v1.0/purchases/411111XXXXXX1111/refunds')
    expect(maskCardPath('/v1.0/credit_cards/abcdefghij0123456789')).toBe('/v1.0/credit_cards/****************6789')
    expect(maskCardPath('/v1.0/purchases/ord-4111%201111%201111%201111#at%20once')).toBe('/v1.0/purchases/ord-411111XXXXXX1111#at%20once')
    for (const path of ['/v1.0/purchases/ord%201', '/v1.0/purchases/100%25', '/v1.0/purchases/ord%7e1', '/v1.0/purchases/%E0%A4%A', 'http://127.0.0.1:8787/v1.0/purchases?limit=5']) expect(maskCardPath(path), path).toBe(path)
  })
})

describe('redactText hands a body with nothing to mask back as it came', () => {
  it('spacing, escapes and number spellings kept; one that needs masking written anew', () => {
    for (const text of ['{ "a" : 1.0 }', '{\n  "reference": "caf\\u00e9"\n}', '[1e3]']) expect(redactText(text)).toBe(text)
    expect(redactText('{ "a" : "4111 1111 1111 1111" }')).toBe('{"a":"411111XXXXXX1111"}')
    expect(redactText('{ "card[cvv]" : "731", "a" : 1 }')).toBe('{"a":1}')
    // A key named twice: the value holds the last, the text both; written anew from the value.
    expect(redactText('{"note":"4111111111111111","note":"x"}')).toBe('{"note":"x"}')
  })

  it("a person's typing: 12 to 19 digits in the table's scripts and separators masked, Luhn or not; inside a word, not", () => {
    expect(maskCardDataIn('Unexpected argument: 4242.4242.4242')).toBe('Unexpected argument: 424242XX4242')
    expect(maskCardDataIn('Unexpected argument: \uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff11')).toBe('Unexpected argument: 424242XX4241')
    expect(maskCardDataIn('Unexpected argument: x424242424241 4242424242421y')).toBe('Unexpected argument: x424242424241 4242424242421y')
    expect(maskCardDataIn('11 digits 42424242424')).toBe('11 digits 42424242424')
    expect(maskCardDataIn('21 digits 424242424242424242421')).toBe('21 digits 424242424242424242421')
    expect(maskCardDataIn('19 digits 4242424242424242421')).toBe('19 digits 424242XXXXXXXXX2421')
  })
})

describe('what a file keeps (at-rest.ts)', () => {
  it('card numbers masked in every string and whole card fields, CVVs left out; names kept whole as asked; numbers and secrets kept', () => {
    const value = {reference: 'x4111.1111.1111.1111', card_number: '4242', cvv: '1', metadata: {'card[cvv]': '2', lines: ['4111_1111_1111_1111', 7]}, token: '4111111111111111', password: 'p', amount: 4111111111111111}
    expect(atRest(value, new Set(['token']))).toStrictEqual({reference: 'x411111XXXXXX1111', card_number: 'XXXX', metadata: {lines: ['411111XXXXXX1111', 7]}, token: '4111111111111111', password: 'p', amount: 4111111111111111})
    expect(atRest(value).token).toBe('411111XXXXXX1111')
    expect(atRest(null)).toBe(null)
    expect(atRest({number: 5, pan: null})).toStrictEqual({number: 5, pan: null})
    expect(JSON.parse(jsonAtRest(value))).toStrictEqual(atRest(value))
    const clean = {reference: 'order-1', amount: 1000}
    expect(jsonAtRest(clean)).toBe(JSON.stringify(clean))
  })

  it('whether a name is kept masked; a key and keyed hashes that never read as card numbers, one key hashing one name alike', () => {
    expect([isMaskedAtRest('ord-4111111111111111'), isMaskedAtRest('ord-1'), isMaskedAtRest('424242XXXXXX4242')]).toEqual([true, false, false])
    const secret = newNameSecret()
    expect(secret).toMatch(/^[a-p]{64}$/)
    expect(newNameSecret()).not.toBe(secret)
    expect(keyedName(secret, 'ord-4111111111111111')).toMatch(/^[a-p]{64}$/)
    expect(keyedName(secret, 'ord-4111111111111111')).toBe(keyedName(secret, 'ord-4111111111111111'))
    expect(keyedName(secret, 'ord-4111111111111111')).not.toBe(keyedName(secret, 'ord-4111111000071111'))
    expect(keyedName(newNameSecret(), 'ord-4111111111111111')).not.toBe(keyedName(secret, 'ord-4111111111111111'))
  })

  it('a hash in hex kept with its digits as letters (g-p), which a masker leaves as it is, and given back in hex', () => {
    const hex = `4111111111111111${'0123456789abcdef'.repeat(3)}`
    const lettered = letteredHex(hex)
    expect(lettered).toBe(`khhhhhhhhhhhhhhh${'ghijklmnopabcdef'.repeat(3)}`)
    expect(atRest(lettered)).toBe(lettered)
    expect(hexOfLettered(lettered)).toBe(hex)
    expect(hexOfLettered(hex)).toBe(hex)
    expect(hexOfLettered('411111XXXXXX1111')).toBe('411111XXXXXX1111')
  })
})
