import {type ChildProcessWithoutNullStreams, spawn, spawnSync} from 'node:child_process'
import {existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {changeConfig, configFile, loadConfig, lockOf, underLock} from '../../../src/auth/config.js'
import {saveLocalProfile} from '../../../src/auth/local-profile.js'
import {useProfile} from '../../../src/auth/profiles.js'
import {fileTokenStore} from '../../../src/auth/token-store.js'
import {WriteError} from '../../../src/errors.js'
import {expectReject} from '../../expect-error.js'

const dirs: string[] = []
const configDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-config-lock-'))
  dirs.push(dir)
  return dir
}
const holders: ChildProcessWithoutNullStreams[] = []
const tmp = process.env.TMPDIR
afterEach(() => {
  for (const holder of holders.splice(0)) holder.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
  if (tmp === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = tmp
})

const source = (file: string) => JSON.stringify(join(import.meta.dirname, '../../../src', file))

/** Another gw holding a file's lock, in a process of its own, until its stdin closes or it is killed; resolves once it holds it. */
async function holdLock(path: string): Promise<ChildProcessWithoutNullStreams> {
  const script = `import(${source('lib/locked-database.ts')}).then(({openLockedDatabase}) => {
    // Kept: a database no longer referenced is closed when collected, and its lock with it.
    globalThis.lock = openLockedDatabase(${JSON.stringify(lockOf(path))})
    process.stdout.write('held\\n')
    process.stdin.on('end', () => process.exit(0)).resume()
  })`
  const holder = spawn(process.execPath, ['--import', 'tsx', '-e', script])
  holders.push(holder)
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve())
    holder.on('exit', (code) => reject(new Error(`the holder exited ${code}`)))
  })
  return holder
}

/** Tests with a gw of their own in another process: tsx starts it in seconds on two shared cores. */
const SLOW = 60_000

const exited = (child: ChildProcessWithoutNullStreams) => new Promise<number | null>((resolve) => (child.exitCode === null ? child.on('exit', resolve) : resolve(child.exitCode)))

describe('config.json changed by two gw at once', () => {
  it('keeps every change when twelve local gateways register at once; the lock is a database beside it, nothing under TMPDIR', async () => {
    const dir = configDir()
    process.env.TMPDIR = configDir()
    const names = Array.from({length: 12}, (_, i) => `shop-${i}`)
    await Promise.all(names.map((name, i) => saveLocalProfile(dir, `http://127.0.0.1:${4200 + i}`, 'sandbox', name)))
    const config = await loadConfig(dir)
    expect(Object.keys(config.profiles).sort()).toEqual([...names].sort())
    expect(config.profiles['shop-7']!.baseUrl).toBe('http://127.0.0.1:4207')
    expect(names).toContain(config.activeProfile)
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'config.json.lock.sqlite'])
    expect(statSync(lockOf(configFile(dir))).mode & 0o777).toBe(0o600)
    expect(readdirSync(process.env.TMPDIR)).toEqual([])
  })

  it('keeps every change when two gw processes change it at once', async () => {
    const dir = configDir()
    const script = `import(${source('auth/local-profile.ts')}).then(async ({saveLocalProfile}) => {
      const who = process.argv.at(-1)
      for (let i = 0; i < 10; i++) await saveLocalProfile(${JSON.stringify(dir)}, 'http://127.0.0.1:' + (4200 + i), 'sandbox', who + '-' + i)
    })`
    const run = (who: string) => exited(spawn(process.execPath, ['--import', 'tsx', '-e', script, who], {stdio: 'inherit'}) as ChildProcessWithoutNullStreams)
    expect(await Promise.all([run('a'), run('b')])).toEqual([0, 0])
    expect(Object.keys((await loadConfig(dir)).profiles)).toHaveLength(20)
  }, SLOW)

  it('keeps every token when twelve logins with --insecure-storage write the token file at once', async () => {
    const file = join(configDir(), 'insecure-credentials.json')
    const store = fileTokenStore(file)
    const held = () => Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object).sort()
    await Promise.all(Array.from({length: 12}, (_, i) => store.set(`p${i}`, `token-${i}`)))
    expect(held()).toHaveLength(12)
    await Promise.all(Array.from({length: 6}, (_, i) => store.delete(`p${i}`)))
    expect(held()).toEqual(['p10', 'p11', 'p6', 'p7', 'p8', 'p9'])
  })

  it('waits while another gw holds the lock, and changes the file once it lets go', async () => {
    const dir = configDir()
    const holder = await holdLock(configFile(dir))
    let done = false
    const change = changeConfig(dir, (config) => {
      config.activeProfile = 'after'
    }).then(() => (done = true))
    // The change cannot go ahead while the lock is held: it is still waiting after many polls.
    for (let polls = 0; polls < 5; polls++) await new Promise((resolve) => setTimeout(resolve, 25))
    expect(done).toBe(false)
    expect(existsSync(configFile(dir))).toBe(false)
    holder.stdin.end()
    await change
    expect(JSON.parse(readFileSync(configFile(dir), 'utf8')).activeProfile).toBe('after')
  }, SLOW)

  it('the lock of a gw killed mid-change goes with it: nothing left to clear', async () => {
    const dir = configDir()
    const holder = await holdLock(configFile(dir))
    const change = changeConfig(dir, (config) => {
      config.activeProfile = 'recovered'
    })
    holder.kill('SIGKILL')
    await change
    expect((await loadConfig(dir)).activeProfile).toBe('recovered')
  }, SLOW)

  it('a lock held past the wait: a WriteError naming the lock, its holder\'s pid and how to clear it; the file is not changed', async () => {
    const dir = configDir()
    writeFileSync(configFile(dir), '{"profiles":{}}\n')
    const holder = await holdLock(configFile(dir))
    const error = await expectReject(
      underLock(configFile(dir), async () => writeFileSync(configFile(dir), 'changed'), {waitMs: 200}),
      WriteError,
      `${configFile(dir)} cannot be changed: its lock ${lockOf(configFile(dir))} is held by pid ${holder.pid}`,
    )
    expect(error.hint).toBe(`Another gw is changing it: run this again when it has finished, or stop it (kill ${holder.pid}). The lock goes with its process: there is nothing to remove.`)
    expect(readFileSync(configFile(dir), 'utf8')).toBe('{"profiles":{}}\n')
  }, SLOW)

  it('a lock that is not gw\'s (no database) is left as it is, and named with the fix', async () => {
    const dir = configDir()
    writeFileSync(lockOf(configFile(dir)), '4242\n'.repeat(30))
    await expectReject(changeConfig(dir, () => undefined), WriteError, `${configFile(dir)} cannot be changed: its lock ${lockOf(configFile(dir))} is not gw's`)
    expect(readFileSync(lockOf(configFile(dir)), 'utf8')).toBe('4242\n'.repeat(30))
  })

  it('refuses a config.json with two names (hard links), naming the fix, and changes nothing', async () => {
    const dir = configDir()
    writeFileSync(configFile(dir), '{"profiles":{}}\n')
    linkSync(configFile(dir), join(dir, 'other-name.json'))
    await expectReject(
      changeConfig(dir, (config) => {
        config.activeProfile = 'x'
      }),
      WriteError,
      `${configFile(dir)} has 2 names (hard links): gw changes its settings only in a file of its own`,
    )
    expect(readFileSync(configFile(dir), 'utf8')).toBe('{"profiles":{}}\n')
  })
})

describe('a folder of locks another local user made first under TMPDIR', () => {
  /** TMPDIR with `gw-locks-<uid>` planted in it by `plant`, as another user of the machine could. */
  const planted = (plant: (folder: string) => void) => {
    process.env.TMPDIR = configDir()
    plant(join(process.env.TMPDIR, `gw-locks-${process.getuid?.() ?? 0}`))
  }
  const profiles = async () => {
    const dir = configDir()
    await saveLocalProfile(dir, 'http://127.0.0.1:4200', 'sandbox', 'one')
    await saveLocalProfile(dir, 'http://127.0.0.1:4201', 'sandbox', 'two')
    await useProfile(dir, 'one')
    await fileTokenStore(join(dir, 'insecure-credentials.json')).set('one', 'token-1')
    return dir
  }

  it('a symlink to a folder of theirs stops no change of config.json or the token file', async () => {
    const theirs = configDir()
    planted((folder) => symlinkSync(theirs, folder))
    const dir = await profiles()
    expect((await loadConfig(dir)).activeProfile).toBe('one')
    expect(readdirSync(theirs)).toEqual([])
  })

  it.skipIf(process.getuid?.() !== 0)('a folder another user owns, open to all, stops no change either (skipped: needs root to chown)', async () => {
    planted((folder) => {
      mkdirSync(folder)
      spawnSync('chown', ['65534', folder])
      spawnSync('chmod', ['0777', folder])
    })
    const dir = await profiles()
    expect((await loadConfig(dir)).activeProfile).toBe('one')
  })
})
