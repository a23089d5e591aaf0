import {dirname, join} from 'node:path'
import {describe, expect, it, vi} from 'vitest'
import {Journal} from '../../../src/batch/journal.js'
import {folder} from '../lib/folders.js'

// A journal's name must survive a crash as its entries do: the folder a journal is made in is
// synced once the name is there.
const synced = vi.hoisted(() => [] as string[])
vi.mock('../../../src/lib/sync-directory.js', () => ({syncDirectory: (directory: string) => synced.push(directory)}))

const open = (file: string) => Journal.open(file, {command: 'refund create', input: {sha256: 'a'.repeat(64)}, now: new Date('2026-11-22T10:00:00Z'), target: {base_url: 'http://127.0.0.1:8787', username: 'TEST'}})

describe("a journal's folder, synced", () => {
  it('once a new journal is made in it, and not when one is opened again', async () => {
    const file = join(folder(), 'j')
    synced.length = 0
    await (await open(file)).close()
    expect(synced).toEqual([dirname(file)])
    await (await open(file)).close()
    expect(synced).toEqual([dirname(file)])
  })
})
