/**
 * The only code that touches process.stdout, process.stderr and process.stdin. Commands and
 * renderers write through an Io, so tests can hand them buffers (testIo) and assert exact text.
 */
export interface Io {
  out(text: string): void
  err(text: string): void
  readStdin(): Promise<string>
  readonly isStdoutTTY: boolean
  readonly isStderrTTY: boolean
  readonly isStdinTTY: boolean
  /** Colour on stdout: a terminal, and NO_COLOR unset. */
  readonly color: boolean
  /** Colour on stderr, by the same rule. */
  readonly errColor: boolean
  /** Progress and success notes are for people watching a terminal, not for CI logs. */
  readonly chatty: boolean
  canPrompt(): boolean
  /** Calls back once when stdout's reader goes away (`gw listen | head -1`), instead of crashing on EPIPE. */
  onOutClosed?(listener: () => void): void
}

export function processIo(env: NodeJS.ProcessEnv = process.env, {noInput = false} = {}): Io {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== ''
  const isStdoutTTY = Boolean(process.stdout.isTTY)
  const isStderrTTY = Boolean(process.stderr.isTTY)
  const isStdinTTY = Boolean(process.stdin.isTTY)
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    readStdin,
    isStdoutTTY,
    isStderrTTY,
    isStdinTTY,
    color: isStdoutTTY && !noColor,
    errColor: isStderrTTY && !noColor,
    chatty: isStderrTTY && !env.CI,
    canPrompt: () => !noInput && isStdinTTY && isStderrTTY,
    onOutClosed(listener) {
      let called = false
      process.stdout.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE') throw err
        if (!called) listener()
        called = true
      })
    },
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}

export interface TestIo extends Io {
  stdout: () => string
  stderr: () => string
}

export function testIo({tty = false, stdin = '', color = false} = {}): TestIo {
  let stdout = ''
  let stderr = ''
  return {
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
    readStdin: async () => stdin,
    isStdoutTTY: tty,
    isStderrTTY: tty,
    isStdinTTY: tty,
    color,
    errColor: color,
    chatty: tty,
    canPrompt: () => tty,
    stdout: () => stdout,
    stderr: () => stderr,
  }
}
