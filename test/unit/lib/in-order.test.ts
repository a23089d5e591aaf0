import {describe, expect, it} from 'vitest'
import {inOrder} from '../../../src/lib/in-order.js'
import {expectReject} from '../../expect-error.js'

const collect = async <T>(results: AsyncIterable<T>) => {
  const all: T[] = []
  for await (const result of results) all.push(result)
  return all
}

describe('inOrder', () => {
  it('hands results over in the order given though later items finish first, never more than `ahead` at work', async () => {
    let working = 0
    let most = 0
    const results = inOrder([30, 5, 10, 1, 20][Symbol.iterator](), 2, async (ms) => {
      working++
      most = Math.max(most, working)
      await new Promise((resolve) => setTimeout(resolve, ms))
      working--
      return ms * 2
    })
    expect(await collect(results)).toEqual([60, 10, 20, 2, 40])
    expect(most).toBe(2)
  })

  it('throws a failure in its place, after everything before it; what is past it is not started', async () => {
    const worked: number[] = []
    const seen: number[] = []
    const results = inOrder([1, 2, 3, 4, 5, 6][Symbol.iterator](), 2, async (n) => {
      worked.push(n)
      if (n === 3) throw new Error('three')
      return n
    })
    await expectReject(
      (async () => {
        for await (const n of results) seen.push(n)
      })(),
      Error,
      'three',
    )
    expect(seen).toEqual([1, 2])
    expect(worked).toEqual([1, 2, 3, 4])
  })

  it('reads its items only as far as it works: an endless sequence is fine', async () => {
    function* naturals() {
      for (let n = 1; ; n++) yield n
    }
    const seen: number[] = []
    for await (const n of inOrder(naturals(), 3, async (n) => n)) {
      seen.push(n)
      if (n === 5) break
    }
    expect(seen).toEqual([1, 2, 3, 4, 5])
  })
})
