// What a release is indexed by, made from the archives in release/: SHA256SUMS (the one-file
// executables, gw-<os>-<arch>.tar.gz or .zip, and the npm package, gw-<version>.tgz), then the
// package managers' manifests, each sha256 taken from SHA256SUMS: a Homebrew formula (gw.rb) and a
// Scoop manifest (gw.json). `npm run package` writes them after its archives; the release workflow
// runs `node scripts/release-files.js --base-url URL` once every runner's archives are in release/.
// Downloads are named BASE/FILE: the release's address (the workflow gives GitHub's), or, by
// default, release/ itself as a file: URL, so that a formula made here installs what was built here.
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'
import {formula, scoop, winget} from './package-managers.js'
import {hex, readPe} from './pe-checksum.js'
import {TARGETS} from './registry-node.js'
import {readZipEntry} from './zip.js'

const root = join(import.meta.dirname, '..')
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
 * What osslsigncode's `verify` says of a signed Windows executable, judged: whether the
 * signature's digest is that of its bytes (whom it chains to is for Windows to judge, not this),
 * and its PE checksum as osslsigncode reads it. `problems` empty: sound.
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
 * Each Windows archive among `files`, its gw.exe read out of the zip and judged: its PE checksum
 * against its bytes, always, by this code (scripts/pe-checksum.js); where it is signed, its
 * signature against its bytes by osslsigncode verify (judgePe), or `unverified` saying why not.
 * `osslsigncode` names the program (tests hide it).
 */
export function checkWindowsExecutables(release, files, {osslsigncode = 'osslsigncode'} = {}) {
  return files.filter((file) => /^gw-win-[\w-]+\.zip$/.test(file)).map((file) => {
    const exe = `${file.slice(0, -'.zip'.length)}/gw.exe`
    let bytes
    try {
      bytes = readZipEntry(join(release, file), exe)
    } catch (error) {
      return {file, signed: false, problems: [error.message]}
    }
    const pe = bytes && readPe(bytes)
    if (!pe) return {file, signed: false, problems: [bytes ? `its ${exe} is not a Windows executable` : `it holds no ${exe}`]}
    const problems = pe.checksum === pe.computed ? [] : [`its PE checksum is ${hex(pe.checksum)}, and its bytes give ${hex(pe.computed)}`]
    if (!pe.signed) return {file, signed: false, problems}
    const work = mkdtempSync(join(tmpdir(), 'gw-release-pe-'))
    try {
      writeFileSync(join(work, 'gw.exe'), bytes)
      const verified = spawnSync(osslsigncode, ['verify', '-in', join(work, 'gw.exe')], {encoding: 'utf8'})
      if (verified.error) return {file, signed: true, problems, unverified: `osslsigncode could not be run (${verified.error.code ?? verified.error.message})`}
      // The checksum is judged above, by this code: of osslsigncode's words, the signature's.
      const signature = judgePe(verified.stdout + verified.stderr).problems.filter((problem) => !problem.includes('PE checksum'))
      return {file, signed: true, problems: [...problems, ...signature]}
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  })
}

/**
 * Refuses (throws) a release whose Windows executables are unsound: a PE checksum or signature not
 * of its bytes; with `verified`, also a signed one whose signature could not be checked. Returns
 * what was checked. scripts/package.js runs it on the archives it made, the release workflow (through
 * this script's --tag) on the release's.
 */
export function refuseUnsoundWindows(release, files, {verified = false, osslsigncode} = {}) {
  const checked = checkWindowsExecutables(release, files, {osslsigncode})
  const unsound = checked.filter((check) => check.problems.length > 0 || (verified && check.unverified))
  if (unsound.length > 0) {
    const said = unsound.map(({file, problems, unverified}) => `${file}: gw.exe: ${[...problems, ...(verified && unverified ? [`its signature is not verified: ${unverified}`] : [])].join('; ')}\n`)
    throw Object.assign(new Error(said.join('')), {code: 'ERR_GW_UNSOUND_EXE'})
  }
  return checked
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

/** The GitHub repository package.json names, as OWNER/NAME: where the release workflow must run for npm's provenance to be accepted. */
export function repositoryOf(pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))) {
  const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url
  return /^(?:git\+)?https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(url ?? '')?.[1]
}

/**
 * Writes the package managers' manifests from SHA256SUMS (scripts/package-managers.js): release/gw.rb,
 * release/gw.json and release/winget/; returns their names.
 */
export function writeManifests(release, {baseUrl = pathToFileURL(release).href, homepage} = {}) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const sums = readSums(release)
  const base = baseUrl.replace(/\/+$/, '')
  const site = homepage ?? pkg.homepage?.replace(/#.*$/, '') ?? /^https:\/\/github\.com\/[^/]+\/[^/]+/.exec(base)?.[0] ?? base
  const download = (file) => (sums.has(file) ? {url: `${base}/${file}`, sha256: sums.get(file)} : undefined)
  const facts = {version: pkg.version, license: pkg.license, homepage: site, download, publisher: repositoryOf(pkg)?.split('/')[0] ?? 'gw'}
  writeFileSync(join(release, 'gw.rb'), formula(facts))
  writeFileSync(join(release, 'gw.json'), `${JSON.stringify(scoop(facts), null, 2)}\n`)
  const wingetDir = join(release, 'winget')
  rmSync(wingetDir, {recursive: true, force: true})
  const manifests = Object.entries(winget(facts))
  if (manifests.length > 0) mkdirSync(wingetDir)
  for (const [name, text] of manifests) writeFileSync(join(wingetDir, name), text)
  return ['gw.rb', 'gw.json', ...manifests.map(([name]) => `winget/${name}`)]
}

/**
 * The release's notes (release/NOTES.md), which the workflow puts above GitHub's list of changes:
 * how to check a download, and what is signed: gw.exe where a certificate was given, and where
 * not, saying so; macOS executables ad hoc only.
 */
export function writeNotes(release, checked) {
  const windows = checked.map(({file, signed}) =>
    signed
      ? `- \`${file}\`: gw.exe is signed (Authenticode).`
      : `- \`${file}\`: gw.exe is **not signed**: this release was given no code-signing certificate, so Windows SmartScreen may warn before it runs. Check the zip against \`SHA256SUMS\` first.`,
  )
  const lines = [
    `Check a download against \`SHA256SUMS\` before you run it (docs/install.md shows how on each platform).`,
    '',
    ...windows,
    '- The macOS executables are signed ad hoc, not with a Developer ID: Homebrew installs them as they are; a browser download is quarantined.',
    '',
  ]
  writeFileSync(join(release, 'NOTES.md'), lines.join('\n'))
  return 'NOTES.md'
}

// `node scripts/release-files.js [--dir DIR] [--base-url URL] [--homepage URL] [--tag vX.Y.Z]
// [--repository OWNER/NAME]`: DIR is release/ by default. With --tag (the release workflow), a tag
// that is not package.json's version is refused, so that a release never names files of another
// version; so is a DIR that lacks one of the release's archives (every target's and the npm
// package), and a signed gw.exe whose signature could not be verified (osslsigncode). With
// --repository (the workflow's GITHUB_REPOSITORY), one that is not package.json's is refused: npm
// would refuse the provenance of a package published from it. A Windows executable whose PE
// checksum (always checked, here) or signature is not of its bytes is refused.
if (process.argv[1] === import.meta.filename) {
  const {values} = parseArgs({options: {dir: {type: 'string'}, 'base-url': {type: 'string'}, homepage: {type: 'string'}, tag: {type: 'string'}, repository: {type: 'string'}}})
  const refuse = (code, message) => {
    process.stderr.write(message)
    process.exit(code)
  }
  if (values.tag !== undefined && values.tag !== `v${VERSION}`) refuse(2, `--tag ${values.tag}: package.json's version is ${VERSION}, so its tag is v${VERSION}\n`)
  const named = repositoryOf()
  if (values.repository !== undefined && values.repository.toLowerCase() !== named?.toLowerCase()) {
    refuse(2, `--repository ${values.repository}: package.json's repository is ${named ?? 'not a GitHub repository'}, and npm refuses the provenance of a package published from another: run the release there, or change package.json's repository\n`)
  }
  const release = resolve(values.dir ?? join(root, 'release'))
  const missing = values.tag === undefined ? [] : missingArchives(release)
  if (missing.length > 0) refuse(2, `--tag ${values.tag}: ${release} lacks ${missing.join(', ')}: a release holds every target's archive and the npm package; nothing was written\n`)
  const files = releaseArchives().filter((file) => existsSync(join(release, file)))
  let checked
  try {
    checked = refuseUnsoundWindows(release, files, {verified: values.tag !== undefined})
  } catch (error) {
    if (error.code !== 'ERR_GW_UNSOUND_EXE') throw error
    refuse(1, `${error.message}Nothing was written: build it again (npm run package).\n`)
  }
  writeSums(release, {files})
  const manifests = writeManifests(release, {baseUrl: values['base-url'], homepage: values.homepage})
  writeNotes(release, checked)
  const stale = staleArchives(release, files)
  if (stale.length > 0) process.stderr.write(`Left out of SHA256SUMS, not this release's: ${stale.join(', ')}\n`)
  for (const {file, unverified} of checked) if (unverified) process.stderr.write(`${file}: gw.exe's signature not verified: ${unverified}\n`)
  const told = checked.map(({file, signed}) => `; ${file}: gw.exe ${signed ? 'signed' : 'unsigned'}, its PE checksum right`)
  const written = [...new Set(manifests.map((name) => name.replace(/\/.*$/, '/')))]
  process.stdout.write(`${join(release, 'SHA256SUMS')} for ${files.join(', ')}; ${written.join(', ')} and NOTES.md from it${told.join('')}\n`)
}
