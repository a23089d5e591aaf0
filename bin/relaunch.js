// gw under a Node below its floor (package.json's engines): a clone runs itself again with the Node
// it pins (the npm registry's `node` package, a dev dependency), passing on its arguments, stdio,
// signals and exit; without one, it says which Node gw needs. CommonJS and node's own modules only:
// bin/run.js loads it on every start, so what only a relaunch needs is required there.
const fs = require('node:fs')
const {join} = require('node:path')

const FLOOR = [22, 19]
/** Set in the relaunched gw: a pinned node that is itself too old is said, not run again. */
const RELAUNCHED = 'GW_RELAUNCHED_FROM_NODE'
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP']

/** Whether this Node is older than gw's floor. */
function belowFloor(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number)
  return major < FLOOR[0] || (major === FLOOR[0] && minor < FLOOR[1])
}

/** The pinned node of a clone (devDependencies' `node`), or undefined where it is not installed. */
function pinnedNode(root) {
  const file = join(root, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node')
  return !process.env[RELAUNCHED] && fs.statSync(file, {throwIfNoEntry: false})?.isFile() ? file : undefined
}

function needsNewerNode() {
  process.stderr.write(
    `gw needs Node.js ${FLOOR.join('.')} or later; this is Node.js ${process.versions.node}. ` +
      'Install a current Node.js LTS (https://nodejs.org), or, in a clone of gw, run npm ci: it installs the Node gw pins.\n',
  )
  process.exitCode = 1
}

/**
 * Runs `script` under `node` with this process's arguments and stdio, and ends as it ends: its exit
 * code, or death by the same signal (128+n where that signal cannot be raised here).
 *
 * Signals: the two processes share a process group, so what a terminal or a shell sends to the
 * group (Ctrl-C, a hang-up, `timeout`) reaches gw itself; passing those on too would make one
 * Ctrl-C two, and gw takes a second Ctrl-C as "stop at once" (design §5). So a SIGINT or SIGHUP is
 * passed on only when this process is not in its terminal's foreground group (sent to it alone:
 * `kill`, a supervisor); a SIGTERM, which no terminal sends, always.
 */
function relaunch(node, script) {
  const child = require('node:child_process').spawn(node, [script, ...process.argv.slice(2)], {stdio: 'inherit', env: {...process.env, [RELAUNCHED]: process.version}})
  const forward = (signal) => {
    if (signal === 'SIGTERM' || !inForegroundGroup()) child.kill(signal)
  }
  for (const signal of SIGNALS) process.on(signal, forward)
  child.on('error', (error) => {
    process.stderr.write(`gw could not start the Node it pins (${node}): ${error.message}\n`)
    process.exit(1)
  })
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code)
    for (const each of SIGNALS) process.off(each, forward)
    try {
      process.kill(process.pid, signal)
    } catch {
      // A signal this process cannot raise: the shell's own way of saying it.
    }
    process.exit(128 + (require('node:os').constants.signals[signal] ?? 0))
  })
}

/**
 * Whether this process belongs to the foreground process group of a terminal: where a Ctrl-C
 * lands on every process of the group at once. Linux reads it from /proc; elsewhere ps says it.
 */
function inForegroundGroup() {
  try {
    if (process.platform === 'linux') {
      const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ').at(-1).split(' ')
      // After the name: state, ppid, pgrp, session, tty_nr, tpgid.
      return Number(fields[5]) > 0 && fields[2] === fields[5]
    }
    const [pgid, tpgid] = require('node:child_process').execFileSync('ps', ['-o', 'pgid=,tpgid=', '-p', String(process.pid)], {encoding: 'utf8'}).trim().split(/\s+/)
    return Number(tpgid) > 0 && pgid === tpgid
  } catch {
    return false
  }
}

module.exports = {belowFloor, pinnedNode, needsNewerNode, relaunch, FLOOR}

// npm's preinstall: gw installed (npm install --global, a tarball) on a Node below the floor stops
// with the same words. A clone, which has its sources, goes on: its npm ci installs the Node it pins.
if (require.main === module && belowFloor() && !fs.existsSync(join(__dirname, '..', 'src'))) needsNewerNode()
