// The small process that starts the tests' programs for them (test/spawner.ts). A fork copies its
// parent's page tables: ~15 ms of CPU from a test process of 400 MB, ~1 ms from this one.
const {spawn} = require('node:child_process')

process.on('message', ({id, file, args, env, cwd, uid, gid, stdin, timeoutMs, killSignal}) => {
  let answered = false
  const answer = (what) => {
    if (answered) return
    answered = true
    clearTimeout(timer)
    process.send({id, ...what})
  }
  const failed = (error) => answer({error: {message: error.message, code: error.code}})
  let timedOut = false
  let child
  try {
    child = spawn(file, args, {env, cwd, uid, gid, stdio: ['pipe', 'pipe', 'pipe']})
  } catch (error) {
    return failed(error)
  }
  const timer = setTimeout(() => {
    timedOut = true
    child.kill(killSignal)
  }, timeoutMs)
  const stdout = []
  const stderr = []
  child.stdout.on('data', (chunk) => stdout.push(chunk))
  child.stderr.on('data', (chunk) => stderr.push(chunk))
  // A program that could not start (ENOENT, EACCES) says so here, before its 'close'.
  child.on('error', failed)
  child.on('close', (code, signal) => answer({code, signal, timedOut, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr)}))
  // A program may exit without reading its stdin: the EPIPE of writing it is no failure.
  child.stdin.on('error', () => {})
  child.stdin.end(stdin)
})

// Its test process gone, so is it.
process.on('disconnect', () => process.exit())
