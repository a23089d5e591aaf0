import {describe, expect, it} from 'vitest'
import {inOrder} from '../../../src/batch/in-order.js'

describe('inOrder', () => {
  it('emits in the order given though later items finish first, never more than `concurrency` at work', async () => {
    const emitted: string[] = []
    let working = 0
    let most = 0
    await inOrder([30, 5, 10, 1, 20], 2, async (ms) => {
      working++
      most = Math.max(most, working)
      await new Promise((resolve) => setTimeout(resolve, ms))
      working--
      if (ms === 10) throw new Error('ten')
      return ms * 2
    }, (ms, outcome) => void emitted.push(outcome.ok ? `${ms}=${outcome.value}` : `${ms}!${(outcome.error as Error).message}`))
    expect(emitted).toEqual(['30=60', '5=10', '10!ten', '1=2', '20=40'])
    expect(most).toBe(2)
  })

  it('stops when emit throws, and throws that', async () => {
    const worked: number[] = []
    const run = inOrder([1, 2, 3, 4, 5, 6], 1, async (n) => (worked.push(n), n), (n) => {
      if (n === 2) throw new Error('stop')
    })
    await expect(run).rejects.toThrow('stop')
    expect(worked).toEqual([1, 2])
  })
})
