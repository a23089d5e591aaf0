import {mkdtempSync, realpathSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

// What the tests of file identities and locks share.

/** A folder of its own, by its real path (the temporary folder may itself be reached through a symlink). */
export const folder = () => realpathSync(mkdtempSync(join(tmpdir(), 'gw-lock-')))

/** What `fn` throws; a test fails when it throws nothing. */
export const caught = (fn: () => unknown): unknown => {
  try {
    fn()
  } catch (err) {
    return err
  }
  throw new Error('did not throw')
}
