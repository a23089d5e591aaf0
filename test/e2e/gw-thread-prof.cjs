// The start of a worker thread that runs gw as `node bin/run.js ARGS` would (test/e2e/gw-thread.ts):
// the same argv, stdio as pipes give it, then bin/run.js itself.
const {parentPort, workerData} = require('node:worker_threads')
const {Readable, Writable} = require('node:stream')

process.argv = [process.execPath, workerData.gw, ...workerData.args]

// A worker's own stdin (the Worker's stdin option) keeps the thread alive while what was written
// to it is unread, where a process ends with its pipe unread: so the bytes come from here instead,
// read when gw asks, like a pipe the test wrote and closed. isTTY stays undefined, as for a pipe.
const input = Buffer.from(workerData.stdin)
const stdin = new Readable({
  read() {
    if (input.length > 0) this.push(input)
    this.push(null)
  },
})

// stdout and stderr as a pipe is on Linux and Windows: each write done before write() returns,
// so writableLength is 0 after it, as gw (output/io.ts flushOut) expects. A worker's own stdout is
// done only once the parent thread has read it, and 'drain' never comes for a short write:
// gw waited for it, and the thread ended with its work half done. The parent thread gets each
// chunk, in order, before it sees the thread exit.
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

for (const [name, stream] of [['stdin', stdin], ['stdout', inPlaceOf(process.stdout, pipe('stdout'))], ['stderr', inPlaceOf(process.stderr, pipe('stderr'))]]) {
  Object.defineProperty(process, name, {configurable: true, enumerable: true, get: () => stream})
}

require("/tmp/prof/pre.cjs");require(workerData.gw)
