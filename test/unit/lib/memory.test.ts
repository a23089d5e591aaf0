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
