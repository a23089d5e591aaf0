import {Worker} from 'node:worker_threads'
import {afterEach, describe, expect, it, onTestFinished, vi} from 'vitest'
import {UsageError} from '../../../src/errors.js'
import {type Io} from '../../../src/output/io.js'
import {testIo} from '../../test-io.js'
import {until} from '../../until.js'
import {filteredIo, JqFailure, type JqFilter, jqFilter} from '../../../src/output/jq.js'
import {RING_BYTES} from '../../../src/output/jq-channel.js'

const line = (record: unknown) => JSON.stringify(record) + '\n'
const a = {id: '071-P-AAAAAAAA', amount: 1000, reference: 'order-1'}
const b = {id: '071-P-BBBBBBBB', amount: 'ten', reference: 'order-2'}
const c = {id: '071-P-CCCCCCCC', amount: 3000, reference: 'order-3'}

// Every filter made here has a thread of its own: each is ended after its test, passed or not.
const made: JqFilter[] = []
async function filter(expression: string): Promise<JqFilter> {
  const one = await jqFilter(expression)
  made.push(one)
  return one
}
afterEach(() => {
  for (const one of made.splice(0)) one.thread.stop()
})

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
    expect((await filter('keys')).expression).toBe('keys')
  })

  it('checks an expression that never ends without running it', async () => {
    expect((await filter('range(1e9)')).expression).toBe('range(1e9)')
    expect((await filter('last(repeat(1))')).expression).toBe('last(repeat(1))')
  })
})

describe('jq\'s thread', () => {
  // V8 refuses Node's own code caches once a flag has changed: set before the thread has started, the thread would compile Node's modules from source (~47 ms to start, not ~23).
  it('has V8 compile WebAssembly with its baseline compiler only once the thread has started, before jq is compiled in it', async () => {
    const order: string[] = []
    const emit = Worker.prototype.emit
    vi.spyOn(Worker.prototype, 'emit').mockImplementation(function (this: Worker, event: string | symbol, ...args: unknown[]) {
      if (event === 'online') order.push('thread started')
      return Reflect.apply(emit, this, [event, ...args])
    })
    const hook = Symbol.for('gw.wasm-baseline-only')
    ;(globalThis as Record<symbol, unknown>)[hook] = () => order.push('baseline only')
    onTestFinished(() => {
      vi.restoreAllMocks()
      delete (globalThis as Record<symbol, unknown>)[hook]
    })
    const one = await filter('.id')
    expect(order).toEqual(['thread started', 'baseline only'])
    expect((await one.thread.check('.id')).exitCode).toBe(0)
  })
})

describe('filteredIo', () => {
  it('tells renderers it writes to a pipe, and prints each record through the filter: strings raw, the rest compact', async () => {
    const io = testIo()
    const out = filteredIo(io, await filter('.reference, {amount}'))
    expect(out.isStdoutTTY).toBe(false)
    out.out(line(a) + line(c))
    await out.flushOut!()
    expect(io.stdout()).toBe('order-1\n{"amount":1000}\norder-3\n{"amount":3000}\n')
  })

  it('on a terminal: pretty JSON, and control characters in raw strings made visible', async () => {
    const io = testIo({tty: true})
    const out = filteredIo(io, await filter('{amount}, .reference'))
    out.out(line({...a, reference: 'order\u001B[2J-1'}))
    await out.flushOut!()
    expect(io.stdout()).toBe('{\n  "amount": 1000\n}\norder\\x1B[2J-1\n')
  })

  it('stops at the first record it fails on: what came before is printed, then nothing, and stdout counts as failed', async () => {
    const io = testIo()
    const out = filteredIo(io, await filter('.amount + 1'))
    const told: unknown[] = []
    out.onOutClosed!((err) => told.push(err))
    out.out(line(a) + line(b) + line(c))
    await out.flushOut!()
    expect(io.stdout()).toBe('1001\n')
    const failure = out.outFailure!()
    expect(failure).toBeInstanceOf(JqFailure)
    expect(failure).toMatchObject({exitCode: 2, message: '--jq: string ("ten") and number (1) cannot be added (record 2 of the output; nothing after it was printed)'})
    expect(told).toEqual([failure])
    out.out(line(c))
    expect(await out.outWritten!(line(c))).toBe(false)
    expect(io.stdout()).toBe('1001\n')
  })

  it('words an error that is not a string as jq does, and prints what the record made before it', async () => {
    const io = testIo()
    const out = filteredIo(io, await filter('.reference, error({code: .amount})'))
    expect(await out.outWritten!(line(a))).toBe(false)
    expect(io.stdout()).toBe('order-1\n')
    expect(out.outFailure!()?.message).toBe('--jq: {"code":1000} (not a string) (record 1 of the output; nothing after it was printed)')
  })

  it('passes what the expression writes to stderr on (debug), and goes on', async () => {
    const io = testIo()
    const out = filteredIo(io, await filter('debug | .amount'))
    expect(await out.outWritten!(line(a))).toBe(true)
    expect(io.stdout()).toBe('1000\n')
    expect(io.stderr()).toBe(`["DEBUG:",${JSON.stringify(a)}]\n`)
  })

  it('counts records across writes, and takes a body of several lines as one document (gw api)', async () => {
    const io = testIo()
    const out = filteredIo(io, await filter('.amount | floor'))
    out.out(line(a))
    out.out(line(c) + line(b))
    await out.flushOut!()
    expect(io.stdout()).toBe('1000\n3000\n')
    expect(out.outFailure!()?.message).toContain('(record 3 of the output')
    const body = testIo()
    const api = filteredIo(body, await filter('.response | length'))
    api.out('{\n  "response": [1, 2, 3]\n}\n')
    await api.flushOut!()
    expect(body.stdout()).toBe('3\n')
  })

  it('masks a card number the expression puts together, wherever it sits in the text, and on stderr', async () => {
    const io = testIo()
    const out = filteredIo(io, await filter('"x" + .bin + "111111111111y", ("card " + .bin + " 1111 1111 1111 declined" | debug | empty)'))
    await out.outWritten!(line({bin: '4111'}))
    expect(io.stdout()).toBe('x411111XXXXXX1111y\n')
    expect(io.stderr()).toBe('["DEBUG:","card 411111XXXXXX1111 declined"]\n')
  })
})

/** An Io whose reader takes nothing until told to (`read()`), and can go away (`leave()`). */
function slowReader(): Io & {printed: () => string; read: () => void; leave: () => void; calls: () => number} {
  const io = testIo()
  let printed = ''
  let calls = 0
  let waiting: (() => void)[] = []
  const closed: ((err: NodeJS.ErrnoException) => void)[] = []
  let gone: NodeJS.ErrnoException | undefined
  return {
    ...io,
    out(text) {
      calls++
      if (!gone) printed += text
    },
    outReady: () => (gone ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
    onOutClosed: (listener) => void closed.push(listener),
    outFailure: () => gone,
    printed: () => printed,
    calls: () => calls,
    read() {
      for (const resolve of waiting.splice(0)) resolve()
    },
    leave() {
      gone = Object.assign(new Error('EPIPE'), {code: 'EPIPE'})
      for (const listener of closed.splice(0)) listener(gone)
      waiting.forEach((resolve) => resolve())
      waiting = []
    },
  }
}

describe('an expression that never ends', () => {
  it('prints as jq prints, at the reader\'s pace: no more than a ring ahead of it; a reader gone stops jq', async () => {
    const reader = slowReader()
    const out = filteredIo(reader, await filter('range(1e9)'))
    out.out(line(a))
    await until('jq to print to the reader', () => reader.calls() === 1, undefined, 1)
    // The reader takes nothing: jq waits, a ring's worth ahead at most.
    expect(reader.printed().startsWith('0\n')).toBe(true)
    expect(reader.printed().length).toBeLessThanOrEqual(RING_BYTES)
    await until('jq to print twice more as the reader takes it', () => (reader.read(), reader.calls() >= 3), undefined, 1)
    const lines = reader.printed().split('\n')
    expect(lines.slice(0, -1).every((text, index) => text === String(index))).toBe(true)
    reader.leave()
    // Stopped: what waits for it is let go.
    await out.flushOut!()
    expect(await out.outWritten!(line(a))).toBe(false)
  })

  it('a signal that stops the command at once stops jq wherever it is, even printing nothing', async () => {
    const io = testIo()
    let signal: (atOnce: boolean) => void = () => {}
    const out = filteredIo(io, await filter('last(repeat(1))'), {onSignal: (listener) => (signal = listener)})
    const written = out.outWritten!(line(a))
    signal(true)
    expect(await written).toBe(false)
    await out.close!()
    expect(io.stdout()).toBe('')
    // A signal is its own report: not stdout's failure.
    expect(out.outFailure!()).toBeUndefined()
  })

  it('a signal the command waits through: once the command is done, jq still on the record it was on then is stopped, saying so', async () => {
    const io = testIo()
    let signal: (atOnce: boolean) => void = () => {}
    const out = filteredIo(io, await filter('if .amount == 1000 then last(repeat(1)) else .reference end'), {onSignal: (listener) => (signal = listener)})
    const first = out.outWritten!(line(a))
    signal(false)
    out.out(line(c))
    await out.close!()
    expect(await first).toBe(false)
    expect(io.stdout()).toBe('')
    expect(io.stderr()).toBe('--jq was stopped before it had printed all the output: gw was interrupted.\n')
  })

  it('a signal the command waits through leaves a filter that keeps up printing what came after it', async () => {
    const io = testIo()
    let signal: (atOnce: boolean) => void = () => {}
    const out = filteredIo(io, await filter('.reference'), {onSignal: (listener) => (signal = listener)})
    signal(false)
    out.out(line(a))
    out.out(line(c))
    await out.close!()
    expect(io.stdout()).toBe('order-1\norder-3\n')
    expect(io.stderr()).toBe('')
  })
})
