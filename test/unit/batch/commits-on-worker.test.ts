import {describe, expect, it} from 'vitest'
import {commitsOnWorker} from '../../../src/batch/run-batch.js'

// batch-faults' strace sweeps count on 3 rows at --concurrency 2 committing on the worker.
describe('the thread a batch holds its journal on', () => {
  it.for([
    [1, 4, false],
    [4, 4, false],
    [5, 4, true],
    [2, 2, false],
    [3, 2, true],
    [200, 8, true],
  ] as const)('%i rows at --concurrency %i: on a worker %s', ([rows, concurrency, onWorker]) => {
    expect(commitsOnWorker(rows, concurrency)).toBe(onWorker)
  })
})
