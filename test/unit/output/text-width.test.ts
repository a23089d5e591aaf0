import stringWidth from 'string-width'
import {describe, expect, it} from 'vitest'
import {displayWidth, truncate} from '../../../src/output/text-width.js'

describe('displayWidth', () => {
  // Printable ASCII and `…` are counted a column a character without string-width; the rest by it.
  it.each([
    ['', 0],
    ['071-P-7SWMB4YT', 14],
    ['…4242', 5],
    ['Jane Citizen…', 13],
    ['\u001B[32mApproved\u001B[39m', 8],
    ['東京', 4],
    ['Jane 👩‍💻', 7],
    ['e\u0301', 1],
    ['tab\there', 7],
  ])('%j is %i columns, as string-width says', (text, columns) => {
    expect(displayWidth(text)).toBe(columns)
    expect(displayWidth(text)).toBe(stringWidth(text))
  })
})

describe('truncate', () => {
  it('leaves text that fits, the ellipsis of a card counted one column', () => {
    expect(truncate('…4242', 5)).toBe('…4242')
  })

  it('cuts text that does not, ending in …', () => {
    expect(truncate('…424242', 5)).toBe('…424…')
    expect(truncate('東京都', 4)).toBe('東…')
  })
})
