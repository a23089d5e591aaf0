import {execFileSync} from 'node:child_process'
import {chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {delimiter, dirname, join, sep} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {fetchNode, hostTarget, packageOf, pinFor} from '../../scripts/registry-node.js'
import {cardArgs, isolatedHome, quickStartCommands, ref, runProgram, type Sandbox, sharedSandbox, startSandbox} from './helpers.js'
import {registryStub} from '../registry-stub.js'
import {runsInCiOr} from './slow-gates.js'

const root = join(import.meta.dirname, '..', '..')
const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {version: string}
/** The code cache the build trained, for the Node running the tests (bin/start.js names it). */
const SHIPPED_CACHE = `dist/gw.cjs.${process.version}-${process.arch}.cache`

/** npm as a user runs it: none of the npm_* settings of the `npm test` this runs under, but the user's cache. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value
  return env
}

// What npm pack makes, installed into a prefix and published dry (about 50 s of packing and installing).
const packageTests = runsInCiOr('GW_TEST_RELEASE', 'the packed gw installed with npm install --global and published dry (about 50 s)')

describe.skipIf(!packageTests)('the package', () => {
  let work: string
  let packed: {filename: string; files: {path: string}[]}
  let prefix: string
  let bin: string

  // Packed and installed once, for every test of the package.
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'gw-package-'))
    // --ignore-scripts: pack the build the tests run against, not a rebuild under their feet.
    const pack = await runProgram('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {env: npmEnv(), cwd: root, timeoutMs: 60_000})
    expect(pack.code, pack.stderr).toBe(0)
    ;[packed] = pack.json as [typeof packed]
    prefix = join(work, 'prefix')
    const installed = await runProgram('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], {env: npmEnv(), cwd: work, timeoutMs: 180_000})
    expect(installed.code, installed.stderr).toBe(0)
    bin = process.platform === 'win32' ? prefix : join(prefix, 'bin')
  }, 240_000)

  it('has an ASCII-only bundle, which bin/run.js reads as latin1', () => {
    const bundle = readFileSync(join(root, 'dist', 'gw.cjs'))
    expect(bundle.findIndex((byte) => byte > 0x7f)).toBe(-1)
  })

  it("packs the built bundle, the code cache and root help the build made for this Node, and the manifest", () => {
    expect(packed.filename).toBe(`gw-${version}.tgz`)
    const paths = packed.files.map((file) => file.path)
    expect(paths).toEqual(
      expect.arrayContaining(['bin/run.js', 'bin/start.js', 'bin/package.json', 'dist/gw.cjs', SHIPPED_CACHE, `dist/root-help-node${process.version}-80.txt`, 'oclif.manifest.json', 'package.json', 'README.md', 'LICENSE']),
    )
    expect(paths.filter((path) => /^(src|test|scripts|bench|release)\/|\.map$|^bin\/(dev|sea)\.js$/.test(path))).toEqual([])
  })

  it('holds what gw runs from and nothing else: bin/, the bundles, the code cache and root help, the manifest, the guides', () => {
    const bundles = readdirSync(join(root, 'dist')).filter((file) => file.endsWith('.cjs')).map((file) => `dist/${file}`)
    const docs = readdirSync(join(root, 'docs'), {recursive: true}).map(String).filter((file) => file.endsWith('.md')).map((file) => `docs/${file.split(sep).join('/')}`)
    const expected = ['LICENSE', 'README.md', 'package.json', 'oclif.manifest.json', 'bin/package.json', 'bin/relaunch.js', 'bin/run.js', 'bin/start.js', 'bin/typed-ahead.js', ...bundles, SHIPPED_CACHE, `dist/root-help-node${process.version}-80.txt`, ...docs]
    expect(packed.files.map((file) => file.path).sort()).toEqual(expected.sort())
  })

  it('runs nothing at install, and depends on keytar alone (optional): the bundle holds the rest', () => {
    const installed = JSON.parse(readFileSync(join(prefix, 'lib', 'node_modules', 'gw', 'package.json'), 'utf8')) as {scripts: Record<string, string>; dependencies?: object; optionalDependencies?: object}
    // What npm runs for a package it installs (and names in its install-scripts warning).
    expect(Object.keys(installed.scripts).filter((event) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(event))).toEqual([])
    expect(installed.dependencies).toBeUndefined()
    expect(Object.keys(installed.optionalDependencies ?? {})).toEqual(['keytar'])
  })

  it('publishes the packed tarball cleanly: npm publish --dry-run warns of nothing (a local registry stands in for npm\'s)', async () => {
    const registry = await registryStub()
    try {
      // A token for the registry, as a publisher has one: without it npm says publishing needs a login.
      const auth = `--${registry.url.replace(/^https?:/, '')}:_authToken=dry-run`
      const dry = await runProgram('npm', ['publish', join(work, packed.filename), '--dry-run', '--ignore-scripts', '--loglevel=notice', '--registry', registry.url, auth], {env: npmEnv(), cwd: work, timeoutMs: 60_000})
      expect(dry.code, dry.stderr).toBe(0)
      expect(dry.stderr).not.toMatch(/npm (warn|error)/)
      expect(dry.stderr).toContain(`npm notice Publishing to ${registry.url} with tag latest and default access (dry-run)`)
      expect(dry.stdout).toBe(`+ gw@${version}\n`)
      // npm asked whether this version is out already, and published nothing.
      expect(registry.requests.every((request) => request === 'GET /gw')).toBe(true)
    } finally {
      await registry.close()
    }
  })

  it("passes the release's proof: installed with npm install --global, its --version, help's guides and the quick start (scripts/prove-release.js --npm, as CI runs it on every OS)", async () => {
    // An outer bound: it took 151 s of the 240 s it had on a machine four times slower than most.
    const temporary = mkdtempSync(join(tmpdir(), 'gw-proof-tmp-'))
    const proven = await runProgram(process.execPath, [join(root, 'scripts', 'prove-release.js'), '--npm', '--dir', work], {env: {...npmEnv(), TMPDIR: temporary}, cwd: root, timeoutMs: 600_000})
    expect(proven).toMatchObject({code: 0, stderr: '', stdout: `gw-${version}.tgz, installed with npm install --global: --version, help's guides and the quick start proven\n`})
    // The prefix it installed into and the home it ran gw in are gone. npm keeps Node's compile cache there, as it does on any machine.
    expect(readdirSync(temporary).filter((name) => name !== 'node-compile-cache')).toEqual([])
  }, 610_000)

  it("holds the guides, and gw help's last line is their folder in the install", async () => {
    const docs = readdirSync(join(root, 'docs'), {recursive: true}).map(String).filter((file) => file.endsWith('.md'))
    expect(packed.files.map((file) => file.path).filter((path) => path.startsWith('docs/')).sort()).toEqual(docs.map((file) => `docs/${file.split(sep).join('/')}`).sort())
    const installed = join(prefix, 'lib', 'node_modules', 'gw')
    const help = await runProgram(join(bin, 'gw'), ['help'], {env: isolatedHome()})
    expect(help.code, help.stderr).toBe(0)
    const pointer = help.stdout.trimEnd().split('\n').at(-1)!.trim()
    expect(pointer).toBe(join(installed, 'docs'))
    expect(readFileSync(join(pointer, 'finding-records.md'), 'utf8')).toBe(readFileSync(join(root, 'docs', 'finding-records.md'), 'utf8'))
  })

  it('installed into an empty prefix gives a gw on PATH that makes a purchase from any directory', async () => {
    expect(existsSync(join(bin, 'gw'))).toBe(true)
    // Elsewhere, as a user would: gw found on PATH, a home of its own, no clone in sight.
    const elsewhere = mkdtempSync(join(tmpdir(), 'gw-elsewhere-'))
    const env = {...isolatedHome(), PATH: `${bin}${delimiter}${process.env.PATH}`}
    const gw = (args: string[]) => runProgram('gw', args, {env, cwd: elsewhere})
    expect((await gw(['--version'])).stdout).toMatch(new RegExp(`^gw/${version.replaceAll('.', '\\.')} `))
    const started = await gw(['sandbox', 'start', '--detach', '--port', '0'])
    expect(started.code, started.stderr).toBe(0)
    try {
      const reference = ref('package')
      const purchase = await gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--json'])
      expect(purchase.code, purchase.stderr).toBe(0)
      expect(purchase.json).toMatchObject({successful: true, message: 'Approved', amount: 1000, currency: 'AUD', reference, card_number: '424242XXXXXX4242'})
    } finally {
      expect((await gw(['sandbox', 'stop'])).code).toBe(0)
    }
  })

  // As root (CI) gw runs as nobody, to whom root's install is read-only, as after
  // `sudo npm i -g`; as anyone else the installed package is made read-only (chmod a-w) to its owner.
  describe.skipIf(process.platform === 'win32')('installed where the user running gw cannot write', () => {
    let user: {uid?: number; gid?: number}
    let installed: string
    let sandbox: Sandbox
    let purchaseId: string
    /** As root, a folder anyone can enter holding a node that user runs gw with (userPath). */
    let userNodeDir: string | undefined
    const asRoot = process.getuid?.() === 0

    beforeAll(async () => {
      installed = join(prefix, 'lib', 'node_modules', 'gw')
      if (asRoot) {
        user = {uid: Number(execFileSync('id', ['-u', 'nobody'], {encoding: 'utf8'})), gid: Number(execFileSync('id', ['-g', 'nobody'], {encoding: 'utf8'}))}
        chmodSync(work, 0o755)
        // The node this runs on is the clone's, out of nobody's reach where the clone is under a
        // folder only root can enter (mktemp -d, root's home): env would find an older node on
        // PATH, or none. So nobody runs a copy of it, in a folder anyone can enter.
        userNodeDir = mkdtempSync(join(tmpdir(), 'gw-node-'))
        chmodSync(userNodeDir, 0o755)
        copyFileSync(process.execPath, join(userNodeDir, 'node'))
        chmodSync(join(userNodeDir, 'node'), 0o755)
      } else {
        user = {}
        execFileSync('chmod', ['-R', 'a-w', installed])
      }
    })
    sharedSandbox(async (started) => {
      sandbox = started
      const created = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref('read-only'), ...cardArgs(), '--json'])
      purchaseId = (created.json as {id: string}).id
    })

    afterAll(async () => {
      if (!asRoot && installed) execFileSync('chmod', ['-R', 'u+w', installed])
      if (userNodeDir) rmSync(userNodeDir, {recursive: true, force: true})
    })

    /** A home that user owns. */
    const homeOfUser = () => {
      const home = isolatedHome()
      if (user.uid !== undefined) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, home.HOME!])
      return home
    }
    /** The PATH that user runs gw with: a node they can run first. */
    const userPath = (path = process.env.PATH) => (userNodeDir ? `${userNodeDir}${delimiter}${path}` : path)
    const gw = (args: string[], env: NodeJS.ProcessEnv) => runProgram(join(bin, 'gw'), args, {env: {...sandbox.env(env), PATH: userPath()}, cwd: tmpdir(), ...user})
    const listing = (dir: string) => readdirSync(dir, {recursive: true}).map(String).sort()

    // A clone under a folder only root can enter: its node, first on root's PATH, is not one nobody can run.
    it.skipIf(!asRoot)('runs for that user on a Node of its floor where the first node on PATH is in a folder only root can enter', async () => {
      const hidden = mkdtempSync(join(tmpdir(), 'gw-private-'))
      expect(statSync(hidden).mode & 0o777).toBe(0o700)
      copyFileSync(process.execPath, join(hidden, 'node'))
      chmodSync(join(hidden, 'node'), 0o755)
      try {
        const version = await runProgram(join(bin, 'gw'), ['--version'], {env: {...homeOfUser(), PATH: userPath(hidden)}, cwd: tmpdir(), ...user})
        expect(version.stderr).toBe('')
        expect(version.stdout).toMatch(new RegExp(` node-${process.version.replaceAll('.', '\\.')}\n$`))
      } finally {
        rmSync(hidden, {recursive: true, force: true})
      }
    })

    it('is read-only to that user', async () => {
      const tried = await runProgram('/bin/sh', ['-c', 'touch "$1/dist/written"', 'sh', installed], user)
      expect(tried.code).not.toBe(0)
      expect(tried.stderr).toMatch(/Permission denied|Read-only/)
    })

    it('starts from the code cache and root help the package ships, and writes nothing to do so', async () => {
      const home = homeOfUser()
      const before = listing(installed)
      for (let run = 0; run < 2; run++) {
        const got = await gw(['purchase', 'get', purchaseId, '--json'], home)
        expect(got.code, got.stderr).toBe(0)
        expect(got.json).toMatchObject({id: purchaseId, successful: true})
      }
      const help = await gw(['--help'], home)
      expect(help.code, help.stderr).toBe(0)
      // The saved help, with a mark where each install's guides are (bin/start.js): this one's.
      const saved = readFileSync(join(installed, 'dist', `root-help-node${process.version}-80.txt`), 'utf8')
      expect(saved.split('<gw-guides>')).toHaveLength(2)
      expect(help.stdout).toBe(saved.replace('<gw-guides>', join(installed, 'docs')))
      expect(listing(installed)).toEqual(before)
      expect(existsSync(join(home.XDG_CACHE_HOME!, 'gw'))).toBe(false)
    })

    it('under V8 flags the shipped cache was not written with (NODE_OPTIONS), keeps a cache of its own for them in $XDG_CACHE_HOME/gw', async () => {
      const home: NodeJS.ProcessEnv = {...homeOfUser(), NODE_OPTIONS: '--max-old-space-size=4096'}
      for (let run = 0; run < 2; run++) expect((await gw(['purchase', 'get', purchaseId, '--json'], home)).code).toBe(0)
      const kept = readdirSync(join(home.XDG_CACHE_HOME!, 'gw'))
      expect(kept).toEqual([expect.stringMatching(new RegExp(`^gw\\.cjs-[0-9a-f]{16}\\.${process.version.replaceAll('.', '\\.')}-${process.arch}-[0-9a-f]{8}\\.cache$`))])
    })

    it("where V8 rejects the shipped cache (another Node), keeps the cache in $XDG_CACHE_HOME/gw and starts from it after; the same for a root help of another width", async () => {
      // A cache whose header no V8 accepts, as another Node's would be.
      const shipped = join(installed, SHIPPED_CACHE)
      const bytes = readFileSync(shipped)
      bytes.fill(0, 0, 16)
      if (!asRoot) chmodSync(shipped, 0o644)
      writeFileSync(shipped, bytes)
      if (!asRoot) chmodSync(shipped, 0o444)

      const home = homeOfUser()
      const before = listing(installed)
      const first = await gw(['purchase', 'get', purchaseId, '--json'], home)
      expect(first.code, first.stderr).toBe(0)
      const cacheDir = join(home.XDG_CACHE_HOME!, 'gw')
      const kept = readdirSync(cacheDir)
      expect(kept).toEqual([expect.stringMatching(new RegExp(`^gw\\.cjs-[0-9a-f]{16}\\.${process.version.replaceAll('.', '\\.')}-${process.arch}\\.cache$`))])
      const written = statSync(join(cacheDir, kept[0]!)).mtimeMs
      const second = await gw(['purchase', 'get', purchaseId, '--json'], home)
      expect(second.code, second.stderr).toBe(0)
      // Accepted, so not written again.
      expect(statSync(join(cacheDir, kept[0]!)).mtimeMs).toBe(written)

      const wide = {...home, OCLIF_COLUMNS: '100'}
      const help = await gw(['--help'], wide)
      expect(help.code, help.stderr).toBe(0)
      expect(readdirSync(cacheDir).filter((file) => file.startsWith('root-help-'))).toEqual([`root-help-${version}-${statSync(join(installed, 'dist', 'gw.cjs')).size}-node${process.version}-100.txt`])
      expect((await gw(['--help'], wide)).stdout).toBe(help.stdout)
      expect(listing(installed)).toEqual(before)
    })
  })
})

// .ci/run installs a fresh clone with `npm ci --omit=optional`, as on a machine where keytar's
// native module cannot build, and names it in GW_NO_OPTIONAL_CLONE.
const clone = process.env.GW_NO_OPTIONAL_CLONE
const mustRun = Boolean(process.env.CI)
if (!clone && !mustRun) console.warn('Skipping the tests of a clone installed without keytar: GW_NO_OPTIONAL_CLONE is unset (.ci/run sets it to a fresh clone installed with npm ci --omit=optional)')

describe.skipIf(!clone && !mustRun)('a fresh clone installed with npm ci --omit=optional (no keytar)', () => {
  const cloneGw = (args: string[], options: {env: NodeJS.ProcessEnv; stdin?: string}) => runProgram(join(clone!, 'bin', 'run.js'), args, {...options, cwd: clone})

  it('is installed and built, without keytar', () => {
    expect(clone, 'with CI=true .ci/run must provide the clone').toBeDefined()
    expect(existsSync(join(clone!, 'node_modules', '@oclif', 'core'))).toBe(true)
    expect(existsSync(join(clone!, 'node_modules', 'keytar'))).toBe(false)
    expect(existsSync(join(clone!, 'dist', 'gw.cjs'))).toBe(true)
    expect(existsSync(join(clone!, 'oclif.manifest.json'))).toBe(true)
  })

  it("runs the README's quick start to an approved purchase", async () => {
    const home = isolatedHome()
    const result = await runProgram('bash', ['-c', quickStartCommands()], {env: home, cwd: clone})
    try {
      expect(result.code, result.stderr).toBe(0)
      // Piped here, so the purchase prints as one JSON line; a terminal shows a field/value list.
      expect(JSON.parse(result.stdout.split('\n').find((line) => line.startsWith('{'))!)).toMatchObject({amount: 1000, currency: 'AUD', successful: true, message: 'Approved'})
    } finally {
      await cloneGw(['sandbox', 'stop'], {env: home})
    }
  })

  it('gw login says there is no keychain and why (exit 4), saves nothing, and both ways out work', async () => {
    const sandbox = await startSandbox(['--merchant', 'ACME:acme-token-123'])
    try {
      const home = isolatedHome()
      const login = ['login', '--profile', 'acme', '--base-url', sandbox.url, '--username', 'ACME', '--token-stdin']
      const refused = await cloneGw(login, {env: home, stdin: 'acme-token-123'})
      expect(refused.code).toBe(4)
      expect(refused.stderr).toBe(
        'Error: The OS keychain is not available: keytar, the optional module gw reaches it with, is not installed (npm leaves it out when its native part cannot build, on Linux for want of libsecret-1-dev, and with --omit=optional)\n' +
          'Hint: Either give the credentials in the environment (GW_USERNAME and GW_TOKEN, and GW_BASE_URL), or keep the token in a file only you can read: gw login --insecure-storage\n',
      )
      expect(refused.stdout).toBe('')
      expect(existsSync(join(home.XDG_CONFIG_HOME!, 'gw', 'config.json'))).toBe(false)

      const insecure = await cloneGw([...login, '--insecure-storage'], {env: home, stdin: 'acme-token-123'})
      expect(insecure.code, insecure.stderr).toBe(0)
      const withFile = await cloneGw(['purchase', 'get', 'no-such-purchase'], {env: home})
      expect(withFile.code, withFile.stderr).toBe(5)
      expect(insecure.stderr).toContain(`Warning: the token of profile acme is in a plain file, ${join(home.XDG_CONFIG_HOME!, 'gw', 'insecure-credentials.json')}`)
      // Said at login and on every command that uses it (docs/live-profiles.md), once a command.
      expect(withFile.stderr.match(/Warning: the token of profile acme is in a plain file/g)).toHaveLength(1)

      const fromEnv = await cloneGw(['purchase', 'get', 'no-such-purchase'], {env: {...isolatedHome(), GW_BASE_URL: sandbox.url, GW_USERNAME: 'ACME', GW_TOKEN: 'acme-token-123'}})
      expect(fromEnv.code, fromEnv.stderr).toBe(5)
      expect(fromEnv.stderr).toMatch(/^Error: No purchase has the id or reference no-such-purchase: Purchase not found \(HTTP 404, request-id [\w-]+\)\nHint: gw purchase list finds purchases, newest first, by [^\n]+\n$/)
    } finally {
      await sandbox.stop()
    }
  })
})

// The README's quick start on a machine whose node is 20: npm ci in a fresh clone, run by npm on
// Node 20 (the registry's node-<platform>-<arch>, as .ci/suites fetches its other Nodes). The clone
// brings its own Node, so npm's warnings of engines Node 20 does not meet are not shown (.npmrc);
// keytar left out is said in one line. It downloads and builds what a newcomer's does (~600 MB in
// node_modules, about a minute): CI runs it, elsewhere GW_TEST_FIRST_INSTALL=1 does. It installs the
// clone's last commit.
const NODE_20 = '20.20.2'
const firstInstall = runsInCiOr('GW_TEST_FIRST_INSTALL', `the first install of a fresh clone under Node ${NODE_20} (it installs ~600 MB of dependencies, about a minute)`)

/** This platform's node of a version, from the registry's node-<platform>-<arch> package, kept as .ci/suites keeps its Nodes (scripts/registry-node.js). */
const nodeOf = (version: string) => fetchNode({name: packageOf(hostTarget()), version})

/** npm's own script (npm-cli.js), to run with another node: the one this npm test runs under, else the npm on PATH. */
function npmCli(): string {
  const execpath = process.env.npm_execpath
  if (execpath && /npm-cli\.js$/.test(execpath)) return execpath
  return realpathSync(execFileSync('sh', ['-c', 'command -v npm'], {encoding: 'utf8'}).trim())
}

/** Whether libsecret's development files, which keytar builds against, are installed (what CI installs). */
function hasLibsecret(): boolean {
  try {
    execFileSync('pkg-config', ['--exists', 'libsecret-1'])
    return true
  } catch {
    return false
  }
}

describe.skipIf(!firstInstall || process.platform === 'win32')(`the first install of a fresh clone under Node ${NODE_20} (the README's quick start)`, () => {
  let clone: string
  let install: Awaited<ReturnType<typeof runProgram>>
  let seconds: number

  beforeAll(async () => {
    const node20 = nodeOf(NODE_20)
    clone = join(mkdtempSync(join(tmpdir(), 'gw-first-install-')), 'gw')
    execFileSync('git', ['clone', '--quiet', root, clone])
    // Node 20 first on PATH, none of this run's node_modules/.bin; a home of its own, npm's download cache shared.
    const path = [dirname(node20), ...(process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.startsWith(root))].join(delimiter)
    const npmSetting = (key: string) => execFileSync('npm', ['config', 'get', key], {encoding: 'utf8', env: npmEnv()}).trim()
    const cache = npmSetting('cache')
    // The machine's npm settings stay the newcomer's: a home of its own would drop them (nodedir, where
    // node-gyp finds Node's headers to build keytar; a certificate file), and Node 20's npm reads its
    // own global settings beside it.
    const settings = {npm_config_userconfig: npmSetting('userconfig'), npm_config_globalconfig: npmSetting('globalconfig')}
    // The shell's environment (its proxy and certificate settings among it), not vitest's: its NODE_ENV=test makes oclif's manifest look for TypeScript sources.
    const env: NodeJS.ProcessEnv = {...npmEnv(), ...settings, PATH: path, HOME: dirname(clone), npm_config_cache: cache}
    for (const key of Object.keys(env)) if (key === 'NODE_ENV' || key.startsWith('VITEST')) delete env[key]
    const started = performance.now()
    install = await runProgram(node20, [npmCli(), 'ci', '--no-audit', '--no-fund'], {env, cwd: clone, timeoutMs: 600_000})
    seconds = Math.round((performance.now() - started) / 1000)
    console.info(`npm ci of a fresh clone under Node ${NODE_20}: ${seconds} s`)
  }, 660_000)

  it('installs and builds gw, which runs on the Node the clone pins', async () => {
    expect(install.code, install.stderr).toBe(0)
    const version = await runProgram(join(clone, 'bin', 'run.js'), ['--version'], {env: {PATH: `${dirname(nodeOf(NODE_20))}${delimiter}/usr/bin${delimiter}/bin`}})
    expect(version.stdout).toMatch(/ node-v24\.\d+\.\d+\n$/)
  })

  it("prints npm's lines, the build's and at most one of its own: no engine warnings", () => {
    const output = install.stdout + install.stderr
    expect(output).not.toMatch(/EBADENGINE|npm warn/)
    expect(install.stdout.split('\n').filter(Boolean)).toEqual([
      '> gw@0.1.0 postprepare',
      '> node scripts/clone-install.js && npm run --silent build',
      `gw: Node.js ${NODE_20} is below gw's floor, 22.19: gw runs on Node.js ${pinFor(hostTarget())!.version} (the npm registry's ${pinFor(hostTarget())!.name}), put in node_modules/.gw-node.`,
      `wrote manifest to ${join(clone, 'oclif.manifest.json')}`,
      expect.stringMatching(/^added \d+ packages in \d+(ms|s|m|h)$/),
    ])
  })

  it('says in one line when keytar could not be built (no libsecret), and nothing when it was', () => {
    const keytar = existsSync(join(clone, 'node_modules', 'keytar'))
    if (hasLibsecret()) {
      expect(keytar).toBe(true)
      expect(install.stderr).toBe('')
    } else {
      expect(keytar).toBe(false)
      expect(install.stderr).toBe(
        'gw: no OS keychain: keytar could not be built (on Linux it needs libsecret-1-dev, then npm ci again). gw works without it: gw login then needs --insecure-storage (the token in a file only you can read), or give GW_TOKEN in the environment (docs/install.md).\n',
      )
    }
  })
})
