import {execFileSync, spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {readSums, writeManifests, writeSums} from '../../../scripts/release-files.js'
import {writeZip} from '../../../scripts/zip.js'

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

describe("a release's SHA256SUMS and the manifests made from it (scripts/release-files.js)", () => {
  it('lists every archive and the npm package in sha256sum\'s format, and nothing else of release/', () => {
    const dir = release([...ALL, 'gw.rb', 'gw.json', 'notes.txt'])
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
    expect([...sources.keys()].sort()).toEqual([`gw-${version}.tgz`, 'gw-linux-arm64.tar.gz', 'gw-linux-x64.tar.gz'])
    for (const [file, sum] of sources) expect(sum, file).toBe(listed.get(file))
    expect(formula).toContain(`  url "https://github.com/acme/gw/releases/download/v1.2.3/gw-${version}.tgz"`)
    expect(formula).toContain('  homepage "https://github.com/acme/gw"\n')
    expect(formula).toMatch(/on_macos do\n {4}url "[^"]+\.tgz"\n {4}sha256 "\w+"\n {4}depends_on "node"\n {2}end/)
    expect(formula).toMatch(/on_linux do\n {4}on_intel do\n {6}url "[^"]+gw-linux-x64\.tar\.gz"[\s\S]+on_arm do\n {6}url "[^"]+gw-linux-arm64\.tar\.gz"/)

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
    expect(formula).toContain(`url "file://${dir}/gw-linux-x64.tar.gz"`)
    expect((JSON.parse(readFileSync(join(dir, 'gw.json'), 'utf8')) as {architecture: object}).architecture).toEqual({})
  })

  it('as the release workflow runs it: --dir, --base-url, and a --tag that must be v and the version', () => {
    const script = join(import.meta.dirname, '..', '..', '..', 'scripts', 'release-files.js')
    const dir = release(['gw-win-x64.zip'])
    const wrongTag = spawnSync(process.execPath, [script, '--dir', dir, '--tag', 'v0.0.0-not-this'], {encoding: 'utf8'})
    expect(wrongTag).toMatchObject({status: 2, stdout: '', stderr: `--tag v0.0.0-not-this: package.json's version is ${version}, so its tag is v${version}\n`})
    const made = spawnSync(process.execPath, [script, '--dir', dir, '--tag', `v${version}`, '--base-url', 'https://example.com/gw/v1'], {encoding: 'utf8'})
    expect(made).toMatchObject({status: 0, stderr: ''})
    expect(made.stdout).toBe(`${join(dir, 'SHA256SUMS')} for gw-win-x64.zip; gw.rb and gw.json from it\n`)
    expect(JSON.parse(readFileSync(join(dir, 'gw.json'), 'utf8'))).toMatchObject({architecture: {'64bit': {url: 'https://example.com/gw/v1/gw-win-x64.zip', hash: sha256(join(dir, 'gw-win-x64.zip'))}}})
  })

  it('refuses a SHA256SUMS line it cannot read', () => {
    const dir = release([])
    writeFileSync(join(dir, 'SHA256SUMS'), 'not a sum  gw-win-x64.zip\n')
    expect(() => writeManifests(dir)).toThrow('SHA256SUMS: not a sha256sum line: not a sum  gw-win-x64.zip')
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
