// A clone's own install step, before its build: npm ci and npm install run it (package.json's
// postprepare, which npm runs only for the project it installs, never for gw installed from npm).
// - Where the shell's Node is below gw's floor, it puts the Node gw pins for this platform
//   (scripts/embedded-node) into node_modules/.gw-node, and that node first on npm scripts' PATH
//   (node_modules/.bin): the build, the tests and ./bin/run.js (bin/relaunch.js) run on it.
//   Where gw pins none for this platform, it says in one line which Node to install, and fails.
//   On Node 22.19 or later nothing is fetched: gw runs on the shell's Node (a Node put here for an
//   older shell stays until the next npm ci, which starts from an empty node_modules).
// - It says, in one line, when keytar, the optional module gw reaches the OS keychain with, is
//   missing or does not load: npm leaves a failed optional dependency out without a word, and the
//   user would learn it at gw login. Left out on purpose (--omit=optional), nothing is said.
import {copyFileSync, linkSync, mkdirSync, rmSync, symlinkSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {fetchNode, hostTarget, pinFor} from './registry-node.js'

const require = createRequire(import.meta.url)
const relaunch = require('../bin/relaunch.js')
// Not import.meta.dirname: Node 18's has none, and this runs on the shell's Node, however old.
const root = fileURLToPath(new URL('..', import.meta.url))
const pinned = relaunch.pinnedDir(root)
const binDir = join(root, 'node_modules', '.bin')
const windows = process.platform === 'win32'
const onPath = join(binDir, windows ? 'node.exe' : 'node')

if (relaunch.belowFloor()) {
  const pin = pinFor(hostTarget())
  if (!pin) {
    process.stderr.write(
      `gw needs Node.js ${relaunch.FLOOR.join('.')} or later; this is Node.js ${process.versions.node}, and gw pins no Node for ${hostTarget()} (the npm registry has none it could): install Node.js ${relaunch.FLOOR.join('.')} or later (https://nodejs.org), then npm ci again.\n`,
    )
    process.exit(1)
  }
  const node = fetchNode(pin, pinned)
  putOnPath(node)
  process.stdout.write(`gw: Node.js ${process.versions.node} is below gw's floor, ${relaunch.FLOOR.join('.')}: gw runs on Node.js ${pin.version} (the npm registry's ${pin.name}), put in node_modules/.gw-node.\n`)
}

if (!omitted('optional')) {
  const why = keytarProblem()
  if (why) process.stderr.write(keychainNote(why))
}

/** node_modules/.bin/node: npm puts node_modules/.bin first on its scripts' PATH. A link; on Windows a hard link, else a copy. */
function putOnPath(node) {
  mkdirSync(binDir, {recursive: true})
  rmSync(onPath, {force: true})
  if (!windows) return symlinkSync(relative(binDir, node), onPath)
  try {
    linkSync(node, onPath)
  } catch {
    copyFileSync(node, onPath)
  }
}

/** Whether npm was told to leave out a kind of dependency (npm passes its settings to scripts as npm_config_*). */
function omitted(kind) {
  return (process.env.npm_config_omit ?? '').split(/[\s,]+/).includes(kind)
}

/** Why keytar cannot be used here, or undefined where it loads. */
function keytarProblem() {
  try {
    require(require.resolve('keytar', {paths: [root]}))
    return undefined
  } catch (err) {
    if (err?.code === 'MODULE_NOT_FOUND' && /'keytar'/.test(err.message)) return 'keytar could not be built'
    return `keytar does not load (${String(err?.message ?? err).split('\n')[0]})`
  }
}

/** The one line an install without the keychain prints. */
function keychainNote(why) {
  const need = process.platform === 'linux' ? ' (on Linux it needs libsecret-1-dev, then npm ci again)' : ''
  return `gw: no OS keychain: ${why}${need}. gw works without it: gw login then needs --insecure-storage (the token in a file only you can read), or give GW_TOKEN in the environment (docs/install.md).\n`
}
