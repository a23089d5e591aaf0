import {readdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it, vi} from 'vitest'
import {takeLockFile} from '../../../src/lib/lock-file.js'
import {caught, folder} from './folders.js'

// A file system without hard links (FAT, some network ones): link(2) fails there with EPERM.
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  const refused = () => {
    throw Object.assign(new Error('EPERM: operation not permitted, link'), {code: 'EPERM'})
  }
  return {...fs, linkSync: refused}
})

describe('lock files where there are no hard links', () => {
  it('say why no lock could be had (the error of link(2)), not that another holds it, and leave nothing behind', () => {
    const dir = folder()
    expect(caught(() => takeLockFile(join(dir, 'j.lock')))).toMatchObject({code: 'EPERM'})
    expect(readdirSync(dir)).toEqual([])
  })
})
