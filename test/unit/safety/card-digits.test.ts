import {describe, expect, it} from 'vitest'
import {atRest, jsonAtRest} from '../../../src/safety/at-rest.js'
import {bytesMayHoldCardData} from '../../../src/safety/card-bytes.js'
import {CARD_DIGITS, CARD_SEPARATORS, digitValue, isSeparator} from '../../../src/safety/card-digits.js'
import {printsAsSent} from '../../../src/safety/prints-as-sent.js'
import {wholeCardNumbersIn} from '../../e2e/card-number-helpers.js'
import {holdsCardNumber, looksLikeCardNumber, maskCardDataIn, maskCardNumber, maskCardNumbersIn, redact, redactText} from '../../../src/safety/redact.js'

// The masker's one table (src/safety/card-digits.ts): each separator and each script of digits,
// through every check that reads it: gw's output, its --verbose and gw api bodies, gw listen's
// look at a delivery's bytes, what gw and its local gateway keep on disk.

const name = (char: string) => `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
const SEPARATORS = CARD_SEPARATORS.flatMap(({name: kind, chars}) => [...chars].map((char) => [kind, name(char), char] as const))

/** 4111 1111 1111 1111 with `separator` between its groups. */
const visa = (separator: string) => ['4111', '1111', '1111', '1111'].join(separator)
const MASKED = '411111XXXXXX1111'

describe('a card number written with each separator of the table is masked everywhere', () => {
  it.each(SEPARATORS)('%s %s', (_, __, separator) => {
    const number = visa(separator)
    expect(isSeparator(separator.charCodeAt(0))).toBe(true)
    // A field that is the number, and a text the number is in.
    expect(looksLikeCardNumber(number)).toBe(true)
    expect(maskCardNumber(number)).toBe(MASKED)
    expect(maskCardNumbersIn(`ref x${number}y, paid`)).toBe(`ref x${MASKED}y, paid`)
    // Two in a row: a value that is nothing else is still one, inside a text they part the groups (columns apart).
    expect(maskCardNumber(visa(separator + separator))).toBe(MASKED)
    expect(maskCardNumbersIn(`ref ${visa(separator + separator)} paid`)).toBe(`ref ${visa(separator + separator)} paid`)
    expect(holdsCardNumber(`order ${number}`)).toBe(true)
    // gw's output, --verbose and gw api, a person's typing.
    expect(redact({card_number: number, note: `card ${number}`})).toStrictEqual({card_number: MASKED, note: `card ${MASKED}`})
    expect(JSON.parse(redactText(JSON.stringify({note: number})))).toStrictEqual({note: MASKED})
    expect(maskCardDataIn(`Unexpected argument: ${number}`)).toBe(`Unexpected argument: ${MASKED}`)
    // The quick looks before a record or a delivery is masked see it, as JSON writes it.
    const json = JSON.stringify({note: `x${number}y`})
    expect(printsAsSent(json)).toBe(false)
    expect(bytesMayHoldCardData(Buffer.from(json))).toBe(true)
    // What gw and its local gateway keep on disk.
    expect(JSON.parse(jsonAtRest({note: `x${number}y`}))).toStrictEqual({note: `x${MASKED}y`})
    // The end-to-end tests' scan for card numbers, written apart from the masker, sees it in JSON, and none once masked.
    expect(wholeCardNumbersIn(json)).toEqual(['4111 1111 1111 1111'])
    expect(wholeCardNumbersIn(jsonAtRest({note: `x${number}y`}))).toEqual([])
  })

  it.each(SEPARATORS)('%s %s: 12 digits, or 16 that fail the Luhn check, are no card number', (_, __, separator) => {
    for (const other of [['4242', '4242', '4242'].join(separator), ['4111', '1111', '1111', '1112'].join(separator)]) {
      expect(looksLikeCardNumber(other)).toBe(false)
      expect(maskCardNumbersIn(`ref ${other} paid`)).toBe(`ref ${other} paid`)
      const record = {note: other}
      expect(redact(record)).toBe(record)
      expect(atRest(record)).toStrictEqual(record)
    }
  })
})

describe('a card number written in each script of digits of the table is masked, shown in ASCII', () => {
  const inScript = (zero: number, text: string) => text.replace(/\d/g, (digit) => String.fromCharCode(zero + Number(digit)))

  it.each(CARD_DIGITS.map(({name: script, zero}) => [script, zero] as const))('%s', (_, zero) => {
    for (let value = 0; value < 10; value++) expect(digitValue(zero + value)).toBe(value)
    const number = inScript(zero, '4111111111111111')
    expect(looksLikeCardNumber(number)).toBe(true)
    expect(maskCardNumber(number)).toBe(MASKED)
    expect(maskCardNumbersIn(`ref-${inScript(zero, '4111 1111.1111_1111')}!`)).toBe(`ref-${MASKED}!`)
    expect(redact({reference: `ord-${number}`})).toStrictEqual({reference: `ord-${MASKED}`})
    expect(printsAsSent(JSON.stringify({reference: `ord-${number}`}))).toBe(false)
    expect(wholeCardNumbersIn(JSON.stringify({reference: `ord-${number}`}))).toEqual(['4111111111111111'])
    expect(bytesMayHoldCardData(Buffer.from(JSON.stringify({reference: `ord-${number}`})))).toBe(true)
    // A card field that is not a card number shows none of its digits, in any script.
    expect(maskCardNumber(`${inScript(zero, '4242')} visa`)).toBe('XXXX visa')
    expect(inScript(zero, '4111 1111 1111 1112')).toBe(maskCardNumbersIn(inScript(zero, '4111 1111 1111 1112')))
  })
})

describe('what the table leaves out', () => {
  it('a line break ends a number: numbers on lines one after another (a --jq output) never make one together', () => {
    for (const text of ['4111\n1111\n1111\n1111', '1000\r\n4111\r\n1111\r\n1111\r\n1111\n', '4111\u20281111\u20281111\u20281111']) {
      expect(maskCardNumbersIn(text)).toBe(text)
      expect(looksLikeCardNumber(text)).toBe(false)
    }
  })

  it('letters, commas, colons and other punctuation end a number: ids, timestamps, amounts and lists stay as they are', () => {
    const record = {
      id: '071-P-52NRCGCF',
      transaction_date: '2026-11-23T09:01:02.123456+11:00',
      settlement: '2026/11/23',
      amounts: '1000,2000,3000,4000,5000',
      decimal_amount: '12345678.90',
      address: '192.168.100.200:8080',
      times: '10:00:00 11:00:00 12:00:00',
    }
    expect(redact(record)).toBe(record)
    expect(printsAsSent(JSON.stringify(record))).toBe(true)
  })
})
