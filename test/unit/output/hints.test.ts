import {spawnSync} from 'node:child_process'
import {describe, expect, it} from 'vitest'
import {shellQuote} from '../../../src/output/hints.js'
import {sanitize} from '../../../src/output/sanitize.js'

describe('shellQuote', () => {
  it.each([
    ['order-1001', 'order-1001'],
    ["it's 50%", `'it'\\''s 50%'`],
    ['inv\u001B[2K\r\\x', `$'inv\\x1B[2K\\x0D\\\\x'`],
  ])('%j → %s', (value, quoted) => {
    expect(shellQuote(value)).toBe(quoted)
  })

  it('survives sanitize unchanged and names the same value when pasted into bash', () => {
    for (const value of ["it's", 'a\u001B]0;t\u0007b', "x'\u009B\\y", 'Zoë 山田']) {
      const quoted = shellQuote(value)
      expect(sanitize(quoted)).toBe(quoted)
      const echoed = spawnSync('bash', ['-c', `printf %s ${quoted}`], {encoding: 'utf8'})
      expect(echoed.stdout).toBe(value)
    }
  })
})
