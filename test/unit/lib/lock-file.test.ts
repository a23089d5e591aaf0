import {spawn, spawnSync} from 'node:child_process'
import {copyFileSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it, vi} from 'vitest'
import {isRunning, LockHeldError, readHolder, takeAside, takeLockFile} from '../../../src/lib/lock-file.js'
import {hostPlatform} from '../../../src/lib/platform.js'
import {openDescriptors} from '../../held-file.js'
import {caught, folder} from './folders.js'
import {onlyOn} from '../../only-on.js'

describe('LockHeldError', () => {
  it('names the lock, and its holder when known', () => {
    expect(new LockHeldError('/j.lock', 42)).toMatchObject({lockPath: '/j.lock', pid: 42, message: '/j.lock is held by pid 42'})
    expect(new LockHeldError('/j.lock', undefined)).toMatchObject({lockPath: '/j.lock', pid: undefined, message: '/j.lock is held'})
  })
})

describe('readHolder: who holds a lock', () => {
  const lock = (text: string, ageMs = 0) => {
    const path = join(folder(), 'j.ndjson.lock')
    writeFileSync(path, text)
    const then = new Date(Date.now() - ageMs)
    utimesSync(path, then, then)
    return {path, ino: statSync(path).ino}
  }

  it('is no one once the lock is gone, and throws what else stops it', () => {
    expect(readHolder(join(folder(), 'gone.lock'))).toBeUndefined()
    expect(caught(() => readHolder(folder()))).toMatchObject({code: 'EISDIR'})
    const dir = folder()
    writeFileSync(join(dir, 'file'), '')
    expect(caught(() => readHolder(join(dir, 'file', 'j.lock')))).toMatchObject({code: 'ENOTDIR'})
  })

  it('counts a lock with no pid yet (its writer between making and writing it) as held while young, whitespace and all', () => {
    const young = lock(' \n')
    expect(readHolder(young.path)).toStrictEqual({alive: true, ino: young.ino})
    const old = lock('', 11_000)
    expect(readHolder(old.path)).toStrictEqual({alive: false, ino: old.ino})
  })

  it('counts a lock with no pid as held for 10 s to the millisecond, and abandoned past them', () => {
    const empty = lock('')
    const made = statSync(empty.path).mtimeMs
    const now = vi.spyOn(Date, 'now')
    try {
      now.mockReturnValue(made + 10_000)
      expect(readHolder(empty.path)).toMatchObject({alive: true})
      now.mockReturnValue(made + 10_001)
      expect(readHolder(empty.path)).toMatchObject({alive: false})
    } finally {
      now.mockRestore()
    }
  })

  it('is alive while its pid runs, and not for a dead pid, this process, or what is no pid', () => {
    const parent = lock(`${process.ppid}\n`)
    expect(readHolder(parent.path)).toStrictEqual({pid: process.ppid, alive: true, ino: parent.ino})
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
    for (const text of [dead, String(process.pid), '0', '-1', '1.5', 'abc']) {
      expect(readHolder(lock(text).path), text).toMatchObject({alive: false})
    }
  })

  it('takes no pid of 0 or below for a live holder, where the system says it runs (macOS’s kill(0, 0) signals the process group)', () => {
    const running = vi.spyOn(hostPlatform(), 'isRunning').mockReturnValue(true)
    try {
      expect(readHolder(lock('0').path)).toMatchObject({pid: 0, alive: false})
      expect(readHolder(lock('-1').path)).toMatchObject({pid: -1, alive: false})
      expect(readHolder(lock('1').path)).toMatchObject({pid: 1, alive: true})
    } finally {
      running.mockRestore()
    }
  })
})

describe('takeLockFile: one lock file, taken whole with link(2)', () => {
  it('takes a free lock holding this pid, readable by its owner only, and leaves nothing else; held until released, released once', () => {
    const dir = folder()
    const path = join(dir, 'j.lock')
    const lock = takeLockFile(path)
    expect(readFileSync(path, 'utf8')).toBe(String(process.pid))
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual(['j.lock'])
    expect(lock.held()).toBe(true)
    lock.release()
    expect(readdirSync(dir)).toEqual([])
    expect(lock.held()).toBe(false)
    lock.release()
    expect(readdirSync(dir)).toEqual([])
  })

  it('is no longer held once another lock took its name, and its release leaves that lock', () => {
    const dir = folder()
    const path = join(dir, 'j.lock')
    const lock = takeLockFile(path)
    // Made while the lock still stands, so that it has an inode of its own (a removed file's comes back).
    writeFileSync(join(dir, 'other'), String(process.ppid))
    renameSync(join(dir, 'other'), path)
    expect(lock.held()).toBe(false)
    lock.release()
    expect(readFileSync(path, 'utf8')).toBe(String(process.ppid))
  })

  it('is refused while a live process holds it, naming that pid; the lock stays and nothing of its own is left', () => {
    const dir = folder()
    const path = join(dir, 'j.lock')
    writeFileSync(path, String(process.ppid))
    expect(caught(() => takeLockFile(path))).toMatchObject({name: 'Error', lockPath: path, pid: process.ppid})
    expect(caught(() => takeLockFile(path))).toBeInstanceOf(LockHeldError)
    expect(readdirSync(dir)).toEqual(['j.lock'])
    expect(readFileSync(path, 'utf8')).toBe(String(process.ppid))
  })

  it("takes over a dead owner's lock, which then holds this pid", () => {
    const dir = folder()
    const path = join(dir, 'j.lock')
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
    writeFileSync(path, dead)
    const lock = takeLockFile(path)
    expect(readFileSync(path, 'utf8')).toBe(String(process.pid))
    expect(lock.held()).toBe(true)
    expect(readdirSync(dir)).toEqual(['j.lock'])
  })

  it('gives up, naming no holder, when a dead lock cannot be taken over (another is taking it over), and leaves both', () => {
    const dir = folder()
    const path = join(dir, 'j.lock')
    writeFileSync(path, '999999999')
    writeFileSync(`${path}.takeover`, String(process.ppid))
    expect(caught(() => takeLockFile(path))).toMatchObject({lockPath: path, pid: undefined})
    expect(readdirSync(dir).sort()).toEqual(['j.lock', 'j.lock.takeover'])
  })

  it('reads a holder through one descriptor, closed once read', () => {
    const path = join(folder(), 'j.lock')
    writeFileSync(path, String(process.ppid))
    readHolder(path)
    expect(openDescriptors(path)).toBe(0)
  })
})

describe('takeAside: a dead owner’s lock, removed by one process at a time', () => {
  it('removes the lock found dead, and leaves nothing of its own', () => {
    const dir = folder()
    const path = join(dir, 'j.lock')
    writeFileSync(path, '999999999')
    takeAside(path, statSync(path).ino)
    expect(readdirSync(dir)).toEqual([])
  })

  it('leaves a lock that is no longer the one found dead (another took it meanwhile), and one already gone', () => {
    const dir = folder()
    const path = join(dir, 'j.lock')
    writeFileSync(path, String(process.ppid))
    takeAside(path, statSync(path).ino + 1)
    expect(readdirSync(dir)).toEqual(['j.lock'])
    takeAside(join(dir, 'gone.lock'), 1)
    expect(readdirSync(dir)).toEqual(['j.lock'])
    // Another dead owner's lock in its place is not the one found dead: the next try finds it.
    writeFileSync(path, '999999999')
    takeAside(path, statSync(path).ino + 1)
    expect(readdirSync(dir)).toEqual(['j.lock'])
  })

  it("leaves a live racer's lock that came back under the inode found dead (the inode of a removed file is reused)", () => {
    const dir = folder()
    const path = join(dir, 'j.lock')
    writeFileSync(path, String(process.ppid))
    takeAside(path, statSync(path).ino)
    expect(readFileSync(path, 'utf8')).toBe(String(process.ppid))
  })

  it('removes nothing while another process takes it over, and clears a take-over left by a killed one once old', () => {
    const dir = folder()
    const path = join(dir, 'j.lock')
    writeFileSync(path, '999999999')
    writeFileSync(`${path}.takeover`, '999999998')
    takeAside(path, statSync(path).ino)
    expect(readdirSync(dir).sort()).toEqual(['j.lock', 'j.lock.takeover'])
    const old = new Date(Date.now() - 11_000)
    utimesSync(`${path}.takeover`, old, old)
    takeAside(path, statSync(path).ino)
    // Cleared for the next try, which removes the lock.
    expect(readdirSync(dir)).toEqual(['j.lock'])
    takeAside(path, statSync(path).ino)
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('isRunning', () => {
  it('is true of this process and false of one that exited', () => {
    expect(isRunning(process.pid)).toBe(true)
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString())
    expect(isRunning(dead)).toBe(false)
  })

  const PROC = onlyOn(['linux'], 'it reads a zombie in /proc, which only Linux has')
  it.skipIf(PROC.skip)(`is false of a zombie (exited, its parent not told), and true of a process whose name holds ") Z ("${PROC.note}`, async () => {
    const dir = folder()
    const odd = join(dir, 'x) Z (y')
    copyFileSync('/bin/sleep', odd)
    spawnSync('chmod', ['+x', odd])
    // sh starts a child that waits for a line (on stdin kept as fd 3: a background job's own is
    // /dev/null), then becomes sleep, which never reaps it: the child,
    // let go only once sh has become sleep (sh itself would have reaped it), is a zombie.
    const parent = spawn('sh', ['-c', `exec 3<&0; (read _ <&3) & echo $!; exec 3<&-; exec '${odd}' 30`], {stdio: ['pipe', 'pipe', 'ignore']})
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))))
      await expect.poll(() => readFileSync(`/proc/${parent.pid}/stat`, 'utf8')).toContain('(x) Z (y) ')
      expect(isRunning(parent.pid!)).toBe(true)
      parent.stdin.end('\n')
      await expect.poll(() => readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]![0]).toBe('Z')
      expect(isRunning(zombie)).toBe(false)
    } finally {
      parent.kill('SIGKILL')
    }
  })

  it.skipIf(PROC.skip)(`is false of a pid the signal reaches but /proc does not have (gone in between)${PROC.note}`, () => {
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true)
    try {
      expect(isRunning(2_000_000_000)).toBe(false)
    } finally {
      kill.mockRestore()
    }
  })

  it.each([
    ['EPERM', true],
    ['ESRCH', false],
  ])("when the signal is refused with %s: running is %s (another user's process may not be signalled, and runs)", (code, running) => {
    // As root every process may be signalled: the refusal is made here.
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error(`kill ${code}`), {code})
    })
    try {
      expect(isRunning(4242)).toBe(running)
      expect(kill).toHaveBeenCalledWith(4242, 0)
    } finally {
      kill.mockRestore()
    }
  })
})
