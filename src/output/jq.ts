import type {Jq} from 'jq-wasm/inline'
import {UsageError} from '../errors.js'
import type {Io} from './io.js'
import {sanitize} from './sanitize.js'

/**
 * `--jq EXPR`, as gh's: the JSON gw prints goes through jq, each record on its own, and what the
 * expression makes is printed instead; strings raw (gh's way), anything else as JSON, pretty on
 * a terminal (control characters made visible), one line each in a pipe. jq itself (1.8, from jq-wasm: jq's own C
 * compiled to WebAssembly, bundled inline, so it needs no jq on the machine and works in the one
 * file executable) is loaded only when --jq is given.
 */
export interface JqFilter {
  readonly expression: string
  readonly jq: Jq
}

/** jq, loaded once: ~30-60 ms (compiling its WebAssembly and jq's builtins), paid only by --jq. */
let loading: Promise<Jq> | undefined

/** The expression, checked: one jq cannot compile is refused (exit 2) before anything is sent. */
export async function jqFilter(expression: string): Promise<JqFilter> {
  loading ??= import('jq-wasm/inline').then(({loadJq}) => loadJq())
  const jq = await loading
  // Run once on null, its output unused: jq has no compile-only mode. Exit 3 is jq's compile error;
  // a runtime error on null (keys, .[]) says nothing of the records to come.
  const checked = jq.raw(null, expression, ['-n'])
  if (checked.exitCode === 3) throw new UsageError(`--jq: ${jqMessage(checked.stderr)}`, 'The expression is jq\'s (jqlang.org/manual): for example --jq .id, or --jq \'select(.amount > 1000) | .reference\'.')
  return {expression, jq}
}

/** jq's stderr without its `jq: error (at /dev/stdin:0): ` prefixes and its count of compile errors. */
function jqMessage(stderr: string): string {
  return stderr
    .replace(/^jq: error(?: \(at [^)]*\))?: /gm, '')
    .replace(/^jq: \d+ compile errors?\n?$/m, '')
    .trimEnd()
}

/** A record the expression failed on: the first, after which nothing more is printed (exit 2). */
export class JqFailure extends UsageError {
  // As stdout's own failures carry one (EPIPE): Io.outFailure reports either.
  readonly code = 'EJQ'
}

/**
 * stdout through the filter: what gw writes there (whole JSON documents, one or more a write,
 * always compact: this Io tells every renderer it writes to a pipe) goes through jq, and jq's
 * output to the real stdout. The first record the expression fails on stops the output as a
 * closed pipe would (lists stop paging, batches start no new row); the reporter says why.
 */
export function filteredIo(io: Io, filter: JqFilter): Io {
  // Pretty on a terminal (jq-wasm prints no colour), one line each elsewhere; strings raw either way.
  const flags = io.isStdoutTTY ? ['-r'] : ['-r', '-c']
  let failure: JqFailure | undefined
  let records = 0
  const listeners: ((err: NodeJS.ErrnoException) => void)[] = []
  const shown = (text: string) => (io.isStdoutTTY ? sanitize(text, {keepColors: true}) : text)
  const filtered = (text: string): string | undefined => {
    if (failure || io.outFailure?.()) return undefined
    const result = filter.jq.raw(text, filter.expression, flags)
    if (!failed(result)) {
      // Records are written a line each; only gw api's body may be one record on several lines, and it is the only write.
      records += text.split('\n').length - 1
      if (result.stderr) io.err(result.stderr + '\n')
      return result.stdout === '' ? '' : shown(result.stdout + '\n')
    }
    // Which document failed, and what came before it, by running them again one at a time.
    let out = ''
    for (const document of documents(text)) {
      records++
      const one = filter.jq.raw(document, filter.expression, flags)
      if (one.stdout !== '') out += shown(one.stdout + '\n')
      if (!failed(one)) continue
      failure = new JqFailure(`--jq: ${jqMessage(one.stderr)} (record ${records} of the output; nothing after it was printed)`)
      for (const listener of listeners.splice(0)) listener(failure)
      break
    }
    return out
  }
  const written = (text: string | undefined) => text !== undefined && text !== ''
  return {
    ...io,
    // Every renderer asks: a pipe gets compact JSON, which is what jq reads here.
    isStdoutTTY: false,
    color: false,
    out(text) {
      const out = filtered(text)
      if (written(out)) io.out(out!)
    },
    async outWritten(text) {
      const out = filtered(text)
      if (failure) {
        if (written(out)) await (io.outWritten?.(out!) ?? io.out(out!))
        return false
      }
      if (!written(out)) return !io.outFailure?.()
      return io.outWritten ? io.outWritten(out!) : (io.out(out!), true)
    },
    onOutClosed(listener) {
      // Told once, whichever comes first: the filter failing or stdout's reader going away.
      let told = false
      const once = (err: NodeJS.ErrnoException) => {
        if (!told) listener(err)
        told = true
      }
      if (failure) once(failure)
      else listeners.push(once)
      io.onOutClosed?.(once)
    },
    outFailure: () => failure ?? io.outFailure?.(),
  }
}

/**
 * An error on any document: jq goes on to the next one and its exit status is the last one's, so
 * its stderr says. Anything else there (debug, stderr) is the expression's own, passed on.
 */
function failed({exitCode, stderr}: {exitCode: number; stderr: string}): boolean {
  return exitCode !== 0 || /^jq: error/m.test(stderr)
}

/** The JSON documents of a write: its lines when each is one (NDJSON), else the whole (a body gw api prints as sent). */
function documents(text: string): string[] {
  const lines = text.split('\n').filter((line) => line.trim() !== '')
  if (lines.length <= 1) return [text]
  try {
    for (const line of lines) JSON.parse(line)
    return lines
  } catch {
    return [text]
  }
}
