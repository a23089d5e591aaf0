import {spawnSync} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {delimiter, join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {GW, cardArgs, isolatedHome, type ProcessSandbox, ref, runGw, runProgram, startSandboxProcess} from './helpers.js'
import {POSIX_SCRIPTS} from '../only-on.js'

// One gateway on a --state file, by the lock the system keeps on the file itself: whatever name
// the second reaches the file by, whatever its TMPDIR or its mount namespace, it is refused naming
// the first; the lock ends with the first, and no lock file is left to remove. Mounting needs root:
// CI runs as root; elsewhere those tests are skipped, as their names say.
const root = process.getuid?.() === 0
const NEEDS_ROOT = root ? '' : ' (skipped: mount and unshare --mount need root; CI runs it)'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const folder = () => mkdtempSync(join(tmpdir(), 'gw-e2e-state-'))

async function gateway(args: string[], home = isolatedHome()): Promise<ProcessSandbox> {
  const started = await startSandboxProcess(['--no-request-log', ...args], home)
  cleanups.push(() => started.stop())
  return started
}

/** What a refused second gateway must say: the first's pid, and how to end its lock. */
function expectRefusedFor(result: {code: number | null; stdout: string; stderr: string}, name: string, first: ProcessSandbox): void {
  const pid = first.process.pid
  expect(result.stderr).toContain(`Error: ${name} is in use by another local gateway (pid ${pid}): two gateways on one state file would lose each other's writes`)
  expect(result.stderr).toContain(`Hint: Stop that gateway first (gw sandbox stop, or kill ${pid}): the lock is the system's, on the file itself, and ends with that gateway.`)
  expect(result.code).toBe(2)
  expect(result.stdout).toBe('')
  expect(first.process.exitCode).toBeNull()
}

describe('a second gateway on a running one’s --state file', () => {
  it.skipIf(!root)(`through a bind mount of the file, with another TMPDIR, is refused naming the first's pid (exit 2), and the first keeps its state${NEEDS_ROOT}`, async () => {
    const dir = folder()
    mkdirSync(join(dir, 'a'))
    mkdirSync(join(dir, 'b'))
    const state = join(dir, 'a', 'state.json')
    const other = join(dir, 'b', 'state.json')
    const first = await gateway(['--state', state])
    writeFileSync(other, '')
    const mounted = spawnSync('mount', ['--bind', state, other], {encoding: 'utf8'})
    expect(mounted.status, mounted.stderr).toBe(0)
    cleanups.push(() => spawnSync('umount', [other]))

    const second = await runGw(['sandbox', 'start', '--port', '0', '--no-request-log', '--state', other], {env: {...isolatedHome(), TMPDIR: folder()}})
    expectRefusedFor(second, other, first)
    const reference = ref('kept')
    expect((await first.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs()])).code).toBe(0)
    await first.stop()
    const again = await gateway(['--state', state])
    expect((await again.gw(['purchase', 'get', reference])).records).toMatchObject([{reference, successful: true}])
  })

  // A tmpfs on /tmp would hide a clone under it, gw itself included.
  const cloneUnderTmp = GW.startsWith('/tmp/')
  it.runIf(root && cloneUnderTmp)('skipped: a tmpfs on /tmp would hide this clone, which is under /tmp (CI clones elsewhere)', () => {})
  it.skipIf(!root || cloneUnderTmp)(`in a mount namespace of its own with a /tmp of its own (unshare --mount, a tmpfs on /tmp), the file mounted there under another name, is refused naming the first's pid (exit 2)${NEEDS_ROOT}`, async () => {
    // Outside /tmp, which the namespace covers with a tmpfs of its own.
    const dir = mkdtempSync('/var/tmp/gw-e2e-state-')
    cleanups.push(() => rmSync(dir, {recursive: true, force: true}))
    const state = join(dir, 'state.json')
    const first = await gateway(['--state', state])
    // As a container mounts a host's file: its own /tmp (TMPDIR too), the file at /tmp/data/state.json.
    const script = [
      'set -e',
      'mount -t tmpfs tmpfs /tmp',
      'mkdir /tmp/data /tmp/home',
      ': > /tmp/data/state.json',
      'mount --bind "$1" /tmp/data/state.json',
      'exec "$2" "$3" sandbox start --port 0 --no-request-log --state /tmp/data/state.json',
    ].join('\n')
    const env = {HOME: '/tmp/home', XDG_CONFIG_HOME: '/tmp/home/config', XDG_DATA_HOME: '/tmp/home/data', XDG_CACHE_HOME: '/tmp/home/cache', TMPDIR: '/tmp'}
    const second = await runProgram('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', state, process.execPath, GW], {env})
    expectRefusedFor(second, '/tmp/data/state.json', first)
  })
})

describe("docs/local-gateway.md's reading of the state file", () => {
  const sqlite3 = spawnSync('sqlite3', ['--version']).status === 0
  it.skipIf(!sqlite3 || POSIX_SCRIPTS.skip)(`lists a stopped gateway's purchases with sqlite3, as shown${POSIX_SCRIPTS.note || (sqlite3 ? '' : ' (skipped: no sqlite3 on this machine; CI has it)')}`, async () => {
    const docs = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'local-gateway.md'), 'utf8')
    const script = /### Reading the state file\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(docs)?.[1]
    expect(script).toContain('sqlite3 -readonly ./gateway.json')
    const home = isolatedHome()
    const work = join(home.HOME!, 'app')
    mkdirSync(join(work, 'bin'), {recursive: true})
    writeFileSync(join(work, 'bin', 'gw'), `#!/bin/sh\nexec "${process.execPath}" "${GW}" "$@"\n`)
    chmodSync(join(work, 'bin', 'gw'), 0o755)
    const started = await runGw(['sandbox', 'start', '--detach', '--port', '0', '--state', './gateway.json'], {env: home, cwd: work})
    expect(started.code, started.stderr).toBe(0)
    cleanups.push(() => runGw(['sandbox', 'stop', '--all'], {env: home}))
    const reference = ref('in-the-file')
    const made = await runGw(['purchase', 'create', '--amount', '2500', '--reference', reference, ...cardArgs()], {env: {...home, GW_BASE_URL: started.stdout.trim(), GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}})
    expect(made.code, made.stderr).toBe(0)
    const read = await runProgram('bash', ['-e', '-c', script!], {cwd: work, env: {...home, PATH: [join(work, 'bin'), process.env.PATH].join(delimiter)}})
    expect(read.code, read.stderr).toBe(0)
    expect(read.stdout).toBe(`${reference}|2500\n`)
  })
})
