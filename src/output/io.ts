import {fstatSync} from 'node:fs'
import {UsageError} from '../errors.js'
import {decodeUtf8} from '../lib/utf8.js'
import {maskCardNumbersIn} from '../safety/redact.js'
import {sanitize} from '../safety/sanitize.js'

/**
 * The only code that touches process.stdout, process.stderr and process.stdin. Commands and
 * renderers write through an Io, so tests can hand them buffers (test/test-io.ts testIo) and assert exact text.
 */
export interface Io {
  out(text: string): void
  err(text: string): void
  readStdin(): Promise<string>
  /** stdin as it comes, for input too large to hold (a batch of a million rows). */
  stdinChunks(): AsyncIterable<Buffer | string>
  readonly isStdoutTTY: boolean
  readonly isStderrTTY: boolean
  readonly isStdinTTY: boolean
  /** Colour on stdout: a terminal, and NO_COLOR unset. */
  readonly color: boolean
  /** Colour on stderr, by the same rule. */
  readonly errColor: boolean
  /** The terminal's width: COLUMNS when set, else the terminal's own, else 80. Tables never print wider. */
  readonly columns: number
  /** Progress and success notes are for people watching a terminal, not for CI logs. */
  readonly chatty: boolean
  /** A progress line may be drawn at the terminal's foot while gw reads (progressShown): never while a pipe's reader may draw there too. */
  readonly progress: boolean
  canPrompt(): boolean
  /**
   * A line kept at the foot of the terminal (a batch's progress), on stderr: anything else written
   * meanwhile, to either stream, goes above it. undefined takes it away. Nothing where stderr is
   * not a terminal.
   */
  status(line: string | undefined): void
  /**
   * Calls back once when stdout cannot be written: its reader went away (EPIPE, `| head -1`) or its
   * file cannot take more (ENOSPC, `> /dev/full`). gw never crashes on it.
   */
  onOutClosed(listener: (err: NodeJS.ErrnoException) => void): void
  /** Why stdout could not be written, once it could not. */
  outFailure(): NodeJS.ErrnoException | undefined
  /** Resolves once what was written to stdout is out, or has failed. */
  flushOut(): Promise<void>
  /** Writes to stdout and resolves once it is out: false when it could not be (its reader went away). */
  outWritten(text: string): Promise<boolean>
  /** Said before `lines` lines a terminal shows (a table): long output goes through the pager (pager.ts). */
  page(lines: number): Promise<void>
  /** stdout is done: a pager's input ends, and gw waits for the reader to leave it. */
  close(): Promise<void>
  /** Resolves once stdout takes more without holding it (at once, unless its reader is behind), or has failed: output waits for its reader. */
  outReady(): Promise<void>
}

/** The streams an Io writes and reads: the process's own (read when used: a test's gw thread puts its own in their place), or a unit test's stand-ins. */
export interface Stdio {
  readonly stdout: NodeJS.WriteStream & {readonly fd?: number}
  readonly stderr: NodeJS.WriteStream
  readonly stdin: NodeJS.ReadStream
}

export function processIo(env: NodeJS.ProcessEnv = process.env, {noInput = false} = {}, stdio: Stdio = process): Io {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== ''
  // gh's GH_FORCE_TTY: terminal output (tables, colour) in a pipe, `| less -R` say; a width of 20 or more, or a percentage, sets the width (forcedWidth).
  const forced = env.GW_FORCE_TTY !== undefined && env.GW_FORCE_TTY !== ''
  const isStdoutTTY = forced || Boolean(stdio.stdout.isTTY)
  const isStderrTTY = Boolean(stdio.stderr.isTTY)
  const chatty = isStderrTTY && !env.CI
  // process.stdin is made when first read: for a file (`< /dev/null`, cron) an fs.ReadStream, which
  // loads nine of Node's modules (its fs streams and promises, readline); for a pipe, a socket. So
  // it is asked only by what reads stdin or may prompt, not by every command that makes an Io.
  let stdinTTY: boolean | undefined
  const isStdinTTY = () => (stdinTTY ??= Boolean(stdio.stdin.isTTY))
  const writeErr = watchStderr(stdio.stderr)
  const footer = statusLine(writeErr)
  const {failure, onFailure} = watchStdout(stdio.stdout)
  const stdoutDrained = drainWaiter(stdio.stdout)
  const write = (text: string) => {
    if (!failure()) stdio.stdout.write(text)
  }
  const io: Omit<Io, 'isStdinTTY'> = {
    out: (text) => (isStdoutTTY ? footer.around(() => write(text)) : write(text)),
    err: (text) => (text ? footer.around(() => writeErr(forPeople(text))) : undefined),
    status: (line) => (isStderrTTY ? footer.set(line) : undefined),
    readStdin: () => readStdin(stdio.stdin),
    stdinChunks: () => stdio.stdin,
    isStdoutTTY,
    isStderrTTY,
    color: isStdoutTTY && !noColor,
    errColor: isStderrTTY && !noColor,
    columns: forcedWidth(env.GW_FORCE_TTY, terminalWidth(env.COLUMNS, stdio.stdout.columns)),
    chatty,
    progress: progressShown(chatty, () => stdoutKind(stdio.stdout)),
    // A CI job that happens to have a terminal must not wait for an answer nobody will type.
    canPrompt: () => !noInput && !env.CI && isStderrTTY && isStdinTTY(),
    // The write's own callback, not a second empty write: that would be a write(2) of its own.
    outWritten: (text) => (failure() ? Promise.resolve(false) : new Promise((resolve) => stdio.stdout.write(text, (err) => resolve(!err)))),
    onOutClosed: onFailure,
    outFailure: failure,
    outReady: () => (failure() || !stdio.stdout.writableNeedDrain ? Promise.resolve() : stdoutDrained()),
    // No pager here (pager.ts wraps this Io in one): a terminal shows the lines as they come, and nothing is left to end.
    page: () => Promise.resolve(),
    close: () => Promise.resolve(),
    // What is buffered drains first; then a turn of the event loop lets a failure already met be told.
    flushOut: async () => {
      if (!failure() && stdio.stdout.writableLength > 0) await stdoutDrained()
      await new Promise((resolve) => setImmediate(resolve))
    },
  }
  return withStdinTTY(io, isStdinTTY)
}

/** What stdout is, as far as a line drawn at the terminal's foot goes. */
export type StdoutKind = 'terminal' | 'file' | 'pipe or other'

/**
 * Whether a progress line may be drawn on stderr while gw reads: for a person watching (`chatty`:
 * stderr a terminal, not CI), and only where no other program draws on that terminal meanwhile.
 * stdout a terminal: gw alone writes there. A regular file (`> all.ndjson`): nothing reads it as it
 * is written, and a long export is where a person waits longest. A pipe (`| head -1`, `| less`,
 * `| jq`): its reader draws on the same terminal, and the line would land in its output. A device
 * or socket counts as a pipe. GW_FORCE_TTY changes nothing here: it is a pipe's reader that asked.
 */
export function progressShown(chatty: boolean, stdout: () => StdoutKind): boolean {
  return chatty && stdout() !== 'pipe or other'
}

/** stdout's kind, from the descriptor itself (not GW_FORCE_TTY's word): asked only where stderr is a terminal, so one fstat at most. */
function stdoutKind(stdout: Stdio['stdout']): StdoutKind {
  if (stdout.isTTY) return 'terminal'
  try {
    // A stream with no descriptor of its own (a test's stand-in) is not a file.
    return fstatSync(stdout.fd ?? -1).isFile() ? 'file' : 'pipe or other'
  } catch {
    return 'pipe or other'
  }
}

/**
 * An Io made of `made` whose isStdinTTY is read from `isStdinTTY` when asked: not enumerable, so
 * that an Io made from it with a spread (pagedIo, filteredIo) does not read it as it copies, and
 * passes it on with this again.
 */
export function withStdinTTY(made: Omit<Io, 'isStdinTTY'>, isStdinTTY: () => boolean): Io {
  return Object.defineProperty(made, 'isStdinTTY', {get: isStdinTTY, enumerable: false}) as Io
}

/**
 * Everything on stderr is for people: whatever slipped past the renderers unsanitized (a profile
 * name, a log line) still cannot drive the terminal, and gw's own messages and hints show a card
 * number only masked, wherever it stands (a reference named in a message, a command in a hint:
 * design.md §3). One function for every Io, the tests' too, so that what a test reads on stderr is
 * what a person would see.
 */
export function forPeople(text: string): string {
  return sanitize(maskCardNumbersIn(text), {keepColors: true})
}

/**
 * A wait for `stream` to drain, fail or close, whichever comes first; then every listener it set
 * goes. Whoever asks while one is pending shares it: a batch's rows all waiting on a slow reader,
 * or a list page after page, add no listeners (Node warns past ten).
 */
export function drainWaiter(stream: NodeJS.WritableStream): () => Promise<void> {
  let pending: Promise<void> | undefined
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        stream.off('drain', done).off('error', done).off('close', done)
        pending = undefined
        resolve()
      }
      stream.on('drain', done).on('error', done).on('close', done)
    })
  return () => (pending ??= drained())
}

/** The narrowest a table is drawn: a smaller number in GW_FORCE_TTY is a switch (1), not a width. */
const NARROWEST = 20

/** GW_FORCE_TTY=120 is 120 columns, GW_FORCE_TTY=50% half the terminal's (at least 20); any other value, 1 and yes among them, keeps the width. */
function forcedWidth(forced: string | undefined, width: number): number {
  const match = /^\s*(\d+)(%?)\s*$/.exec(forced ?? '')
  if (!match) return width
  const value = Number(match[1])
  if (!match[2]) return value >= NARROWEST ? value : width
  return value === 0 ? width : Math.max(NARROWEST, Math.floor((width * value) / 100))
}

/** Why a stdout failed, once it did, for every Io that writes it; and who is told. */
interface OutFailure {
  failure?: NodeJS.ErrnoException
  readonly listeners: ((err: NodeJS.ErrnoException) => void)[]
}

const outFailures = new WeakMap<NodeJS.WritableStream, OutFailure>()

/**
 * A write to stdout that fails (EPIPE: its reader went away; ENOSPC: `> /dev/full`) says so on
 * stdout's 'error' event. oclif listens there too and rethrows anything but EPIPE, which ends gw
 * with an uncaught exception and a page of minified source on stderr: its listener is replaced by
 * one that keeps the failure and tells whoever asked, once.
 */
function watchStdout(stdout: NodeJS.WritableStream): {failure: () => NodeJS.ErrnoException | undefined; onFailure: (listener: (err: NodeJS.ErrnoException) => void) => void} {
  const watched = outFailures.get(stdout) ?? outFailureOf(stdout)
  return {
    failure: () => watched.failure,
    onFailure(listener) {
      if (watched.failure) listener(watched.failure)
      else watched.listeners.push(listener)
    },
  }
}

/** stdout's failure kept from its first 'error' on, in place of every listener before (oclif's). */
function outFailureOf(stdout: NodeJS.WritableStream): OutFailure {
  const made: OutFailure = {listeners: []}
  stdout.removeAllListeners('error')
  stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (made.failure) return
    made.failure = err
    for (const listener of made.listeners.splice(0)) listener(err)
  })
  outFailures.set(stdout, made)
  return made
}

/** The stderrs watched, and those that could not be written once: for every Io that writes them. */
const watchedErrs = new WeakSet<NodeJS.WritableStream>()
const failedErrs = new WeakSet<NodeJS.WritableStream>()

/**
 * A writer of stderr that a failure ends quietly: a full disk (`2>> gw.log`), a reader gone. gw
 * then has no one left to tell, and goes on: its exit code is still the outcome (an approved
 * purchase exits 0). Unwatched, the failure ended gw with exit 1, which a script reads as "try
 * again".
 */
function watchStderr(stderr: NodeJS.WritableStream): (text: string) => void {
  if (!watchedErrs.has(stderr)) {
    stderr.on('error', () => failedErrs.add(stderr))
    watchedErrs.add(stderr)
  }
  return (text) => {
    if (!failedErrs.has(stderr)) stderr.write(text)
  }
}

function terminalWidth(fromEnv: string | undefined, fromTerminal: number | undefined): number {
  const columns = Number(fromEnv)
  if (fromEnv && Number.isInteger(columns) && columns > 0) return columns
  const own = fromTerminal ?? 0
  return own > 0 ? own : 80
}

/** stdin whole, as UTF-8: bytes that are not are refused naming their line, never read as U+FFFD. */
async function readStdin(stdin: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  const decoded = decodeUtf8(Buffer.concat(chunks))
  if ('line' in decoded) throw new UsageError(`stdin line ${decoded.line} holds bytes that are not UTF-8, and nothing was sent`, 'Give the text as UTF-8.')
  return decoded.text
}

/** The status line: cleared before another write and drawn again after it; a card number in it masked, as in every line for people. */
export function statusLine(writeErr: (text: string) => void): {around(write: () => void): void; set(line: string | undefined): void} {
  let shown = ''
  return {
    around(write) {
      if (shown) writeErr('\r\u001B[K')
      write()
      if (shown) writeErr(shown)
    },
    set(line) {
      const masked = line === undefined ? '' : maskCardNumbersIn(line)
      if (shown || masked) writeErr('\r\u001B[K' + masked)
      shown = masked
    },
  }
}
