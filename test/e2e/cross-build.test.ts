import {execFileSync, spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {machineOfFile} from '../../scripts/binary-header.js'
import {hostTarget, pinFor} from '../../scripts/registry-node.js'
import {readSums} from '../../scripts/release-files.js'
import {rowsOf} from './batch-helpers.js'
import {apiRequestsSince, cardArgs, isolatedHome, ref, requestLogCursor, runProgram, type Sandbox, sharedSandbox} from './helpers.js'
import {runsInCiOr} from './slow-gates.js'

// `npm run package -- --target linux-arm64,win-x64` on this Linux x64 machine: another platform's
// executables, built from the registry's Node for each, checked by their headers; the Windows one
// signed with a throwaway certificate; the linux-arm64 one run under qemu-user (Debian's
// qemu-user, with libc6-arm64-cross and libstdc++6-arm64-cross for its libraries). It fetches two
// Nodes (~80 MB, kept in the user's cache) and builds for about a minute: CI runs it, elsewhere
// GW_TEST_RELEASE=1 does.
const root = join(import.meta.dirname, '..', '..')
const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {version: string}
const wanted = runsInCiOr('GW_TEST_RELEASE', 'the cross build, linux-arm64 and win-x64 (it fetches two Nodes and builds for about a minute)')
const onLinuxX64 = hostTarget() === 'linux-x64'
if (wanted && !onLinuxX64) console.warn(`Skipping the cross build: it is the build of a Linux x64 machine, and this is ${hostTarget()}`)

/** Where Debian's cross libraries for arm64 are, which qemu-user loads the executable's from. */
const ARM64_LIBS = '/usr/aarch64-linux-gnu'
const qemu = spawnSync('qemu-aarch64', ['--version']).status === 0 && existsSync(join(ARM64_LIBS, 'lib', 'libstdc++.so.6'))

describe.skipIf(!wanted || !onLinuxX64)('executables for other platforms, built on Linux x64 (npm run package -- --target linux-arm64,win-x64)', () => {
  let out: string
  let unpacked: string
  let certificate: string
  let built: Awaited<ReturnType<typeof runProgram>>

  beforeAll(async () => {
    // A throwaway code-signing certificate, as the release's would be given: a PKCS#12 file and its password.
    const keys = mkdtempSync(join(tmpdir(), 'gw-signing-'))
    certificate = join(keys, 'cert.pem')
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(keys, 'key.pem'), '-out', certificate, '-days', '1', '-subj', '/CN=gw throwaway signer'], {stdio: 'ignore'})
    execFileSync('openssl', ['pkcs12', '-export', '-inkey', join(keys, 'key.pem'), '-in', certificate, '-out', join(keys, 'signer.p12'), '-passout', 'pass:not-a-secret'], {stdio: 'ignore'})
    out = mkdtempSync(join(tmpdir(), 'gw-cross-'))
    // As the release workflow gives it: the PKCS#12 file in the environment, base64 (its secret).
    const env = {...process.env, GW_WINDOWS_CERTIFICATE: '', GW_WINDOWS_CERTIFICATE_BASE64: readFileSync(join(keys, 'signer.p12')).toString('base64'), GW_WINDOWS_CERTIFICATE_PASSWORD: 'not-a-secret'}
    built = await runProgram(process.execPath, [join(root, 'scripts', 'package.js'), '--target', 'linux-arm64,win-x64', '--out', out], {env, cwd: root, timeoutMs: 600_000})
    unpacked = mkdtempSync(join(tmpdir(), 'gw-cross-unpacked-'))
    execFileSync('tar', ['-xzf', join(out, 'gw-linux-arm64.tar.gz'), '-C', unpacked])
    execFileSync('unzip', ['-q', join(out, 'gw-win-x64.zip'), '-d', unpacked])
  }, 660_000)

  it('builds both, saying that neither has keytar.node (keytar is built for this machine only)', () => {
    expect(built.code, built.stderr).toBe(0)
    expect(built.stderr).toBe(
      ['gw-linux-arm64', 'gw-win-x64'].map((name) => `${name}: no keytar.node (keytar is built only for this machine): it keeps tokens in the environment or a file, as an npm install without keytar does.\n`).join(''),
    )
  })

  it('writes one SHA256SUMS listing both archives and the npm package, each sum right', () => {
    expect([...readSums(out).keys()]).toEqual([`gw-${version}.tgz`, 'gw-linux-arm64.tar.gz', 'gw-win-x64.zip'])
    const check = spawnSync('sha256sum', ['--check', 'SHA256SUMS'], {cwd: out, encoding: 'utf8'})
    expect(check.stdout).toBe(`gw-${version}.tgz: OK\ngw-linux-arm64.tar.gz: OK\ngw-win-x64.zip: OK\n`)
  })

  it("holds, in each archive's folder, the executable, README.md, LICENSE, Node's licence and the guides", () => {
    expect(readdirSync(join(unpacked, 'gw-linux-arm64')).sort()).toEqual(['LICENSE', 'LICENSE-node', 'README.md', 'docs', 'gw'])
    expect(readdirSync(join(unpacked, 'gw-win-x64')).sort()).toEqual(['LICENSE', 'LICENSE-node', 'README.md', 'docs', 'gw.exe'])
    const guides = readdirSync(join(root, 'docs'), {recursive: true}).map(String).sort()
    for (const target of ['gw-linux-arm64', 'gw-win-x64']) expect(readdirSync(join(unpacked, target, 'docs'), {recursive: true}).map(String).sort(), target).toEqual(guides)
  })

  it('makes an ELF for AArch64 and a PE32+ for x64', () => {
    expect(machineOfFile(join(unpacked, 'gw-linux-arm64', 'gw'))).toEqual({format: 'elf', arch: 'arm64'})
    expect(machineOfFile(join(unpacked, 'gw-win-x64', 'gw.exe'))).toEqual({format: 'pe', arch: 'x64'})
  })

  it("signs gw.exe with the certificate given, node's own signature removed", () => {
    const verified = spawnSync('osslsigncode', ['verify', '-CAfile', certificate, '-in', join(unpacked, 'gw-win-x64', 'gw.exe')], {encoding: 'utf8'})
    expect(verified.status, verified.stdout + verified.stderr).toBe(0)
    expect(verified.stdout).toContain('Number of verified signatures: 1')
    expect(verified.stdout).toMatch(/Subject: \/?CN ?= ?gw throwaway signer/)
  })

  it("writes the formula and the Scoop manifest with SHA256SUMS's sums", () => {
    const sums = readSums(out)
    const formula = readFileSync(join(out, 'gw.rb'), 'utf8')
    const sources = [...formula.matchAll(/url "[^"]*\/([^/"]+)"\n\s+sha256 "(\w+)"/g)].map(([, file, sum]) => [file, sum])
    // The executable where this build made one (Linux on ARM); elsewhere the npm package, on Homebrew's Node.
    const npmPackage = [`gw-${version}.tgz`, sums.get(`gw-${version}.tgz`)]
    expect(sources).toEqual([npmPackage, npmPackage, ['gw-linux-arm64.tar.gz', sums.get('gw-linux-arm64.tar.gz')], npmPackage])
    const scoop = JSON.parse(readFileSync(join(out, 'gw.json'), 'utf8')) as {architecture: Record<string, {url: string; hash: string}>}
    expect(Object.keys(scoop.architecture)).toEqual(['64bit'])
    expect(scoop.architecture['64bit']!.hash).toBe(sums.get('gw-win-x64.zip'))
  })

  const mustRun = Boolean(process.env.CI)
  if (!qemu && !mustRun) console.warn(`Skipping the linux-arm64 executable's runs: qemu-aarch64 or ${ARM64_LIBS}'s libraries are missing (apt-get install qemu-user libc6-arm64-cross libstdc++6-arm64-cross)`)

  // Emulated, a gw start is some seconds, and many more on cores other tests keep busy.
  describe.skipIf(!qemu && !mustRun)('the linux-arm64 executable, run under qemu-user', {timeout: 300_000}, () => {
    let sandbox: Sandbox
    sharedSandbox((started) => void (sandbox = started))
    /** The arm64 gw under qemu, its libraries from Debian's cross packages, against the local gateway. */
    const arm64 = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      runProgram('qemu-aarch64', [join(unpacked, 'gw-linux-arm64', 'gw'), ...args], {env: {...sandbox.env(env), QEMU_LD_PREFIX: ARM64_LIBS}, timeoutMs: 240_000})

    it('answers --version with its platform and the Node it embeds', async () => {
      expect(qemu, 'with CI=true qemu-user and the arm64 libraries must be installed').toBe(true)
      const result = await arm64(['--version'])
      expect(result).toMatchObject({code: 0, stderr: '', stdout: `gw/${version} linux-arm64 node-v${pinFor('linux-arm64')!.version}\n`})
    })

    it('gets a purchase from the local gateway', async () => {
      const made = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref('arm64-get'), ...cardArgs(), '--json'])
      const {id} = made.json as {id: string}
      const got = await arm64(['purchase', 'get', id, '--json'])
      expect(got.code, got.stderr).toBe(0)
      expect(got.json).toMatchObject({id, amount: 1000, successful: true, message: 'Approved'})
    })

    it('sends a batch with its journal, and a rerun sends none of it again', async () => {
      const token = ((await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])).json as {token: string}).token
      const prefix = ref('arm64-batch')
      const file = join(mkdtempSync(join(tmpdir(), 'gw-arm64-batch-')), 'purchases.csv')
      writeFileSync(file, ['card_token,amount,reference', ...[1, 2, 3].map((n) => `${token},1000,${prefix}-${n}`)].join('\n') + '\n')
      const home = isolatedHome()
      const first = await arm64(['purchase', 'create', '--input', file], home)
      expect(first.code, first.stderr).toBe(0)
      expect(rowsOf(first.stdout).map((row) => row.status)).toEqual(['approved', 'approved', 'approved'])
      expect(readdirSync(join(home.XDG_DATA_HOME!, 'gw', 'journals')).filter((name) => name.endsWith('.sqlite'))).toHaveLength(1)

      const cursor = await requestLogCursor(sandbox)
      const again = await arm64(['purchase', 'create', '--input', file], home)
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toContain('resuming: 3 rows answered, 0 in doubt, 0 not started')
      expect(rowsOf(again.stdout).map((row) => [row.reference, row.status])).toEqual([1, 2, 3].map((n) => [`${prefix}-${n}`, 'approved']))
      expect((await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')).toEqual([])
    })
  })
})
