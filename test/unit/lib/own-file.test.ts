import {spawnSync} from 'node:child_process'
import {chmodSync, closeSync, constants, lchownSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import type {Stats} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {checkOwnPath, keepPrivate, NotYoursError, openOwnFileSync, type OwnFs, ownershipHere, readOwnFile} from '../../../src/lib/own-file.js'

// Files only the user owns, as ssh trusts them. The check is a seam: the platform (what
// Node's stat tells of owners there) and the file system are handed in, so every platform's rule
// is tried here, on Linux.

type Entry = {uid: number; mode: number; kind: 'file' | 'folder' | 'link' | 'device' | 'fifo'; target?: string}

/** A file system of `entries` by path, as lstat and readlink see it. */
function fakeFs(entries: Record<string, Entry>): OwnFs {
  const all: Record<string, Entry> = {'/': {uid: 0, mode: 0o755, kind: 'folder'}, ...entries}
  return {
    lstat(path) {
      const entry = all[path]
      if (!entry) return undefined
      const type = {file: constants.S_IFREG, folder: constants.S_IFDIR, link: constants.S_IFLNK, device: constants.S_IFCHR, fifo: constants.S_IFIFO}[entry.kind]
      const is = (kind: Entry['kind']) => () => entry.kind === kind
      return {
        uid: entry.uid,
        mode: type | entry.mode,
        isSymbolicLink: is('link'),
        isDirectory: is('folder'),
        isFile: is('file'),
        isCharacterDevice: is('device'),
        isFIFO: is('fifo'),
        isBlockDevice: () => false,
        isSocket: () => false,
      } as unknown as Stats
    },
    readlink: (path) => all[path]!.target!,
  }
}

const ME = 1000
const EVE = 1001
const posix = {kind: 'posix', uid: ME} as const
const home = {'/home': {uid: 0, mode: 0o755, kind: 'folder'}, '/home/me': {uid: ME, mode: 0o700, kind: 'folder'}} as const

function refusal(path: string, entries: Record<string, Entry>, secret = false, given = false): NotYoursError | undefined {
  try {
    checkOwnPath(path, {ownership: posix, fs: fakeFs(entries), secret, given})
    return undefined
  } catch (err) {
    if (err instanceof NotYoursError) return err
    throw err
  }
}

describe('checkOwnPath on a POSIX system (owners and modes from stat)', () => {
  it("takes the user's own file, following the user's own links and root's, and names where it really is", () => {
    const fs = fakeFs({
      ...home,
      '/home/me/j': {uid: ME, mode: 0o600, kind: 'file'},
      '/home/me/link': {uid: ME, mode: 0o777, kind: 'link', target: 'j'},
      '/tmp': {uid: 0, mode: 0o1777, kind: 'folder'},
      '/tmp/root-link': {uid: 0, mode: 0o777, kind: 'link', target: '/home/me/j'},
    })
    expect(checkOwnPath('/home/me/link', {ownership: posix, fs})).toBe('/home/me/j')
    expect(checkOwnPath('/tmp/root-link', {ownership: posix, fs})).toBe('/home/me/j')
    // What is not there yet is the user's to make.
    expect(checkOwnPath('/home/me/new/journal', {ownership: posix, fs})).toBe('/home/me/new/journal')
  })

  it("refuses another user's file, naming it and its owner", () => {
    const err = refusal('/tmp/j', {'/tmp': {uid: 0, mode: 0o1777, kind: 'folder'}, '/tmp/j': {uid: EVE, mode: 0o600, kind: 'file'}})
    expect(err).toMatchObject({path: '/tmp/j', problem: 'owner'})
    expect(err!.message).toMatch(/^\/tmp\/j belongs to (\S+ \()?uid 1001\)?, not to you \((\S+ \()?uid 1000\)?\): gw uses only what is your own \(or root's\), as ssh does$/)
    expect(err!.hint).toBe('Another user may have written or read it: use another path, or remove it (rm /tmp/j) once you have checked what it holds; gw makes it afresh, private.')
  })

  it("refuses a folder on the way that another user owns (a config folder made first), or that others can write and is not sticky", () => {
    expect(refusal('/tmp/home/.config/gw/config.json', {'/tmp': {uid: 0, mode: 0o1777, kind: 'folder'}, '/tmp/home': {uid: ME, mode: 0o755, kind: 'folder'}, '/tmp/home/.config': {uid: EVE, mode: 0o755, kind: 'folder'}})).toMatchObject({
      path: '/tmp/home/.config',
      problem: 'owner',
    })
    const open = refusal('/shared/j', {'/shared': {uid: 0, mode: 0o777, kind: 'folder'}})
    expect(open).toMatchObject({path: '/shared', problem: 'writable'})
    expect(open!.message).toBe('/shared is a folder that others than you can write (mode 0777, not sticky as /tmp is): gw uses only what no one else can change, as ssh does')
    expect(refusal('/group/j', {'/group': {uid: ME, mode: 0o770, kind: 'folder'}})).toMatchObject({path: '/group', problem: 'writable'})
    expect(refusal('/tmp/j', {'/tmp': {uid: 0, mode: 0o1777, kind: 'folder'}})).toBeUndefined()
  })

  it('refuses a file others can write, and a secret others can read', () => {
    expect(refusal('/home/me/config.json', {...home, '/home/me/config.json': {uid: ME, mode: 0o666, kind: 'file'}})).toMatchObject({problem: 'writable', mode: 0o666})
    expect(refusal('/home/me/config.json', {...home, '/home/me/config.json': {uid: ME, mode: 0o644, kind: 'file'}})).toBeUndefined()
    const secret = refusal('/home/me/tokens.json', {...home, '/home/me/tokens.json': {uid: ME, mode: 0o640, kind: 'file'}}, true)
    expect(secret).toMatchObject({problem: 'readable'})
    expect(secret!.message).toBe('/home/me/tokens.json holds a secret that others than you can read (mode 0640): it may be known already')
  })

  it("says of a file the user gives gw to read (--auth-file, --merchant @FILE) that gw never makes it", () => {
    const err = refusal('/tmp/merchants.txt', {'/tmp': {uid: 0, mode: 0o1777, kind: 'folder'}, '/tmp/merchants.txt': {uid: EVE, mode: 0o644, kind: 'file'}}, true, true)
    expect(err).toMatchObject({path: '/tmp/merchants.txt', problem: 'owner'})
    expect(err!.hint).toBe('Another user may have written or read it: give a file of your own (made with umask 077), and check what this one holds before you trust it.')
  })

  it('refuses a device or a named pipe in its own words, not as a file to chmod (/dev/null is 0666 and root\'s)', () => {
    const dev = {'/dev': {uid: 0, mode: 0o755, kind: 'folder'}, '/dev/null': {uid: 0, mode: 0o666, kind: 'device'}} as const
    const device = refusal('/dev/null', dev)
    expect(device).toMatchObject({path: '/dev/null', problem: 'special'})
    expect(device!.message).toBe('/dev/null is a character device, not a regular file: gw reads and writes only regular files here')
    expect(device!.hint).toBe('Give the path of a regular file of your own (gw makes it where there is none).')
    expect(device!.hint).not.toContain('chmod')
    const fifo = refusal('/home/me/pipe', {...home, '/home/me/pipe': {uid: ME, mode: 0o600, kind: 'fifo'}}, true, true)
    expect(fifo!.message).toBe('/home/me/pipe is a named pipe (FIFO), not a regular file: gw reads only regular files here')
    expect(fifo!.hint).toBe('Give the path of a regular file of your own.')
  })

  it("never follows a link another user made, at the last step or on the way", () => {
    const tmp = {'/tmp': {uid: 0, mode: 0o1777, kind: 'folder'}} as const
    const last = refusal('/tmp/events.ndjson', {...tmp, ...home, '/tmp/events.ndjson': {uid: EVE, mode: 0o777, kind: 'link', target: '/home/me/.bashrc'}})
    expect(last).toMatchObject({path: '/tmp/events.ndjson', problem: 'link'})
    expect(last!.message).toMatch(/^\/tmp\/events\.ndjson is a symbolic link made by (\S+ \()?uid 1001\)?, not by you/)
    expect(refusal('/tmp/d/j', {...tmp, ...home, '/tmp/d': {uid: EVE, mode: 0o777, kind: 'link', target: '/home/me'}})).toMatchObject({path: '/tmp/d', problem: 'link'})
    // A link of the user's own to another user's file: the file is refused.
    expect(refusal('/home/me/j', {...tmp, ...home, '/home/me/j': {uid: ME, mode: 0o777, kind: 'link', target: '/tmp/eve'}, '/tmp/eve': {uid: EVE, mode: 0o600, kind: 'file'}})).toMatchObject({path: '/tmp/eve', problem: 'owner'})
  })
})

describe('on Windows (Node tells no owner: uid 0 and a mode from the read-only attribute)', () => {
  it('is told apart by the platform, and refuses nothing for an owner it cannot tell', () => {
    expect(ownershipHere('win32', undefined)).toEqual({kind: 'unknown'})
    expect(ownershipHere('linux', 1000)).toEqual({kind: 'posix', uid: 1000})
    expect(ownershipHere('darwin', 501)).toEqual({kind: 'posix', uid: 501})
    // What Node's stat gives for every file there: read as POSIX it would be refused; as Windows, it is not.
    const asWindowsSees = fakeFs({'C:\\Users': {uid: 0, mode: 0o777, kind: 'folder'}, 'C:\\Users\\me\\gw\\config.json': {uid: 0, mode: 0o666, kind: 'file'}})
    expect(() => checkOwnPath('C:\\Users\\me\\gw\\config.json', {ownership: {kind: 'unknown'}, fs: asWindowsSees})).not.toThrow()
    expect(() => checkOwnPath('/shared/j', {ownership: posix, fs: fakeFs({'/shared': {uid: 0, mode: 0o777, kind: 'folder'}})})).toThrow(NotYoursError)
  })
})

describe('opening what gw writes, on this machine', () => {
  const folder = () => mkdtempSync(join(tmpdir(), 'gw-own-'))

  it('makes a file afresh, 0600, and opens the user\'s own again', () => {
    const file = join(folder(), 'events.ndjson')
    const made = openOwnFileSync(file, constants.O_WRONLY | constants.O_APPEND)
    closeSync(made.fd)
    expect(made.created).toBe(true)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const again = openOwnFileSync(file, constants.O_WRONLY | constants.O_APPEND)
    closeSync(again.fd)
    expect(again.created).toBe(false)
  })

  it('reads the user\'s own file, and says there is none', () => {
    const dir = folder()
    writeFileSync(join(dir, 'a'), 'text', {mode: 0o600})
    expect(readOwnFile(join(dir, 'a'), {secret: true})).toBe('text')
    expect(readOwnFile(join(dir, 'none'))).toBeUndefined()
  })

  it('refuses a named pipe of the user\'s own, to read or to write, without waiting for its other end', () => {
    const pipe = join(folder(), 'pipe')
    expect(spawnSync('mkfifo', [pipe]).status).toBe(0)
    expect(() => openOwnFileSync(pipe, constants.O_WRONLY | constants.O_APPEND)).toThrow('is a named pipe (FIFO), not a regular file')
    expect(() => readOwnFile(pipe, {secret: true, given: true})).toThrow('is a named pipe (FIFO), not a regular file')
  })

  it("makes the user's own file or folder the user's alone, as gw makes them; another user's, and a link, it leaves", () => {
    const dir = folder()
    writeFileSync(join(dir, 'requests.ndjson'), '', {mode: 0o644})
    chmodSync(join(dir, 'requests.ndjson'), 0o644)
    chmodSync(dir, 0o755)
    keepPrivate(join(dir, 'requests.ndjson'))
    keepPrivate(dir)
    expect(statSync(join(dir, 'requests.ndjson')).mode & 0o777).toBe(0o600)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    writeFileSync(join(dir, 'theirs'), '', {mode: 0o644})
    chmodSync(join(dir, 'theirs'), 0o644)
    keepPrivate(join(dir, 'theirs'), {ownership: {kind: 'posix', uid: EVE}})
    expect(statSync(join(dir, 'theirs')).mode & 0o777).toBe(0o644)
    symlinkSync(join(dir, 'theirs'), join(dir, 'link'))
    keepPrivate(join(dir, 'link'))
    expect(statSync(join(dir, 'theirs')).mode & 0o777).toBe(0o644)
    keepPrivate(join(dir, 'none'))
    // Opened to be written, a 0644 file is made 0600 too.
    closeSync(openOwnFileSync(join(dir, 'theirs'), constants.O_WRONLY | constants.O_APPEND).fd)
    expect(statSync(join(dir, 'theirs')).mode & 0o777).toBe(0o600)
  })

  const asRoot = process.getuid?.() === 0
  it.skipIf(!asRoot)("refuses, as root, another user's file and link (uid 1001 given them with chown), and writes nothing through them", () => {
    const dir = folder()
    const target = join(dir, 'target')
    writeFileSync(target, 'mine\n', {mode: 0o600})
    symlinkSync(target, join(dir, 'planted'))
    lchownSync(join(dir, 'planted'), EVE, EVE)
    expect(() => openOwnFileSync(join(dir, 'planted'), constants.O_WRONLY | constants.O_APPEND)).toThrow(NotYoursError)
    mkdirSync(join(dir, 'sub'))
    writeFileSync(join(dir, 'sub', 'theirs'), '', {mode: 0o600})
    lchownSync(join(dir, 'sub', 'theirs'), EVE, EVE)
    expect(() => openOwnFileSync(join(dir, 'sub', 'theirs'), constants.O_RDWR)).toThrow(NotYoursError)
    expect(readFileSync(target, 'utf8')).toBe('mine\n')
  })
})
