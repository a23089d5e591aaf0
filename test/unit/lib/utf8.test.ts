import {describe, expect, it} from 'vitest'
import {decodeUtf8, holdsReplacement} from '../../../src/lib/utf8.js'
import {utf8Checked} from '../../../src/output/prompt.js'

describe('decodeUtf8', () => {
  it('gives UTF-8 text as it is, a BOM and U+FFFD written as UTF-8 included', () => {
    expect(decodeUtf8(Buffer.from('\uFEFFid\ncafé\n\uFFFD'))).toEqual({text: '\uFEFFid\ncafé\n\uFFFD'})
    expect(decodeUtf8(Buffer.alloc(0))).toEqual({text: ''})
  })

  it.each([
    ['a byte no character starts with', [0x61, 0x0a, 0xff], 2],
    ['a sequence cut short', [0x0a, 0x0a, 0x61, 0xc3, 0x28], 3],
    ['a sequence cut short at the end', [0x61, 0xe2, 0x82], 1],
    ['an overlong encoding', [0x0a, 0xc0, 0xaf, 0x0a], 2],
    ['a surrogate', [0xed, 0xa0, 0x80], 1],
  ])('names the first line holding %s', (_, bytes, line) => {
    expect(decodeUtf8(Uint8Array.from(bytes))).toEqual({line})
  })
})

describe('utf8Checked (every text and secret prompt)', () => {
  it('asks again for an answer holding U+FFFD, before the question\'s own check; passes the rest to it', async () => {
    const checked = utf8Checked((value) => (value === 'no' ? 'not that' : true))
    expect(await checked('order-\uFFFD')).toBe('That holds \uFFFD (U+FFFD), the mark of bytes that are not UTF-8: type it again with the terminal set to UTF-8.')
    expect(await checked('no')).toBe('not that')
    expect(await checked('café')).toBe(true)
    expect(await utf8Checked(undefined)('ok')).toBe(true)
    expect(holdsReplacement('a\uFFFD')).toBe(true)
  })
})
