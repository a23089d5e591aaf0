import {Writable} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {drainWaiter, progressShown, type StdoutKind} from '../../../src/output/io.js'
import {testIo} from '../../test-io.js'

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

describe("testIo's reader, as a test makes it fail", () => {
  it('keeps up by default: a write is out at once', async () => {
    const io = testIo()
    await io.outReady()
    expect(await io.outWritten('a\n')).toBe(true)
    await io.flushOut()
    expect(io.stdout()).toBe('a\n')
    expect(io.outFailure()).toBeUndefined()
  })

  it('falls behind: what waits for it waits until it catches up, the text written meanwhile kept in order', async () => {
    const io = testIo({behind: true})
    io.out('a\n')
    const order: string[] = []
    const ready = io.outReady().then(() => order.push('ready'))
    const written = io.outWritten('b\n').then((out) => order.push(`written ${out}`))
    const flushed = io.flushOut().then(() => order.push('flushed'))
    await io.waitingForReader()
    await new Promise((resolve) => setImmediate(resolve))
    expect(order).toEqual([])
    io.catchUp()
    await Promise.all([ready, written, flushed])
    expect(order).toEqual(['ready', 'written true', 'flushed'])
    expect(io.stdout()).toBe('a\nb\n')
  })

  it('a closed pipe: the first write is lost, and the failure told a turn later, once to each listener, as stdout\'s error event tells it', async () => {
    const io = testIo({failWrites: {code: 'EPIPE'}})
    const told: string[] = []
    io.onOutClosed((err) => told.push(`first ${err.code}`))
    io.out('lost\n')
    expect(io.outFailure()).toBeUndefined()
    await io.flushOut()
    expect(io.outFailure()?.code).toBe('EPIPE')
    io.onOutClosed((err) => told.push(`late ${err.code}`))
    io.out('also lost\n')
    expect(await io.outWritten('and this\n')).toBe(false)
    expect(told).toEqual(['first EPIPE', 'late EPIPE'])
    expect(io.stdout()).toBe('')
  })

  it('a failing write after some are taken: those before it are out, none after', async () => {
    const io = testIo({failWrites: {code: 'ENOSPC', afterWrites: 2}})
    io.out('1\n')
    expect(await io.outWritten('2\n')).toBe(true)
    expect(await io.outWritten('3\n')).toBe(false)
    expect(io.outFailure()?.code).toBe('ENOSPC')
    expect(io.stdout()).toBe('1\n2\n')
  })

  it('a reader that goes away while gw waits for it lets the wait go, and says why', async () => {
    const io = testIo({behind: true})
    const told: string[] = []
    io.onOutClosed((err) => told.push(err.code!))
    const ready = io.outReady()
    await io.waitingForReader()
    io.closeOut()
    await ready
    expect(told).toEqual(['EPIPE'])
    expect(await io.outWritten('x\n')).toBe(false)
  })
})

describe("processIo's stdin", () => {
  // process.stdin is made when first read (for a file, an fs.ReadStream and nine of Node's modules
  // with it): an Io asks it only when something asks whether stdin is a terminal.
  it('is not made until asked for, through pagedIo and filteredIo too', async () => {
    const {processIo} = await import('../../../src/output/io.js')
    const {pagedIo} = await import('../../../src/output/pager.js')
    const {filteredIo} = await import('../../../src/output/jq.js')
    const real = Object.getOwnPropertyDescriptor(process, 'stdin')!
    let made = 0
    Object.defineProperty(process, 'stdin', {configurable: true, get: () => (made++, {isTTY: true})})
    try {
      const io = pagedIo(processIo({}), {}, {isTTY: false} as NodeJS.WriteStream)
      const filtered = filteredIo(io, {} as Parameters<typeof filteredIo>[1])
      expect(made).toBe(0)
      expect(io.canPrompt()).toBe(Boolean(process.stderr.isTTY))
      expect(filtered.isStdinTTY).toBe(true)
      expect(io.isStdinTTY).toBe(true)
      expect(made).toBe(1)
    } finally {
      Object.defineProperty(process, 'stdin', real)
    }
  })
})

describe('progressShown: a progress line only where no other program draws on the terminal', () => {
  it.each<[string, boolean, StdoutKind, boolean]>([
    ['stdout a terminal', true, 'terminal', true],
    ['stdout a regular file (> all.ndjson): nothing reads it meanwhile', true, 'file', true],
    ['stdout a pipe (| head -1, | less): its reader draws there too', true, 'pipe or other', false],
    ['not for a person (stderr no terminal, CI), whatever stdout is', false, 'terminal', false],
  ])('%s', (_, chatty, stdout, shown) => {
    expect(progressShown(chatty, () => stdout)).toBe(shown)
  })

  it('does not ask what stdout is where no person watches', () => {
    expect(progressShown(false, () => expect.unreachable('stdout asked'))).toBe(false)
  })
})

describe('drainWaiter', () => {
  /** A stream whose reader takes nothing until `take()`: its buffer stays full. */
  function heldStream() {
    const held: (() => void)[] = []
    const stream = new Writable({highWaterMark: 4, write: (_chunk, _encoding, done) => void held.push(done)})
    stream.write('full')
    return {stream, take: () => held.splice(0).forEach((done) => done())}
  }

  it('one wait for every writer that asks while it is pending: the stream holds one listener of each kind, none once it drains', async () => {
    const {stream, take} = heldStream()
    const drained = drainWaiter(stream)
    const waits = Array.from({length: 20}, () => drained())
    expect(new Set(waits).size).toBe(1)
    expect(['drain', 'error', 'close'].map((event) => stream.listenerCount(event))).toEqual([1, 1, 1])
    take()
    await Promise.all(waits)
    expect(['drain', 'error', 'close'].map((event) => stream.listenerCount(event))).toEqual([0, 0, 0])
    // The next wait is a new one.
    stream.write('full')
    const next = drained()
    expect(next).not.toBe(waits[0])
    take()
    await next
  })

  it('ends when the stream fails or closes instead', async () => {
    const {stream} = heldStream()
    const drained = drainWaiter(stream)
    const waiting = drained()
    stream.on('error', () => {})
    stream.destroy(new Error('EPIPE'))
    await waiting
    expect(['drain', 'error', 'close'].map((event) => stream.listenerCount(event))).toEqual([0, 1, 0])
  })
})
