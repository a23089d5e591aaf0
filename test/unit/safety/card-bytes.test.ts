import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {bytesMayHoldCardData} from '../../../src/safety/card-bytes.js'

/** 13 digits with only ASCII separators of the table (or JSON's `\t` and `\/`) between them, `cvv`/`cvc` in any case, or an escaped ASCII character. */
const MAY_HOLD = /\d(?:(?:[ \t\-._/]|\\[t/])*\d){12}|[cC][vV][vVcC]|\\u00[0-7]/

describe('bytesMayHoldCardData: whether a delivery must be redacted before it is shown', () => {
  it('property: whenever the text holds 13 digits in a run (separators of the table between them or none), cvv/cvc in any case, or an escaped ASCII character, however the run falls', () => {
    const piece = fc.oneof(
      fc.constantFrom('4242424242424242', '4242 4242 4242 4242', '4111-1111-1111-1111', '4111.1111_1111/1111', '4111\\t1111\\/1111 1111', '424242XXXXXX4242', '"cvv"', '"CVC"', 'cVv', 'v', 'cv', '1234567890123', '123456789012', '2026-11-23', ' ', '-', '.', '\\', ' -', '"a":1', '\\u0034', '\\u00e9'),
      fc.string({maxLength: 13}),
    )
    fc.assert(
      fc.property(fc.array(piece, {maxLength: 12}), (parts) => {
        const text = parts.join('')
        if (MAY_HOLD.test(text)) expect(bytesMayHoldCardData(Buffer.from(text, 'latin1'))).toBe(true)
      }),
      {numRuns: 3000},
    )
  })

  it('what holds none of those, in ASCII, is shown as it came', () => {
    for (const text of ['{"a":"\\u0080\\u00ff\\uff1a"}', '{"amount":1000,"reference":"ord-1","transaction_date":"2026-11-23T09:01:02+11:00"}', '4242 4242 4242', '{"a":"\\u00e9 caf\\u00e9","b":"4111\\n1111\\n1111\\n1111"}', ' '.repeat(100), '1 '.repeat(6)]) {
      expect(bytesMayHoldCardData(Buffer.from(text)), text).toBe(false)
    }
  })

  it('a character of the table beyond ASCII, raw or escaped, has it redacted; other non-ASCII text does not', () => {
    for (const text of ['{"a":"\uff14"}', '{"a":"4111\u00a01111"}', '{"a":"\\uff14"}', '{"a":"\\u0664"}', '{"a":"\\u200b"}']) expect(bytesMayHoldCardData(Buffer.from(text)), text).toBe(true)
    for (const text of ['{"a":"café Zürich"}', '{"a":"Ωμέγα"}']) expect(bytesMayHoldCardData(Buffer.from(text)), text).toBe(false)
  })

  it('a v, a cv or a t that is no cvv, cvc or JSON escape leaves a delivery shown as it came', () => {
    // v after a letter other than c, and v before c; cv before a space; a t between digits, not JSON's `\t`.
    for (const text of ['{"note":"savvy vcs"}', '{"merchant":"ACV Auctions"}', '{"note":"1234567t1234567"}']) {
      expect(bytesMayHoldCardData(Buffer.from(text)), text).toBe(false)
    }
    for (const text of ['{"note":"cVv"}', '{"note":"Cvc"}', '{"note":"1234567\\t1234567"}', '{"note":"1234567\\/1234567"}']) {
      expect(bytesMayHoldCardData(Buffer.from(text)), text).toBe(true)
    }
  })

  it('an escaped ASCII letter has it redacted: a CVV key spelt with escapes', () => {
    for (const text of ['{"\\u0063vv":"123"}', '{"c\\u0056c":"123"}']) expect(bytesMayHoldCardData(Buffer.from(text)), text).toBe(true)
  })

  it('a byte that is no UTF-8 (0xa0 alone, decoded as U+FFFD) parts digits, as the text decoded from it holds no card number', () => {
    const digits = (separator: number) => Buffer.from(Buffer.from('4111 1111 1111 1111').map((byte) => (byte === 0x20 ? separator : byte)))
    expect(bytesMayHoldCardData(digits(0xa0))).toBe(false)
    expect(digits(0xa0).toString()).toBe('4111\ufffd1111\ufffd1111\ufffd1111')
    expect(bytesMayHoldCardData(digits(0x20))).toBe(true)
  })

  it('reads the bytes it is given, not the buffer around them', () => {
    const whole = Buffer.from('4111111111111111 {"a":1}')
    expect(bytesMayHoldCardData(whole.subarray(17))).toBe(false)
    expect(bytesMayHoldCardData(whole)).toBe(true)
  })
})
