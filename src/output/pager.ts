import type {ChildProcess} from 'node:child_process'
import {drainWaiter, type Io, withStdinTTY} from './io.js'
import {sanitize} from '../safety/sanitize.js'
import {renderWarning} from './warning.js'

/** What Io.outFailure says once the reader quit the pager (q in less): the output stops, and that is no error. */
export const PAGER_QUIT = 'EPAGERQUIT'
/** The pager ended with a failing status of its own (not the reader quitting it): what it was given may not have been shown. */
export const PAGER_FAILED = 'EPAGERFAILED'

/**
 * The pager gw pipes long output through (gh's rule): GW_PAGER, else PAGER, else `less -FRX`;
 * `cat` or an empty value means none. Split as a shell would split plain words and quotes,
 * without a shell: a program that is not there fails to start, and gw prints instead.
 */
export function pagerCommand(env: NodeJS.ProcessEnv): {argv: string[]; chosen: boolean} | undefined {
  const chosen = env.GW_PAGER ?? env.PAGER
  const argv = words(chosen ?? 'less -FRX')
  if (argv.length === 0 || argv[0] === 'cat') return undefined
  return {argv, chosen: chosen !== undefined}
}

function words(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!)
}

/**
 * stdout that may go through a pager: `page(lines)` is told before output a terminal would show
 * (a table), and once what is on the screen and what comes would not fit on it, a pager starts
 * and everything stdout gets from then on goes to it. Only where stdout is a terminal (never in a
 * pipe, even with GW_FORCE_TTY). While the pager holds the terminal, nothing else draws on it:
 * no prompt is offered, the status line (progress) is not drawn, and what is said on stderr goes
 * into the pager after the output, in order (unless stderr goes elsewhere). `close()` ends the
 * pager's input and waits for the reader to leave it. The reader quitting early (q) stops the
 * output as a closed pipe would, but is no error; a pager that cannot start leaves gw printing.
 */
export function pagedIo(io: Io, env: NodeJS.ProcessEnv, stdout: NodeJS.WriteStream = process.stdout): Io {
  const command = stdout.isTTY ? pagerCommand(env) : undefined
  let linesShown = 0
  let pager: ChildProcess | undefined
  let pagerDrained: () => Promise<void> = () => Promise.resolve()
  let starting: Promise<void> | undefined
  let exited: Promise<void> = Promise.resolve()
  let quit: NodeJS.ErrnoException | undefined
  let stdinGone = false
  const listeners: ((err: NodeJS.ErrnoException) => void)[] = []
  const paging = () => pager !== undefined && quit === undefined

  const quitPager = (failed?: string) => {
    if (quit) return
    quit = failed ? Object.assign(new Error(failed), {code: PAGER_FAILED}) : Object.assign(new Error('the pager was quit'), {code: PAGER_QUIT})
    for (const listener of listeners.splice(0)) listener(quit)
  }

  const start = async (): Promise<void> => {
    const {spawn} = await import('node:child_process')
    // gh's defaults for less and lv, where the reader has set none; and gw writes UTF-8 (table borders) whatever the locale says.
    const child = spawn(command!.argv[0]!, command!.argv.slice(1), {stdio: ['pipe', 'inherit', 'inherit'], env: {LESS: 'FRX', LV: '-c', LESSCHARSET: 'utf-8', ...env}})
    const started = await new Promise<boolean>((resolve) => child.once('spawn', () => resolve(true)).once('error', () => resolve(false)))
    if (!started) {
      if (command!.chosen) renderWarning(io, `the pager ${command!.argv.join(' ')} could not be started; printing instead.`)
      return
    }
    io.status(undefined)
    pager = child
    pagerDrained = drainWaiter(child.stdin!)
    // The reader quitting closes the pipe: writes fail with EPIPE, which is this, not stdout's failure.
    // The pager gone (EPIPE): nothing more goes to it, and its exit, which follows, says whether the reader quit it or it failed.
    child.stdin!.on('error', () => (stdinGone = true))
    // A reader's q ends less with 0, and Ctrl-C in it with a signal; any other status is the pager failing, which is not a quit.
    const failure = (code: number | null) => (code !== null && code !== 0 ? `the pager ${command!.argv.join(' ')} failed (exit ${code}): what gw printed may not have been shown` : undefined)
    exited = new Promise((resolve) => child.once('exit', (code) => (quitPager(failure(code)), resolve())))
  }

  const toPager = (text: string): boolean => {
    if (!paging()) return false
    if (!stdinGone) pager!.stdin!.write(text)
    return true
  }

  return withStdinTTY({
    ...io,
    async page(lines) {
      if (!command || pager || quit) return
      if (linesShown + lines < (stdout.rows || 24)) return
      starting ??= start()
      await starting
    },
    out(text) {
      if (quit) return
      if (toPager(text)) return
      linesShown += text.split('\n').length - 1
      io.out(text)
    },
    async outWritten(text) {
      if (quit) return false
      if (!paging()) {
        linesShown += text.split('\n').length - 1
        return io.outWritten(text)
      }
      return new Promise((resolve) => pager!.stdin!.write(text, (err) => resolve(!err)))
    },
    err(text) {
      if (io.isStderrTTY && toPager(sanitize(text, {keepColors: true}))) return
      io.err(text)
    },
    status(line) {
      if (!paging()) io.status(line)
    },
    canPrompt: () => !paging() && io.canPrompt(),
    onOutClosed(listener) {
      let told = false
      const once = (err: NodeJS.ErrnoException) => {
        if (!told) listener(err)
        told = true
      }
      listeners.push(once)
      io.onOutClosed(once)
    },
    outFailure: () => quit ?? io.outFailure(),
    async outReady() {
      // Paging, the reader is the pager: a list waits for it as it would for stdout.
      if (!paging()) return io.outReady()
      if (pager!.stdin!.writableNeedDrain) await pagerDrained()
    },
    async flushOut() {
      if (paging() && pager!.stdin!.writableLength > 0) await pagerDrained()
      await io.flushOut()
    },
    async close() {
      if (!pager) return
      if (!quit) pager.stdin!.end()
      // Ctrl-C in the pager reaches gw too: gw waits for the reader to leave it, as the pager does.
      const stay = () => {}
      process.on('SIGINT', stay)
      await exited
      process.off('SIGINT', stay)
    },
  }, () => io.isStdinTTY)
}
