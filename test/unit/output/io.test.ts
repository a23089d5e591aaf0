import {describe, expect, it} from 'vitest'
import {testIo} from '../../../src/output/io.js'

describe("testIo's stderr", () => {
  it('is sanitized as the process\'s is: a colour stays, anything that would move the cursor or retitle the terminal is made visible', () => {
    const io = testIo()
    io.err('\u001B[31mred\u001B[39m \u001B]0;title\u0007 \u001B[2J\r\n')
    expect(io.stderr()).toBe('\u001B[31mred\u001B[39m \\x1B]0;title\\x07 \\x1B[2J\\r\n')
  })

  it('draws the status line as it is, gw\'s own: only what is written through err is sanitized', () => {
    const io = testIo({tty: true})
    io.status('row 1 of 2')
    io.err('said\n')
    expect(io.stderr()).toBe('\r\u001B[Krow 1 of 2\r\u001B[Ksaid\nrow 1 of 2')
  })
})
