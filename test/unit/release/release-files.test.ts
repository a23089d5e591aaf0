import {execFileSync, spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {computePeChecksum, readPe} from '../../../scripts/pe-checksum.js'
import {checkWindowsExecutables, judgePe, readSums, releaseArchives, repositoryOf, writeManifests, writeNotes, writeSums} from '../../../scripts/release-files.js'
import {readZipEntry, writeZip} from '../../../scripts/zip.js'

const {version} = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as {version: string}
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

/** A release folder with a file of distinct bytes under each name. */
function release(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-release-'))
  for (const name of names) writeFileSync(join(dir, name), `${name} ${Math.random()}\n`)
  return dir
}

/** Each url and the sha256 that follows it in the formula. */
function formulaSources(text: string): Map<string, string> {
  return new Map([...text.matchAll(/url "([^"]+)"\n\s+sha256 "([0-9a-f]{64})"/g)].map(([, url, sum]) => [url!.split('/').at(-1)!, sum!]))
}

const ALL = [`gw-${version}.tgz`, 'gw-linux-arm64.tar.gz', 'gw-linux-x64.tar.gz', 'gw-win-arm64.zip', 'gw-win-x64.zip', 'gw-darwin-arm64.tar.gz']

const SCRIPT = join(import.meta.dirname, '..', '..', '..', 'scripts', 'release-files.js')
const peTools = ['osslsigncode', 'unzip'].every((tool) => spawnSync(tool, ['--version']).error === undefined)

/** Where a PE32+ file's checksum is, in minimalPe's layout: its optional header at 0x58, the field 64 bytes in. */
const PE_CHECKSUM_AT = 0x58 + 64

/** The smallest PE32+ (x64) file osslsigncode reads: headers, no sections, its checksum right. */
function minimalPe(): Buffer {
  const file = Buffer.alloc(1024)
  file.write('MZ', 0, 'latin1')
  file.writeUInt32LE(0x40, 0x3c)
  file.write('PE\0\0', 0x40, 'latin1')
  file.writeUInt16LE(0x8664, 0x44)
  file.writeUInt16LE(240, 0x54)
  file.writeUInt16LE(0x22, 0x56)
  const optional = 0x58
  file.writeUInt16LE(0x20b, optional)
  for (const [offset, value] of [[32, 0x1000], [36, 0x200], [56, 0x1000], [60, 0x200], [108, 16]] as const) file.writeUInt32LE(value, optional + offset)
  file.writeUInt16LE(3, optional + 68)
  // The PE checksum: its 16-bit words summed, carries folded in, the field itself left out, plus the file's length.
  let sum = 0
  for (let at = 0; at < file.length; at += 2) if (at !== PE_CHECKSUM_AT && at !== PE_CHECKSUM_AT + 2) sum = ((sum + file.readUInt16LE(at)) & 0xffff) + ((sum + file.readUInt16LE(at)) >>> 16)
  file.writeUInt32LE(sum + file.length, PE_CHECKSUM_AT)
  return file
}

/** release/gw-<target>.zip holding gw-<target>/gw.exe, as scripts/package.js writes it. */
function zipExe(dir: string, target: string, exe: Buffer): void {
  const work = mkdtempSync(join(tmpdir(), 'gw-exe-'))
  writeFileSync(join(work, 'gw.exe'), exe)
  writeZip(join(dir, `gw-${target}.zip`), [{name: `gw-${target}/gw.exe`, path: join(work, 'gw.exe')}])
}

describe("a release's SHA256SUMS and the manifests made from it (scripts/release-files.js)", () => {
  it('lists every archive and the npm package in sha256sum\'s format, and nothing else of release/', () => {
    // An earlier build's npm package, and an archive of no target gw has, are not this release's.
    const dir = release([...ALL, 'gw.rb', 'gw.json', 'notes.txt', 'gw-0.0.1.tgz', 'gw-freebsd-x64.tar.gz'])
    mkdirSync(join(dir, 'gw-linux-x64'))
    expect(writeSums(dir)).toEqual([...ALL].sort())
    const lines = readFileSync(join(dir, 'SHA256SUMS'), 'utf8')
    expect(lines).toBe([...ALL].sort().map((file) => `${sha256(join(dir, file))}  ${file}\n`).join(''))
    // And as sha256sum checks a download, where it is installed (macOS has shasum, Windows neither).
    const check = spawnSync('sha256sum', ['--check', 'SHA256SUMS'], {cwd: dir, encoding: 'utf8'})
    if (check.error?.message.includes('ENOENT') !== true) expect(check.status, check.stderr).toBe(0)
  })

  it("gives the formula and the Scoop manifest each file's sha256 from SHA256SUMS, at the base address given", () => {
    const dir = release(ALL)
    writeSums(dir)
    // SHA256SUMS is the source: a sum there that is not the file's own shows in the manifests.
    const sums = readFileSync(join(dir, 'SHA256SUMS'), 'utf8').replace(/^[0-9a-f]{64}(?= {2}gw-win-x64\.zip)/m, 'a'.repeat(64))
    writeFileSync(join(dir, 'SHA256SUMS'), sums)
    writeManifests(dir, {baseUrl: 'https://github.com/acme/gw/releases/download/v1.2.3/'})
    const listed = readSums(dir)

    const formula = readFileSync(join(dir, 'gw.rb'), 'utf8')
    const sources = formulaSources(formula)
    expect([...sources.keys()].sort()).toEqual([`gw-${version}.tgz`, 'gw-darwin-arm64.tar.gz', 'gw-linux-arm64.tar.gz', 'gw-linux-x64.tar.gz'])
    for (const [file, sum] of sources) expect(sum, file).toBe(listed.get(file))
    expect(formula).toContain(`      url "https://github.com/acme/gw/releases/download/v1.2.3/gw-darwin-arm64.tar.gz"`)
    // package.json's homepage, without its #readme.
    expect(formula).toContain('  homepage "https://github.com/gw-cli/gw"\n')
    // The one-file executable on each platform the release has one for; the npm package on Homebrew's Node where it has none (this release lacks darwin-x64).
    expect(formula).toMatch(/ {2}on_macos do\n {4}on_arm do\n {6}url "[^"]+\/gw-darwin-arm64\.tar\.gz"\n {6}sha256 "\w+"\n {4}end\n {4}on_intel do\n {6}url "[^"]+\/gw-[\d.]+\.tgz"\n {6}sha256 "\w+"\n {6}depends_on "node"\n {4}end\n {2}end\n/)
    expect(formula).toMatch(/ {2}on_linux do\n {4}on_arm do\n {6}url "[^"]+gw-linux-arm64\.tar\.gz"\n {6}sha256 "\w+"\n {4}end\n {4}on_intel do\n {6}url "[^"]+gw-linux-x64\.tar\.gz"/)
    expect(formula).toContain('    if File.exist?("gw")\n      libexec.install Dir["*"]\n')
    expect(formula).toContain("      This release has no one-file gw for this platform: gw is its npm package, on Homebrew's Node.\n")

    const scoop = JSON.parse(readFileSync(join(dir, 'gw.json'), 'utf8')) as {version: string; bin: string; architecture: Record<string, {url: string; hash: string; extract_dir: string}>}
    expect(scoop).toMatchObject({version, bin: 'gw.exe'})
    expect(scoop.architecture).toEqual({
      '64bit': {url: 'https://github.com/acme/gw/releases/download/v1.2.3/gw-win-x64.zip', hash: 'a'.repeat(64), extract_dir: 'gw-win-x64'},
      arm64: {url: 'https://github.com/acme/gw/releases/download/v1.2.3/gw-win-arm64.zip', hash: listed.get('gw-win-arm64.zip'), extract_dir: 'gw-win-arm64'},
    })
  })

  it("leaves out of each manifest what the release has not: a Linux-only formula, no Scoop architecture", () => {
    const dir = release(['gw-linux-x64.tar.gz'])
    writeSums(dir)
    writeManifests(dir)
    const formula = readFileSync(join(dir, 'gw.rb'), 'utf8')
    expect([...formulaSources(formula).keys()]).toEqual(['gw-linux-x64.tar.gz'])
    expect(formula).not.toContain('on_macos')
    expect(formula).not.toContain('on_arm')
    expect(formula).not.toContain('depends_on')
    expect(formula).toContain(`url "file://${dir}/gw-linux-x64.tar.gz"`)
    expect((JSON.parse(readFileSync(join(dir, 'gw.json'), 'utf8')) as {architecture: object}).architecture).toEqual({})
  })

  it('as the release workflow runs it: --dir, --base-url, and a --tag that must be v and the version', () => {
    const dir = release(['gw-win-x64.zip'])
    const wrongTag = spawnSync(process.execPath, [SCRIPT, '--dir', dir, '--tag', 'v0.0.0-not-this'], {encoding: 'utf8'})
    expect(wrongTag).toMatchObject({status: 2, stdout: '', stderr: `--tag v0.0.0-not-this: package.json's version is ${version}, so its tag is v${version}\n`})
  })

  it("refuses, with --tag, a release that lacks any target's archive or the npm package, writing nothing", () => {
    const dir = release(['gw-linux-x64.tar.gz', `gw-${version}.tgz`])
    const lacking = spawnSync(process.execPath, [SCRIPT, '--dir', dir, '--tag', `v${version}`], {encoding: 'utf8'})
    const missing = releaseArchives().filter((file) => file !== 'gw-linux-x64.tar.gz' && file !== `gw-${version}.tgz`)
    expect(missing).toEqual(['gw-darwin-arm64.tar.gz', 'gw-darwin-x64.tar.gz', 'gw-linux-arm64.tar.gz', 'gw-win-arm64.zip', 'gw-win-x64.zip'])
    expect(lacking).toMatchObject({status: 2, stdout: '', stderr: `--tag v${version}: ${dir} lacks ${missing.join(', ')}: a release holds every target's archive and the npm package; nothing was written\n`})
    expect(statSync(join(dir, 'SHA256SUMS'), {throwIfNoEntry: false})).toBeUndefined()
  })

  it.skipIf(!peTools)(`checks each Windows executable's PE checksum and signature with osslsigncode, and lists only this release's archives${peTools ? '' : ' (skipped: osslsigncode or unzip is not installed)'}`, () => {
    const dir = release([...releaseArchives().filter((file) => !file.endsWith('.zip')), 'gw-0.0.1.tgz'])
    for (const target of ['win-x64', 'win-arm64']) zipExe(dir, target, minimalPe())
    const made = spawnSync(process.execPath, [SCRIPT, '--dir', dir, '--tag', `v${version}`, '--base-url', 'https://example.com/gw/v1'], {encoding: 'utf8'})
    expect(made).toMatchObject({status: 0, stderr: "Left out of SHA256SUMS, not this release's: gw-0.0.1.tgz\n"})
    expect(made.stdout).toBe(`${join(dir, 'SHA256SUMS')} for ${releaseArchives().join(', ')}; gw.rb, gw.json, winget/ and NOTES.md from it; gw-win-arm64.zip: gw.exe unsigned, its PE checksum right; gw-win-x64.zip: gw.exe unsigned, its PE checksum right\n`)
    expect([...readSums(dir).keys()]).toEqual(releaseArchives())
    expect(JSON.parse(readFileSync(join(dir, 'gw.json'), 'utf8'))).toMatchObject({architecture: {'64bit': {url: 'https://example.com/gw/v1/gw-win-x64.zip', hash: sha256(join(dir, 'gw-win-x64.zip'))}}})

    // Its header's checksum no longer that of its bytes (a change after the build): refused, nothing written.
    const stale = minimalPe()
    stale.writeUInt32LE(0x1234, PE_CHECKSUM_AT)
    zipExe(dir, 'win-arm64', stale)
    rmSync(join(dir, 'SHA256SUMS'))
    const refusedHere = spawnSync(process.execPath, [SCRIPT, '--dir', dir], {encoding: 'utf8'})
    expect(refusedHere).toMatchObject({status: 1, stdout: '', stderr: `gw-win-arm64.zip: gw.exe: its PE checksum is 00001234, and its bytes give 00005172\nNothing was written: build it again (npm run package).\n`})
    expect(statSync(join(dir, 'SHA256SUMS'), {throwIfNoEntry: false})).toBeUndefined()
  })

  it("judges osslsigncode's words: a signature whose digest is not its bytes', a checksum off, a file that is no PE", () => {
    const signed = 'PE checksum   : 05DC5A51\n\nSignature Index: 0\nCurrent message digest    : C40E \nCalculated message digest : C40E \n'
    expect(judgePe(signed)).toEqual({signed: true, problems: []})
    const changed = 'Current PE checksum   : 00007F60\nCalculated PE checksum: 0000805F\nWarning: invalid PE checksum\nCurrent message digest    : A9B4 \nCalculated message digest : 63A8     MISMATCH!!!\n'
    expect(judgePe(changed)).toEqual({signed: true, problems: ['its PE checksum is 00007F60, and its bytes give 0000805F', "its signature is not of its bytes (its digest A9B4, its bytes' 63A8)"]})
    expect(judgePe('Unrecognized file type\nFailed\n')).toEqual({signed: true, problems: ['osslsigncode read no PE checksum in it: Unrecognized file type']})
  })

  it('refuses a SHA256SUMS line it cannot read', () => {
    const dir = release([])
    writeFileSync(join(dir, 'SHA256SUMS'), 'not a sum  gw-win-x64.zip\n')
    expect(() => writeManifests(dir)).toThrow('SHA256SUMS: not a sha256sum line: not a sum  gw-win-x64.zip')
  })
})

describe("a Windows executable's PE checksum, by gw's own code (scripts/pe-checksum.js)", () => {
  it('is the one osslsigncode computes, and is judged with or without osslsigncode', () => {
    const pe = minimalPe()
    expect(readPe(pe)).toEqual({checksum: pe.readUInt32LE(PE_CHECKSUM_AT), computed: pe.readUInt32LE(PE_CHECKSUM_AT), signed: false})
    // The same from a slice that starts at an odd offset, and one byte more (an odd length) counts.
    const odd = Buffer.concat([Buffer.from([0]), pe]).subarray(1)
    expect(computePeChecksum(odd)).toBe(pe.readUInt32LE(PE_CHECKSUM_AT))
    expect(computePeChecksum(Buffer.concat([pe, Buffer.from([7])]))).not.toBe(pe.readUInt32LE(PE_CHECKSUM_AT))
    expect(readPe(Buffer.from('#!/bin/sh\n'.padEnd(200)))).toBeUndefined()

    const dir = release([])
    const stale = minimalPe()
    stale.writeUInt32LE(0x1234, PE_CHECKSUM_AT)
    zipExe(dir, 'win-x64', stale)
    zipExe(dir, 'win-arm64', minimalPe())
    // No osslsigncode: an unsigned gw.exe is judged whole all the same, its checksum by this code.
    expect(checkWindowsExecutables(dir, ['gw-win-arm64.zip', 'gw-win-x64.zip'], {osslsigncode: 'gw-no-such-program'})).toEqual([
      {file: 'gw-win-arm64.zip', signed: false, problems: []},
      {file: 'gw-win-x64.zip', signed: false, problems: ['its PE checksum is 00001234, and its bytes give 00005172']},
    ])

    // Signed (its certificate table not empty): the signature is osslsigncode's to verify, and where it cannot, that is said.
    const signed = minimalPe()
    signed.writeUInt32LE(8, 0x58 + 112 + 4 * 8 + 4)
    signed.writeUInt32LE(computePeChecksum(signed), PE_CHECKSUM_AT)
    zipExe(dir, 'win-x64', signed)
    expect(checkWindowsExecutables(dir, ['gw-win-x64.zip'], {osslsigncode: 'gw-no-such-program'})).toEqual([
      {file: 'gw-win-x64.zip', signed: true, problems: [], unverified: 'osslsigncode could not be run (ENOENT)'},
    ])
    // A release (--tag) refuses one it could not verify.
    const all = release(releaseArchives().filter((file) => !file.endsWith('.zip')))
    zipExe(all, 'win-x64', signed)
    zipExe(all, 'win-arm64', minimalPe())
    const bin = mkdtempSync(join(tmpdir(), 'gw-no-tools-'))
    const refused = spawnSync(process.execPath, [SCRIPT, '--dir', all, '--tag', `v${version}`], {encoding: 'utf8', env: {PATH: bin}})
    expect(refused).toMatchObject({status: 1, stdout: '', stderr: 'gw-win-x64.zip: gw.exe: its signature is not verified: osslsigncode could not be run (ENOENT)\nNothing was written: build it again (npm run package).\n'})
  })

  it('reads a zip entry back whole, and none that is not there', () => {
    const dir = release([])
    zipExe(dir, 'win-x64', minimalPe())
    expect(readZipEntry(join(dir, 'gw-win-x64.zip'), 'gw-win-x64/gw.exe')).toEqual(minimalPe())
    expect(readZipEntry(join(dir, 'gw-win-x64.zip'), 'gw-win-x64/README.md')).toBeUndefined()
    writeFileSync(join(dir, 'not.zip'), 'no zip here')
    expect(() => readZipEntry(join(dir, 'not.zip'), 'x')).toThrow(`${join(dir, 'not.zip')} is not a zip archive`)
  })
})

describe('the repository npm checks provenance against, and what the release says of itself', () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as {repository: {type: string; url: string}; homepage: string; bugs: {url: string}}

  it("names one GitHub repository in package.json's repository, homepage and bugs, as npm writes them (nothing for npm publish to correct)", () => {
    expect(pkg.repository).toEqual({type: 'git', url: 'git+https://github.com/gw-cli/gw.git'})
    expect(repositoryOf(pkg)).toBe('gw-cli/gw')
    expect(pkg.homepage).toBe('https://github.com/gw-cli/gw#readme')
    expect(pkg.bugs).toEqual({url: 'https://github.com/gw-cli/gw/issues'})
    expect(repositoryOf({repository: 'https://gitlab.com/a/b'})).toBeUndefined()
  })

  it('refuses a --repository that is not package.json\'s: npm would refuse the provenance of a package published from it', () => {
    const dir = release(['gw-linux-x64.tar.gz'])
    const other = spawnSync(process.execPath, [SCRIPT, '--dir', dir, '--repository', 'someone/fork'], {encoding: 'utf8'})
    expect(other).toMatchObject({status: 2, stdout: ''})
    expect(other.stderr).toBe("--repository someone/fork: package.json's repository is gw-cli/gw, and npm refuses the provenance of a package published from another: run the release there, or change package.json's repository\n")
    const same = spawnSync(process.execPath, [SCRIPT, '--dir', dir, '--repository', 'GW-CLI/gw'], {encoding: 'utf8'})
    expect(same.status, same.stderr).toBe(0)
  })

  it("writes winget's three manifests from SHA256SUMS: each Windows zip, gw.exe inside as the command gw", () => {
    const dir = release(['gw-win-x64.zip', 'gw-linux-x64.tar.gz'])
    writeSums(dir)
    expect(writeManifests(dir, {baseUrl: 'https://example.com/v1'})).toEqual(['gw.rb', 'gw.json', 'winget/gw-cli.gw.yaml', 'winget/gw-cli.gw.installer.yaml', 'winget/gw-cli.gw.locale.en-US.yaml'])
    const installer = readFileSync(join(dir, 'winget', 'gw-cli.gw.installer.yaml'), 'utf8')
    expect(installer).toContain(
      [
        'InstallerType: zip',
        'NestedInstallerType: portable',
        'Installers:',
        '  - Architecture: x64',
        '    InstallerUrl: https://example.com/v1/gw-win-x64.zip',
        `    InstallerSha256: ${sha256(join(dir, 'gw-win-x64.zip')).toUpperCase()}`,
        '    NestedInstallerFiles:',
        '      - RelativeFilePath: gw-win-x64\\gw.exe',
        '        PortableCommandAlias: gw',
        'ManifestType: installer',
        'ManifestVersion: 1.6.0',
      ].join('\n'),
    )
    expect(readFileSync(join(dir, 'winget', 'gw-cli.gw.yaml'), 'utf8')).toContain(`PackageIdentifier: gw-cli.gw\nPackageVersion: ${version}\nDefaultLocale: en-US\nManifestType: version\n`)
    // None where the release has no Windows executable, and none left from before.
    rmSync(join(dir, 'gw-win-x64.zip'))
    writeSums(dir)
    expect(writeManifests(dir)).toEqual(['gw.rb', 'gw.json'])
    expect(statSync(join(dir, 'winget'), {throwIfNoEntry: false})).toBeUndefined()
  })

  it('says in its notes whether gw.exe is signed, and that it is not where no certificate was given', () => {
    const dir = release([])
    writeNotes(dir, [{file: 'gw-win-arm64.zip', signed: true, problems: []}, {file: 'gw-win-x64.zip', signed: false, problems: []}])
    const notes = readFileSync(join(dir, 'NOTES.md'), 'utf8')
    expect(notes).toContain('- `gw-win-arm64.zip`: gw.exe is signed (Authenticode).\n')
    expect(notes).toContain('- `gw-win-x64.zip`: gw.exe is **not signed**: this release was given no code-signing certificate, so Windows SmartScreen may warn before it runs.')
  })
})

describe('a zip of the Windows executable (scripts/zip.js)', () => {
  it('holds each file under its name, whole, as unzip reads it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-zip-'))
    writeFileSync(join(dir, 'gw.exe'), Buffer.from(Array.from({length: 200_000}, (_, i) => (i * 7919) % 251)))
    writeFileSync(join(dir, 'README.md'), '# gw\n')
    chmodSync(join(dir, 'gw.exe'), 0o755)
    writeZip(join(dir, 'gw-win-x64.zip'), [
      {name: 'gw-win-x64/gw.exe', path: join(dir, 'gw.exe')},
      {name: 'gw-win-x64/README.md', path: join(dir, 'README.md')},
    ])
    expect(statSync(join(dir, 'gw-win-x64.zip')).size).toBeLessThan(200_000)
    const out = join(dir, 'out')
    mkdirSync(out)
    // Unzipped by Info-ZIP's unzip where it is installed, else by bsdtar (macOS's tar, Windows's tar.exe), which reads zip too.
    const tested = spawnSync('unzip', ['-t', 'gw-win-x64.zip'], {cwd: dir, encoding: 'utf8'})
    if (tested.error?.message.includes('ENOENT') === true) execFileSync('tar', ['-xf', join(dir, 'gw-win-x64.zip'), '-C', out])
    else {
      expect(tested.status, tested.stdout + tested.stderr).toBe(0)
      execFileSync('unzip', ['-q', 'gw-win-x64.zip', '-d', out], {cwd: dir})
    }
    expect(readFileSync(join(out, 'gw-win-x64', 'gw.exe'))).toEqual(readFileSync(join(dir, 'gw.exe')))
    expect(readFileSync(join(out, 'gw-win-x64', 'README.md'), 'utf8')).toBe('# gw\n')
    if (process.platform !== 'win32') expect(statSync(join(out, 'gw-win-x64', 'gw.exe')).mode & 0o777).toBe(0o755)
  })
})
