import {describe, expect, it} from 'vitest'
import {DisposerStack} from '../../../src/sandbox/server/disposer-stack.js'

describe('DisposerStack', () => {
  it('releases the latest opened first, and one deferred to the last after all, however late it came', async () => {
    const released: string[] = []
    const reported: unknown[] = []
    const stack = new DisposerStack((error) => reported.push(error))
    stack.defer(() => void released.push('lock'))
    stack.defer(async () => {
      await null
      released.push('journal')
    })
    stack.defer(() => void released.push('socket'))
    stack.deferLast(() => void released.push('runtime file'))
    await stack.unwind()
    expect(released).toStrictEqual(['socket', 'journal', 'lock', 'runtime file'])
    expect(reported).toStrictEqual([])
  })

  it('unwinds once: a second unwind, during the first or after it, gets the same promise and runs nothing again', async () => {
    let runs = 0
    const stack = new DisposerStack(() => {})
    stack.defer(async () => {
      await null
      runs++
    })
    const first = stack.unwind()
    expect(stack.unwind()).toBe(first)
    await first
    await stack.unwind()
    expect(runs).toBe(1)
  })

  it('runs every release when some fail, rejects with the first failure and reports the others', async () => {
    const released: string[] = []
    const reported: unknown[] = []
    const stack = new DisposerStack((error) => reported.push(error))
    stack.defer(() => void released.push('lock'))
    stack.defer(() => {
      throw new Error('request log')
    })
    stack.defer(async () => {
      await null
      throw new Error('journal')
    })
    stack.defer(() => void released.push('socket'))
    await expect(stack.unwind()).rejects.toThrow('journal')
    expect(released).toStrictEqual(['socket', 'lock'])
    expect(reported).toStrictEqual([new Error('request log')])
  })
})
