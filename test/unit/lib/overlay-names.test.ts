import {describe, expect, it} from 'vitest'
import {type Overlay, OverlayNameError, overlayNames, overlays, otherNames, readMountInfo} from '../../../src/lib/overlay-names.js'
import {platformOf} from '../../../src/lib/platform.js'

// A file on an overlay file system has two names the kernel's lock does not join: the overlay's and
// its upper directory's. The mount table gives each name the other.

const MOUNT_TABLE = [
  '22 27 0:21 / /proc rw,relatime - proc proc rw',
  '27 1 252:0 / / rw,relatime - ext4 /dev/vda rw',
  '44 27 0:39 / /var/lib/docker/overlay2/abc/merged rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/X:/var/lib/docker/overlay2/l/Y,upperdir=/var/lib/docker/overlay2/abc/diff,workdir=/var/lib/docker/overlay2/abc/work',
  '45 27 0:40 / /srv/my\\040data rw - overlay overlay rw,lowerdir=/lo,upperdir=/up\\040per/a\\,b,workdir=/w',
  '46 27 0:41 /sub /mnt/part rw - overlay overlay rw,lowerdir=/lo2,upperdir=/up2,workdir=/w2',
  '47 27 0:42 / /mnt/relative rw - overlay overlay rw,lowerdir=lower,upperdir=upper,workdir=work,uuid=on',
  '48 27 0:43 / /mnt/read-only rw - overlay overlay ro,lowerdir=/a:/b',
  '49 44 0:44 / /var/lib/docker/overlay2/abc/merged/inner rw - overlay overlay rw,lowerdir=/l3,upperdir=/u3,workdir=/w3',
  '',
].join('\n')

const all = overlays(MOUNT_TABLE)
const everywhere = () => true
const nowhere = () => false

describe('overlays: the overlay mounts of the mount table', () => {
  it('reads each overlay line: where it is mounted, what part of it, and its upper directory (escapes read back, an escaped comma kept); nothing else', () => {
    expect(all).toEqual<Overlay[]>([
      {mountPoint: '/var/lib/docker/overlay2/abc/merged', root: '/', upperDir: '/var/lib/docker/overlay2/abc/diff'},
      {mountPoint: '/srv/my data', root: '/', upperDir: '/up per/a,b'},
      {mountPoint: '/mnt/part', root: '/sub', upperDir: '/up2'},
      {mountPoint: '/mnt/relative', root: '/', upperDir: 'upper'},
      {mountPoint: '/mnt/read-only', root: '/'},
      {mountPoint: '/var/lib/docker/overlay2/abc/merged/inner', root: '/', upperDir: '/u3'},
    ])
  })

  it('is none where there is no mount table', () => {
    expect(overlays(undefined)).toEqual([])
    expect(overlays('27 1 252:0 / / rw - ext4 /dev/vda rw\nnot a line')).toEqual([])
  })

  it('passes over a line cut short before its six first fields, and takes one with optional fields or no options', () => {
    expect(overlays('- overlay overlay rw,upperdir=/u\n1 2 0:3 / /m - overlay overlay rw,upperdir=/u')).toEqual([])
    expect(overlays('50 27 0:45 / /m rw shared:7 master:1 - overlay overlay rw,upperdir=/u,lowerdir=/l')).toEqual([{mountPoint: '/m', root: '/', upperDir: '/u'}])
    expect(overlays('51 27 0:46 / /m rw - overlay overlay')).toEqual([{mountPoint: '/m', root: '/'}])
  })

  it('reads the mount table on Linux only, whatever /proc another system sees (wine maps the Linux host’s)', () => {
    const reading = (os: NodeJS.Platform) => platformOf(os, {readFile: (path) => (path === '/proc/self/mountinfo' ? MOUNT_TABLE : undefined), ownerOf: () => undefined, run: () => undefined, probe: () => {}, uid: () => 0})
    expect(readMountInfo(reading('linux'))).toBe(MOUNT_TABLE)
    expect(readMountInfo(reading('darwin'))).toBeUndefined()
    expect(readMountInfo(reading('win32'))).toBeUndefined()
    if (process.platform === 'linux') expect(readMountInfo()).toMatch(/ - /)
  })
})

describe('overlayNames: a file’s other name', () => {
  it('on an overlay: its name in the upper directory, where it can be reached; the innermost overlay decides', () => {
    expect(overlayNames('/var/lib/docker/overlay2/abc/merged/root/j.sqlite', all, everywhere)).toEqual({merged: true, upperDir: '/var/lib/docker/overlay2/abc/diff', other: '/var/lib/docker/overlay2/abc/diff/root/j.sqlite'})
    expect(overlayNames('/var/lib/docker/overlay2/abc/merged/root/j.sqlite', all, nowhere)).toEqual({merged: true, upperDir: '/var/lib/docker/overlay2/abc/diff'})
    expect(overlayNames('/var/lib/docker/overlay2/abc/merged/inner/j', all, everywhere)).toEqual({merged: true, upperDir: '/u3', other: '/u3/j'})
    expect(overlayNames('/srv/my data/j', all, everywhere)).toEqual({merged: true, upperDir: '/up per/a,b', other: '/up per/a,b/j'})
    // A part of an overlay mounted elsewhere: its folder in the upper directory.
    expect(overlayNames('/mnt/part/x/j', all, everywhere)).toEqual({merged: true, upperDir: '/up2', other: '/up2/sub/x/j'})
  })

  it('on an overlay whose upper directory the mount table names relatively, or not at all: no other name to give, none looked for', () => {
    expect(overlayNames('/mnt/relative/j', all, everywhere)).toEqual({merged: true, upperDir: 'upper'})
    expect(overlayNames('/mnt/read-only/j', all, everywhere)).toEqual({merged: true})
    const asked: string[] = []
    expect(overlayNames('/mnt/relative/j', all, (path) => asked.push(path) > 0)).toEqual({merged: true, upperDir: 'upper'})
    expect(asked).toEqual([])
  })

  it('in an overlay’s upper directory: its name through the overlay, where it can be reached', () => {
    expect(overlayNames('/var/lib/docker/overlay2/abc/diff/root/j.sqlite', all, everywhere)).toEqual({merged: false, upperDir: '/var/lib/docker/overlay2/abc/diff', other: '/var/lib/docker/overlay2/abc/merged/root/j.sqlite'})
    expect(overlayNames('/var/lib/docker/overlay2/abc/diff/root/j.sqlite', all, nowhere)).toEqual({merged: false, upperDir: '/var/lib/docker/overlay2/abc/diff'})
    expect(overlayNames('/up2/sub/x/j', all, everywhere)).toEqual({merged: false, upperDir: '/up2', other: '/mnt/part/x/j'})
    // Beside the part mounted, not in it.
    expect(overlayNames('/up2/other/j', all, everywhere)).toBeUndefined()
  })

  it('anywhere else: none, whole names only', () => {
    expect(overlayNames('/home/jane/j.sqlite', all, everywhere)).toBeUndefined()
    expect(overlayNames('/var/lib/docker/overlay2/abc/mergedness/j', all, everywhere)).toBeUndefined()
    expect(overlayNames('/upper/j', all, everywhere)).toBeUndefined()
    expect(overlayNames('/var/lib/docker/overlay2/abc', all, everywhere)).toBeUndefined()
    expect(overlayNames('/home/jane/j.sqlite', [], everywhere)).toBeUndefined()
  })

  it('checks that a name can be reached as a file', () => {
    const asked: string[] = []
    overlayNames('/up2/sub/j', all, (path) => asked.push(path) > 0)
    expect(asked).toEqual(['/mnt/part/j'])
    expect(overlayNames('/up2/sub/j', all)).toEqual({merged: false, upperDir: '/up2'})
  })
})

describe('otherNames: the locks of a file’s other name, the upper directory’s first', () => {
  /** A lock function that records what it locks and releases. */
  const locker = () => {
    const events: string[] = []
    return {events, lock: (name: string) => (events.push(`lock ${name}`), {close: () => void events.push(`release ${name}`)})}
  }

  it('on the overlay: the upper name is locked before the file’s own (before), and released with it', () => {
    const {events, lock} = locker()
    const names = otherNames('/m/j', lock, {merged: true, upperDir: '/up', other: '/up/j'})
    names.before()
    expect(events).toEqual(['lock /up/j'])
    names.after()
    names.release()
    expect(events).toEqual(['lock /up/j', 'release /up/j'])
  })

  it('in the upper directory: the overlay’s name is locked after the file’s own (after)', () => {
    const {events, lock} = locker()
    const names = otherNames('/up/j', lock, {merged: false, upperDir: '/up', other: '/m/j'})
    names.before()
    expect(events).toEqual([])
    names.after()
    names.release()
    expect(events).toEqual(['lock /m/j', 'release /m/j'])
  })

  it('no other name (none, or one out of reach): nothing locked, nothing to release', () => {
    const {events, lock} = locker()
    for (const names of [undefined, {merged: true, upperDir: '/up'}, {merged: false, upperDir: '/up'}]) {
      const held = otherNames('/x/j', lock, names)
      held.before()
      held.after()
      held.release()
    }
    expect(events).toEqual([])
  })

  it('refuses a file on an overlay whose upper directory the mount table names relatively or not at all, saying why', () => {
    const {events, lock} = locker()
    const relative = expectOverlayError(() => otherNames('/m/j', lock, {merged: true, upperDir: 'upper'}))
    expect(relative).toMatchObject({path: '/m/j', reason: 'the mount table names its upper directory only as it was given (upper)'})
    expect(relative.message).toBe("/m/j is on an overlay file system, and the mount table names its upper directory only as it was given (upper): a gw reaching the file there would not meet this one's lock")
    expect(expectOverlayError(() => otherNames('/m/j', lock, {merged: true}))).toMatchObject({reason: 'the mount table names no upper directory of it'})
    expect(events).toEqual([])
  })
})

function expectOverlayError(fn: () => unknown): OverlayNameError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(OverlayNameError)
    return err as OverlayNameError
  }
  return expect.fail('expected an OverlayNameError')
}
