import {describe, expect, it} from 'vitest'
import {until} from '../../until.js'

describe('until (test/until.ts)', () => {
  it('resolves with the first value found, taking undefined and false for nothing yet', async () => {
    const seen: unknown[] = [undefined, false, 0, 'later']
    let polls = 0
    expect(await until('a value', () => seen[polls++], 1000, 1)).toBe(0)
    expect(polls).toBe(3)
  })

  it('waits for an asynchronous check', async () => {
    let polls = 0
    expect(await until('the third poll', async () => (++polls === 3 ? 'found' : undefined), 1000, 1)).toBe('found')
  })

  it('fails past its bound, naming the event, with the state the function of it reads then', async () => {
    let state = 'empty'
    const waiting = until(() => `a full box; it holds ${state}`, () => ((state = 'still empty'), false), 0, 1)
    await expect(waiting).rejects.toThrow(/^timed out waiting for a full box; it holds still empty$/)
    await expect(until('a miracle', () => undefined, 0, 1)).rejects.toThrow(/^timed out waiting for a miracle$/)
  })
})
