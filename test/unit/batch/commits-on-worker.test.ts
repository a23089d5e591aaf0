import {describe, expect, it} from 'vitest'
import {journalThreadFor} from '../../../src/batch/run-batch.js'

// batch-faults' strace sweeps count on 3 rows at --concurrency 2 committing on the worker.
describe('the thread a batch holds its journal on', () => {
  it.for([
    [1, 4, 'this'],
    [4, 4, 'this'],
    [5, 4, undefined],
    [2, 2, 'this'],
    [3, 2, undefined],
    [200, 8, undefined],
  ] as const)('%i rows at --concurrency %i: %s', ([rows, concurrency, thread]) => {
    expect(journalThreadFor(rows, concurrency)).toBe(thread)
  })
})
