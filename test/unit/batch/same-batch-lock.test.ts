import {mkdtempSync, realpathSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it, vi} from 'vitest'
import {lockSameBatch} from '../../../src/batch/journal-identity.js'
import {UsageError} from '../../../src/errors.js'
import {expectThrow} from '../../expect-error.js'

// The same-batch lock held by a process the system names no pid of (one in another container, an
// OFD lock): its refusal is injected, since no process of this test can hold a lock so.
vi.mock('../../../src/lib/locked-database.js', async (original) => {
  const module = await original<typeof import('../../../src/lib/locked-database.js')>()
  return {
    ...module,
    openLockedDatabase: (path: string) => {
      throw new module.DatabaseLockedError(path, undefined)
    },
  }
})

describe('lockSameBatch, held where the system names no holder', () => {
  it('refuses naming no pid, and what to do (exit 2)', () => {
    const data = realpathSync(mkdtempSync(join(tmpdir(), 'gw-same-batch-')))
    const error = expectThrow(() => lockSameBatch(data, 'refund create', 'a'.repeat(64), {base_url: 'http://localhost:4010', username: 'TEST'}), UsageError, 'Another gw is starting')
    expect(error).toMatchObject({
      exitCode: 2,
      message: 'Another gw is starting this batch (the same rows, for the same gateway and merchant): nothing was sent',
      hint: "Wait for it to finish, then run this again: it finds that batch's journal and sends only what is left.",
    })
  })
})
