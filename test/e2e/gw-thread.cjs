// A worker thread that runs gw as `node bin/run.js ARGS` would, one run after another
// (test/e2e/gw-thread.ts): each run its own argv, environment and stdio, then bin/run.js itself,
// and ended as a process ends, when nothing is left to do. What a run leaves is undone before the
// next, as a process's exit would. CONTRIBUTING.md ("gw in a thread") says what differs.
const {parentPort} = require('node:worker_threads')
const diagnostics = require('node:diagnostics_channel')
const fs = require('node:fs')
const net = require('node:net')
const os = require('node:os')
const {Readable, Writable} = require('node:stream')
const timers = require('node:timers')
const vm = require('node:vm')
const workerThreads = require('node:worker_threads')

/** The run in progress: what it started that a process's exit would end. */
let run

// The bundle compiled once a thread (~0.2 CPU-s of a fresh thread's 0.33): bin/run.js asks for
// the same script each run, and each run evaluates it afresh, so its modules and state are new.
// A code cache V8 refuses here was refused for flags another gw in this process set (V8's flags
// are the process's): a gw process, its flags as they start, takes it. So the bundle is compiled
// from source instead, and bin/run.js, seeing no refusal, writes no cache of its own over it.
// The bundle is known by its file, unchanged since (keptState), and its length; another script by its code.
const RealScript = vm.Script
const compiled = new Map()
vm.Script = function Script(code, options) {
  const state = keptState(options?.filename)
  const kept = compiled.get(options?.filename)
  if (kept && (state ? kept.state === state && kept.code.length === code.length : kept.code === code)) return kept.script
  let script = new RealScript(code, options)
  if (script.cachedDataRejected) script = new RealScript(code, {...options, cachedData: undefined})
  if (options?.filename) compiled.set(options.filename, {code, state, script})
  return script
}

// bin/run.js reads the 2.4 MB bundle each run, then compares it with the one compiled: ~3 ms of a
// run's 24. It reads the bundle's code cache too (~1.5 MB), which the script kept above makes of no
// use: ~7% of a run. oclif reads its 400 kB manifest as text each run: ~4%. Each file unchanged
// since (keptState), what was read before is handed back.
const realReadFileSync = fs.readFileSync
const reads = new Map()
fs.readFileSync = function readFileSync(file, ...rest) {
  const state = keptState(file)
  if (!state) return Reflect.apply(realReadFileSync, fs, [file, ...rest])
  const key = `${file} ${JSON.stringify(rest)}`
  const kept = reads.get(key)
  if (kept?.state === state) return kept.text
  const text = Reflect.apply(realReadFileSync, fs, [file, ...rest])
  reads.set(key, {state, text})
  return text
}

/**
 * dist/gw.cjs, a code cache of it beside it, or oclif.manifest.json, as the system tells it:
 * device, inode, size and times. A file replaced through a rename (the bundle's build, a gw writing
 * a cache) has another inode; one rewritten in place (`oclif manifest`) has other times. Undefined
 * for any other file, which is read as it is.
 */
function keptState(file) {
  if (typeof file !== 'string' || !/[\\/](dist[\\/]gw\.cjs(\.[^\\/]+\.cache)?|oclif\.manifest\.json)$/.test(file)) return undefined
  const stats = fs.statSync(file, {throwIfNoEntry: false})
  return stats ? `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}` : undefined
}

// Timers, threads, sockets and servers a run leaves behind would outlive it here, where a
// process's exit ends them: each is kept for the end of the run that made it.
const ends = (kind, make) =>
  function (...args) {
    const made = Reflect.apply(make, this, args)
    run?.[kind].push(made)
    return made
  }
for (const owner of [globalThis, timers]) {
  owner.setTimeout = ends('timeouts', owner.setTimeout)
  owner.setInterval = ends('timeouts', owner.setInterval)
  owner.setImmediate = ends('immediates', owner.setImmediate)
}
net.Socket.prototype.connect = ends('sockets', net.Socket.prototype.connect)
net.Server.prototype.listen = ends('servers', net.Server.prototype.listen)
diagnostics.subscribe('net.server.socket', ({socket}) => run?.sockets.push(socket))
const RealWorker = workerThreads.Worker
workerThreads.Worker = class Worker extends RealWorker {
  constructor(...args) {
    super(...args)
    run?.workers.push(this)
  }
}

// The test's process is this thread's too: a run that signals it (its own pid, its group) would end
// the test. A process of gw's own would have ended itself alone.
const ownPid = process.pid
const realKill = process.kill
process.kill = function kill(pid, signal) {
  if (signal !== 0 && (Number(pid) === ownPid || Number(pid) <= 0)) throw new Error(`gw in a thread signalled the test's own process (${pid}, ${signal}): run it as a process (test/e2e/helpers.ts PROCESS_FILES)`)
  return Reflect.apply(realKill, process, [pid, signal])
}

parentPort.on('message', (message) => (message.signal ? signalRun(message.signal) : startRun(message)))

/**
 * A signal a process would have been sent: its listeners hear it, and without one it ends the run
 * as it would a process, with 128 + the signal's number.
 */
function signalRun(name) {
  if (!run) return
  if (process.listenerCount(name) > 0) process.emit(name, name)
  else process.exit(128 + os.constants.signals[name])
}

function startRun({gw, args, env, stdin, pid}) {
  run = {timeouts: [], immediates: [], sockets: [], servers: [], workers: []}
  if (pid !== undefined) Object.defineProperty(process, 'pid', {value: pid, writable: false, enumerable: true, configurable: true})
  process.argv = [process.execPath, gw, ...args]
  for (const key of Object.keys(process.env)) delete process.env[key]
  Object.assign(process.env, env)
  process.exitCode = undefined
  setStdio(stdin)
  // Nothing of this thread's keeps a run going: it ends when gw's own work does ('beforeExit').
  parentPort.unref()
  require(gw)
}

// A process ends where its event loop has nothing left: 'beforeExit', then 'exit' with its code.
process.on('beforeExit', () => {
  if (!run) return
  const ended = run
  run = undefined
  const code = process.exitCode ?? 0
  process._exiting = true
  for (const listener of added(process.listeners('exit'), before.listeners.get('exit'))) Reflect.apply(listener, process, [code])
  process._exiting = false
  const exitCode = process.exitCode ?? code
  void endAll(ended).then(() => {
    undoRun()
    parentPort.postMessage({exitCode})
    parentPort.ref()
  })
})

/** Ends what a run started, as its process's exit would: none of their handlers runs again. */
function endAll({timeouts, immediates, sockets, servers, workers}) {
  for (const timer of timeouts) clearTimeout(timer)
  for (const immediate of immediates) clearImmediate(immediate)
  for (const made of [...sockets, ...servers, ...workers]) made.removeAllListeners()
  for (const socket of sockets) socket.destroy()
  for (const server of servers) server.close()
  return Promise.all(workers.map((worker) => worker.terminate()))
}

/** What this thread is before any run (its own listeners too), put back after each. */
const before = {
  globals: properties(globalThis),
  console: properties(console),
  process: properties(process),
  listeners: new Map(process.eventNames().map((name) => [name, process.listeners(name)])),
  modules: new Set(Object.keys(require.cache)),
}

/**
 * Puts back what a run changed: process listeners, globals, process's own properties, and modules
 * it loaded (bin/run.js's and the bundle's apart files load afresh each run, as in a process).
 */
function undoRun() {
  for (const name of process.eventNames()) {
    for (const listener of added(process.listeners(name), before.listeners.get(name))) process.removeListener(name, listener)
  }
  restore(globalThis, before.globals)
  restore(console, before.console)
  restore(process, before.process)
  for (const id of Object.keys(require.cache)) if (!before.modules.has(id)) delete require.cache[id]
  process.exitCode = undefined
}

function added(now, then = []) {
  return now.filter((listener) => !then.includes(listener))
}

function properties(object) {
  return new Map(Reflect.ownKeys(object).map((key) => [key, Object.getOwnPropertyDescriptor(object, key)]))
}

function restore(object, kept) {
  for (const key of Reflect.ownKeys(object)) {
    const was = kept.get(key)
    const is = Object.getOwnPropertyDescriptor(object, key)
    if (!was) {
      if (is.configurable) delete object[key]
    } else if (was.value !== is.value || was.get !== is.get || was.set !== is.set) {
      if (is.configurable) Object.defineProperty(object, key, was)
      else if (is.writable) object[key] = was.value
    }
  }
}

/**
 * stdin as a pipe the test wrote and closed: a worker's own stdin keeps the thread alive while
 * what was written to it is unread, where a process ends with its pipe unread. isTTY stays
 * undefined, as for a pipe.
 */
function setStdio(bytes) {
  const input = Buffer.from(bytes)
  const stdin = new Readable({
    read() {
      if (input.length > 0) this.push(input)
      this.push(null)
    },
  })
  for (const [name, stream] of [['stdin', stdin], ['stdout', inPlaceOf(process.stdout, pipe('stdout'))], ['stderr', inPlaceOf(process.stderr, pipe('stderr'))]]) {
    Object.defineProperty(process, name, {configurable: true, enumerable: true, get: () => stream})
  }
  // The global console keeps the streams it first wrote to: a process's are there all its life.
  console._stdout = process.stdout
  console._stderr = process.stderr
}

// stdout and stderr as a pipe is on Linux and Windows: each write done before write() returns,
// so writableLength is 0 after it, as gw (output/io.ts flushOut) expects. A worker's own stdout is
// done only once the parent thread has read it, and 'drain' never comes for a short write:
// gw waited for it, and the thread ended with its work half done. The parent thread gets each
// chunk, in order, before the run's end.
function pipe(stream) {
  return new Writable({
    decodeStrings: false,
    write(chunk, encoding, done) {
      parentPort.postMessage({stream, chunk: typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk})
      done()
    },
  })
}

/**
 * The thread's own stream stays the parent thread's way in: it asks the stream named for more
 * (Node's kStdioWantsMoreDataCallback) of whichever stream is there under that name.
 */
function inPlaceOf(own, stream) {
  for (const key of Object.getOwnPropertySymbols(Object.getPrototypeOf(own))) {
    if (key.description === 'kStdioWantsMoreDataCallback') stream[key] = () => own[key]()
  }
  return stream
}
