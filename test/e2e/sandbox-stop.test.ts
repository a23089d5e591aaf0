import {type ChildProcess, execFileSync, spawn} from 'node:child_process'
import {chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {once} from 'node:events'
import {afterEach, describe, expect, it} from 'vitest'
import {aRuntimeInfo} from '../unit/sandbox/fixtures.js'
import {cardArgs, isolatedHome, ref, runGw, startSandboxProcess} from './helpers.js'

// gw sandbox stop stops only what gw started, by asking the gateway on its own control
// API with the token its runtime file holds (on Windows, which has no SIGTERM, the only
// way to ask); a pid that outlived its gateway is another program's, and is never signalled.

const dataOf = (home: NodeJS.ProcessEnv) => join(home.XDG_DATA_HOME!, 'gw')
const running: ChildProcess[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL')
})

/** A process of this user that is no gateway: what a recycled pid names. */
async function unrelated(): Promise<ChildProcess> {
  const sleep = spawn('sleep', ['1000'], {stdio: 'ignore'})
  running.push(sleep)
  // Emitted once sleep runs in place of the fork: its command line is sleep's.
  await once(sleep, 'spawn')
  return sleep
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null

describe('gw sandbox stop asks the gateway to stop on its control API', () => {
  it('and it closes as on SIGTERM: its closing line in its log, its request log flushed, its runtime file removed', async () => {
    const home = isolatedHome()
    const started = await runGw(['sandbox', 'start', '--detach', '--port', '0'], {env: home})
    expect(started.code, started.stderr).toBe(0)
    const url = started.stdout.trim()
    try {
      const runtime = join(dataOf(home), 'sandbox.json')
      const info = JSON.parse(readFileSync(runtime, 'utf8')) as {pid: number; controlToken: string}
      expect(info.controlToken).toMatch(/^[\w-]{43}$/)
      // The token is its user's alone: the file, its folder and the gateway's log.
      expect(statSync(runtime).mode & 0o777).toBe(0o600)
      expect(statSync(dataOf(home)).mode & 0o777).toBe(0o700)
      expect(statSync(join(dataOf(home), 'sandbox.log')).mode & 0o777).toBe(0o600)
      const reference = ref('stop')
      expect((await runGw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs()], {env: home})).code).toBe(0)
      // Without its token, its stop is refused: any user of this machine can reach loopback.
      const refused = await fetch(`${url}/_sandbox/stop`, {method: 'POST', headers: {'content-type': 'application/json'}, body: '{}'})
      expect(refused.status).toBe(401)

      const stopped = await runGw(['sandbox', 'stop'], {env: home})
      expect(stopped.code, stopped.stderr).toBe(0)
      expect(stopped.stderr).toBe(`Stopped the local gateway at ${url}; its records are gone with it (it had no --state file).\n`)
      expect(existsSync(runtime)).toBe(false)
      expect(readFileSync(join(dataOf(home), 'sandbox.log'), 'utf8')).toMatch(/Local gateway stopped: gw sandbox stop asked it to\.\n$/)
      expect(readFileSync(join(dataOf(home), 'sandbox-requests.ndjson'), 'utf8')).toContain('"path":"/v1.0/purchases"')
    } finally {
      await runGw(['sandbox', 'stop'], {env: home})
    }
  })

  it('a gateway in the foreground, in another terminal, too: it exits 0, as on SIGTERM', async () => {
    const home = isolatedHome()
    const sandbox = await startSandboxProcess([], home)
    const exited = new Promise<number | null>((resolve) => sandbox.process.once('exit', resolve))
    try {
      const stopped = await runGw(['sandbox', 'stop'], {env: home})
      expect(stopped.stderr).toBe(`Stopped the local gateway at ${sandbox.url}; its records are gone with it (it had no --state file).\n`)
      expect(await exited).toBe(0)
      expect(sandbox.stderr()).toMatch(/Local gateway stopped: gw sandbox stop asked it to\.\n$/)
    } finally {
      await sandbox.stop()
    }
  })
})

describe.skipIf(process.platform === 'win32')('gw sandbox stop never signals a pid its gateway no longer has (a sleep stands for another program: none on Windows)', () => {
  /** A runtime file as a gateway now gone left it, its pid now `pid`'s. */
  const leftBehind = (home: NodeJS.ProcessEnv, pid: number, port: number, withProcess = true) => {
    const file = join(dataOf(home), 'sandbox.json')
    mkdirSync(dataOf(home), {recursive: true})
    // Without its process (as on Windows), the pid is known by asking the port, then by its command line.
    const facts = {started: 'an-earlier-boot/4242', command: 'node /gw/bin/run.js sandbox start --detached-child'}
    writeFileSync(file, JSON.stringify(aRuntimeInfo({pid, port, controlToken: 'a'.repeat(43), ...(withProcess ? {process: facts} : {})})), {mode: 0o600})
    return file
  }

  it.each([
    ['a file with its process', true],
    ['a file without it (as on Windows)', false],
  ])('%s naming a sleep of this user: status and stop each leave the sleep alone, remove the file and say so', async (_, withProcess) => {
    const home = isolatedHome()
    const sleep = await unrelated()
    const file = leftBehind(home, sleep.pid!, 9, withProcess)
    const removed = `The local gateway at http://127.0.0.1:9 had already stopped: pid ${sleep.pid} is another program now (sleep 1000), left alone; removed the gateway's runtime file ${file}.\n`

    const status = await runGw(['sandbox', 'status'], {env: home})
    expect(status.code).toBe(1)
    expect(status.stderr).toBe(`${removed}Error: No local gateway is running\nHint: Start it with: gw sandbox start --detach\n`)
    expect(existsSync(file)).toBe(false)
    expect(alive(sleep)).toBe(true)

    leftBehind(home, sleep.pid!, 9, withProcess)
    const stopped = await runGw(['sandbox', 'stop'], {env: home})
    expect(stopped.code, stopped.stderr).toBe(0)
    expect(stopped.stderr).toBe(`The local gateway at http://127.0.0.1:9 had already stopped: pid ${sleep.pid} is another program now (sleep 1000), left alone; removed the gateway's runtime file ${file}.\n`)
    expect(existsSync(file)).toBe(false)
    expect(alive(sleep)).toBe(true)
  })

  it("nor when another gateway answers on the recorded port: without the file's token it is not that gateway, and neither is touched", async () => {
    const home = isolatedHome()
    const other = await startSandboxProcess()
    try {
      const sleep = await unrelated()
      const file = leftBehind(home, sleep.pid!, Number(new URL(other.url).port))
      const stopped = await runGw(['sandbox', 'stop'], {env: home})
      expect(stopped.stderr).toBe(`The local gateway at ${other.url} had already stopped: pid ${sleep.pid} is another program now (sleep 1000), left alone; removed the gateway's runtime file ${file}.\n`)
      expect(alive(sleep)).toBe(true)
      expect(alive(other.process)).toBe(true)
      expect((await fetch(`${other.url}/_sandbox/info`)).status).toBe(200)
    } finally {
      await other.stop()
    }
  })

  it('a file whose process is gone is removed and said so', async () => {
    const home = isolatedHome()
    const gone = spawn(process.execPath, ['-e', ''])
    await new Promise((resolve) => gone.once('exit', resolve))
    const file = leftBehind(home, gone.pid!, 9)
    const stopped = await runGw(['sandbox', 'stop'], {env: home})
    expect(stopped.stderr).toBe(`The local gateway at http://127.0.0.1:9 had already stopped (pid ${gone.pid} is gone); removed its runtime file ${file}.\n`)
    expect(existsSync(file)).toBe(false)
  })
})

// APFS and NTFS took Shop and shop for one file, while the profiles were two; on every system they are one gateway now.
describe('gw sandbox start --name Shop and --name shop are one gateway', () => {
  it('whatever the case each command gives, under the name it was started with', async () => {
    const home = isolatedHome()
    try {
      const first = await runGw(['sandbox', 'start', '--detach', '--name', 'Shop'], {env: home})
      expect(first.code, first.stderr).toBe(0)
      const url = first.stdout.trim()
      const second = await runGw(['sandbox', 'start', '--detach', '--name', 'shop'], {env: home})
      expect(second.code, second.stderr).toBe(0)
      expect(second.stdout.trim()).toBe(url)
      expect(second.stderr).toContain(`The local gateway Shop is already running at ${url}`)
      expect(existsSync(join(dataOf(home), 'sandbox-shop.json'))).toBe(true)
      const profiles = ((await runGw(['profile', 'list', '--json'], {env: home})).records as {name: string}[]).map((profile) => profile.name)
      expect(profiles).toEqual(['Shop'])
      expect((await runGw(['sandbox', 'status', '--name', 'SHOP', '--json'], {env: home})).records).toMatchObject([{name: 'Shop', url}])
      // --name in a third spelling reaches it, through its profile.
      const clock = await runGw(['sandbox', 'clock', '--name', 'sHoP', '--json'], {env: home})
      expect(clock.code, clock.stderr).toBe(0)
      const stopped = await runGw(['sandbox', 'stop', '--name', 'shop'], {env: home})
      expect(stopped.stderr).toBe(`Stopped the local gateway Shop at ${url}; its records are gone with it (it had no --state file).\n`)
    } finally {
      await runGw(['sandbox', 'stop', '--all'], {env: home})
    }
  })
})

// Another user's gateway is theirs to stop, and said so. Needs two users: root runs gw as each.
const root = process.getuid?.() === 0
describe("another user's local gateway", () => {
  it.skipIf(!root)(`is named as theirs, never "kill EPERM" (exit 6)${root ? '' : ' (skipped: running gw as two users needs root; CI runs as root)'}`, async (context) => {
    const nobody = {uid: Number(execFileSync('id', ['-u', 'nobody'], {encoding: 'utf8'})), gid: Number(execFileSync('id', ['-g', 'nobody'], {encoding: 'utf8'}))}
    // A second user with no name: a uid alone is enough to be another.
    const stranger = {uid: 65_533, gid: 65_533}
    const homeOf = (user: {uid: number; gid: number}) => {
      const home = isolatedHome()
      execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, home.HOME!])
      // oclif asks the user database for a shell when none is set, and a uid with no name has none there.
      return {...home, SHELL: '/bin/sh'}
    }
    const shared = mkdtempSync(join(tmpdir(), 'gw-shared-'))
    // Sticky, as /tmp is: gw refuses a folder others can write that is not (lib/own-file.ts).
    chmodSync(shared, 0o1777)
    const data = join(shared, 'gw')
    const owner = {...homeOf(nobody), GW_DATA_DIR: data}
    // A spawn that cannot start the node (EACCES) rejects; one that starts it may still fail to read the clone.
    const version = await runGw(['--version'], {env: owner, ...nobody}).catch((error: Error) => ({code: -1, stderr: error.message}))
    if (version.code !== 0) context.skip(`gw cannot run as nobody here (its node or clone is in a folder only root can enter): ${version.stderr.split('\n')[0]}`)
    const started = await runGw(['sandbox', 'start', '--detach', '--port', '0'], {env: owner, ...nobody})
    expect(started.code, started.stderr).toBe(0)
    try {
      const theirs = await runGw(['sandbox', 'stop'], {env: {...homeOf(stranger), GW_DATA_DIR: data}, ...stranger})
      expect(theirs.code, theirs.stderr).toBe(6)
      // (oclif warns, besides, that it cannot read the folder for plugins.)
      expect(theirs.stderr).toContain(`Error: The local gateway of ${join(data, 'sandbox.json')} belongs to the user nobody: gw stops only a gateway of your own\nHint: The user nobody can stop it with gw sandbox stop, or an administrator can.\n`)
      // Readable by all: another user's runtime file is still not believed (it holds their control key), and their gateway not signalled.
      chmodSync(data, 0o755)
      chmodSync(join(data, 'sandbox.json'), 0o644)
      const readable = await runGw(['sandbox', 'stop'], {env: {...homeOf(stranger), GW_DATA_DIR: data}, ...stranger})
      expect(readable.code).toBe(6)
      expect(readable.stderr).toContain(`Error: The local gateway of ${join(data, 'sandbox.json')} belongs to the user nobody: gw stops only a gateway of your own\n`)
      // Among all of them, the one left is said as a lone one is, with its fix, and the worst exit code is the command's.
      const all = await runGw(['sandbox', 'stop', '--all'], {env: {...homeOf(stranger), GW_DATA_DIR: data}, ...stranger})
      expect(all.code, all.stderr).toBe(6)
      expect(all.stderr).toContain(`Error: The local gateway of ${join(data, 'sandbox.json')} belongs to the user nobody: gw stops only a gateway of your own\nHint: The user nobody can stop it with gw sandbox stop, or an administrator can.\n`)
      expect((await fetch(`${started.stdout.trim()}/_sandbox/info`)).status).toBe(200)
    } finally {
      chownSync(data, nobody.uid, nobody.gid)
      const stopped = await runGw(['sandbox', 'stop'], {env: owner, ...nobody})
      expect(stopped.code, stopped.stderr).toBe(0)
    }
  })
})
