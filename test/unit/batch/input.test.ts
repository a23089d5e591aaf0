import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {readIds} from '../../../src/batch/input.js'
import {testIo} from '../../test-io.js'
import {UsageError} from '../../../src/errors.js'
import {expectReject} from '../../expect-error.js'

const file = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'gw-ids-')), 'ids')
  writeFileSync(path, text)
  return path
}

describe('readIds with --input', () => {
  it.each([
    ['one id a line', '071-P-A\n\n  071-P-B  \r\n', ['071-P-A', '071-P-B']],
    ['the id column of a CSV, quoted commas and all', 'Note,ID\n"a, b",071-P-A\nc,071-P-B\n', ['071-P-A', '071-P-B']],
    ['the reference column when there is no id column', 'reference,amount\nr-1,100\nr-2,200\n', ['r-1', 'r-2']],
    ['a one-column CSV headed id', 'id\n071-P-A\n', ['071-P-A']],
    ["NDJSON: id, else reference (a batch's own output)", '{"id":"071-P-A"}\n{"row":1,"reference":"r-1","record":{"id":"071-R-1"}}\n', ['071-P-A', 'r-1']],
  ])('%s', async (_, text, ids) => {
    await expect(readIds([], testIo(), 'id', file(text))).resolves.toEqual({ids, batch: true})
  })

  it('reads stdin for -, and refuses ids given both ways or a CSV without an id column', async () => {
    await expect(readIds([], testIo({stdin: 'a\nb\n'}), 'id', '-')).resolves.toEqual({ids: ['a', 'b'], batch: true})
    await expectReject(readIds(['x'], testIo(), 'id', '-'), UsageError, 'give the ids as arguments or with --input, not both')
    await expectReject(readIds([], testIo(), 'id', file('name,amount\nx,1\n')), UsageError, 'has no id or reference column')
    await expectReject(readIds([], testIo(), 'id', '/no/such/file'), UsageError, '--input /no/such/file cannot be read: no such file')
  })
})
