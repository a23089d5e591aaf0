// What a release is indexed by, made from the archives in release/: SHA256SUMS (the one-file
// executables, gw-<os>-<arch>.tar.gz or .zip, and the npm package, gw-<version>.tgz), then the
// package managers' manifests, each sha256 taken from SHA256SUMS: a Homebrew formula (gw.rb) and a
// Scoop manifest (gw.json). `npm run package` writes them after its archives; the release workflow
// runs `node scripts/release-files.js --base-url URL` once every runner's archives are in release/.
// Downloads are named BASE/FILE: the release's address (the workflow gives GitHub's), or, by
// default, release/ itself as a file: URL, so that a formula made here installs what was built here.
import {createHash} from 'node:crypto'
import {readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'

const root = join(import.meta.dirname, '..')
const DESCRIPTION = 'Admin CLI for merchants and operators of a card payment gateway'

/** The files SHA256SUMS lists: the executables' archives and the npm package. */
const RELEASED = /^gw-([\w-]+\.(tar\.gz|zip)|\d+\.\d+\.\d+.*\.tgz)$/

/** Writes release/SHA256SUMS for every archive in release/, in sha256sum's format (`sha256sum --check` reads it); returns the files. */
export function writeSums(release) {
  const files = readdirSync(release).filter((file) => RELEASED.test(file)).sort()
  const lines = files.map((file) => `${createHash('sha256').update(readFileSync(join(release, file))).digest('hex')}  ${file}\n`)
  writeFileSync(join(release, 'SHA256SUMS'), lines.join(''))
  return files
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
// release never names files of another version.
if (process.argv[1] === import.meta.filename) {
  const {values} = parseArgs({options: {dir: {type: 'string'}, 'base-url': {type: 'string'}, homepage: {type: 'string'}, tag: {type: 'string'}}})
  const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  if (values.tag !== undefined && values.tag !== `v${version}`) {
    process.stderr.write(`--tag ${values.tag}: package.json's version is ${version}, so its tag is v${version}\n`)
    process.exit(2)
  }
  const release = resolve(values.dir ?? join(root, 'release'))
  const files = writeSums(release)
  writeManifests(release, {baseUrl: values['base-url'], homepage: values.homepage})
  process.stdout.write(`${join(release, 'SHA256SUMS')} for ${files.join(', ')}; gw.rb and gw.json from it\n`)
}
