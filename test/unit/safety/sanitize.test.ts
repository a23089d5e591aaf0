import {describe, expect, it} from 'vitest'
import {sanitize, sanitizeLine} from '../../../src/safety/sanitize.js'

const ESC = '\u001B'
const BEL = '\u0007'
const ST = `${ESC}\\`

describe('sanitize', () => {
  it.each([
    ['erase line (ESC [2K) and a fake outcome', `Jane${ESC}[2K\rApproved`, 'Jane\\x1B[2K\\rApproved'],
    ['window title (OSC 0)', `${ESC}]0;pwned${BEL}Jane`, '\\x1B]0;pwned\\x07Jane'],
    ['OSC-8 hyperlink', `${ESC}]8;;https://evil.example${ST}click${ESC}]8;;${ST}`, '\\x1B]8;;https://evil.example\\x1B\\click\\x1B]8;;\\x1B\\'],
    ['a C1 CSI', 'a\u009B2Kb', 'a\\x9B2Kb'],
    ['DEL and NUL', 'a\u007Fb\u0000c', 'a\\x7Fb\\x00c'],
    ['newline and tab kept', 'line 1\n\tline 2', 'line 1\n\tline 2'],
    ['printable text untouched, accents and CJK too', 'Zoë 山田 ref-50% a\\b', 'Zoë 山田 ref-50% a\\b'],
  ])('%s', (_, input, expected) => {
    expect(sanitize(input)).toBe(expected)
  })

  it('on one line makes newline and tab visible too', () => {
    expect(sanitizeLine('a\nb\tc\rd')).toBe('a\\nb\\tc\\rd')
  })

  it('keeps colour codes only when asked, and never other sequences', () => {
    const painted = `${ESC}[31mError:${ESC}[39m bad ${ESC}[2K ${ESC}]0;t${BEL}`
    expect(sanitize(painted, {keepColors: true})).toBe(`${ESC}[31mError:${ESC}[39m bad \\x1B[2K \\x1B]0;t\\x07`)
    expect(sanitize(painted)).toBe('\\x1B[31mError:\\x1B[39m bad \\x1B[2K \\x1B]0;t\\x07')
  })

  it('leaves no control character but newline and tab, for every code point up to U+00FF', () => {
    for (let code = 0; code <= 0xff; code++) {
      const out = sanitize(`<${String.fromCharCode(code)}>`)
      // eslint-disable-next-line no-control-regex
      const controls = [...out].filter((c) => /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/.test(c))
      expect(controls, `U+${code.toString(16)}`).toEqual([])
    }
  })

  it('is idempotent, in every mode, on random strings heavy with controls', () => {
    let seed = 42
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
    const alphabet = [ESC, '[', ']', '2', 'K', 'm', ';', BEL, '\r', '\n', '\t', '\u009B', '\u007F', '\\', 'x', 'A', 'é', '山']
    for (let n = 0; n < 500; n++) {
      const text = Array.from({length: Math.floor(random() * 30)}, () => alphabet[Math.floor(random() * alphabet.length)]).join('')
      for (const options of [{}, {oneLine: true}, {keepColors: true}]) {
        const once = sanitize(text, options)
        expect(sanitize(once, options)).toBe(once)
      }
    }
  })
})
