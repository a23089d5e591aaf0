import {linkSync, mkdirSync, realpathSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it, vi} from 'vitest'
import {absolutePath, fileIdentity, realPath} from '../../../src/lib/file-identity.js'
import {caught, folder} from './folders.js'

describe('realPath: where a path really leads', () => {
  it('is the file itself for a plain file, and the file a symlink leads to, through relative links and linked folders', () => {
    const dir = folder()
    writeFileSync(join(dir, 'state.json'), '')
    mkdirSync(join(dir, 'real'))
    writeFileSync(join(dir, 'real', 'j.ndjson'), '')
    symlinkSync('state.json', join(dir, 'link.json'))
    symlinkSync('link.json', join(dir, 'link-to-link.json'))
    symlinkSync(join(dir, 'real'), join(dir, 'linked'))
    expect(realPath(join(dir, 'state.json'))).toBe(join(dir, 'state.json'))
    expect(realPath(join(dir, 'link.json'))).toBe(join(dir, 'state.json'))
    expect(realPath(join(dir, 'link-to-link.json'))).toBe(join(dir, 'state.json'))
    expect(realPath(join(dir, 'linked', 'j.ndjson'))).toBe(join(dir, 'real', 'j.ndjson'))
  })

  it('names a file not made yet in its folder, the folder resolved, and follows a dangling symlink to where it points', () => {
    const dir = folder()
    mkdirSync(join(dir, 'real'))
    symlinkSync(join(dir, 'real'), join(dir, 'linked'))
    symlinkSync(join('real', 'later.json'), join(dir, 'dangling.json'))
    symlinkSync('dangling.json', join(dir, 'to-dangling.json'))
    expect(realPath(join(dir, 'linked', 'new.ndjson'))).toBe(join(dir, 'real', 'new.ndjson'))
    expect(realPath(join(dir, 'linked', 'not', 'yet', 'made.ndjson'))).toBe(join(dir, 'real', 'not', 'yet', 'made.ndjson'))
    expect(realPath(join(dir, 'dangling.json'))).toBe(join(dir, 'real', 'later.json'))
    expect(realPath(join(dir, 'to-dangling.json'))).toBe(join(dir, 'real', 'later.json'))
  })

  it('takes a relative path from the working folder', () => {
    expect(realPath('no-such-file.json')).toBe(join(realpathSync(process.cwd()), 'no-such-file.json'))
  })

  it('follows a chain of 40 dangling links to where it ends; past 40, or a link to itself, is the kernel\'s ELOOP', () => {
    const dir = folder()
    const chain = (name: string, links: number) => {
      for (let i = 0; i < links; i++) symlinkSync(`${name}-${i + 1}`, join(dir, `${name}-${i}`))
      return join(dir, `${name}-0`)
    }
    expect(realPath(chain('forty', 40))).toBe(join(dir, 'forty-40'))
    expect(caught(() => realPath(chain('forty-one', 41)))).toMatchObject({code: 'ELOOP', syscall: 'realpath'})
    symlinkSync('self.json', join(dir, 'self.json'))
    expect(caught(() => realPath(join(dir, 'self.json')))).toMatchObject({code: 'ELOOP', syscall: 'realpath'})
  })

  it("resolves `..` as the kernel does, after the symlink before it: sub/../j with sub a link leads out of where sub points", () => {
    const dir = folder()
    mkdirSync(join(dir, 'real', 'deep'), {recursive: true})
    symlinkSync(join(dir, 'real', 'deep'), join(dir, 'sub'))
    writeFileSync(join(dir, 'real', 'there.ndjson'), '')
    // Made or not, the file is in real/, never in dir/ (where `..` read as text would put it).
    expect(realPath(`${dir}/sub/../there.ndjson`)).toBe(join(dir, 'real', 'there.ndjson'))
    expect(realPath(`${dir}/sub/../new.ndjson`)).toBe(join(dir, 'real', 'new.ndjson'))
    // A relative path too (from the working folder; worker threads cannot change it): test/e2e/identity.test.ts's --journal sub/../j.ndjson.
  })

  it("throws the kernel's own ELOOP for links that lead to each other", () => {
    const dir = folder()
    symlinkSync('b', join(dir, 'a'))
    symlinkSync('a', join(dir, 'b'))
    expect(caught(() => realPath(join(dir, 'a')))).toMatchObject({code: 'ELOOP', syscall: 'realpath'})
  })

  it('throws what else stops it, such as a file where a folder should be (ENOTDIR)', () => {
    const dir = folder()
    writeFileSync(join(dir, 'file'), '')
    expect(caught(() => realPath(join(dir, 'file', 'j.ndjson')))).toMatchObject({code: 'ENOTDIR'})
  })
})

describe('absolutePath: the folder resolved, the name kept', () => {
  it('resolves the folder as the kernel does (`..` after a symlinked folder from its target), keeps a symlink’s own name, and takes a relative path from the working folder', () => {
    const dir = folder()
    mkdirSync(join(dir, 'far', 'deep'), {recursive: true})
    symlinkSync(join(dir, 'far', 'deep'), join(dir, 'sub'))
    symlinkSync(join(dir, 'far', 'target.json'), join(dir, 'far', 'link.json'))
    // Spelled out, not joined: join takes `..` as text.
    expect(absolutePath(`${dir}/sub/../state.json`)).toBe(join(dir, 'far', 'state.json'))
    expect(absolutePath(`${dir}/sub/../link.json`)).toBe(join(dir, 'far', 'link.json'))
    expect(absolutePath(`${dir}/sub/inner.json`)).toBe(join(dir, 'far', 'deep', 'inner.json'))
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue(dir)
    try {
      expect(absolutePath('sub/../state.json')).toBe(join(dir, 'far', 'state.json'))
      // A folder that cannot be resolved: the path as given, for its first use to fail on and say why.
      writeFileSync(join(dir, 'file'), '')
      expect(absolutePath('file/../state.json')).toBe(`${dir}/file/../state.json`)
      expect(absolutePath(`${dir}/file/state.json`)).toBe(`${dir}/file/state.json`)
    } finally {
      cwd.mockRestore()
    }
  })
})

describe('fileIdentity: a file by its real path, device and inode, and names', () => {
  it('has no device and inode, and no names, before the file exists', () => {
    const dir = folder()
    expect(fileIdentity(join(dir, 'new.json'))).toStrictEqual({path: join(dir, 'new.json'), links: 0})
  })

  it('is the same through a symlink, and counts the names a hard link adds', () => {
    const dir = folder()
    const file = join(dir, 'state.json')
    writeFileSync(file, '{}')
    symlinkSync(file, join(dir, 'link.json'))
    const {dev, ino} = statSync(file)
    expect(fileIdentity(file)).toEqual({path: file, id: `${dev}:${ino}`, links: 1})
    expect(fileIdentity(join(dir, 'link.json'))).toEqual({path: file, id: `${dev}:${ino}`, links: 1})
    linkSync(file, join(dir, 'hard.json'))
    expect(fileIdentity(join(dir, 'hard.json'))).toEqual({path: join(dir, 'hard.json'), id: `${dev}:${ino}`, links: 2})
  })

  it('counts a folder as one name: its entries . and .. are no other names of it', () => {
    const dir = folder()
    mkdirSync(join(dir, 'sub', 'deeper'), {recursive: true})
    expect(fileIdentity(join(dir, 'sub'))).toMatchObject({path: join(dir, 'sub'), links: 1})
  })

  it('throws what is not "no such file"', () => {
    const dir = folder()
    writeFileSync(join(dir, 'file'), '')
    expect(caught(() => fileIdentity(join(dir, 'file', 'x')))).toMatchObject({code: 'ENOTDIR'})
  })
})
