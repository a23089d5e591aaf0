import {forPeople, type Io, statusLine} from '../src/output/io.js'

// An Io over buffers, for tests: what a command printed, asserted as exact text.

export interface TestIoOptions {
  /** stdout, stderr and stdin are terminals: tables, the status line, prompts. */
  tty?: boolean
  /** A progress line may be drawn (Io.progress); by default where `tty` is. */
  progress?: boolean
  stdin?: string
  color?: boolean
  columns?: number
  /** stdout's reader falls behind: outReady, outWritten and flushOut wait until the test calls catchUp(). */
  behind?: boolean
  /**
   * stdout's writes fail with this code once `afterWrites` writes (0 by default) have been taken:
   * EPIPE is a closed pipe (`| head -1`), ENOSPC a file that takes no more (`> /dev/full`). The
   * failure is told a turn of the event loop after the write, as a stream's 'error' event is.
   */
  failWrites?: {code: string; afterWrites?: number}
}

export interface TestIo extends Io {
  stdout: () => string
  stderr: () => string
  /** Resolves once a write waits for the reader that fell behind: gw is held by it now. */
  waitingForReader(): Promise<void>
  /** The reader that fell behind takes everything written so far, and keeps up from then on: whatever waited on it goes on. */
  catchUp(): void
  /** The reader goes away now (EPIPE unless `code` says otherwise): no later write reaches stdout. */
  closeOut(code?: string): void
}

/**
 * An Io of buffers, with a reader a test controls: one that falls behind (back-pressure), goes
 * away (a closed pipe) or whose writes fail (a full disk), so that every path that waits for
 * stdout or stops on its failure runs in process, as it runs against the real one.
 */
export function testIo({tty = false, progress = tty, stdin = '', color = false, columns = 80, behind = false, failWrites}: TestIoOptions = {}): TestIo {
  let stdout = ''
  let stderr = ''
  let writes = 0
  let failure: NodeJS.ErrnoException | undefined
  let lagging = behind
  const waiting: (() => void)[] = []
  const closedListeners: ((err: NodeJS.ErrnoException) => void)[] = []
  let heldBy: () => void = () => {}
  const held = new Promise<void>((resolve) => (heldBy = resolve))
  const footer = statusLine((text) => void (stderr += text))
  const letWaitersGo = () => {
    for (const resolve of waiting.splice(0)) resolve()
  }
  const fail = (code: string) => {
    if (failure) return
    failure = Object.assign(new Error(`write ${code}`), {code})
    for (const listener of closedListeners.splice(0)) listener(failure)
    letWaitersGo()
  }
  const taken = (): Promise<void> => {
    if (failure || !lagging) return Promise.resolve()
    heldBy()
    return new Promise<void>((resolve) => waiting.push(resolve))
  }
  /** Whether the write reached stdout: a failing one is told a turn later, as the process's stdout tells it. */
  const write = (text: string): boolean => {
    if (failure) return false
    if (failWrites && writes >= (failWrites.afterWrites ?? 0)) {
      setImmediate(() => fail(failWrites.code))
      return false
    }
    writes++
    footer.around(() => void (stdout += text))
    return true
  }
  return {
    out: (text) => void write(text),
    err: (text) => footer.around(() => void (stderr += forPeople(text))),
    status: (line) => (tty ? footer.set(line) : undefined),
    readStdin: async () => stdin,
    stdinChunks: async function* () {
      yield stdin
    },
    isStdoutTTY: tty,
    isStderrTTY: tty,
    isStdinTTY: tty,
    color,
    errColor: color,
    columns,
    chatty: tty,
    progress,
    canPrompt: () => tty,
    onOutClosed(listener) {
      if (failure) listener(failure)
      else closedListeners.push(listener)
    },
    outFailure: () => failure,
    outWritten: async (text) => {
      if (!write(text)) {
        await new Promise((resolve) => setImmediate(resolve))
        return false
      }
      await taken()
      return failure === undefined
    },
    outReady: taken,
    // As the process's: what waits is taken first, then a turn of the event loop lets a failure already met be told.
    flushOut: async () => {
      await taken()
      await new Promise((resolve) => setImmediate(resolve))
    },
    page: () => Promise.resolve(),
    close: () => Promise.resolve(),
    stdout: () => stdout,
    stderr: () => stderr,
    waitingForReader: () => held,
    catchUp() {
      lagging = false
      letWaitersGo()
    },
    closeOut: (code = 'EPIPE') => fail(code),
  }
}
