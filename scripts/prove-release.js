// What a release proves on each OS before anything is published (the release workflow's `prove`
// job, one runner per target; the CI workflow's, on each OS, with what it built):
// `node scripts/prove-release.js --target linux-x64 [--dir release]`: the target's archive checked
// against SHA256SUMS, unpacked, and its gw run with no node on PATH: `gw --version` names this
// version, this platform and the Node it embeds; `gw help` points to the guides unpacked beside it;
// the README's quick start makes an approved purchase against the local gateway it starts.
// `node scripts/prove-release.js --npm [--dir release]`: the npm package (gw-VERSION.tgz) installed
// with npm install --global into an empty prefix, then the same runs with the gw it installed.
// Exits 1 at the first that fails, saying which and what it printed. What it unpacks or installs
// goes into one temporary folder, removed at the end: a runner, or CI on one machine, runs it often.
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {delimiter, dirname, join, resolve} from 'node:path'
import {parseArgs} from 'node:util'
import {hostTarget, npm, pinFor, platformOf, run, tar} from './registry-node.js'
import {readSums} from './release-files.js'

const root = join(import.meta.dirname, '..')
const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/**
 * The README's quick start as the programs it runs, each an argv: `npm ci` left out (an install
 * needs none), `./bin/run.js` made `gw`, `$(date +%s)` this second, quotes as a shell reads them.
 * The local gateway starts on a free port (--port 0): the profile it makes says which.
 */
export function quickStart(readme = readFileSync(join(root, 'README.md'), 'utf8'), now = new Date()) {
  const line = /## Quick start[\s\S]*?```sh\n(.+)\n```/.exec(readme)?.[1] ?? ''
  if (!line.startsWith('npm ci && ./bin/run.js ')) throw new Error(`the README's quick start changed shape: ${line}`)
  const seconds = String(Math.floor(now.getTime() / 1000))
  return line
    .split(' && ')
    .slice(1)
    .map((command) => [...command.replaceAll('$(date +%s)', seconds).matchAll(/"([^"]*)"|(\S+)/g)].map(([, quoted, bare]) => quoted ?? bare))
    .map(([program, ...args]) => {
      if (program !== './bin/run.js') throw new Error(`the README's quick start runs ${program}, not gw`)
      return args.join(' ') === 'sandbox start --detach' ? [...args, '--port', '0'] : args
    })
}

/** The archive of `target` in `dir`, its sha256 that of SHA256SUMS, unpacked into the folder `into`; returns gw's path in it. */
export function unpackChecked(dir, target, into) {
  const archive = `gw-${target}.${target.startsWith('win-') ? 'zip' : 'tar.gz'}`
  const listed = readSums(dir).get(archive)
  if (!listed) throw new Error(`SHA256SUMS lists no ${archive}`)
  const sha256 = createHash('sha256').update(readFileSync(join(dir, archive))).digest('hex')
  if (sha256 !== listed) throw new Error(`${archive}: its sha256 is ${sha256}, and SHA256SUMS says ${listed}`)
  // tar reads both (bsdtar on Windows and macOS reads zip), as a user's Expand-Archive or tar -xzf would.
  run(tar(), ['-xf', join(dir, archive), '-C', into])
  return join(into, `gw-${target}`, platformOf(target).platform === 'win32' ? 'gw.exe' : 'gw')
}

/** The npm package of this version in `dir`, installed with npm install --global into the empty folder `prefix`; returns how to run the gw it installed. */
export function installPackage(dir, prefix) {
  npm(['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--allow-scripts=keytar', join(dir, `gw-${version}.tgz`)], prefix)
  // npm's gw.cmd on Windows runs node with the package's bin/run.js, which no program can start without a shell.
  if (process.platform === 'win32') return {file: process.execPath, args: [join(prefix, 'node_modules', 'gw', 'bin', 'run.js')], docs: join(prefix, 'node_modules', 'gw', 'docs')}
  return {file: join(prefix, 'bin', 'gw'), args: [], docs: join(prefix, 'lib', 'node_modules', 'gw', 'docs')}
}

/**
 * Runs the proofs with `gw` ({file, args}): in the empty folder `home` as its home, with `path` as
 * PATH; returns what each printed. Throws at the first that fails.
 */
export function prove(gw, {expectedVersion, docs, path, home}) {
  const env = {
    PATH: path,
    HOME: home,
    USERPROFILE: home,
    ...Object.fromEntries(['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'LOCALAPPDATA', 'APPDATA'].map((name) => [name, join(home, name.toLowerCase())])),
    ...(process.env.SystemRoot ? {SystemRoot: process.env.SystemRoot} : {}),
    GW_NO_UPDATE_NOTIFIER: '1',
  }
  const said = []
  const gwRun = (args) => {
    const result = spawnSync(gw.file, [...gw.args, ...args], {env, encoding: 'utf8', timeout: 120_000})
    said.push(`$ gw ${args.join(' ')}\n${result.stdout ?? ''}${result.stderr ?? ''}`)
    if (result.status !== 0) throw new Error(`gw ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout ?? ''}${result.stderr ?? ''}`)
    return result.stdout
  }
  const named = gwRun(['--version'])
  if (!named.startsWith(`gw/${version} `) || (expectedVersion && named !== expectedVersion)) throw new Error(`gw --version says ${named.trim()}, not ${expectedVersion?.trim() ?? `gw/${version} ...`}`)
  const pointer = gwRun(['help']).trimEnd().split('\n').at(-1).trim()
  if (resolve(pointer) !== resolve(docs) || !existsSync(join(pointer, 'install.md'))) throw new Error(`gw help points to ${pointer}, not to the guides installed at ${docs}`)
  try {
    const [start, purchase] = quickStart()
    gwRun(start)
    const made = JSON.parse(gwRun([...purchase, '--json']))
    if (made.successful !== true || made.message !== 'Approved') throw new Error(`the quick start's purchase was not approved: ${JSON.stringify(made)}`)
  } finally {
    spawnSync(gw.file, [...gw.args, 'sandbox', 'stop'], {env, encoding: 'utf8', timeout: 60_000})
  }
  return said
}

if (process.argv[1] === import.meta.filename) {
  const {values} = parseArgs({options: {target: {type: 'string'}, npm: {type: 'boolean'}, dir: {type: 'string', default: join(root, 'release')}}})
  const dir = resolve(values.dir)
  const scratch = mkdtempSync(join(tmpdir(), 'gw-proof-'))
  const folder = (name) => {
    const path = join(scratch, name)
    mkdirSync(path)
    return path
  }
  try {
    if (values.npm) {
      const gw = installPackage(dir, folder('npm'))
      // The node running this script first on PATH: the Node the package is proven on.
      prove(gw, {docs: gw.docs, path: [dirname(process.execPath), process.env.PATH].join(delimiter), home: folder('home')})
      process.stdout.write(`gw-${version}.tgz, installed with npm install --global: --version, help's guides and the quick start proven\n`)
    } else {
      const target = values.target ?? hostTarget()
      if (target !== hostTarget()) throw new Error(`--target ${target}: this is ${hostTarget()}, and an executable is proven on its own OS`)
      const file = unpackChecked(dir, target, folder('unpacked'))
      const {platform, arch} = platformOf(target)
      // No node and no npm: the one file needs neither (Windows keeps its own folder for the system's DLLs).
      const path = platform === 'win32' ? join(process.env.SystemRoot ?? 'C:\\Windows', 'System32') : folder('empty')
      const expectedVersion = `gw/${version} ${platform}-${arch} node-v${pinFor(target).version}\n`
      prove({file, args: []}, {expectedVersion, docs: join(file, '..', 'docs'), path, home: folder('home')})
      process.stdout.write(`gw-${target}: SHA256SUMS, --version, help's guides and the quick start proven\n`)
    }
  } catch (error) {
    process.stderr.write(`${error.message}\n`)
    process.exitCode = 1
  } finally {
    // The local gateway the quick start started may take a moment to let go of its files.
    rmSync(scratch, {recursive: true, force: true, maxRetries: 5})
  }
}
