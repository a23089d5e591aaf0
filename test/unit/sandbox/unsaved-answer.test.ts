import {describe, expect, it} from 'vitest'
import {UnsavedChangeError, unsavedAnswer} from '../../../src/sandbox/server/state-file-error.js'

const RESTART = 'This gateway answers nothing more until it is restarted; then look up what is in doubt by its reference, and send it again only if it is not found.'

// What a request whose change was not saved is told: "nothing was done" only when the file is known to hold none of it.
describe('unsavedAnswer', () => {
  it.each([
    ['known to be in no file', new UnsavedChangeError('disk I/O error', true), 'Internal sandbox error: the change could not be saved to the state file (disk I/O error); nothing was done'],
    ['that may be in the file', new UnsavedChangeError('disk I/O error', false), `Internal sandbox error: the change could not be saved to the state file (disk I/O error), and the file may hold it all the same: it may have been made. ${RESTART}`],
    ['an earlier one that may be', new UnsavedChangeError('database or disk is full', false, true), `Internal sandbox error: an earlier change could not be saved to the state file (database or disk is full), and the file may hold it all the same: nothing of this request was done. ${RESTART}`],
    ['of another kind, which says nothing of the file', Object.assign(new Error('x'), {errstr: 'disk I/O error'}), `Internal sandbox error: the change could not be saved to the state file (disk I/O error), and the file may hold it all the same: it may have been made. ${RESTART}`],
  ])('a change %s', (_, error, answer) => {
    expect(unsavedAnswer(error)).toEqual([answer])
  })

  it('is an error of its own kind, naming its reason', () => {
    const error = new UnsavedChangeError('disk I/O error', true)
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('UnsavedChangeError')
    expect(error).toMatchObject({reason: 'disk I/O error', undone: true, earlier: false})
  })
})
