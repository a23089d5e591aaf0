import {mkdtempSync, readFileSync, writeFileSync, appendFileSync, existsSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {defaultJournalPath, inputHash, Journal} from '../../../src/batch/journal.js'

const now = new Date('2026-11-22T10:00:00Z')
const path = () => join(mkdtempSync(join(tmpdir(), 'gw-journal-')), 'j.ndjson')
const open = (file: string, hash = 'a'.repeat(64), command = 'refund create') => Journal.open(file, {command, hash, now})

describe('Journal', () => {
  it('writes a header, then intents and results a line each; a new run reads them back', async () => {
    const file = path()
    const journal = await open(file)
    expect(journal.resumed).toBe(false)
    await Promise.all([
      journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}}),
      journal.intent({intent: 'r-2', row: 2, line: 3, request: {amount: 200}}),
    ])
    await journal.result({result: 'r-1', status: 'approved', exit_code: 0, record: {id: '071-R-1'}})
    await journal.close()
    expect(readFileSync(file, 'utf8').split('\n')).toEqual([
      JSON.stringify({journal: 1, command: 'refund create', input_sha256: 'a'.repeat(64), created_at: now.toISOString()}),
      JSON.stringify({intent: 'r-1', row: 1, line: 2, request: {amount: 100}}),
      JSON.stringify({intent: 'r-2', row: 2, line: 3, request: {amount: 200}}),
      JSON.stringify({result: 'r-1', status: 'approved', exit_code: 0, record: {id: '071-R-1'}}),
      '',
    ])
    const again = await open(file)
    expect(again.resumed).toBe(true)
    expect([...again.intents.keys()]).toEqual(['r-1', 'r-2'])
    expect(again.results.get('r-1')).toMatchObject({status: 'approved'})
    await again.close()
  })

  it('cuts a line torn by a crash, so the next entry starts on a line of its own', async () => {
    const file = path()
    const journal = await open(file)
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {}})
    await journal.close()
    appendFileSync(file, '{"result":"r-1","sta')
    const again = await open(file)
    expect(again.results.size).toBe(0)
    await again.result({result: 'r-1', status: 'approved', exit_code: 0})
    await again.close()
    expect(readFileSync(file, 'utf8').split('\n').at(-2)).toBe('{"result":"r-1","status":"approved","exit_code":0}')
  })

  it('refuses the journal of another input or another command, and one another gw holds', async () => {
    const file = path()
    await (await open(file)).close()
    await expect(open(file, 'b'.repeat(64))).rejects.toThrow(`${file} was written for another input (sha256 aaaaaaaaaaaa..., this input bbbbbbbbbbbb...): nothing was sent`)
    await expect(open(file, 'a'.repeat(64), 'purchase create')).rejects.toThrow('is the journal of a gw refund create batch, not gw purchase create')
    const held = await open(file)
    writeFileSync(file + '.lock', String(process.ppid))
    await expect(open(file)).rejects.toThrow(`Another gw (pid ${process.ppid}) is running the batch of journal ${file}`)
    await held.close()
    expect(existsSync(file + '.lock')).toBe(false)
  })

  it('is named from the input content in the state directory', () => {
    expect(defaultJournalPath('/data/gw', 'refund create', inputHash('x'))).toBe(`/data/gw/journals/refund-create-${inputHash('x').slice(0, 16)}.ndjson`)
  })
})

describe('a --journal that is no journal', () => {
  it.each([
    ['a CSV without a final newline', 'transaction_id,amount,reference\n071-P-A,100,r-1'],
    ['a one-line file', 'notes'],
  ])('is refused and left untouched: %s', async (_, text) => {
    const file = path()
    writeFileSync(file, text)
    await expect(open(file)).rejects.toThrow(`${file} is not a gw batch journal, and is left as it is: nothing was sent`)
    expect(readFileSync(file, 'utf8')).toBe(text)
    expect(existsSync(file + '.lock')).toBe(false)
  })
})
