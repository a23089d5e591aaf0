// What a release is indexed by, made from the archives in release/: SHA256SUMS (the one-file
// executables, gw-<os>-<arch>.tar.gz or .zip, and the npm package, gw-<version>.tgz), then the
// package managers' manifests, each sha256 taken from SHA256SUMS: a Homebrew formula (gw.rb) and a
// Scoop manifest (gw.json). `npm run package` writes them after its archives; the release workflow
// runs `node scripts/release-files.js --base-url URL` once every runner's archives are in release/.
// Downloads are named BASE/FILE: the release's address (the workflow gives GitHub's), or, by
// default, release/ itself as a file: URL, so that a formula made here installs what was built here.
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'
import {TARGETS} from './registry-node.js'

const root = join(import.meta.dirname, '..')
const DESCRIPTION = 'Admin CLI for merchants and operators of a card payment gateway'
const {version: VERSION} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/** What looks like a release's archive in release/: an executable's, or an npm package of any version. */
const RELEASED = /^gw-([\w-]+\.(tar\.gz|zip)|\d+\.\d+\.\d+.*\.tgz)$/

/** A release's files: each target's executable archive (a .zip for Windows) and this version's npm package. */
export function releaseArchives(version = VERSION) {
  return [...TARGETS.map((target) => `gw-${target}.${target.startsWith('win-') ? 'zip' : 'tar.gz'}`), `gw-${version}.tgz`].sort()
}

/**
 * Writes release/SHA256SUMS, in sha256sum's format (`sha256sum --check` reads it), for `files`
 * (the archives a run of scripts/package.js made), or, not given, the release's archives found in
 * release/ (releaseArchives: no npm package of another version); returns the files.
 */
export function writeSums(release, {files} = {}) {
  const listed = [...(files ?? releaseArchives().filter((file) => existsSync(join(release, file))))].sort()
  const lines = listed.map((file) => `${createHash('sha256').update(readFileSync(join(release, file))).digest('hex')}  ${file}\n`)
  writeFileSync(join(release, 'SHA256SUMS'), lines.join(''))
  return listed
}

/** What release/ holds that looks like an archive but is not among `listed`: another version's npm package, an archive of an earlier run. */
export function staleArchives(release, listed) {
  return readdirSync(release).filter((file) => RELEASED.test(file) && !listed.includes(file)).sort()
}

/** The release's archives that are not in release/: a release made without them would lack a platform, its manifests too. */
export function missingArchives(release) {
  return releaseArchives().filter((file) => !existsSync(join(release, file)))
}

/**
 * What osslsigncode's `verify` says of a Windows executable, judged: its PE checksum (the header's
 * against its bytes'), and, where it is signed, whether the signature's digest is that of its
 * bytes. Whom the signature chains to is for Windows to judge, not this. `problems` empty: sound.
 */
export function judgePe(said) {
  const signed = !said.includes('No signature found')
  const problems = []
  const current = /Current PE checksum\s*:\s*(\w+)/.exec(said)?.[1]
  const calculated = /Calculated PE checksum\s*:\s*(\w+)/.exec(said)?.[1]
  if (!/PE checksum\s*:/.test(said)) problems.push(`osslsigncode read no PE checksum in it: ${said.trim().split('\n')[0] ?? ''}`)
  else if ((current !== undefined && current !== calculated) || said.includes('invalid PE checksum')) problems.push(`its PE checksum is ${current}, and its bytes give ${calculated}`)
  const digest = /Current message digest\s*:\s*(\w+)/.exec(said)?.[1]
  const ofBytes = /Calculated message digest\s*:\s*(\w+)/.exec(said)?.[1]
  if (signed && digest !== ofBytes) problems.push(`its signature is not of its bytes (its digest ${digest}, its bytes' ${ofBytes})`)
  return {signed, problems}
}

/**
 * Each Windows archive among `files`: its gw.exe taken out (unzip) and checked by osslsigncode
 * verify (judgePe), where both are installed; `skipped` says why where not.
 */
export function checkWindowsExecutables(release, files) {
  return files.filter((file) => /^gw-win-[\w-]+\.zip$/.test(file)).map((file) => {
    const exe = `${file.slice(0, -'.zip'.length)}/gw.exe`
    const unzipped = spawnSync('unzip', ['-p', join(release, file), exe], {maxBuffer: 1 << 30})
    if (unzipped.error) return {file, skipped: `unzip could not be run (${unzipped.error.code ?? unzipped.error.message})`}
    if (unzipped.status !== 0) return {file, signed: false, problems: [`it holds no ${exe} that unzip can read (${String(unzipped.stderr).trim()})`]}
    const work = mkdtempSync(join(tmpdir(), 'gw-release-pe-'))
    try {
      writeFileSync(join(work, 'gw.exe'), unzipped.stdout)
      const verified = spawnSync('osslsigncode', ['verify', '-in', join(work, 'gw.exe')], {encoding: 'utf8'})
      if (verified.error) return {file, skipped: `osslsigncode could not be run (${verified.error.code ?? verified.error.message})`}
      return {file, ...judgePe(verified.stdout + verified.stderr)}
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  })
}

/** SHA256SUMS as a map of file to sha256. */
export function readSums(release) {
  const sums = new Map()
  for (const line of readFileSync(join(release, 'SHA256SUMS'), 'utf8').split('\n').filter(Boolean)) {
    const [, sha256, file] = /^([0-9a-f]{64}) {2}(.+)$/.exec(line) ?? []
    if (!file) throw new Error(`SHA256SUMS: not a sha256sum line: ${line}`)
    sums.set(file, sha256)
  }
  return sums
}

/** Writes release/gw.rb and release/gw.json from SHA256SUMS; returns their names. */
export function writeManifests(release, {baseUrl = pathToFileURL(release).href, homepage} = {}) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const sums = readSums(release)
  const base = baseUrl.replace(/\/+$/, '')
  const site = homepage ?? pkg.homepage ?? /^https:\/\/github\.com\/[^/]+\/[^/]+/.exec(base)?.[0] ?? base
  const download = (file) => (sums.has(file) ? {url: `${base}/${file}`, sha256: sums.get(file)} : undefined)
  const facts = {version: pkg.version, license: pkg.license, homepage: site, download}
  writeFileSync(join(release, 'gw.rb'), formula(facts))
  writeFileSync(join(release, 'gw.json'), `${JSON.stringify(scoop(facts), null, 2)}\n`)
  return ['gw.rb', 'gw.json']
}

/**
 * Homebrew's formula. On macOS, until gw's macOS executables are signed with a Developer ID and
 * notarized, gw's npm package on Homebrew's Node (as Salesforce's sf is installed); on Linux the
 * executable, keytar.node beside it where the archive has one.
 */
function formula({version, license, homepage, download}) {
  const source = (indent, file) => {
    const found = download(file)
    return found ? [`${indent}url "${found.url}"`, `${indent}sha256 "${found.sha256}"`] : []
  }
  const mac = source('    ', `gw-${version}.tgz`)
  const intel = source('      ', 'gw-linux-x64.tar.gz')
  const arm = source('      ', 'gw-linux-arm64.tar.gz')
  const lines = [
    '# Made by scripts/release-files.js from the release\'s SHA256SUMS: each sha256 is that file\'s.',
    'class Gw < Formula',
    `  desc "${DESCRIPTION}"`,
    `  homepage "${homepage}"`,
    `  version "${version}"`,
    `  license "${license}"`,
    '',
    ...(mac.length ? ['  on_macos do', ...mac, '    depends_on "node"', '  end', ''] : []),
    ...(intel.length || arm.length
      ? ['  on_linux do', ...(intel.length ? ['    on_intel do', ...intel, '    end'] : []), ...(arm.length ? ['    on_arm do', ...arm, '    end'] : []), '  end', '']
      : []),
    '  def install',
    '    if OS.mac?',
    '      system "npm", "install", *std_npm_args',
    '      bin.install_symlink libexec.glob("bin/*")',
    '    else',
    '      libexec.install Dir["*"]',
    '      bin.install_symlink libexec/"gw"',
    '    end',
    '  end',
    '',
    '  test do',
    '    assert_match "gw/#{version} ", shell_output("#{bin}/gw --version")',
    '  end',
    'end',
  ]
  return `${lines.join('\n')}\n`
}

/** Scoop's manifest: the Windows executables; Windows on ARM runs the x64 one where there is no arm64 one. */
function scoop({version, license, homepage, download}) {
  const architecture = {}
  for (const [scoopName, target] of [['64bit', 'win-x64'], ['arm64', 'win-arm64']]) {
    const found = download(`gw-${target}.zip`)
    if (found) architecture[scoopName] = {url: found.url, hash: found.sha256, extract_dir: `gw-${target}`}
  }
  return {version, description: DESCRIPTION, homepage, license, architecture, bin: 'gw.exe'}
}

// `node scripts/release-files.js [--dir DIR] [--base-url URL] [--homepage URL] [--tag vX.Y.Z]`: DIR is
// release/ by default; with --tag, a tag that is not package.json's version is refused, so that a
// release never names files of another version, and so is a DIR that lacks one of the release's
// archives (every target's and the npm package). A Windows executable whose PE checksum or
// signature does not match its bytes is refused, where osslsigncode and unzip can tell.
if (process.argv[1] === import.meta.filename) {
  const {values} = parseArgs({options: {dir: {type: 'string'}, 'base-url': {type: 'string'}, homepage: {type: 'string'}, tag: {type: 'string'}}})
  const refuse = (code, message) => {
    process.stderr.write(message)
    process.exit(code)
  }
  if (values.tag !== undefined && values.tag !== `v${VERSION}`) refuse(2, `--tag ${values.tag}: package.json's version is ${VERSION}, so its tag is v${VERSION}\n`)
  const release = resolve(values.dir ?? join(root, 'release'))
  const missing = values.tag === undefined ? [] : missingArchives(release)
  if (missing.length > 0) refuse(2, `--tag ${values.tag}: ${release} lacks ${missing.join(', ')}: a release holds every target's archive and the npm package; nothing was written\n`)
  const files = releaseArchives().filter((file) => existsSync(join(release, file)))
  const checked = checkWindowsExecutables(release, files)
  const unsound = checked.filter((check) => check.problems?.length)
  if (unsound.length > 0) refuse(1, unsound.map(({file, problems}) => `${file}: gw.exe: ${problems.join('; ')}\n`).join('') + 'Nothing was written: build it again (npm run package).\n')
  writeSums(release, {files})
  writeManifests(release, {baseUrl: values['base-url'], homepage: values.homepage})
  const stale = staleArchives(release, files)
  if (stale.length > 0) process.stderr.write(`Left out of SHA256SUMS, not this release's: ${stale.join(', ')}\n`)
  for (const {file, skipped} of checked) if (skipped) process.stderr.write(`${file}: gw.exe not checked: ${skipped}\n`)
  const told = checked.filter((check) => !check.skipped).map(({file, signed}) => `; ${file}: gw.exe ${signed ? 'signed' : 'unsigned'}, its PE checksum right`)
  process.stdout.write(`${join(release, 'SHA256SUMS')} for ${files.join(', ')}; gw.rb and gw.json from it${told.join('')}\n`)
}
