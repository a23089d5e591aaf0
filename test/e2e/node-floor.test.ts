import {spawn, spawnSync} from 'node:child_process'
import {accessSync, constants, copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {delimiter, dirname, join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {terminal} from './auth-helpers.js'
import {GW, isolatedHome, runProgram} from './helpers.js'

// gw on a Node below its floor (bin/relaunch.js): a clone runs itself again with the Node it pins,
// passing on arguments, stdio, signals and its end; an install without one says which Node gw
// needs. These need a Node older than the floor: the one a machine came with, found on PATH.
const root = join(import.meta.dirname, '..', '..')
const relaunchPath = join(root, 'bin', 'relaunch.js')
const {belowFloor, FLOOR} = createRequire(import.meta.url)(relaunchPath) as {belowFloor: (version: string) => boolean; FLOOR: number[]}
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {engines: {node: string}; devDependencies: Record<string, string>}
const pinned = join(root, 'node_modules', 'node', 'bin', 'node')
/** The version devDependencies pin, as a pattern. */
const pinnedVersion = pkg.devDependencies.node!.replaceAll('.', '\\.')

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

it("bin/relaunch.js's floor is package.json's engines", () => {
  expect(pkg.engines.node).toBe(`>=${FLOOR.join('.')}`)
  expect(belowFloor('20.20.2')).toBe(true)
  expect(belowFloor('22.18.9')).toBe(true)
  expect(belowFloor('22.19.0')).toBe(false)
  expect(belowFloor('24.0.0')).toBe(false)
})

describe.skipIf(!old)(`gw under ${old ? `an older Node (${old})` : 'an older Node: skipped, no node below the floor on PATH'}`, () => {
  const oldNode = old!

  it('runs with the Node the clone pins: --version names it', async () => {
    const result = await runProgram(oldNode, [GW, '--version'])
    expect(result).toMatchObject({code: 0, stderr: ''})
    expect(result.stdout).toMatch(new RegExp(`^gw/\\S+ ${process.platform}-\\S+ node-v${pinnedVersion}\\n$`))
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

  it('without the pinned Node (an npm install), says which Node gw needs: exit 1, no stack trace', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'gw-no-pinned-node-'))
    mkdirSync(join(copy, 'bin'))
    for (const file of ['bin/run.js', 'bin/relaunch.js', 'bin/start.js', 'bin/package.json', 'package.json']) copyFileSync(join(root, file), join(copy, file))
    const result = await runProgram(oldNode, [join(copy, 'bin', 'run.js'), 'purchase', 'list'])
    const version = spawnSync(oldNode, ['-p', 'process.versions.node'], {encoding: 'utf8'}).stdout.trim()
    expect(result).toMatchObject({code: 1, stdout: ''})
    expect(result.stderr).toBe(
      `gw needs Node.js ${FLOOR.join('.')} or later; this is Node.js ${version}. Install a current Node.js LTS (https://nodejs.org), or, in a clone of gw, run npm ci: it installs the Node gw pins.\n`,
    )
  })

  it('npm install --global of gw on that Node stops with the same words', async () => {
    // npm as a user on that Node runs it: that node first on PATH, none of this run's npm_* settings.
    const env: NodeJS.ProcessEnv = {PATH: [dirname(oldNode), ...(process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules'))].join(delimiter)}
    for (const [key, value] of Object.entries(process.env)) if (!/^(npm_|path$)/i.test(key)) env[key] ??= value
    const work = mkdtempSync(join(tmpdir(), 'gw-old-node-install-'))
    const pack = await runProgram('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {env, cwd: root, timeoutMs: 60_000})
    expect(pack.code, pack.stderr).toBe(0)
    const [{filename}] = JSON.parse(pack.stdout) as [{filename: string}]
    const installed = await runProgram('npm', ['install', '--global', '--prefix', join(work, 'prefix'), '--offline', '--no-audit', '--no-fund', join(work, filename)], {env, cwd: work, timeoutMs: 120_000})
    expect(installed.code).not.toBe(0)
    expect(installed.stderr).toContain(`gw needs Node.js ${FLOOR.join('.')} or later; this is Node.js ${spawnSync(oldNode, ['-p', 'process.versions.node'], {encoding: 'utf8'}).stdout.trim()}.`)
  }, 180_000)

  describe('signals', () => {
    let counter: string
    beforeAll(() => {
      // Stands in for gw: says each signal it gets; a SIGTERM ends it with exit 7, a SIGHUP kills it by that signal.
      counter = join(mkdtempSync(join(tmpdir(), 'gw-relaunch-')), 'counter.js')
      writeFileSync(
        counter,
        `const got = []
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

    function started(): Promise<{child: ReturnType<typeof spawn>; lines: string[]; next: () => Promise<string>; end: Promise<{code: number | null; signal: NodeJS.Signals | null}>}> {
      const [file, ...args] = launcher()
      const child = spawn(file!, args, {stdio: ['ignore', 'pipe', 'inherit']})
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
      return next().then((first) => (lines.unshift(first), {child, lines, next, end}))
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
