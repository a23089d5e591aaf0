import {mkdtempSync, readdirSync, readFileSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {delimiter, join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {readPe} from '../../scripts/pe-checksum.js'
import {readZipEntry} from '../../scripts/zip.js'
import {runProgram} from './helpers.js'
import {runsInCiOr} from './slow-gates.js'

// `npm run package -- --target win-x64`, unsigned, as a release given no certificate makes it, then
// scripts/release-files.js over what it made, as the release workflow runs it: the PE checksum the
// injection broke is written again, and checked by gw's own code even where osslsigncode is not
// installed. Fetches Windows's Node (~30 MB, kept in the user's cache) and builds for ~30 s.
const root = join(import.meta.dirname, '..', '..')
const wanted = runsInCiOr('GW_TEST_RELEASE', "the Windows executable's release check (npm run package -- --target win-x64, about 30 s)")
const SCRIPT = join(root, 'scripts', 'release-files.js')

describe.skipIf(!wanted)('the release of what npm run package -- --target win-x64 made (unsigned)', {timeout: 120_000}, () => {
  let out: string
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'gw-win-release-'))
    const env = {...process.env, GW_WINDOWS_CERTIFICATE: '', GW_WINDOWS_CERTIFICATE_BASE64: ''}
    const built = await runProgram(process.execPath, [join(root, 'scripts', 'package.js'), '--target', 'win-x64', '--out', out], {env, cwd: root, timeoutMs: 300_000})
    expect(built.code, built.stderr).toBe(0)
  }, 320_000)

  it("holds a gw.exe whose PE checksum is its bytes', and the guides beside it", () => {
    const exe = readZipEntry(join(out, 'gw-win-x64.zip'), 'gw-win-x64/gw.exe')!
    const pe = readPe(exe)!
    expect(pe.checksum).toBe(pe.computed)
    expect(readZipEntry(join(out, 'gw-win-x64.zip'), 'gw-win-x64/docs/install.md')?.toString('utf8')).toBe(readFileSync(join(root, 'docs', 'install.md'), 'utf8'))
  })

  it('is accepted by scripts/release-files.js, which says gw.exe is unsigned and its checksum right', async () => {
    const made = await runProgram(process.execPath, [SCRIPT, '--dir', out], {cwd: root})
    expect(made.stderr).toBe('')
    expect(made.code).toBe(0)
    expect(made.stdout).toMatch(/; gw-win-x64\.zip: gw\.exe unsigned, its PE checksum right\n$/)
    expect(readFileSync(join(out, 'NOTES.md'), 'utf8')).toContain('- `gw-win-x64.zip`: gw.exe is **not signed**: this release was given no code-signing certificate')
  })

  it('is checked the same where osslsigncode is not installed: by its own code, never skipped', async () => {
    // A PATH without osslsigncode (and without unzip): only node, which runs the script.
    const bin = mkdtempSync(join(tmpdir(), 'gw-no-osslsigncode-'))
    symlinkSync(process.execPath, join(bin, 'node'))
    const made = await runProgram(process.execPath, [SCRIPT, '--dir', out], {cwd: root, env: {PATH: [bin].join(delimiter)}})
    expect(made).toMatchObject({code: 0, stderr: ''})
    expect(made.stdout).toMatch(/; gw-win-x64\.zip: gw\.exe unsigned, its PE checksum right\n$/)
    expect(readdirSync(out)).toEqual(expect.arrayContaining(['SHA256SUMS', 'gw.rb', 'gw.json', 'NOTES.md', 'winget']))
  })
})
