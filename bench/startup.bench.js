// Start-up: whole gw processes against `node -e 0` and against a script that
// does the same GET with node:http, all alternating in one run, medians and ratios to node's bare
// start. gw purchase get/create talk to a local gateway started for the run. With a proxy variable
// set, gw also loads undici's proxy agent (the local gateway itself is still reached directly).
// gw from a clone runs from a copy of its build (cloneCopy), whose caches the bench may remove.
// Goals: gw from a clone: --version and --help at most 3x node; purchase get and purchase
// create at most 5x. The single executable (release/, built here by
// scripts/package.js when older than the build): purchase get at most 2.0x, --version at most 1.3x;
// the npm package (this build, packed and installed): purchase get at most 3x, --version at most
// 1.3x; and the same package installed where the user running gw cannot write (as root: run as
// nobody, to whom root's install is read-only; else chmod a-w) at most 1.2x it installed writable.
// The build ships a code cache trained by `gw purchase get` (scripts/train-start.js); 'no code
// cache' removes it before each of its runs, as a first run under another Node finds none, and
// that run writes it again. 'shipped cache for another Node' is the read-only install run by a
// Node the package was not built with (its cache renamed for another version): it starts from the
// cache gw keeps in the user's cache after its first run. Where PATH has a node older than gw's
// floor (BENCH_OLD_NODE names one), the clone's `gw --version` under it, which names the pinned
// Node without starting it, is measured against that node's own `node -e 0`: at most 1.5x.
import {execFileSync, spawnSync} from 'node:child_process'
import {accessSync, chmodSync, constants, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {delimiter, join} from 'node:path'
import {measure, median, startSandbox} from './lib.js'

const ROOT = join(import.meta.dirname, '..')
const DIST = join(ROOT, 'dist')
const CACHE_NAME = `gw.cjs.${process.version}-${process.arch}.cache`

const RUNS = Number(process.env.BENCH_RUNS ?? 15)
const GOALS = {
  'gw --version': 3,
  'gw --help': 3,
  'gw purchase get': 5,
  'gw purchase create': 5,
  'executable: gw --version': 1.3,
  'executable: gw purchase get': 2,
  'npm install: gw --version': 1.3,
  'npm install: gw purchase get': 3,
}

const NODE_HTTP_GET = `
const http = require('node:http')
const [url, id] = process.argv.slice(1)
http.get(url + '/v1.0/purchases/' + encodeURIComponent(id), {headers: {authorization: 'Basic ' + Buffer.from('TEST:TEST').toString('base64')}}, (res) => {
  let body = ''
  res.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body).response) + '\\n'))
})
`

export default async function bench() {
  const {gw, forgetCodeCache, forgetSavedHelp} = cloneCopy()
  const older = olderNode()
  const executable = currentExecutable()
  const installs = installPackage()
  const sandbox = await startSandbox()
  try {
    const auth = 'Basic ' + Buffer.from('TEST:TEST').toString('base64')
    const body = JSON.stringify({amount: 1000, reference: `bench-${Date.now()}`, card_holder: 'Bench', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'})
    const created = await fetch(`${sandbox.url}/v1.0/purchases`, {method: 'POST', headers: {authorization: auth, 'content-type': 'application/json'}, body}).then((r) => r.json())
    const id = created.response.id
    // On Node 20, NODE_EXTRA_CA_CERTS alone triples node's start: measure without it, for both sides.
    const env = {...process.env, GW_BASE_URL: sandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', XDG_CONFIG_HOME: sandbox.home}
    delete env.NODE_EXTRA_CA_CERTS
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']) delete env[name]
    const proxied = {...env, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9'}
    // The executable and the installs keep their saved root help in a cache directory of their own.
    const executableEnv = {...env, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'gw-bench-cache-'))}
    const runId = Date.now().toString(36)
    const node = (...args) => [process.execPath, args]
    const get = ['purchase', 'get', id, '--json']
    const create = (n) => ['purchase', 'create', '--amount', '1000', '--reference', `bench-${runId}-${n}`, '--card-holder', 'Bench', '--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123', '--json']
    // Each case gives its command for run n (a purchase needs a fresh reference every time).
    const cases = {
      'node -e 0': () => node('-e', '0'),
      'node:http GET script': () => node('-e', NODE_HTTP_GET, sandbox.url, id),
      'gw --version': () => node(gw, '--version'),
      'gw --help': () => node(gw, '--help'),
      'gw --help, first run after a build': () => (forgetSavedHelp(), node(gw, '--help')),
      'gw purchase get': () => node(gw, ...get),
      'gw purchase get, no code cache': () => (forgetCodeCache(), node(gw, ...get)),
      'gw --json purchase get': () => node(gw, '--json', 'purchase', 'get', id),
      'gw purchase create': (n) => node(gw, ...create(n)),
      'gw get, proxy set': () => [...node(gw, ...get), proxied],
      ...(older && {
        [`node ${older.version} -e 0`]: () => [older.file, ['-e', '0']],
        [`node ${older.version} (below the floor): gw --version`]: () => [older.file, [gw, '--version']],
      }),
      'executable: gw --version': () => [executable, ['--version'], executableEnv],
      'executable: gw --help': () => [executable, ['--help'], executableEnv],
      'executable: gw purchase get': () => [executable, get, executableEnv],
      'executable: gw purchase create': (n) => [executable, create(`x${n}`), executableEnv],
      'npm install: gw --version': () => [installs.writable, ['--version'], {...env, ...installs.ownerHome}],
      'npm install: gw purchase get': () => [installs.writable, get, {...env, ...installs.ownerHome}],
      'npm install: gw purchase create': (n) => [installs.writable, create(`n${n}`), {...env, ...installs.ownerHome}],
      [`npm install, read-only${installs.asUser}: gw purchase get`]: () => [installs.readOnly, get, {...env, ...installs.home()}, installs.user],
      [`npm install, read-only${installs.asUser}, shipped cache for another Node: gw purchase get`]: () => [installs.otherNode, get, {...env, ...installs.home()}, installs.user],
    }
    const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, {ms: [], rss: []}]))
    forgetCodeCache()
    forgetSavedHelp()
    measure(...withEnv(cases['gw purchase get'](), env))
    for (const command of Object.values(cases)) measure(...withEnv(command(-1), env))
    for (let i = 0; i < RUNS; i++) {
      for (const [name, command] of Object.entries(cases)) {
        const {ms, rss} = measure(...withEnv(command(i), env))
        samples[name].ms.push(ms)
        samples[name].rss.push(rss)
      }
    }
    const base = median(samples['node -e 0'].ms)
    console.log(`runs: ${RUNS} each, alternating; medians`)
    console.log('| case | ms | x node -e 0 | goal | peak RSS |')
    console.log('|---|---:|---:|---:|---:|')
    for (const [name, {ms, rss}] of Object.entries(samples)) {
      const ratio = median(ms) / base
      const goal = GOALS[name] ? `<= ${GOALS[name]}x ${ratio <= GOALS[name] ? 'met' : 'MISSED'}` : ''
      console.log(`| ${name} | ${median(ms).toFixed(0)} | ${ratio.toFixed(2)}x | ${goal} | ${(median(rss) / 1024).toFixed(0)} MiB |`)
    }
    if (older) {
      const own = median(samples[`node ${older.version} -e 0`].ms)
      const version = median(samples[`node ${older.version} (below the floor): gw --version`].ms)
      const ratio = version / own
      console.log(`| node ${older.version}: gw --version / its own node -e 0 | ${version.toFixed(0)} / ${own.toFixed(0)} | ${ratio.toFixed(2)}x | <= 1.5x ${ratio <= 1.5 ? 'met' : 'MISSED'} | |`)
    } else console.log('| gw --version under a node below the floor | | | not measured: no such node on PATH (BENCH_OLD_NODE) | |')
    // Each run's read-only start against the writable one just before it, so the machine's load
    // drifting between rounds cancels out: the median of those ratios.
    const readOnly = samples[`npm install, read-only${installs.asUser}: gw purchase get`].ms
    const writable = samples['npm install: gw purchase get'].ms
    const ratio = median(readOnly.map((ms, i) => ms / writable[i]))
    console.log(`| npm install read-only / writable: gw purchase get (median of each run's ratio) | ${median(readOnly).toFixed(0)} / ${median(writable).toFixed(0)} | ${ratio.toFixed(2)}x | <= 1.2x ${ratio <= 1.2 ? 'met' : 'MISSED'} | |`)
  } finally {
    await sandbox.stop()
  }
}

/**
 * The clone's gw copied with what it starts from (its node_modules linked), to run and to forget
 * the code cache and saved help of: not under the tests or the gw runs that share the clone.
 */
function cloneCopy() {
  const copy = mkdtempSync(join(tmpdir(), 'gw-bench-clone-'))
  for (const part of ['bin', 'dist', 'docs', 'oclif.manifest.json', 'package.json']) cpSync(join(ROOT, part), join(copy, part), {recursive: true})
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'junction')
  const dist = join(copy, 'dist')
  return {
    gw: join(copy, 'bin', 'run.js'),
    forgetCodeCache: () => rmSync(join(dist, CACHE_NAME), {force: true}),
    forgetSavedHelp: () => readdirSync(dist).filter((name) => name.startsWith('root-help-')).forEach((name) => rmSync(join(dist, name))),
  }
}

/** BENCH_OLD_NODE, else the first node on PATH older than gw's floor (bin/relaunch.js), with its version; undefined where there is none. */
function olderNode() {
  const {belowFloor} = createRequire(import.meta.url)(join(ROOT, 'bin', 'relaunch.js'))
  const candidates = process.env.BENCH_OLD_NODE ? [process.env.BENCH_OLD_NODE] : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node'))
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK)
    } catch {
      continue
    }
    const version = spawnSync(file, ['-p', 'process.versions.node'], {encoding: 'utf8'}).stdout.trim()
    if (version && belowFloor(version)) return {file, version}
  }
  return undefined
}

function withEnv([command, args, env, user], fallback) {
  return [command, args, env ?? fallback, user]
}

/** release/'s executable for this platform, made again by scripts/package.js when older than the build. */
function currentExecutable() {
  const os = {darwin: 'darwin', linux: 'linux', win32: 'win'}[process.platform] ?? process.platform
  const file = join(ROOT, 'release', `gw-${os}-${process.arch}`, process.platform === 'win32' ? 'gw.exe' : 'gw')
  if (!existsSync(file) || statSync(file).mtimeMs < statSync(join(DIST, 'gw.cjs')).mtimeMs) {
    console.log('building the single executable (scripts/package.js)')
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'package.js')], {cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit']})
  }
  return file
}

/**
 * The npm package (this build, packed) installed three times: writable; read-only to the user who
 * runs it; and read-only with its shipped code cache named for another Node. As root that user is nobody, with a
 * home of its own; as anyone else the installs are made read-only with chmod.
 */
function installPackage() {
  const work = mkdtempSync(join(tmpdir(), 'gw-bench-install-'))
  chmodSync(work, 0o755)
  const npm = (...args) => execFileSync('npm', args, {cwd: work, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8'})
  const [{filename}] = JSON.parse(npm('pack', '--ignore-scripts', '--json', '--pack-destination', work, ROOT))
  const install = (name) => {
    npm('install', '--global', '--prefix', join(work, name), '--prefer-offline', '--no-audit', '--no-fund', join(work, filename))
    return {bin: join(work, name, 'bin', 'gw'), dir: join(work, name, 'lib', 'node_modules', 'gw')}
  }
  const writable = install('writable')
  const readOnly = install('read-only')
  const otherNode = install('other-node')
  renameSync(join(otherNode.dir, 'dist', CACHE_NAME), join(otherNode.dir, 'dist', `gw.cjs.v20.0.0-${process.arch}.cache`))
  const asRoot = process.getuid?.() === 0
  const nobody = (flag) => Number(spawnSync('id', [flag, 'nobody'], {encoding: 'utf8'}).stdout)
  const user = asRoot ? {uid: nobody('-u'), gid: nobody('-g')} : undefined
  if (!asRoot) for (const {dir} of [readOnly, otherNode]) execFileSync('chmod', ['-R', 'a-w', dir])
  const home = mkdtempSync(join(tmpdir(), 'gw-bench-home-'))
  if (user) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, home])
  // nobody cannot enter a clone in root's home or under mktemp -d: it runs a copy of this node, first on its PATH.
  const path = user ? [nodeForAnyone(work), process.env.PATH].join(delimiter) : process.env.PATH
  // The writable install's user gets an empty home too, so only who can write differs.
  const ownerHome = mkdtempSync(join(tmpdir(), 'gw-bench-home-'))
  return {
    ownerHome: {HOME: ownerHome, XDG_CONFIG_HOME: join(ownerHome, 'config'), XDG_CACHE_HOME: join(ownerHome, 'cache')},
    writable: writable.bin,
    readOnly: readOnly.bin,
    otherNode: otherNode.bin,
    user,
    asUser: asRoot ? ' (as nobody)' : ' (chmod a-w)',
    home: () => ({HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), PATH: path}),
  }
}

/** A folder in `work` (which anyone can enter) holding a copy of this node that anyone can run. */
function nodeForAnyone(work) {
  const dir = join(work, 'node')
  mkdirSync(dir)
  chmodSync(dir, 0o755)
  copyFileSync(process.execPath, join(dir, 'node'))
  chmodSync(join(dir, 'node'), 0o755)
  return dir
}
