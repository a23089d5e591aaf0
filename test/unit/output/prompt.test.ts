import {describe, expect, it} from 'vitest'
import {fitQuestion} from '../../../src/output/prompt.js'
import {displayWidth} from '../../../src/output/text-width.js'

// inquirer breaks a question's lines at the terminal's width wherever it falls (`En` / `ter`): gw
// breaks them at spaces first, leaving room for inquirer's mark (`? `) before the first line.
describe('fitQuestion', () => {
  const question = 'amount to refund in the minor currency unit (--amount); Enter for what is left of it, 15.00 AUD (10.00 AUD of 25.00 AUD refunded)'

  it.each([40, 60, 80])('breaks a question at spaces, every line within %i columns with the mark before the first', (width) => {
    const lines = fitQuestion(question, width).split('\n')
    expect(lines.join(' ')).toBe(question)
    expect(displayWidth('? ' + lines[0]!)).toBeLessThanOrEqual(width)
    for (const line of lines.slice(1)) expect(displayWidth(line)).toBeLessThanOrEqual(width)
  })

  it('at 60 columns, keeps an amount with its currency', () => {
    expect(fitQuestion(question, 60)).toBe('amount to refund in the minor currency unit (--amount);\nEnter for what is left of it, 15.00 AUD (10.00 AUD of\n25.00 AUD refunded)')
  })

  it('puts what inquirer shows after the question (the offered answer) on a line of its own when it would not fit beside the last', () => {
    expect(fitQuestion('your reference (--reference)', 60, '(order-1)')).toBe('your reference (--reference)')
    expect(fitQuestion('your reference for the refund (--reference); Enter for it', 60, '(order-2002-R1)')).toBe('your reference for the refund (--reference); Enter for it\n')
  })

  it('leaves a question that fits as it is', () => {
    expect(fitQuestion('amount to charge (--amount)', 80)).toBe('amount to charge (--amount)')
  })
})
