import {execFileSync} from 'node:child_process'
import {cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {delimiter, dirname, join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {fetchNode, hostTarget, lockedBuilds, packageOf} from '../../scripts/registry-node.js'
import {isolatedHome, quickStartCommands, runProgram} from './helpers.js'
import {runsInCiOr} from './slow-gates.js'

// gw's npm package as a user installs it, on gw's floor, the line a clone pins and the newest:
// `npm install --global --allow-scripts=keytar` of the packed tarball warns of nothing, and the gw
// it installs starts and runs the README's quick start. Each Node is the registry's build for this
// platform (scripts/registry-node.js, kept in the user's cache), running the npm on PATH. And a
// clone whose pinned Node is not there runs on the shell's Node 22.19. The installs build keytar
// three times (about a minute in all): CI runs them, elsewhere GW_TEST_RELEASE=1 does.
const root = join(import.meta.dirname, '..', '..')
const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {version: string}
const NODES = ['22.19.0', '24.21.0', '26.10.0']
const wanted = runsInCiOr('GW_TEST_RELEASE', `npm install --global of the packed gw on Node ${NODES.join(', ')} (it builds keytar three times, about a minute)`)

/** This platform's node of a version, checked against the lock where scripts/embedded-node pins it. */
function registryNode(nodeVersion: string): string {
  const name = packageOf(hostTarget())
  return fetchNode({name, version: nodeVersion, integrity: lockedBuilds().find((build) => build.name === name && build.version === nodeVersion)?.integrity})
}

/** The machine's environment as a user's shell has it: that node first on PATH, nothing of this npm test's npm_* settings or node_modules/.bin. */
function userEnv(node: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!/^(npm_|node_env$|vitest)/i.test(key)) env[key] = value
  const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules'))
  return {...env, PATH: [dirname(node), ...path].join(delimiter), ...extra}
}

/** npm's own script, to run with each node: the npm on PATH. */
function npmCli(): string {
  return realpathSync(execFileSync('sh', ['-c', 'command -v npm'], {encoding: 'utf8', env: userEnv(process.execPath)}).trim())
}

describe.skipIf(!wanted || process.platform === 'win32')('the npm package, installed as a user installs it', () => {
  let tarball: string

  beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), 'gw-npm-package-'))
    const packed = await runProgram(process.execPath, [npmCli(), 'pack', '--ignore-scripts', '--json', '--pack-destination', work], {env: userEnv(process.execPath), cwd: root, timeoutMs: 60_000})
    expect(packed.code, packed.stderr).toBe(0)
    tarball = join(work, (packed.json as [{filename: string}])[0].filename)
  }, 90_000)

  describe.each(NODES)('on Node %s', (nodeVersion) => {
    let node: string
    let prefix: string
    let installed: Awaited<ReturnType<typeof runProgram>>

    beforeAll(async () => {
      node = registryNode(nodeVersion)
      prefix = mkdtempSync(join(tmpdir(), `gw-global-${nodeVersion}-`))
      // From a folder of no project: the user's npm settings, none of a clone's .npmrc.
      const args = [npmCli(), 'install', '--global', '--prefix', prefix, '--allow-scripts=keytar', '--no-audit', '--no-fund', tarball]
      installed = await runProgram(node, args, {env: userEnv(node), cwd: tmpdir(), timeoutMs: 300_000})
    }, 360_000)

    it('installs with no warning: nothing of gw runs at install, keytar is allowed its build', () => {
      expect(installed.code, installed.stderr).toBe(0)
      expect(installed.stderr).not.toMatch(/npm warn/i)
      expect(installed.stdout).toMatch(/^\nadded \d+ packages? in \S+\n$/)
    })

    it('starts: gw --version names this Node', async () => {
      const result = await runProgram(join(prefix, 'bin', 'gw'), ['--version'], {env: userEnv(node, isolatedHome())})
      expect(result).toMatchObject({code: 0, stderr: '', stdout: `gw/${version} ${process.platform}-${process.arch} node-v${nodeVersion}\n`})
    })

    it("runs the README's quick start to an approved purchase", async () => {
      const env = userEnv(node, isolatedHome())
      const gw = join(prefix, 'bin', 'gw')
      const result = await runProgram('/bin/sh', ['-c', quickStartCommands().replaceAll('./bin/run.js', gw)], {env, cwd: tmpdir(), timeoutMs: 60_000})
      try {
        expect(result.code, result.stderr).toBe(0)
        expect(JSON.parse(result.stdout.split('\n').find((line) => line.startsWith('{'))!)).toMatchObject({amount: 1000, currency: 'AUD', successful: true, message: 'Approved'})
      } finally {
        await runProgram(gw, ['sandbox', 'stop'], {env})
      }
    })
  })

  it("a clone whose pinned Node is not there runs on the shell's Node 22.19: --version and the quick start", async () => {
    const node = registryNode('22.19.0')
    // What a clone runs gw from, without node_modules (so without node_modules/.gw-node), but scripts/embedded-node: a clone.
    const clone = mkdtempSync(join(tmpdir(), 'gw-clone-without-pin-'))
    for (const path of ['bin', 'dist', 'package.json', 'oclif.manifest.json', 'scripts/embedded-node/package.json']) {
      mkdirSync(dirname(join(clone, path)), {recursive: true})
      cpSync(join(root, path), join(clone, path), {recursive: true})
    }
    const env = userEnv(node, isolatedHome())
    const versionLine = await runProgram(join(clone, 'bin', 'run.js'), ['--version'], {env})
    expect(versionLine).toMatchObject({code: 0, stderr: '', stdout: `gw/${version} ${process.platform}-${process.arch} node-v22.19.0\n`})
    const result = await runProgram('/bin/sh', ['-c', quickStartCommands()], {env, cwd: clone, timeoutMs: 60_000})
    try {
      expect(result.code, result.stderr).toBe(0)
      expect(JSON.parse(result.stdout.split('\n').find((line) => line.startsWith('{'))!)).toMatchObject({successful: true, message: 'Approved'})
    } finally {
      await runProgram(join(clone, 'bin', 'run.js'), ['sandbox', 'stop'], {env})
    }
  }, 90_000)
})
