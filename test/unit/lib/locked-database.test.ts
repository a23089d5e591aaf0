import {spawnSync} from 'node:child_process'
import {chmodSync, linkSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it, vi} from 'vitest'
import {DamagedDatabaseError, DatabaseLockedError, deviceName, isHeldHere, lockableFile, lockHolder, lockRefusal, NotADatabaseError, nodeSqlite, openLockedDatabase, primaryCode, readLocks, systemError, tryAgain, withoutSqliteWarning} from '../../../src/lib/locked-database.js'
import {cutShort} from '../../../src/lib/database-cut.js'
import {anotherCouldTake, closedAfterEach, heldByAnother, killHolder, openDescriptors} from '../../held-file.js'
import {caught, folder} from './folders.js'
import {OVERLAY_SKIPPED, overlayForBlock, overlaysMountable} from '../../overlay-mount.js'
import {platformOf} from '../../../src/lib/platform.js'

// One writer of a file, by the kernel's lock on the file itself (design.md §5): it holds through
// every name the file has, and dies with its process.

const open = closedAfterEach(openLockedDatabase)

const proc = statSync('/proc/locks', {throwIfNoEntry: false}) !== undefined


describe('openLockedDatabase', () => {
  it('makes a database file its owner alone may read, and holds it until close', () => {
    const file = join(folder(), 'journal')
    const database = open(file)
    expect(database.path).toBe(file)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    database.db.exec('CREATE TABLE t (x TEXT)')
    database.db.prepare('INSERT INTO t VALUES (?)').run('kept')
    expect(isHeldHere(file)).toBe(true)
    database.close()
    expect(isHeldHere(file)).toBe(false)
    expect(isHeldHere(join(folder(), 'no-such-file'))).toBe(false)
    // Closing twice is nothing.
    database.close()
    const again = open(file)
    expect(again.db.prepare('SELECT x FROM t').all()).toEqual([{x: 'kept'}])
    expect(readFileSync(file).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000')
  })

  it('makes what SQLite keeps beside the file (left readable by others) its owner’s alone before SQLite reads it', () => {
    const file = join(folder(), 'journal')
    const beside = ['-journal', '-wal', '-shm'].map((suffix) => file + suffix)
    for (const each of beside) {
      writeFileSync(each, '')
      chmodSync(each, 0o644)
    }
    expect(lockableFile(file)).toBe(file)
    expect(beside.map((each) => statSync(each).mode & 0o777)).toEqual([0o600, 0o600, 0o600])
  })

  it('commits durably, in a file whose lock no other connection in this process can share', () => {
    const database = open(join(folder(), 'journal'))
    expect(database.db.prepare('PRAGMA synchronous').get()).toEqual({synchronous: 2})
    expect(database.db.prepare('PRAGMA locking_mode').get()).toEqual({locking_mode: 'exclusive'})
  })

  it('refuses a file this process holds, by any of its names: a symlink, a hard link, a new name after a rename', () => {
    const dir = folder()
    const file = join(dir, 'journal')
    open(file)
    symlinkSync(file, join(dir, 'link'))
    linkSync(file, join(dir, 'hard'))
    for (const name of ['link', 'hard']) {
      const error = caught(() => openLockedDatabase(join(dir, name)))
      expect(error).toBeInstanceOf(DatabaseLockedError)
      expect(error).toMatchObject({pid: process.pid, message: `${name === 'link' ? file : join(dir, name)} is locked by pid ${process.pid}`})
    }
    renameSync(file, join(dir, 'moved'))
    expect(caught(() => openLockedDatabase(join(dir, 'moved')))).toMatchObject({path: join(dir, 'moved'), pid: process.pid})
    // Refusing it opened nothing of it here: a descriptor closed would have given the kernel's lock up.
    expect(openDescriptors(join(dir, 'moved'))).toBe(1)
    expect(anotherCouldTake(join(dir, 'moved'))).toBe(false)
  })

  it('lets another process take the file once it is closed, and until then not', () => {
    const file = join(folder(), 'journal')
    const database = open(file)
    expect(anotherCouldTake(file)).toBe(false)
    database.close()
    expect(openDescriptors(file)).toBe(0)
    expect(anotherCouldTake(file)).toBe(true)
  })

  it('refuses a file another process holds, naming its pid where the system says, and takes it once that process is killed', async () => {
    const dir = folder()
    const file = join(dir, 'journal')
    const holder = await heldByAnother(file)
    for (const name of [file, join(dir, 'hard')]) {
      if (name !== file) linkSync(file, name)
      const error = caught(() => openLockedDatabase(name))
      expect(error).toBeInstanceOf(DatabaseLockedError)
      expect(error).toMatchObject({path: name, pid: proc ? holder.pid : undefined})
    }
    // Refused, this process holds nothing of it, nor keeps it open.
    expect(isHeldHere(file)).toBe(false)
    expect(openDescriptors(file)).toBe(0)
    holder.kill('SIGKILL')
    await new Promise((resolve) => holder.once('exit', resolve))
    // No lock file is left behind: the lock died with its process.
    expect(open(file).path).toBe(file)
  })

  it('leaves a file that is no database as it is, and says why', () => {
    const dir = folder()
    const file = join(dir, 'journal.ndjson')
    writeFileSync(file, '{"journal":1}\n')
    const error = caught(() => openLockedDatabase(file))
    expect(error).toBeInstanceOf(NotADatabaseError)
    expect(error).toMatchObject({path: file, reason: 'its first bytes are no database header', message: `${file} is not a SQLite database (its first bytes are no database header)`})
    expect(readFileSync(file, 'utf8')).toBe('{"journal":1}\n')
    expect(isHeldHere(file)).toBe(false)
    expect(openDescriptors(file)).toBe(0)
    expect(new DatabaseLockedError(file, undefined).message).toBe(`${file} is locked`)
  })

  it('refuses a directory and a FIFO without opening them', () => {
    const dir = folder()
    mkdirSync(join(dir, 'folder'))
    expect(caught(() => openLockedDatabase(join(dir, 'folder')))).toMatchObject({reason: 'it is a directory'})
    expect(spawnSync('mkfifo', [join(dir, 'fifo')]).status).toBe(0)
    expect(caught(() => openLockedDatabase(join(dir, 'fifo')))).toMatchObject({reason: 'it is not a regular file'})
  })

  it('says ENOENT for a folder that is not there, and makes nothing', () => {
    const dir = folder()
    expect(caught(() => openLockedDatabase(join(dir, 'missing', 'journal')))).toMatchObject({code: 'ENOENT'})
  })

  it.skipIf(process.getuid?.() === 0)('says EACCES for a file this user cannot write, rather than open it read-only (skipped as root, who can write any file)', () => {
    const file = join(folder(), 'journal')
    open(file).close()
    chmodSync(file, 0o400)
    expect(caught(() => openLockedDatabase(file))).toMatchObject({code: 'EACCES'})
  })
})

const root = process.getuid?.() === 0

describe('openLockedDatabase on a file system that refuses', () => {
  it.skipIf(!root)(`says ENOSPC for a full disk, not that the file is no database${root ? '' : ' (skipped: mounting needs root; CI runs it)'}`, () => {
    const dir = folder()
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'gw-full', dir]).status).toBe(0)
    try {
      writeFileSync(join(dir, 'filler'), Buffer.alloc(4096))
      const error = caught(() => openLockedDatabase(join(dir, 'journal')))
      expect(error).not.toBeInstanceOf(NotADatabaseError)
      expect(error).toMatchObject({code: 'ENOSPC', message: 'database or disk is full'})
      expect(isHeldHere(join(dir, 'journal'))).toBe(false)
    } finally {
      spawnSync('umount', [dir])
    }
  })

  it.skipIf(!root)(`says EROFS rather than open it read-only, to fail only at its first write${root ? '' : ' (skipped: mounting needs root; CI runs it)'}`, () => {
    const dir = folder()
    const file = join(dir, 'journal')
    open(file).close()
    expect(spawnSync('mount', ['--bind', '-o', 'ro', dir, dir]).status).toBe(0)
    try {
      expect(caught(() => openLockedDatabase(file))).toMatchObject({code: 'EROFS'})
      expect(isHeldHere(file)).toBe(false)
    } finally {
      spawnSync('umount', [dir])
    }
  })
})

describe('a database on an overlay file system: locked under its overlay name and its upper directory’s', () => {
  const overlay = overlayForBlock()

  it.skipIf(!overlaysMountable)(`opened through the overlay: no other process takes it by either name until it is closed${OVERLAY_SKIPPED}`, () => {
    const file = join(overlay.merged, 'through-overlay')
    const held = openLockedDatabase(file)
    expect(anotherCouldTake(join(overlay.upper, 'through-overlay'))).toBe(false)
    expect(anotherCouldTake(file)).toBe(false)
    expect(isHeldHere(join(overlay.upper, 'through-overlay'))).toBe(true)
    held.close()
    expect(anotherCouldTake(join(overlay.upper, 'through-overlay'))).toBe(true)
    expect(anotherCouldTake(file)).toBe(true)
  })

  it.skipIf(!overlaysMountable)(`opened through the upper directory: the overlay's name is held too${OVERLAY_SKIPPED}`, () => {
    const upper = join(overlay.upper, 'through-upper')
    openLockedDatabase(join(overlay.merged, 'through-upper')).close()
    const held = openLockedDatabase(upper)
    expect(anotherCouldTake(join(overlay.merged, 'through-upper'))).toBe(false)
    held.close()
    expect(anotherCouldTake(join(overlay.merged, 'through-upper'))).toBe(true)
  })

  it.skipIf(!overlaysMountable)(`refused while another process holds the other name, naming it, and nothing of its own kept${OVERLAY_SKIPPED}`, async () => {
    const merged = join(overlay.merged, 'held-elsewhere')
    const upper = join(overlay.upper, 'held-elsewhere')
    openLockedDatabase(merged).close()
    const holder = await heldByAnother(merged)
    const error = caught(() => openLockedDatabase(upper))
    expect(error).toBeInstanceOf(DatabaseLockedError)
    expect(error).toMatchObject({path: merged, pid: holder.pid})
    // Its own name, taken first, was let go again.
    expect(isHeldHere(upper)).toBe(false)
    await killHolder(holder)
    const other = await heldByAnother(upper)
    expect(caught(() => openLockedDatabase(merged))).toMatchObject({path: upper, pid: other.pid})
    expect(isHeldHere(merged)).toBe(false)
  })

  it.skipIf(!overlaysMountable)(`refused by its own name's holder after the other name was taken: the other name let go again${OVERLAY_SKIPPED}`, async () => {
    const merged = join(overlay.merged, 'held-here')
    const upper = join(overlay.upper, 'held-here')
    openLockedDatabase(merged).close()
    const holder = await heldByAnother(merged)
    expect(caught(() => openLockedDatabase(merged))).toMatchObject({path: merged, pid: holder.pid})
    expect(isHeldHere(upper)).toBe(false)
    await killHolder(holder)
    openLockedDatabase(upper).close()
  })
})

describe('lockHolder', () => {
  const file = join(folder(), 'held')
  writeFileSync(file, '')
  const {dev, ino} = statSync(file, {bigint: true})
  const id = `${deviceName(dev)}:${ino}`

  it('reads the holder of the file from the lock table, passing over waiters and other files', () => {
    const locks = [`1: POSIX  ADVISORY  WRITE 4242 ${id}0 1073741824 1073742335`, `2: POSIX  ADVISORY  WRITE 777 ${id} 1073741824 1073742335`, `2: -> POSIX  ADVISORY  WRITE 555 ${id} 1073741824 1073742335`].join('\n')
    expect(lockHolder(file, locks)).toBe(777)
    expect(lockHolder(file, [`1: -> POSIX  ADVISORY  WRITE 555 ${id} 0 EOF`, `2: POSIX  ADVISORY  WRITE 778  ${id} 0 EOF`].join('\n'))).toBe(778)
  })

  it('says nothing where the system names no holder: no lock table, one in another namespace (0), an OFD lock (-1), or none', () => {
    expect(lockHolder(file, undefined)).toBeUndefined()
    expect(lockHolder(file, `1: POSIX  ADVISORY  WRITE 0 ${id} 0 EOF`)).toBeUndefined()
    expect(lockHolder(file, `1: OFDLCK ADVISORY  WRITE -1 ${id} 0 EOF`)).toBeUndefined()
    expect(lockHolder(file, '')).toBeUndefined()
    expect(lockHolder(join(folder(), 'gone'), `1: POSIX  ADVISORY  WRITE 9 ${id} 0 EOF`)).toBeUndefined()
  })

  it.skipIf(!proc)('names this process for a database it holds, from /proc/locks (Linux)', () => {
    const database = open(join(folder(), 'journal'))
    expect(lockHolder(database.path, readLocks())).toBe(process.pid)
  })

  it('reads the lock table on Linux alone, and none elsewhere', () => {
    const table = `1: POSIX  ADVISORY  WRITE 777 ${id} 0 EOF`
    const asked: string[] = []
    const system = (os: NodeJS.Platform) => platformOf(os, {readFile: (path) => (asked.push(path), path === '/proc/locks' ? table : undefined), ownerOf: () => undefined, run: () => undefined, probe: () => {}, uid: () => 0})
    expect(readLocks(system('linux'))).toBe(table)
    expect(asked).toEqual(['/proc/locks'])
    // wine under Linux shows the host's /proc: it is not the system's.
    expect(readLocks(system('win32'))).toBeUndefined()
    expect(readLocks(system('darwin'))).toBeUndefined()
    expect(asked).toEqual(['/proc/locks'])
    if (proc) expect(readLocks()).toEqual(expect.any(String))
  })

  it('names a device as the lock table does: major and minor in hex, two digits at least, the high bits of both kept', () => {
    const makedev = (major: bigint, minor: bigint) => ((major & 0xfffn) << 8n) | ((major & ~0xfffn) << 32n) | (minor & 0xffn) | ((minor & ~0xffn) << 12n)
    expect(deviceName(makedev(8n, 1n))).toBe('08:01')
    expect(deviceName(makedev(0xfen, 0n))).toBe('fe:00')
    expect(deviceName(makedev(0x12345n, 0x6789an))).toBe('12345:6789a')
    expect(deviceName(makedev(259n, 0x100n))).toBe('103:100')
  })
})

describe('lockRefusal and tryAgain: a refusal whose holder let go before it was looked at is tried again', () => {
  const busy = Object.assign(new Error('database is locked'), {errcode: 5})

  it.skipIf(!proc)('with no process holding the file when the lock table is read, it has let go, and is tried up to three times in all; held by another, it names that holder and is not', async () => {
    const file = join(folder(), 'journal')
    writeFileSync(file, '')
    const free = lockRefusal(file, busy) as DatabaseLockedError
    expect(free).toBeInstanceOf(DatabaseLockedError)
    expect([free.pid, free.letGo]).toEqual([undefined, true])
    expect([tryAgain(free, 1), tryAgain(free, 2), tryAgain(free, 3)]).toEqual([true, true, false])
    const holder = await heldByAnother(file)
    const held = lockRefusal(file, busy) as DatabaseLockedError
    expect([held.pid, held.letGo]).toEqual([holder.pid, false])
    expect(tryAgain(held, 1)).toBe(false)
  })

  it.skipIf(!proc)('a file gone by the time the lock table is read has no holder: it has let go', () => {
    const gone = lockRefusal(join(folder(), 'gone'), busy) as DatabaseLockedError
    expect([gone.pid, gone.letGo]).toEqual([undefined, true])
  })

  it('only a refusal for a lock is tried again', () => {
    expect(tryAgain(new NotADatabaseError('/x', 'its first bytes are no database header'), 1)).toBe(false)
    expect(tryAgain(new Error('disk I/O error'), 1)).toBe(false)
    expect(tryAgain(new DatabaseLockedError('/x', undefined), 1)).toBe(false)
  })
})

describe('a database cut short: refused before SQLite writes into it', () => {
  /** A database of `pages` pages of 4096 bytes, its header's page size as `pageSize` writes it. */
  const database = (pages: number, pageSize = 4096) => {
    const file = join(folder(), 'journal')
    const bytes = Buffer.alloc(pages * 4096)
    bytes.write('SQLite format 3\0', 'latin1')
    bytes.writeUInt16BE(pageSize === 65_536 ? 1 : pageSize, 16)
    writeFileSync(file, bytes)
    return file
  }
  const cut = (file: string, at: number) => writeFileSync(file, readFileSync(file).subarray(0, at))

  it('is a file of SQLite\'s first bytes that ends inside its header or part-way through a page, named with its length', () => {
    const file = database(2)
    cut(file, 3)
    expect(cutShort(file, 3)).toBe('cut short at 3 bytes, inside its header')
    const whole = database(2)
    cut(whole, 17)
    expect(cutShort(whole, 17)).toBe('cut short at 17 bytes, inside its header')
    const paged = database(2)
    cut(paged, 4097)
    expect(cutShort(paged, 4097)).toBe('cut short at 4097 bytes, not a whole number of its 4096-byte pages')
    const small = database(1, 512)
    cut(small, 1000)
    expect(cutShort(small, 1000)).toBe('cut short at 1000 bytes, not a whole number of its 512-byte pages')
    // A header's 1 stands for pages of 65536 bytes.
    const large = database(2, 65_536)
    expect(cutShort(large, 8192)).toBe('cut short at 8192 bytes, not a whole number of its 65536-byte pages')
    const error = caught(() => openLockedDatabase(paged))
    expect(error).toBeInstanceOf(DamagedDatabaseError)
    expect(error).toBeInstanceOf(NotADatabaseError)
    expect(error).toMatchObject({path: paged, reason: 'cut short at 4097 bytes, not a whole number of its 4096-byte pages'})
    expect(readFileSync(paged)).toHaveLength(4097)
  })

  it('is not a database of whole pages, an empty file, another file, a page size SQLite would refuse itself, or one whose undo record is beside it (SQLite mends it)', () => {
    expect(cutShort(database(2), 8192)).toBeUndefined()
    expect(cutShort(database(1, 512), 4096)).toBeUndefined()
    const empty = join(folder(), 'journal')
    writeFileSync(empty, '')
    expect(cutShort(empty, 0)).toBeUndefined()
    const other = join(folder(), 'journal')
    writeFileSync(other, 'SQLite format 2 and more')
    expect(cutShort(other, 24)).toBeUndefined()
    expect(cutShort(database(1, 1000), 4000)).toBeUndefined()
    const mended = database(2)
    cut(mended, 4097)
    writeFileSync(`${mended}-journal`, 'x')
    expect(cutShort(mended, 4097)).toBeUndefined()
    writeFileSync(`${mended}-journal`, '')
    expect(cutShort(mended, 4097)).toBeDefined()
  })

  it('is refused as damaged when SQLite finds a page missing only as it reads it', () => {
    const file = join(folder(), 'journal')
    const held = openLockedDatabase(file)
    held.db.exec('CREATE TABLE t (x TEXT)')
    for (let i = 0; i < 50; i++) held.db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(500))
    held.close()
    cut(file, 4096)
    const error = caught(() => openLockedDatabase(file))
    expect(error).toBeInstanceOf(DamagedDatabaseError)
    expect(error).toMatchObject({path: file, reason: 'database disk image is malformed'})
    expect(readFileSync(file)).toHaveLength(4096)
    expect(isHeldHere(file)).toBe(false)
    // Extended codes of a corrupt file (SQLITE_CORRUPT_INDEX) are that too.
    expect(lockRefusal(file, Object.assign(new Error('index damaged'), {errcode: 779}))).toBeInstanceOf(DamagedDatabaseError)
  })
})

describe('systemError', () => {
  it('says what SQLite could not do as the system says it, and passes on what the system did not refuse', () => {
    const sqlite = (errcode: number, message: string) => Object.assign(new Error(message), {code: 'ERR_SQLITE_ERROR', errcode})
    for (const [errcode, code] of [
      [10, 'EIO'],
      [13, 'ENOSPC'],
      [14, 'EACCES'],
    ] as const) {
      const cause = sqlite(errcode, 'what SQLite said')
      expect(systemError(cause)).toMatchObject({code, message: 'what SQLite said', cause})
    }
    const other = sqlite(1, 'no such table: t')
    expect(systemError(other)).toBe(other)
    const plain = new Error('plain')
    expect(systemError(plain)).toBe(plain)
  })
})

describe('primaryCode', () => {
  it('is a result code without its extended part, and nothing for what SQLite did not throw', () => {
    // SQLITE_IOERR_FSYNC (1034) and SQLITE_IOERR_WRITE (778) are SQLITE_IOERR (10); SQLITE_BUSY_SNAPSHOT (517) is SQLITE_BUSY (5).
    expect([1034, 778, 517, 13].map((errcode) => primaryCode({errcode}))).toEqual([10, 10, 5, 13])
    expect(systemError(Object.assign(new Error('disk I/O error'), {errcode: 1034}))).toMatchObject({code: 'EIO'})
    expect(primaryCode(new Error('plain'))).toBeUndefined()
    expect(primaryCode({errcode: '10'})).toBeUndefined()
    expect(primaryCode(undefined)).toBeUndefined()
    expect(primaryCode(null)).toBeUndefined()
  })
})

describe('node:sqlite, loaded without its experimental warning', () => {
  it('passes on every warning the load emits but SQLite’s, and puts process.emitWarning back', () => {
    const emitWarning = process.emitWarning
    const seen = vi.fn()
    process.emitWarning = seen as unknown as typeof process.emitWarning
    try {
      const value = withoutSqliteWarning(() => {
        process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning')
        process.emitWarning(new Error('SQLite is an experimental feature'))
        process.emitWarning('Something else', 'DeprecationWarning')
        process.emitWarning(new Error('An error, passed on'))
        return 42
      })
      expect(value).toBe(42)
      expect(seen.mock.calls).toEqual([['Something else', 'DeprecationWarning'], [new Error('An error, passed on')]])
      expect(process.emitWarning).toBe(seen)
      expect(() => withoutSqliteWarning(() => { throw new Error('load failed') })).toThrow('load failed')
      expect(process.emitWarning).toBe(seen)
    } finally {
      process.emitWarning = emitWarning
    }
  })

  it('loads node:sqlite once', () => {
    expect(nodeSqlite()).toBe(nodeSqlite())
    expect(typeof nodeSqlite().DatabaseSync).toBe('function')
  })
})
