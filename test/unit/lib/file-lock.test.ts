import {spawn, spawnSync} from 'node:child_process'
import {existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {basename, join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {HardLinkedError, identityLockFolder, takeLock} from '../../../src/lib/file-lock.js'
import {LockHeldError} from '../../../src/lib/lock-file.js'
import {caught, folder} from './folders.js'

describe('takeLock: one holder per real file', () => {
  it('gives two files not made yet a lock each, in one process, each only its owner may read', () => {
    const dir = folder()
    const first = takeLock(join(dir, 'a.ndjson'))
    const second = takeLock(join(dir, 'b.ndjson'))
    expect(statSync(join(dir, 'a.ndjson.lock')).mode & 0o777).toBe(0o600)
    first.release()
    second.release()
    // Nothing of its own is left beside the lock.
    expect(readdirSync(dir)).toEqual([])
  })

  it("keeps the lock beside the real file, holding this process's pid, and lets it go", () => {
    const dir = folder()
    const file = join(dir, 'state.json')
    writeFileSync(file, '{}')
    symlinkSync(file, join(dir, 'link.json'))
    const lock = takeLock(join(dir, 'link.json'))
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(String(process.pid))
    expect(existsSync(join(dir, 'link.json.lock'))).toBe(false)
    expect(lock.held()).toBe(true)
    lock.release()
    expect(existsSync(`${file}.lock`)).toBe(false)
    expect(lock.held()).toBe(false)
    takeLock(file).release()
  })

  it('refuses the file to a second take in this process, through a symlink too, naming this pid', () => {
    const dir = folder()
    const file = join(dir, 'j.ndjson')
    symlinkSync(file, join(dir, 'link.ndjson'))
    // Neither exists yet: the lock is the real path's.
    const lock = takeLock(file)
    const error = caught(() => takeLock(join(dir, 'link.ndjson')))
    expect(error).toBeInstanceOf(LockHeldError)
    expect(error).toMatchObject({lockPath: `${file}.lock`, pid: process.pid, message: `${file}.lock is held by pid ${process.pid}`})
    lock.release()
  })

  it('refuses a file moved while this process holds its lock: the same inode is the same file', () => {
    const dir = folder()
    writeFileSync(join(dir, 'j.ndjson'), '')
    const lock = takeLock(join(dir, 'j.ndjson'))
    renameSync(join(dir, 'j.ndjson'), join(dir, 'moved.ndjson'))
    expect(caught(() => takeLock(join(dir, 'moved.ndjson')))).toMatchObject({lockPath: join(dir, 'moved.ndjson.lock'), pid: process.pid})
    lock.release()
    takeLock(join(dir, 'moved.ndjson')).release()
  })

  it('refuses a file with more than one name (hard links), by any of its names, and makes no lock', () => {
    const dir = folder()
    const file = join(dir, 'state.json')
    writeFileSync(file, '{}')
    linkSync(file, join(dir, 'other.json'))
    for (const name of [file, join(dir, 'other.json')]) {
      const error = caught(() => takeLock(name))
      expect(error).toBeInstanceOf(HardLinkedError)
      expect(error).toMatchObject({file: name, links: 2, message: `${name} has 2 names (hard links)`})
    }
    expect(existsSync(`${file}.lock`)).toBe(false)
    rmSync(join(dir, 'other.json'))
    takeLock(file).release()
  })

  it('refuses a hard link made to a file whose lock another holds: the link count is the file’s, seen from any name', () => {
    const dir = folder()
    const file = join(dir, 'state.json')
    writeFileSync(file, '{}')
    const lock = takeLock(file)
    linkSync(file, join(dir, 'hard.json'))
    expect(caught(() => takeLock(join(dir, 'hard.json')))).toBeInstanceOf(HardLinkedError)
    expect(lock.held()).toBe(true)
    lock.release()
  })

  it('lets go of a lock someone removed meanwhile without a word', () => {
    const dir = folder()
    const lock = takeLock(join(dir, 'j.ndjson'))
    rmSync(join(dir, 'j.ndjson.lock'))
    expect(lock.held()).toBe(false)
    lock.release()
    takeLock(join(dir, 'j.ndjson')).release()
  })

  it('tries again while a lock is there by name but cannot be read (vanishing as it is looked at), then says it is being taken', () => {
    const dir = folder()
    // A name that exists (link(2) fails) and leads nowhere (nothing to read): what a lock removed mid-look is.
    symlinkSync(join(dir, 'nowhere'), join(dir, 'j.ndjson.lock'))
    const error = caught(() => takeLock(join(dir, 'j.ndjson')))
    expect(error).toBeInstanceOf(LockHeldError)
    expect(error).toMatchObject({lockPath: join(dir, 'j.ndjson.lock'), pid: undefined})
    expect(readdirSync(dir)).toEqual(['j.ndjson.lock'])
  })

  it('says a lock is no longer held once another replaced it, and then leaves it alone', () => {
    const dir = folder()
    const file = join(dir, 'j.ndjson')
    const lock = takeLock(file)
    // As a take-over puts its own in place: made before the old one goes, so never the same inode.
    writeFileSync(`${file}.other`, '424242')
    renameSync(`${file}.other`, `${file}.lock`)
    expect(lock.held()).toBe(false)
    lock.release()
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe('424242')
  })

  it("refuses the real file to another process holding it through a symlink, naming that process's pid", async () => {
    const dir = folder()
    const file = join(dir, 'state.json')
    symlinkSync(file, join(dir, 'link.json'))
    const script = `import('${join(import.meta.dirname, '../../../src/lib/file-lock.ts').replaceAll('\\', '/')}').then(({takeLock}) => {
      takeLock(process.argv[1]); process.stdout.write('held\\n'); process.stdin.on('end', () => process.exit(0)); process.stdin.resume()
    })`
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, join(dir, 'link.json')], {stdio: ['pipe', 'pipe', 'inherit']})
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
    try {
      expect(caught(() => takeLock(file))).toMatchObject({lockPath: `${file}.lock`, pid: child.pid, message: `${file}.lock is held by pid ${child.pid}`})
    } finally {
      child.stdin.end()
      await new Promise((resolve) => child.on('close', resolve))
    }
  })
})

describe('locks by device and inode: every name of a file finds one lock', () => {
  const tmp = process.env.TMPDIR
  afterEach(() => {
    if (tmp === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = tmp
  })
  /** A folder of identity locks of this test's own: os.tmpdir() reads TMPDIR. */
  const ownLockFolder = () => {
    process.env.TMPDIR = folder()
    return join(process.env.TMPDIR, `gw-locks-${process.getuid?.() ?? 0}`)
  }
  const identityLock = (file: string) => {
    const {dev, ino} = statSync(file)
    return join(identityLockFolder(), `${dev}-${ino}.lock`)
  }

  it('identityLockFolder is one folder per user in the temporary folder, only its owner may enter', () => {
    const expected = ownLockFolder()
    expect(identityLockFolder()).toBe(expected)
    expect(statSync(expected).mode & 0o777).toBe(0o700)
    // Made once: asked again, the same folder.
    expect(identityLockFolder()).toBe(expected)
  })

  it('identityLockFolder refuses a folder others may write (they could plant a lock), and what is not a folder', () => {
    const expected = ownLockFolder()
    mkdirSync(expected, {mode: 0o700})
    spawnSync('chmod', ['0777', expected])
    expect(caught(() => identityLockFolder())).toMatchObject({code: 'EACCES', message: `${expected} is not a folder of this user's own that only they can write`})
    rmSync(expected, {recursive: true})
    // A file only its owner may read is still no folder.
    writeFileSync(expected, '', {mode: 0o600})
    expect(caught(() => identityLockFolder())).toMatchObject({code: 'EACCES'})
  })

  it.skipIf(process.getuid?.() !== 0)('identityLockFolder refuses a folder another user owns, however closed (skipped: needs root to chown)', () => {
    const expected = ownLockFolder()
    mkdirSync(expected, {mode: 0o700})
    spawnSync('chown', ['65534', expected])
    expect(caught(() => identityLockFolder())).toMatchObject({code: 'EACCES'})
  })

  it('identityLockFolder throws what stops it looking (no temporary folder)', () => {
    process.env.TMPDIR = join(folder(), 'gone')
    expect(caught(() => identityLockFolder())).toMatchObject({code: 'ENOENT'})
  })

  it('a file not made yet, without create, is held by its lock beside it alone', () => {
    ownLockFolder()
    const lock = takeLock(join(folder(), 'later.ndjson'))
    expect(lock.held()).toBe(true)
    lock.release()
  })

  it('create: a file not made yet is made (empty, only its owner may read it) under the lock, and locked by its inode too; release lets go of both', () => {
    ownLockFolder()
    const dir = folder()
    const file = join(dir, 'j.ndjson')
    const lock = takeLock(file, {create: true})
    expect(readFileSync(file, 'utf8')).toBe('')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const byInode = identityLock(file)
    expect(readFileSync(byInode, 'utf8')).toBe(String(process.pid))
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(String(process.pid))
    expect(lock.held()).toBe(true)
    lock.release()
    expect(existsSync(byInode)).toBe(false)
    expect(existsSync(`${file}.lock`)).toBe(false)
    // Without create, a file not made yet stays unmade and has no lock by inode.
    const later = join(dir, 'later.ndjson')
    takeLock(later).release()
    expect(existsSync(later)).toBe(false)
  })

  it('is no longer held once another took the lock by inode over', () => {
    ownLockFolder()
    const file = join(folder(), 'state.json')
    writeFileSync(file, '{}')
    const lock = takeLock(file)
    const byInode = identityLock(file)
    // Put in place while the old one still exists, so its inode cannot be the old one's.
    writeFileSync(`${byInode}.new`, '1')
    renameSync(`${byInode}.new`, byInode)
    expect(lock.held()).toBe(false)
    lock.release()
    // Another's lock is left where it is.
    expect(readFileSync(byInode, 'utf8')).toBe('1')
  })

  it("refuses a file another process locked under another name (it renamed the file since: no path leads from one name to the other), naming its pid, and leaves no lock of its own", async () => {
    ownLockFolder()
    const dir = folder()
    const first = join(dir, 'first.ndjson')
    const moved = join(dir, 'moved.ndjson')
    const script = `import('${join(import.meta.dirname, '../../../src/lib/file-lock.ts').replaceAll('\\', '/')}').then(({takeLock}) => {
      takeLock(process.argv[1], {create: true}); process.stdout.write('held\\n'); process.stdin.on('end', () => process.exit(0)); process.stdin.resume()
    })`
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, first], {stdio: ['pipe', 'pipe', 'inherit'], env: process.env})
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
    try {
      renameSync(first, moved)
      expect(caught(() => takeLock(moved))).toMatchObject({pid: child.pid, lockPath: identityLock(moved)})
      expect(existsSync(`${moved}.lock`)).toBe(false)
    } finally {
      child.stdin.end()
      await new Promise((resolve) => child.on('close', resolve))
    }
  })

  it('holds the file locked by its inode open until release (its inode number names no other file meanwhile), and closes it once', () => {
    ownLockFolder()
    const dir = folder()
    const file = join(dir, 'state.json')
    writeFileSync(file, '{}')
    const openFiles = () => readdirSync('/proc/self/fd').length
    const before = openFiles()
    const lock = takeLock(file)
    expect(openFiles()).toBe(before + 1)
    const {ino} = statSync(file)
    // Replaced by rename, as a snapshot replaces a state file: no name is left for the old inode.
    writeFileSync(join(dir, 'next'), '{}')
    renameSync(join(dir, 'next'), file)
    // ext4 gives a freed inode number to the next file made; this one is still held, so none gets it,
    // and no new file is refused for the lock of one gone.
    for (let i = 0; i < 20; i++) {
      const made = join(dir, `j-${i}.ndjson`)
      writeFileSync(made, '')
      expect(statSync(made).ino).not.toBe(ino)
      takeLock(made).release()
    }
    lock.release()
    expect(openFiles()).toBe(before)
    lock.release()
    expect(openFiles()).toBe(before)
  })

  it('cover: a file about to take the locked one’s place by rename is locked by its inode too, the old one kept, until release', () => {
    ownLockFolder()
    const dir = folder()
    const file = join(dir, 'state.json')
    writeFileSync(file, 'old')
    const lock = takeLock(file)
    const old = identityLock(file)
    const next = join(dir, 'state.json.tmp')
    writeFileSync(next, 'new')
    lock.cover(next)
    const replacing = identityLock(next)
    renameSync(next, file)
    expect([readFileSync(old, 'utf8'), readFileSync(replacing, 'utf8')]).toEqual([String(process.pid), String(process.pid)])
    // Covered again, the same inode: nothing more is taken.
    lock.cover(file)
    expect(readdirSync(identityLockFolder()).sort()).toEqual([old, replacing].map((path) => basename(path)).sort())
    expect(lock.held()).toBe(true)
    rmSync(replacing)
    expect(lock.held()).toBe(false)
    lock.release()
    expect(existsSync(old)).toBe(false)
  })

  it('cover refuses a file whose inode another lock of this process holds, naming this pid, and leaves both locks as they were', () => {
    ownLockFolder()
    const dir = folder()
    const held = join(dir, 'held.ndjson')
    writeFileSync(held, '')
    const first = takeLock(held)
    const second = takeLock(join(dir, 'other.ndjson'))
    expect(caught(() => second.cover(held))).toMatchObject({lockPath: join(dir, 'other.ndjson.lock'), pid: process.pid})
    expect(second.held()).toBe(true)
    second.release()
    expect(first.held()).toBe(true)
    expect(readFileSync(identityLock(held), 'utf8')).toBe(String(process.pid))
    first.release()
  })

  it('does not wait for a writer when the file is a FIFO', () => {
    ownLockFolder()
    const fifo = join(folder(), 'j.fifo')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const lock = takeLock(fifo)
    expect(existsSync(identityLock(fifo))).toBe(true)
    lock.release()
  })

  it('lets go of the lock beside the file, and closes the file, when the one by inode cannot be had', () => {
    const dir = folder()
    const file = join(dir, 'j.ndjson')
    writeFileSync(file, '')
    process.env.TMPDIR = join(folder(), 'gone')
    const openFiles = () => readdirSync('/proc/self/fd').length
    const before = openFiles()
    expect(caught(() => takeLock(file))).toMatchObject({code: 'ENOENT'})
    expect(readdirSync(dir)).toEqual(['j.ndjson'])
    expect(openFiles()).toBe(before)
  })

  it("takes over a dead owner's lock by inode", () => {
    ownLockFolder()
    const file = join(folder(), 'state.json')
    writeFileSync(file, '{}')
    const byInode = identityLock(file)
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!
    writeFileSync(byInode, String(dead))
    const lock = takeLock(file)
    expect(readFileSync(byInode, 'utf8')).toBe(String(process.pid))
    lock.release()
  })
})
