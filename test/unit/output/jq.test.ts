import {describe, expect, it} from 'vitest'
import {UsageError} from '../../../src/errors.js'
import {testIo} from '../../../src/output/io.js'
import {filteredIo, JqFailure, jqFilter} from '../../../src/output/jq.js'

const line = (record: unknown) => JSON.stringify(record) + '\n'
const a = {id: '071-P-AAAAAAAA', amount: 1000, reference: 'order-1'}
const b = {id: '071-P-BBBBBBBB', amount: 'ten', reference: 'order-2'}
const c = {id: '071-P-CCCCCCCC', amount: 3000, reference: 'order-3'}

describe('jqFilter', () => {
  it('refuses what jq cannot compile, as a usage error naming --jq, with jq\'s own words', async () => {
    const error = await jqFilter('.amount |').catch((err: unknown) => err)
    expect(error).toBeInstanceOf(UsageError)
    expect((error as UsageError).message).toBe('--jq: syntax error, unexpected end of file at <top-level>, line 1, column 9:\n    .amount |\n            ^')
    const twice = await jqFilter('nosuch | alsonot').catch((err: unknown) => err)
    expect((twice as UsageError).message).toBe(
      '--jq: nosuch/0 is not defined at <top-level>, line 1, column 1:\n    nosuch | alsonot\n    ^^^^^^\nalsonot/0 is not defined at <top-level>, line 1, column 10:\n    nosuch | alsonot\n             ^^^^^^^',
    )
  })

  it('takes an expression that fails only on null (the records will not be null)', async () => {
    expect((await jqFilter('keys')).expression).toBe('keys')
  })
})

describe('filteredIo', () => {
  it('tells renderers it writes to a pipe, and prints each record through the filter: strings raw, the rest compact', async () => {
    const io = testIo()
    const out = filteredIo(io, await jqFilter('.reference, {amount}'))
    expect(out.isStdoutTTY).toBe(false)
    out.out(line(a) + line(c))
    expect(io.stdout()).toBe('order-1\n{"amount":1000}\norder-3\n{"amount":3000}\n')
  })

  it('on a terminal: pretty JSON, and control characters in raw strings made visible', async () => {
    const io = testIo({tty: true})
    const out = filteredIo(io, await jqFilter('{amount}, .reference'))
    out.out(line({...a, reference: 'order\u001B[2J-1'}))
    expect(io.stdout()).toBe('{\n  "amount": 1000\n}\norder\\x1B[2J-1\n')
  })

  it('stops at the first record it fails on: what came before is printed, then nothing, and stdout counts as failed', async () => {
    const io = testIo()
    const out = filteredIo(io, await jqFilter('.amount + 1'))
    const told: unknown[] = []
    out.onOutClosed!((err) => told.push(err))
    out.out(line(a) + line(b) + line(c))
    expect(io.stdout()).toBe('1001\n')
    const failure = out.outFailure!()
    expect(failure).toBeInstanceOf(JqFailure)
    expect(failure).toMatchObject({exitCode: 2, message: '--jq: string ("ten") and number (1) cannot be added (record 2 of the output; nothing after it was printed)'})
    expect(told).toEqual([failure])
    out.out(line(c))
    expect(await out.outWritten!(line(c))).toBe(false)
    expect(io.stdout()).toBe('1001\n')
  })

  it("passes what the expression writes to stderr on (debug), and goes on", async () => {
    const io = testIo()
    filteredIo(io, await jqFilter('debug | .amount')).out(line(a))
    expect(io.stdout()).toBe('1000\n')
    expect(io.stderr()).toBe(`["DEBUG:",${JSON.stringify(a)}]\n`)
  })

  it('counts records across writes, and takes a body of several lines as one document (gw api)', async () => {
    const io = testIo()
    const out = filteredIo(io, await jqFilter('.amount | floor'))
    out.out(line(a))
    out.out(line(c) + line(b))
    expect(io.stdout()).toBe('1000\n3000\n')
    expect(out.outFailure!()?.message).toContain('(record 3 of the output')
    const body = testIo()
    filteredIo(body, await jqFilter('.response | length')).out('{\n  "response": [1, 2, 3]\n}\n')
    expect(body.stdout()).toBe('3\n')
  })
})
