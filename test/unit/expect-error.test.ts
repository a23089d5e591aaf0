import {describe, expect, it} from 'vitest'
import {UsageError} from '../../src/errors.js'
import {expectReject, expectThrow} from '../expect-error.js'

// The helper that replaces toThrow('msg'), which passes when undefined is thrown (vitest#7260).
describe('expectThrow and expectReject', () => {
  it('hand back the error when its class and message are the ones named', async () => {
    const error = new UsageError('--amount must be a positive whole number')
    expect(expectThrow(() => {
      throw error
    }, UsageError, 'positive whole')).toBe(error)
    expect(await expectReject(Promise.reject(error), UsageError, /^--amount must/)).toBe(error)
  })

  it.each([
    ['undefined thrown', undefined],
    ['another class', new Error('--amount must be a positive whole number')],
    ['another message', new UsageError('--reference must not be blank')],
  ])('fail on %s', async (_, thrown) => {
    expect(() => expectThrow(() => {
      throw thrown
    }, UsageError, '--amount')).toThrow(Error)
    await expect(expectReject(Promise.reject(thrown), UsageError, '--amount')).rejects.toThrow(Error)
  })

  it('fail when nothing is thrown', async () => {
    expect(() => expectThrow(() => 1, UsageError, 'x')).toThrow(Error)
    await expect(expectReject(Promise.resolve(1), UsageError, 'x')).rejects.toThrow(Error)
  })
})
