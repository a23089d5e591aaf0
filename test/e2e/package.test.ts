import {createHash} from 'node:crypto'
import {copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {keychainSecret, secretService, terminal} from './auth-helpers.js'
import {hostTarget, pinFor} from '../../scripts/registry-node.js'
import {cardArgs, isolatedHome, quickStartCommands, ref, runProgram, startSandbox} from './helpers.js'

// gw as one executable (`npm run package`, scripts/package.js). .ci/run builds the
// release first; elsewhere it is built here, once a run, unless release/ is newer than the build.
const root = join(import.meta.dirname, '..', '..')
const os = ({darwin: 'darwin', linux: 'linux', win32: 'win'} as Record<string, string>)[process.platform] ?? process.platform
const name = `gw-${os}-${process.arch}`
const release = join(root, 'release')
const archive = join(release, `${name}.tar.gz`)
const keytarBuilt = existsSync(join(root, 'node_modules', 'keytar', 'build', 'Release', 'keytar.node'))
const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {version: string}
/** The Node inside the executable: the registry's build that scripts/embedded-node pins, whichever node runs the tests or the build. */
const embedded = `v${pinFor(hostTarget())!.version}`

/** The one-file way of docs/install.md: check the sum and unpack. */
function checkAndUnpack(): string {
  const guide = readFileSync(join(root, 'docs', 'install.md'), 'utf8')
  const command = /`(sha256sum --check [^`]+)`/.exec(guide)?.[1]
  if (!command?.endsWith(`tar -xzf ${name}.tar.gz`)) throw new Error(`docs/install.md's one-file install changed shape: ${command}`)
  return command
}

/**
 * A PATH holding only what the README's commands use besides gw: no node, no npm. Each tool is a
 * link into a directory of its own, so nothing else of /usr/bin comes along.
 */
function pathWithoutNode(): string {
  const bin = mkdtempSync(join(tmpdir(), 'gw-no-node-'))
  for (const tool of ['sha256sum', 'tar', 'gzip', 'date']) {
    const found = process.env.PATH!.split(':').map((dir) => join(dir, tool)).find((file) => existsSync(file))
    if (!found) throw new Error(`${tool} is not on PATH`)
    symlinkSync(found, join(bin, tool))
  }
  return bin
}

let unpacked: string

beforeAll(async () => {
  const built = statSync(join(root, 'dist', 'gw.cjs')).mtimeMs
  const current = existsSync(archive) && existsSync(join(release, 'SHA256SUMS')) && statSync(archive).mtimeMs >= built
  if (!current) {
    const packaged = await runProgram(process.execPath, [join(root, 'scripts', 'package.js')], {cwd: root, timeoutMs: 300_000})
    expect(packaged.code, packaged.stderr).toBe(0)
  }
  // Unpacked as a user would, by the README's commands, with node nowhere on PATH.
  unpacked = mkdtempSync(join(tmpdir(), 'gw-one-file-'))
  for (const file of [`${name}.tar.gz`, 'SHA256SUMS']) copyFileSync(join(release, file), join(unpacked, file))
  const unpack = await runProgram('/bin/sh', ['-c', checkAndUnpack()], {cwd: unpacked, env: {PATH: pathWithoutNode()}})
  expect(unpack.code, unpack.stderr).toBe(0)
  expect(unpack.stdout).toBe(`${name}.tar.gz: OK\n`)
}, 360_000)

describe('the single executable (npm run package)', () => {
  it('SHA256SUMS gives the archive its sha256, as sha256sum writes it', () => {
    const sums = readFileSync(join(release, 'SHA256SUMS'), 'utf8')
    const sha256 = createHash('sha256').update(readFileSync(archive)).digest('hex')
    expect(sums.split('\n')).toContain(`${sha256}  ${name}.tar.gz`)
    expect(sums).toMatch(/^([0-9a-f]{64} {2}gw-([\w-]+\.(tar\.gz|zip)|[\d.]+\.tgz)\n)+$/)
  })

  it("unpacks to one folder: gw, README.md, LICENSE, Node's licence, the guides (docs/), and keytar.node where keytar was built", async () => {
    const listed = await runProgram('tar', ['-tzf', archive])
    const files = listed.stdout.split('\n').filter((path) => path && !path.endsWith('/'))
    const docs = readdirSync(join(root, 'docs'), {recursive: true}).map(String).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)
    const expected = ['gw', 'README.md', 'LICENSE', 'LICENSE-node', ...docs, ...(keytarBuilt ? ['keytar.node'] : [])].map((file) => `${name}/${file}`)
    expect(files.sort()).toEqual(expected.sort())
    expect(statSync(join(unpacked, name, 'gw')).mode & 0o111).toBe(0o111)
  })

  it("runs the README's quick start with no node on PATH, the detached local gateway being the executable itself", async () => {
    const home = isolatedHome()
    const gw = join(unpacked, name, 'gw')
    const commands = quickStartCommands().replaceAll('./bin/run.js', gw)
    const result = await runProgram('/bin/sh', ['-c', commands], {env: {...home, PATH: pathWithoutNode()}, cwd: unpacked})
    try {
      expect(result.code, result.stderr).toBe(0)
      expect(JSON.parse(result.stdout.split('\n').find((line) => line.startsWith('{'))!)).toMatchObject({amount: 1000, currency: 'AUD', successful: true, message: 'Approved'})
      const {pid} = JSON.parse(readFileSync(join(home.XDG_DATA_HOME!, 'gw', 'sandbox.json'), 'utf8')) as {pid: number}
      if (process.platform === 'linux') expect(readlinkSync(`/proc/${pid}/exe`)).toBe(gw)
    } finally {
      await runProgram(gw, ['sandbox', 'stop'], {env: home})
    }
  })

  it('starts from the code cache inside it: nothing is written to start it, --version and the root help included', async () => {
    const home = isolatedHome()
    const gw = join(unpacked, name, 'gw')
    const sandbox = await startSandbox()
    try {
      const env = {...home, PATH: '', GW_BASE_URL: sandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}
      expect((await runProgram(gw, ['--version'], {env})).stdout).toBe(`gw/${version} ${process.platform}-${process.arch} node-${embedded}\n`)
      const missing = await runProgram(gw, ['purchase', 'get', 'no-such-purchase'], {env})
      expect(missing.code).toBe(5)
      expect(missing.stderr).toMatch(/^Error: No purchase has the id or reference no-such-purchase: Purchase not found \(HTTP 404, request-id [\w-]+\)\nHint: gw purchase list finds purchases, newest first, by [^\n]+\n$/)
      // V8 accepted the cache inside: had it not, gw would have written one into its cache directory.
      expect(existsSync(join(home.XDG_CACHE_HOME!, 'gw'))).toBe(false)

      // The root help is rendered once, then kept in the user's cache for that width.
      const first = await runProgram(gw, ['--help'], {env})
      expect(first.code, first.stderr).toBe(0)
      expect(first.stdout).toContain(`gw/${version} ${process.platform}-${process.arch} node-${embedded}`)
      const second = await runProgram(gw, ['--help'], {env})
      expect(second.stdout).toBe(first.stdout)
      expect(existsSync(join(home.XDG_CACHE_HOME!, 'gw', `root-help-${version}-${statSync(join(root, 'dist', 'gw.cjs')).size}-node${embedded}-80.txt`))).toBe(true)
    } finally {
      await sandbox.stop()
    }
  })

  it("passes the release's proof on its own OS (scripts/prove-release.js, as the release workflow runs it on every target's runner)", async () => {
    const temporary = mkdtempSync(join(tmpdir(), 'gw-proof-tmp-'))
    const proven = await runProgram(process.execPath, [join(root, 'scripts', 'prove-release.js'), '--target', hostTarget(), '--dir', release], {cwd: root, env: {TMPDIR: temporary}, timeoutMs: 180_000})
    expect(proven).toMatchObject({code: 0, stderr: '', stdout: `gw-${hostTarget()}: SHA256SUMS, --version, help's guides and the quick start proven\n`})
    // The executable it unpacked (about 130 MB), its home and its empty PATH folder are gone.
    expect(readdirSync(temporary)).toEqual([])
  })

  it("points gw help at the guides beside it, and, copied without them, at this version's guides online", async () => {
    const help = await runProgram(join(unpacked, name, 'gw'), ['help'], {env: isolatedHome()})
    expect(help.code, help.stderr).toBe(0)
    const pointer = help.stdout.trimEnd().split('\n').at(-1)!.trim()
    expect(pointer).toBe(join(unpacked, name, 'docs'))
    expect(readFileSync(join(pointer, 'install.md'), 'utf8')).toMatch(/^# Installing gw\n/)
    const alone = mkdtempSync(join(tmpdir(), 'gw-alone-'))
    copyFileSync(join(unpacked, name, 'gw'), join(alone, 'gw'))
    const copied = await runProgram(join(alone, 'gw'), ['help'], {env: isolatedHome()})
    expect(copied.stdout.trimEnd().split('\n').at(-1)).toBe(`  https://github.com/gw-cli/gw/tree/v${version}/docs`)
    const hint = await runProgram(join(alone, 'gw'), ['purchases'], {env: isolatedHome()})
    expect(hint.stderr).toContain(`; https://github.com/gw-cli/gw/tree/v${version}/docs/finding-records.md shows how.\n`)
  })

  it('filters with --jq: jq is inside it, with no jq (or node) on PATH', async () => {
    const gw = join(unpacked, name, 'gw')
    const sandbox = await startSandbox()
    try {
      const env = {...isolatedHome(), PATH: '', GW_BASE_URL: sandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}
      const reference = ref('one-file-jq')
      const made = await runProgram(gw, ['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--jq', '[.reference, .message] | @tsv'], {env})
      expect(made).toMatchObject({code: 0, stdout: `${reference}\tApproved\n`})
      const bad = await runProgram(gw, ['purchase', 'list', '--jq', '.['], {env})
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain('Error: --jq: syntax error, unexpected end of file')
    } finally {
      await sandbox.stop()
    }
  })

  it('asks its questions on a terminal: inquirer, bundled apart from gw.cjs, loads from inside it', async () => {
    const sandbox = await startSandbox()
    const t = terminal(['purchase', 'create', '--reference', 'one-file-asks'], {...isolatedHome(), GW_BASE_URL: sandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}, {program: [join(unpacked, name, 'gw')]})
    try {
      await t.waitFor('amount in the minor currency unit')
      t.type('1000')
      await t.waitFor('Name on the card')
    } finally {
      t.close()
      await sandbox.stop()
    }
  })

  it('without keytar.node beside it, gw login says there is no keychain and why (exit 4), saves nothing, and both ways out work', async () => {
    // The executable copied alone, as someone might put it on PATH.
    const alone = mkdtempSync(join(tmpdir(), 'gw-alone-'))
    const gw = join(alone, 'gw')
    copyFileSync(join(unpacked, name, 'gw'), gw)
    const sandbox = await startSandbox(['--merchant', 'ACME:acme-token-123'])
    try {
      const home = isolatedHome()
      const login = ['login', '--profile', 'acme', '--base-url', sandbox.url, '--username', 'ACME', '--token-stdin']
      const refused = await runProgram(gw, login, {env: home, stdin: 'acme-token-123'})
      expect(refused.code).toBe(4)
      expect(refused.stderr).toBe(
        `Error: The OS keychain is not available: keytar.node, the native module gw reaches it with, is not beside the gw executable (${join(alone, 'keytar.node')}): this platform's build of gw has none, or gw was copied without it\n` +
          'Hint: Either give the credentials in the environment (GW_USERNAME and GW_TOKEN, and GW_BASE_URL), or keep the token in a file only you can read: gw login --insecure-storage\n',
      )
      expect(refused.stdout).toBe('')
      expect(existsSync(join(home.XDG_CONFIG_HOME!, 'gw', 'config.json'))).toBe(false)

      const insecure = await runProgram(gw, [...login, '--insecure-storage'], {env: home, stdin: 'acme-token-123'})
      expect(insecure.code, insecure.stderr).toBe(0)
      const withFile = await runProgram(gw, ['purchase', 'get', 'no-such-purchase'], {env: home})
      expect(withFile.code, withFile.stderr).toBe(5)
      expect(insecure.stderr).toContain(`Warning: the token of profile acme is in a plain file, ${join(home.XDG_CONFIG_HOME!, 'gw', 'insecure-credentials.json')}`)
      // Said at login and on every command that uses it (docs/live-profiles.md), once a command.
      expect(withFile.stderr.match(/Warning: the token of profile acme is in a plain file/g)).toHaveLength(1)

      const fromEnv = await runProgram(gw, ['purchase', 'get', 'no-such-purchase'], {env: {...isolatedHome(), GW_BASE_URL: sandbox.url, GW_USERNAME: 'ACME', GW_TOKEN: 'acme-token-123'}})
      expect(fromEnv.code, fromEnv.stderr).toBe(5)
    } finally {
      await sandbox.stop()
    }
  })
})

// keytar.node is in the archive only where keytar built (on Linux, with libsecret-1-dev, as in
// .ci/run); the keychain itself needs a Secret Service, as the keychain tests do.
const service = secretService()
const keychainReason = !keytarBuilt ? 'keytar was not built here (on Linux it needs libsecret-1-dev), so the archive has no keytar.node' : service.reason
const mustRun = Boolean(process.env.CI)
if (keychainReason && !mustRun) console.warn(`Skipping the single executable's keychain test: ${keychainReason}`)

describe.skipIf(keychainReason !== undefined && !mustRun)('the single executable with keytar.node beside it', () => {
  it('keeps the token in the OS keychain, as gw from npm does', async () => {
    expect(keychainReason, 'with CI=true keytar must be built and a Secret Service running').toBeUndefined()
    const gw = join(unpacked, name, 'gw')
    const sandbox = await startSandbox(['--merchant', 'ACME:acme-token-123'])
    const profile = `one-file-${process.pid}`
    try {
      const env = {...isolatedHome(), ...service.env}
      const login = await runProgram(gw, ['login', '--profile', profile, '--base-url', sandbox.url, '--username', 'ACME', '--token-stdin', '--json'], {env, stdin: 'acme-token-123'})
      expect(login.code, login.stderr).toBe(0)
      expect(login.json).toMatchObject({name: profile, secret: 'keychain'})
      expect(keychainSecret(profile)).toBe('acme-token-123')
      const status = await runProgram(gw, ['status', '--json'], {env})
      expect(status.json).toMatchObject({profile, secret: `OS keychain, service gw, account ${profile}`})
      const logout = await runProgram(gw, ['logout'], {env})
      expect(logout.stderr).toBe(`Logged out of ${profile}: token removed from OS keychain (service gw)\n`)
      expect(keychainSecret(profile)).toBeUndefined()
    } finally {
      await sandbox.stop()
    }
  })
})
