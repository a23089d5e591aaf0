import {mkdtempSync, mkdirSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {GwError, UsageError} from '../../../src/errors.js'
import {asGwError} from '../../../src/lib/as-gw-error.js'
import {NotYoursError} from '../../../src/lib/not-yours.js'

/** The error node:fs throws for `act`. */
function thrownBy(act: () => void): unknown {
  try {
    act()
  } catch (err) {
    return err
  }
  throw new Error('nothing was thrown')
}

describe('asGwError: a file the machine would not let gw make, read or write', () => {
  const folder = mkdtempSync(join(tmpdir(), 'gw-errors-unit-'))
  const file = join(folder, 'a-file')
  writeFileSync(file, '')

  it('names the path and what stood in the way, exit 1, and where gw says its folders are set', () => {
    const error = asGwError(thrownBy(() => mkdirSync(join(file, 'gw', 'journals'), {recursive: true})))
    expect({kind: error.kind, exitCode: error.exitCode, message: error.message}).toEqual({
      kind: 'io',
      exitCode: 1,
      message: `gw could not make the folder ${join(file, 'gw', 'journals')}: part of that path is a file, not a folder (ENOTDIR)`,
    })
    expect(error.hint).toBe("Where it is one of gw's folders, gw help environment says which variable sets it. Point that at a folder of yours, or give a flag that takes the file (--journal) a path of yours.")
  })

  it('words each code it knows, and a system call it has no words for by its name', () => {
    const trouble = (code: string, syscall?: string) => asGwError(Object.assign(new Error(`${code}: ${syscall}`), {code, syscall, path: '/data/gw'})).message
    expect(trouble('EROFS', 'open')).toBe('gw could not open /data/gw: the file system is read-only (EROFS)')
    expect(trouble('ENOSPC', 'write')).toBe('gw could not write /data/gw: the disk is full (ENOSPC)')
    expect(trouble('EACCES', 'rename')).toBe('gw could not rename /data/gw: permission denied (EACCES)')
    expect(trouble('EPERM', 'chmod')).toBe('gw could not chmod /data/gw: not permitted (EPERM)')
    expect(trouble('EISDIR', 'unlink')).toBe('gw could not remove /data/gw: it is a folder, not a file (EISDIR)')
    expect(trouble('EDQUOT', 'scandir')).toBe('gw could not read the folder /data/gw: the disk quota is used up (EDQUOT)')
    expect(trouble('ENAMETOOLONG', 'rmdir')).toBe('gw could not remove the folder /data/gw: the path is too long (ENAMETOOLONG)')
    expect(trouble('ELOOP', 'copyfile')).toBe('gw could not copy /data/gw: the path has too many symbolic links, or a loop of them (ELOOP)')
    expect(trouble('ENOTDIR')).toBe('gw could not use /data/gw: part of that path is a file, not a folder (ENOTDIR)')
  })

  it("passes gw's own errors on: a usage error with no card number in its words, another user's file as usage, a GwError as it is", () => {
    const usage = asGwError(new UsageError('--amount must be a whole number, got 4242424242424242', 'Give cents.'))
    expect({kind: usage.kind, exitCode: usage.exitCode, message: usage.message, hint: usage.hint}).toEqual({kind: 'usage', exitCode: 2, message: '--amount must be a whole number, got 424242XXXXXX4242', hint: 'Give cents.'})
    const notYours = asGwError(new NotYoursError('/data/gw', 'owner', '/data/gw is not yours', 'Make it yours.', 0o700))
    expect({kind: notYours.kind, exitCode: notYours.exitCode, message: notYours.message, hint: notYours.hint}).toEqual({kind: 'usage', exitCode: 2, message: '/data/gw is not yours', hint: 'Make it yours.'})
    const own = new GwError('rejected', 7, 'refused')
    expect(asGwError(own)).toBe(own)
  })

  it('leaves anything else a bug: a code it has no words for, or no path', () => {
    const gone = asGwError(Object.assign(new Error('ENOENT: gone'), {code: 'ENOENT', syscall: 'open', path: '/data/gw'}))
    expect({kind: gone.kind, exitCode: gone.exitCode, message: gone.message, hint: gone.hint}).toEqual({kind: 'unexpected', exitCode: 1, message: 'Unexpected failure: ENOENT: gone', hint: 'Run again with --verbose for details.'})
    expect(asGwError(Object.assign(new Error('EACCES: somewhere'), {code: 'EACCES'})).message).toBe('Unexpected failure: EACCES: somewhere')
    expect(asGwError({code: 'EACCES', path: '/data/gw'}).kind).toBe('unexpected')
  })
})
