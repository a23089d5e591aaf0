import {describe, expect, it} from 'vitest'
import type {Standing} from '../../../src/batch/journal-state.js'
import {RowEnds} from '../../../src/batch/run-end.js'
import {UsageError} from '../../../src/errors.js'

const ending = {stoppedBy: undefined, stoppedByError: undefined, changedLines: []}

describe('a run’s end, counted from its rows’ ends', () => {
  it('is the journal as the run found it when the run took no row', async () => {
    const ends = new RowEnds()
    await ends.settled()
    expect(ends.end({answered: 2, inDoubt: 1, notStarted: 4}, 7, ending)).toEqual({notStarted: 7, journal: {answered: 2, inDoubt: 1, notStarted: 4, failedUnsent: 0}, ...ending})
  })

  it('moves each row from where the journal had it to where it has it now, once', async () => {
    const ends = new RowEnds()
    const moves: [boolean, Standing, Standing][] = [
      [true, 'notStarted', 'answered'],
      [true, 'inDoubt', 'answered'],
      [true, 'notStarted', 'inDoubt'],
      [true, 'inDoubt', 'inDoubt'],
      [true, 'answered', 'answered'],
      // Journaled, then not sent: its intent taken back, or (the withdrawal not written) still in doubt.
      [false, 'inDoubt', 'notStarted'],
      [false, 'notStarted', 'inDoubt'],
      // Taken once the batch was stopping: not begun, left where it was.
      [false, 'notStarted', 'notStarted'],
    ]
    for (const [began, before, after] of moves) ends.add({began, before, after})
    await ends.settled()
    const stopped = {stoppedBy: 'SIGINT' as const, stoppedByError: new UsageError('no'), changedLines: [3, 5]}
    expect(ends.end({answered: 1, inDoubt: 3, notStarted: 6}, 10, stopped)).toEqual({
      notStarted: 5,
      journal: {answered: 3, inDoubt: 3, notStarted: 4, failedUnsent: 0},
      ...stopped,
    })
  })

  it('counts a row begun and still not started in the journal as failed before anything was sent', async () => {
    const ends = new RowEnds()
    ends.add({began: true, before: 'notStarted', after: 'notStarted'})
    ends.add({began: true, before: 'notStarted', after: 'notStarted'})
    ends.add({began: true, before: 'inDoubt', after: 'inDoubt'})
    await ends.settled()
    expect(ends.end({answered: 0, inDoubt: 1, notStarted: 2}, 3, ending).journal).toEqual({answered: 0, inDoubt: 1, notStarted: 2, failedUnsent: 2})
  })

  it('waits for a row whose result is still being synced, and counts it as it settles', async () => {
    const ends = new RowEnds()
    let synced!: (standing: Standing) => void
    ends.add({began: true, before: 'notStarted', after: new Promise<Standing>((resolve) => (synced = resolve))})
    let settled = false
    const waiting = ends.settled().then(() => (settled = true))
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(settled).toBe(false)
    synced('answered')
    await waiting
    expect(ends.end({answered: 0, inDoubt: 0, notStarted: 1}, 1, ending)).toMatchObject({notStarted: 0, journal: {answered: 1, inDoubt: 0, notStarted: 0, failedUnsent: 0}})
  })
})
