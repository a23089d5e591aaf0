import {spawnSync} from 'node:child_process'
import {join} from 'node:path'
import {runInNewContext} from 'node:vm'
import {describe, expect, it} from 'vitest'
import {walkCollector} from '../../../src/lib/memory.js'

const MiB = 1024 * 1024

/** The collections a walk asks for, given its heap after each page. */
function collectionsAfter(heap: number[]): number[] {
  const pages = [...heap]
  const asked: number[] = []
  let page = 0
  const pagePrinted = walkCollector({heapUsed: () => pages[page]!, collect: () => asked.push(page)})
  for (; page < pages.length; page++) pagePrinted()
  return asked
}

describe("a walk's collections", () => {
  it('none while its heap stays within 16 MiB of the least it was', () => {
    expect(collectionsAfter([20, 30, 25, 35.9, 30, 21, 35.9].map((n) => n * MiB))).toEqual([])
  })

  it('one each time it grows 16 MiB past its least since the last, counted from the page after it', () => {
    // 20 → 36: collected; then measured from 30 (the heap as the collection runs), its least 22 → 38: collected; from 39 → 60.
    expect(collectionsAfter([20, 28, 36, 30, 22, 37.9, 38, 39, 60].map((n) => n * MiB))).toEqual([2, 6, 8])
  })

  it('a heap that only grows is collected every 16 MiB', () => {
    expect(collectionsAfter(Array.from({length: 10}, (_, page) => (20 + page * 8) * MiB))).toEqual([2, 5, 8])
  })

  it("counts what the heap's objects hold outside it: Buffers (a page's chunks, what stdout was given)", () => {
    const asked: number[] = []
    const pagePrinted = walkCollector({collect: () => asked.push(1)})
    pagePrinted()
    const held = Buffer.alloc(48 * MiB)
    pagePrinted()
    expect(held.length).toBe(48 * MiB)
    expect(asked).toEqual([1])
  })
})

describe('the collection itself', () => {
  it("is a full one V8 runs, sync or begun at once, with V8's flags left as they were", async () => {
    const {collectGarbage} = await import('../../../src/lib/memory.js')
    expect(() => collectGarbage()).not.toThrow()
    expect(() => collectGarbage('async')).not.toThrow()
    // --expose-gc set back: a code cache written after it is taken by the next start.
    expect(runInNewContext('typeof gc')).toBe('undefined')
  })
})

describe('pauseOptimising', () => {
  it("turns V8's optimising compiler off, and resume sets V8's flags back as they were: a code cache is refused while paused, taken after", () => {
    const node = (script: string, env: Record<string, string> = {}) => spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {encoding: 'utf8', env: {...process.env, ...env}})
    // Written by another process, under V8's flags as a start has them (bin/start.js writes gw's so).
    const cache = node("process.stdout.write(new (require('node:vm').Script)('(() => 1)()').createCachedData().toString('base64'))").stdout
    const memory = JSON.stringify(join(import.meta.dirname, '..', '..', '..', 'src', 'lib', 'memory.ts'))
    const result = node(
      `const taken = () => (new (require('node:vm').Script)('(() => 1)()', {cachedData: Buffer.from(process.env.CACHE, 'base64')}).cachedDataRejected ? 'refused' : 'taken')
      import(${memory}).then(({pauseOptimising}) => {
        const optimising = pauseOptimising()
        const paused = taken()
        optimising.resume()
        optimising.resume()
        process.stdout.write(paused + ' ' + taken())
      })`,
      {CACHE: cache},
    )
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe('refused taken')
  })
})
