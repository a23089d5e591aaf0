import {createRequire} from 'node:module'
import {join} from 'node:path'
import {finished} from 'node:stream/promises'
import {setFlagsFromString} from 'node:v8'
import {inspect} from 'node:util'
import {Worker} from 'node:worker_threads'

/**
 * gw run in a worker thread of the test's own process, as `node bin/run.js ARGS` would run it: the
 * same entry (bin/run.js, then dist/gw.cjs from its code cache), its own argv, environment, stdin,
 * stdout, stderr and exit code, a fresh thread (so fresh modules and globals) each run. A process
 * costs the test ~0.3 CPU-s a gw, a thread about half that. CONTRIBUTING.md ("gw in a thread") says
 * where a thread and a process could differ and how each is kept the same.
 */
export interface ThreadRun {
  env: NodeJS.ProcessEnv
  stdin: string
  timeoutMs: number
}

const BOOT = join(import.meta.dirname, 'gw-thread.cjs')
const start = createRequire(import.meta.url)('../../bin/start.js') as {V8_DEFAULTS_AFTER: Record<string, string>}

let running = 0

export function runGwInThread(gw: string, args: string[], run: ThreadRun): Promise<{code: number; stdout: string; stderr: string}> {
  return new Promise((resolve, reject) => {
    // No execArgv of the test's (a spawned gw gets none): bin/run.js names its code cache after them.
    const worker = new Worker(BOOT, {workerData: {gw, args, stdin: run.stdin}, argv: [], execArgv: [], env: run.env, stdout: true, stderr: true})
    running++
    const written = {stdout: [] as Buffer[], stderr: [] as Buffer[]}
    const text = (stream: 'stdout' | 'stderr') => Buffer.concat(written[stream]).toString('utf8')
    // What reaches the thread's own stdio, which gw-thread.cjs puts pipes in place of, is kept too.
    worker.stdout.on('data', (chunk: Buffer) => written.stdout.push(chunk))
    worker.stderr.on('data', (chunk: Buffer) => written.stderr.push(chunk))
    worker.on('message', ({stream, chunk}: {stream: 'stdout' | 'stderr'; chunk: Uint8Array}) => written[stream].push(Buffer.from(chunk)))
    const timer = setTimeout(() => {
      void worker.terminate()
      reject(new Error(`gw ${args.join(' ')} did not exit within ${run.timeoutMs} ms\nstdout: ${text('stdout')}\nstderr: ${text('stderr')}`))
    }, run.timeoutMs)
    // What node prints for an uncaught exception, and its exit code: a process would have.
    worker.on('error', (error) => written.stderr.push(Buffer.from(`${inspect(error)}\n\nNode.js ${process.version}\n`)))
    worker.on('exit', (code) => {
      clearTimeout(timer)
      if (--running === 0) v8FlagsAsStarted()
      // Every message the thread sent came before its exit; what it wrote to its own stdio, before those end.
      void Promise.all([finished(worker.stdout), finished(worker.stderr)]).then(() => resolve({code, stdout: text('stdout'), stderr: text('stderr')}), reject)
    })
  })
}

/**
 * V8's flags are the process's, not a thread's: gw sets some as it runs (bin/start.js: WebAssembly
 * compiled by the baseline compiler alone, the young generation kept small), and V8 takes a code
 * cache only under the flags it was made with. So once no gw runs here they are set back, or the
 * next gw would compile its bundle from source and write the cache again.
 */
function v8FlagsAsStarted(): void {
  const defaults = start.V8_DEFAULTS_AFTER[process.versions.v8.split('.').slice(0, 2).join('.')]
  if (defaults) setFlagsFromString(defaults)
  setFlagsFromString('--semi-space-growth-factor=2')
}
