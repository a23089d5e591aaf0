import {closeSync, openSync, rmSync} from 'node:fs'
import {devNull, tmpdir} from 'node:os'
import {join} from 'node:path'
import {Readable, Writable} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {UsageError} from '../../../src/errors.js'
import {processIo, type Stdio} from '../../../src/output/io.js'

// processIo over stand-ins for the process's streams: a terminal or not, a width, a reader that
// falls behind or goes away. The process's own streams are the same code, run end to end.

interface StandInOptions {
  tty?: boolean
  columns?: number
  fd?: number
  /** The reader takes nothing until take(): writes wait, and the stream asks for a drain. */
  held?: boolean
}

/** A writable stream as stdout or stderr is: what reached it, and a reader a test controls. */
function standIn({tty, columns, fd, held = false}: StandInOptions = {}) {
  let written = ''
  const waiting: (() => void)[] = []
  const stream = new Writable({
    highWaterMark: 4,
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      written += chunk
      if (held) waiting.push(done)
      else done()
    },
  })
  Object.assign(stream, {isTTY: tty, columns, fd})
  return {
    stream: stream as unknown as NodeJS.WriteStream,
    written: () => written,
    take: () => {
      held = false
      for (const done of waiting.splice(0)) done()
    },
  }
}

function stdin(chunks: (string | Buffer)[] = [], tty?: boolean): NodeJS.ReadStream {
  return Object.assign(Readable.from(chunks), {isTTY: tty}) as unknown as NodeJS.ReadStream
}

/** An Io over stand-ins; `out` and `err` are the stand-ins for stdout and stderr. */
function made({env = {}, noInput = false, out = standIn(), err = standIn(), input = stdin()}: {env?: NodeJS.ProcessEnv; noInput?: boolean; out?: ReturnType<typeof standIn>; err?: ReturnType<typeof standIn>; input?: NodeJS.ReadStream} = {}) {
  const stdio: Stdio = {stdout: out.stream, stderr: err.stream, stdin: input}
  return {io: processIo(env, {noInput}, stdio), out, err}
}

const failure = (code: string) => Object.assign(new Error(`write ${code}`), {code}) as NodeJS.ErrnoException
const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('processIo: what the streams are', () => {
  it.each<[string, boolean, NodeJS.ProcessEnv, boolean]>([
    ['a terminal, NO_COLOR unset', true, {}, true],
    ['a terminal, NO_COLOR empty (unset, as no-color.org says)', true, {NO_COLOR: ''}, true],
    ['a terminal, NO_COLOR set', true, {NO_COLOR: '1'}, false],
    ['not a terminal', false, {}, false],
  ])('colour on stdout and on stderr: %s', (_, tty, env, color) => {
    const {io} = made({env, out: standIn({tty}), err: standIn({tty})})
    expect([io.isStdoutTTY, io.isStderrTTY, io.color, io.errColor]).toEqual([tty, tty, color, color])
  })

  it('colour on each stream by its own terminal: stdout piped, stderr a terminal', () => {
    const {io} = made({out: standIn({tty: false}), err: standIn({tty: true})})
    expect([io.color, io.errColor]).toEqual([false, true])
  })

  it.each<[string, NodeJS.ProcessEnv, number | undefined, number]>([
    ["the terminal's own", {}, 132, 132],
    ['COLUMNS over the terminal', {COLUMNS: '100'}, 132, 100],
    ['COLUMNS of 0: the terminal', {COLUMNS: '0'}, 132, 132],
    ['COLUMNS not a whole number: the terminal', {COLUMNS: '99.5'}, 132, 132],
    ['COLUMNS empty: the terminal', {COLUMNS: ''}, 132, 132],
    ['no terminal, no COLUMNS: 80', {}, undefined, 80],
    ['a terminal of width 0: 80', {}, 0, 80],
    ['a terminal of a width below 0: 80', {}, -1, 80],
    ['GW_FORCE_TTY=120: 120', {GW_FORCE_TTY: '120'}, 132, 120],
    ['GW_FORCE_TTY= 90 : 90', {GW_FORCE_TTY: ' 90 '}, 132, 90],
    ['GW_FORCE_TTY=50%: half the terminal, rounded down', {GW_FORCE_TTY: '50%'}, 133, 66],
    ['GW_FORCE_TTY=20: 20, the narrowest', {GW_FORCE_TTY: '20'}, 132, 20],
    ['GW_FORCE_TTY=19: too narrow to be a width, the width as it was', {GW_FORCE_TTY: '19'}, 132, 132],
    ['GW_FORCE_TTY=10%: never under 20', {GW_FORCE_TTY: '10%'}, 132, 20],
    ['GW_FORCE_TTY=0%: the width as it was', {GW_FORCE_TTY: '0%'}, 132, 132],
    ['GW_FORCE_TTY=0: the width as it was', {GW_FORCE_TTY: '0'}, 132, 132],
    ['GW_FORCE_TTY=1 (a switch, as the help shows it): the width as it was', {GW_FORCE_TTY: '1', COLUMNS: '70'}, 132, 70],
    ['GW_FORCE_TTY=120x: the width as it was', {GW_FORCE_TTY: '120x'}, 132, 132],
    ['GW_FORCE_TTY=x120: the width as it was', {GW_FORCE_TTY: 'x120'}, 132, 132],
  ])('the width: %s', (_, env, columns, width) => {
    expect(made({env, out: standIn({columns})}).io.columns).toBe(width)
  })

  it.each<[string, NodeJS.ProcessEnv, boolean]>([
    ['unset: a pipe is a pipe', {}, false],
    ['empty: unset', {GW_FORCE_TTY: ''}, false],
    ['set: a pipe prints as a terminal would', {GW_FORCE_TTY: '1'}, true],
  ])('GW_FORCE_TTY %s', (_, env, tty) => {
    const {io} = made({env, out: standIn({tty: false})})
    expect([io.isStdoutTTY, io.color]).toEqual([tty, tty])
  })

  it.each<[string, boolean, NodeJS.ProcessEnv, boolean]>([
    ['stderr a terminal', true, {}, true],
    ['stderr a terminal, CI empty', true, {CI: ''}, true],
    ['stderr a terminal in CI', true, {CI: 'true'}, false],
    ['stderr not a terminal', false, {}, false],
  ])('chatty (notes for a person watching): %s', (_, tty, env, chatty) => {
    expect(made({env, err: standIn({tty})}).io.chatty).toBe(chatty)
  })

  it('a progress line: stdout a terminal, or a regular file, where a person watches stderr', () => {
    expect(made({out: standIn({tty: true}), err: standIn({tty: true})}).io.progress).toBe(true)
    const path = join(tmpdir(), `process-io-${process.pid}.ndjson`)
    const file = openSync(path, 'w')
    try {
      expect(made({out: standIn({fd: file}), err: standIn({tty: true})}).io.progress).toBe(true)
    } finally {
      closeSync(file)
      rmSync(path)
    }
  })

  it('no progress line: stdout a pipe or a stream of no descriptor, or no person watching', () => {
    expect(made({out: standIn(), err: standIn({tty: true})}).io.progress).toBe(false)
    expect(made({out: standIn({fd: 987_654}), err: standIn({tty: true})}).io.progress).toBe(false)
    const device = openSync(devNull, 'w')
    try {
      expect(made({out: standIn({fd: device}), err: standIn({tty: true})}).io.progress).toBe(false)
    } finally {
      closeSync(device)
    }
    expect(made({out: standIn({tty: true}), err: standIn({tty: false})}).io.progress).toBe(false)
    expect(made({env: {CI: '1'}, out: standIn({tty: true}), err: standIn({tty: true})}).io.progress).toBe(false)
  })

  it('may prompt by default, where nothing says --no-input', () => {
    const stdio: Stdio = {stdout: standIn().stream, stderr: standIn({tty: true}).stream, stdin: stdin([], true)}
    expect(processIo({}, {}, stdio).canPrompt()).toBe(true)
  })

  it.each<[string, {noInput?: boolean; env?: NodeJS.ProcessEnv; stderr?: boolean; stdin?: boolean}, boolean]>([
    ['stderr and stdin terminals', {}, true],
    ['--no-input', {noInput: true}, false],
    ['CI', {env: {CI: 'true'}}, false],
    ['stderr not a terminal', {stderr: false}, false],
    ['stdin not a terminal', {stdin: false}, false],
  ])('may prompt: %s', (_, {noInput, env, stderr = true, stdin: stdinTTY = true}, can) => {
    const {io} = made({noInput, env, err: standIn({tty: stderr}), input: stdin([], stdinTTY)})
    expect(io.canPrompt()).toBe(can)
    expect(io.isStdinTTY).toBe(stdinTTY)
  })
})

describe('processIo: writing', () => {
  it('out writes to stdout as it is; err to stderr, each line for people: a card number masked, a control character shown', () => {
    const {io, out, err} = made()
    io.out('4242424242424242\n')
    io.err('card 4242424242424242 \u001B]0;title\u0007\n')
    expect(out.written()).toBe('4242424242424242\n')
    expect(err.written()).toBe('card 424242XXXXXX4242 \\x1B]0;title\\x07\n')
  })

  it('err of nothing writes nothing', () => {
    const {io, err} = made({err: standIn({tty: true})})
    io.status('5 of 9')
    const before = err.written()
    io.err('')
    expect(err.written()).toBe(before)
  })

  it('the status line on a terminal: drawn masked, cleared before each line for people or stdout on a terminal, drawn again after', () => {
    const {io, out, err} = made({out: standIn({tty: true}), err: standIn({tty: true})})
    io.status('row 4111111111111111')
    io.out('one\n')
    io.err('two\n')
    io.status(undefined)
    io.err('three\n')
    expect(out.written()).toBe('one\n')
    const shown = 'row 411111XXXXXX1111'
    expect(err.written()).toBe(`\r\u001B[K${shown}` + `\r\u001B[K${shown}` + `\r\u001B[Ktwo\n${shown}` + '\r\u001B[K' + 'three\n')
  })

  it('no status line where stderr is no terminal; stdout piped leaves the status line alone', () => {
    const piped = made({err: standIn({tty: false})})
    piped.io.status('row 1')
    expect(piped.err.written()).toBe('')
    const {io, out, err} = made({out: standIn({tty: false}), err: standIn({tty: true})})
    io.status('row 1')
    io.out('one\n')
    expect(out.written()).toBe('one\n')
    expect(err.written()).toBe('\r\u001B[Krow 1')
  })

  it('outWritten resolves true once the text is out, false when its write fails', async () => {
    const {io, out} = made()
    expect(await io.outWritten('one\n')).toBe(true)
    expect(out.written()).toBe('one\n')
    const failing = new Writable({write: (_chunk, _encoding, done) => done(failure('EPIPE'))})
    const broken = processIo({}, {}, {stdout: failing as unknown as NodeJS.WriteStream, stderr: standIn().stream, stdin: stdin()})
    expect(await broken.outWritten('two\n')).toBe(false)
  })

  it('outReady and flushOut wait for a reader that fell behind, and go on once it takes the text', async () => {
    const out = standIn({held: true})
    const {io} = made({out})
    io.out('more than four bytes\n')
    let ready = false
    let flushed = false
    void io.outReady().then(() => (ready = true))
    void io.flushOut().then(() => (flushed = true))
    await turn()
    expect([ready, flushed]).toEqual([false, false])
    out.take()
    await io.outReady()
    await io.flushOut()
    expect([ready, flushed]).toEqual([true, true])
  })

  it('outReady is at once while the reader keeps up; page and close have nothing to do', async () => {
    const {io} = made()
    io.out('one\n')
    await expect(io.outReady()).resolves.toBeUndefined()
    await expect(io.flushOut()).resolves.toBeUndefined()
    await expect(io.page(500)).resolves.toBeUndefined()
    await expect(io.close()).resolves.toBeUndefined()
  })
})

describe('processIo: a stdout that fails', () => {
  it('its first failure is kept and told once to each listener, those after it at once; nothing more is written; outWritten is false', async () => {
    const {io, out} = made()
    const told: string[] = []
    io.onOutClosed((err) => told.push(`first ${err.code}`))
    out.stream.emit('error', failure('EPIPE'))
    out.stream.emit('error', failure('ENOSPC'))
    io.onOutClosed((err) => told.push(`after ${err.code}`))
    expect(told).toEqual(['first EPIPE', 'after EPIPE'])
    expect(io.outFailure()?.code).toBe('EPIPE')
    io.out('lost\n')
    expect(out.written()).toBe('')
    expect(await io.outWritten('lost too\n')).toBe(false)
    await expect(io.outReady()).resolves.toBeUndefined()
  })

  it('replaces the listeners before it (oclif rethrows what is not EPIPE), and every Io of the stream shares the failure', () => {
    const out = standIn()
    let rethrown = 0
    out.stream.on('error', () => rethrown++)
    const first = made({out}).io
    const second = made({out}).io
    expect(out.stream.listenerCount('error')).toBe(1)
    out.stream.emit('error', failure('ENOSPC'))
    expect(rethrown).toBe(0)
    expect(second.outFailure()?.code).toBe('ENOSPC')
    expect(first.outFailure()?.code).toBe('ENOSPC')
    expect(made().io.outFailure()).toBeUndefined()
  })

  it('flushOut after a failure waits for nothing but a turn', async () => {
    const out = standIn({held: true})
    const {io} = made({out})
    io.out('more than four bytes\n')
    out.stream.emit('error', failure('EPIPE'))
    await expect(io.flushOut()).resolves.toBeUndefined()
  })
})

describe('processIo: a stderr that fails', () => {
  it('is written no more, by any Io of it, and stdout goes on; its other listeners stay', () => {
    const {io, out, err} = made()
    let others = 0
    err.stream.on('error', () => others++)
    io.err('one\n')
    err.stream.emit('error', failure('ENOSPC'))
    io.err('two\n')
    made({err}).io.err('three\n')
    io.out('result\n')
    expect(err.written()).toBe('one\n')
    expect(out.written()).toBe('result\n')
    expect(others).toBe(1)
    expect(err.stream.listenerCount('error')).toBe(2)
  })

  it('a second Io of a stderr that has not failed writes there too, and adds no listener', () => {
    const err = standIn()
    made({err}).io.err('one\n')
    made({err}).io.err('two\n')
    expect(err.written()).toBe('one\ntwo\n')
    expect(err.stream.listenerCount('error')).toBe(1)
  })
})

describe('processIo: stdin', () => {
  it('reads it whole as UTF-8, chunks as bytes or text; stdinChunks is stdin itself', async () => {
    const input = stdin([Buffer.from('café '), 'au lait\n', Buffer.from([0xe2, 0x82]), Buffer.from([0xac, 0x0a])])
    const {io} = made({input})
    expect(io.stdinChunks()).toBe(input)
    expect(await io.readStdin()).toBe('café au lait\n€\n')
  })

  it('refuses bytes that are not UTF-8, naming their line, before anything is sent', async () => {
    const {io} = made({input: stdin([Buffer.from('one\ntwo \xff\n', 'latin1')])})
    const refused = await io.readStdin().catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(UsageError)
    expect(refused).toMatchObject({message: 'stdin line 2 holds bytes that are not UTF-8, and nothing was sent', hint: 'Give the text as UTF-8.', exitCode: 2})
  })
})
