import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {sanitize, type SanitizeOptions} from '../../../src/safety/sanitize.js'

// Sanitizing is idempotent and leaves no control character, whatever the gateway sends.
const controlHeavy = fc
  .array(fc.oneof(fc.constantFrom('\u001B', '[', ']', '2K', '0;', '31m', '\u0007', '\r', '\n', '\t', '\u009B', '\u009D', '\u007F', '\\x1B', '8;;http://x\u001B\\'), fc.string({unit: 'binary', maxLength: 3})), {maxLength: 20})
  .map((parts) => parts.join(''))
const modes: SanitizeOptions[] = [{}, {oneLine: true}, {keepColors: true}]

describe('sanitize, property', () => {
  it('is idempotent in every mode and leaves no control character but newline and tab', () => {
    fc.assert(
      fc.property(fc.oneof(controlHeavy, fc.string({unit: 'binary'})), fc.constantFrom(...modes), (text, options) => {
        const once = sanitize(text, options)
        expect(sanitize(once, options)).toBe(once)
        // eslint-disable-next-line no-control-regex
        const left = options.keepColors ? once.replace(/\u001B\[[\d;]*m/g, '') : once
        // eslint-disable-next-line no-control-regex
        expect(left).not.toMatch(options.oneLine ? /[\u0000-\u001F\u007F-\u009F]/ : /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/)
      }),
      {numRuns: 3000},
    )
  })
})
