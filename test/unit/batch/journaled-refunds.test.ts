import {chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {defaultJournalPath, Journal, journalTarget} from '../../../src/batch/journal.js'
import {journaledRefunds, noteJournalPlace, noteRefundJournal} from '../../../src/batch/journaled-refunds.js'
import {POSIX_MODES} from '../../only-on.js'
import {testIo} from '../../test-io.js'

// A refund gw's own batch sent is certain to be of the purchase its row named (design.md §3): the
// journals say, for refunds named by id, which purchase each was sent for.
const target = journalTarget('http://127.0.0.1:8787/', 'TEST')
const purchase = {id: '071-P-1VQZVNTX'}
const ids = (...names: string[]) => new Set(names)
const made = (transactionId: string) => ({transactionId, by: 'journal'})

/** A batch's journal, written as a run writes it, in gw's data directory. */
async function journal(dataDir: string, hash: string, rows: Array<{reference: string; transactionId: string; status: string; id?: string}>, options: {command?: string; to?: typeof target; at?: string} = {}): Promise<void> {
  const command = options.command ?? 'refund create'
  const to = options.to ?? target
  const input = {sha256: hash}
  const written = await Journal.open(options.at ?? defaultJournalPath(dataDir, command, input, to), {command, input, now: new Date(), target: to})
  for (const [index, row] of rows.entries()) {
    await written.intent({intent: row.reference, row: index + 1, line: index + 2, request: {transaction_id: row.transactionId, amount: 100, reference: row.reference}, sent_at: '2026-11-22T10:00:00.000Z'})
    await written.result({result: row.reference, status: row.status, exit_code: row.status === 'approved' ? 0 : 7, ...(row.id ? {record: {id: row.id, reference: row.reference}} : {error: {messages: ['no']}})})
  }
  await written.close()
}

describe('journaledRefunds', () => {
  it("says which purchase each refund asked about was sent for, as the row named it, in this gateway's refund journals only", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-journaled-'))
    await journal(dataDir, 'a'.repeat(64), [
      {reference: 'evt-1', transactionId: purchase.id, status: 'approved', id: '071-R-AAAAAAA1'},
      {reference: 'evt-2', transactionId: 'order-1042', status: 'approved', id: '071-R-AAAAAAA2'},
      {reference: 'evt-3', transactionId: 'order-9999', status: 'approved', id: '071-R-AAAAAAA3'},
      {reference: 'evt-4', transactionId: 'order-1042', status: 'rejected'},
      {reference: 'evt-8', transactionId: 'order-1042', status: 'declined', id: '071-R-AAAAAAA8'},
    ])
    // Another merchant's journal, a purchase batch and a file that is no journal tell nothing.
    await journal(dataDir, 'b'.repeat(64), [{reference: 'evt-5', transactionId: 'order-1042', status: 'approved', id: '071-R-AAAAAAA5'}], {to: {...target, username: 'OTHER'}})
    await journal(dataDir, 'c'.repeat(64), [{reference: 'evt-6', transactionId: 'order-1042', status: 'approved', id: '071-R-AAAAAAA6'}], {command: 'purchase create'})
    writeFileSync(join(dataDir, 'journals', 'refund-create-garbage.ndjson'), 'not json\n{"intent":\n')
    const asked = ids('071-R-AAAAAAA1', '071-R-AAAAAAA2', '071-R-AAAAAAA3', '071-R-AAAAAAA5', '071-R-AAAAAAA6', '071-R-AAAAAAA8', '071-R-NOTSENT0')
    expect(await journaledRefunds(dataDir, target, asked)).toEqual(
      new Map([
        ['071-R-AAAAAAA1', made(purchase.id)],
        ['071-R-AAAAAAA2', made('order-1042')],
        ['071-R-AAAAAAA3', made('order-9999')],
        // Declined, it was still gw's: the matcher counts only approved ones.
        ['071-R-AAAAAAA8', made('order-1042')],
      ]),
    )
    expect(await journaledRefunds(dataDir, target, ids('071-R-AAAAAAA2'))).toEqual(new Map([['071-R-AAAAAAA2', made('order-1042')]]))
  })

  it('finds a result written megabytes after its intent (a row in doubt, answered by a later run)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-journaled-'))
    const input = {sha256: 'd'.repeat(64)}
    const written = await Journal.open(defaultJournalPath(dataDir, 'refund create', input, target), {command: 'refund create', input, now: new Date(), target})
    await written.intent({intent: 'late-1', row: 1, line: 2, request: {transaction_id: 'order-1042', amount: 100, reference: 'late-1'}, sent_at: '2026-11-22T10:00:00.000Z'})
    const filler = {id: '071-R-FILLER00', card_holder: 'x'.repeat(200), reference: 'other'}
    await Promise.all(
      Array.from({length: 4000}, (_, i) => [
        written.intent({intent: `other-${i}`, row: i + 2, line: i + 3, request: {transaction_id: 'order-1', amount: 1, reference: `other-${i}`}, sent_at: '2026-11-22T10:00:00.000Z'}),
        written.result({result: `other-${i}`, status: 'approved', exit_code: 0, record: filler}),
      ]).flat(),
    )
    await written.result({result: 'late-1', status: 'approved', exit_code: 0, record: {id: '071-R-LATE0001', reference: 'late-1'}})
    await written.close()
    expect(await journaledRefunds(dataDir, target, ids('071-R-LATE0001'))).toEqual(new Map([['071-R-LATE0001', made('order-1042')]]))
  })

  it('no journals, or no refund asked about: none', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-journaled-'))
    expect(await journaledRefunds(dataDir, target, ids('071-R-AAAAAAA1'))).toEqual(new Map())
    mkdirSync(join(dataDir, 'journals'))
    await journal(dataDir, 'a'.repeat(64), [{reference: 'evt-1', transactionId: purchase.id, status: 'approved', id: '071-R-AAAAAAA1'}])
    expect(await journaledRefunds(dataDir, target, ids())).toEqual(new Map())
  })

  it('reads a journal a batch was given (--journal FILE) once its place is noted: each place once, by its real path, read once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-journaled-'))
    const elsewhere = mkdtempSync(join(tmpdir(), 'gw-journal-place-'))
    const at = join(elsewhere, 'batch.ndjson')
    await journal(dataDir, 'e'.repeat(64), [{reference: 'evt-7', transactionId: 'order-1042', status: 'approved', id: '071-R-AAAAAAA7'}], {at})
    expect(await journaledRefunds(dataDir, target, ids('071-R-AAAAAAA7'))).toEqual(new Map())
    symlinkSync(at, join(elsewhere, 'link.ndjson'))
    await noteJournalPlace(dataDir, at)
    await noteJournalPlace(dataDir, join(elsewhere, 'link.ndjson'))
    // Noted once, a JSON string a line: a path may hold any character.
    expect(readFileSync(join(dataDir, 'journals', 'elsewhere.ndjson'), 'utf8')).toBe(`${JSON.stringify(at)}\n`)
    expect(await journaledRefunds(dataDir, target, ids('071-R-AAAAAAA7'))).toEqual(new Map([['071-R-AAAAAAA7', made('order-1042')]]))
  })

  it('a noted place whose journal is gone, or a note that is not one, tells nothing and hides nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-journaled-'))
    await journal(dataDir, 'a'.repeat(64), [{reference: 'evt-1', transactionId: purchase.id, status: 'approved', id: '071-R-AAAAAAA1'}])
    writeFileSync(join(dataDir, 'journals', 'elsewhere.ndjson'), `${JSON.stringify('/nowhere/at/all/j.ndjson')}\nnot json\n42\n`)
    expect(await journaledRefunds(dataDir, target, ids('071-R-AAAAAAA1'))).toEqual(new Map([['071-R-AAAAAAA1', made(purchase.id)]]))
  })

  it('notes places in a journals folder and a note of their own, made private, beside the journals already there', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-journaled-'))
    const elsewhere = mkdtempSync(join(tmpdir(), 'gw-journal-place-'))
    const [first, second] = ['first.ndjson', 'second.ndjson'].map((name) => join(elsewhere, name))
    await journal(dataDir, 'e'.repeat(64), [{reference: 'evt-9', transactionId: 'order-1044', status: 'approved', id: '071-R-AAAAAAA9'}], {at: first!})
    await journal(dataDir, 'f'.repeat(64), [{reference: 'evt-10', transactionId: 'order-1045', status: 'approved', id: '071-R-AAAAAA10'}], {at: second!})
    await noteJournalPlace(dataDir, first!)
    await noteJournalPlace(dataDir, second!)
    expect(readFileSync(join(dataDir, 'journals', 'elsewhere.ndjson'), 'utf8')).toBe(`${JSON.stringify(first)}\n${JSON.stringify(second)}\n`)
    if (process.platform !== 'win32') {
      expect(statSync(join(dataDir, 'journals')).mode & 0o777).toBe(0o700)
      expect(statSync(join(dataDir, 'journals', 'elsewhere.ndjson')).mode & 0o777).toBe(0o600)
    }
    expect(await journaledRefunds(dataDir, target, ids('071-R-AAAAAAA9', '071-R-AAAAAA10'))).toEqual(
      new Map([
        ['071-R-AAAAAAA9', made('order-1044')],
        ['071-R-AAAAAA10', made('order-1045')],
      ]),
    )
    // A data directory gw has not made yet is made too.
    const fresh = join(dataDir, 'not-yet', 'gw')
    await noteJournalPlace(fresh, first!)
    expect(await journaledRefunds(fresh, target, ids('071-R-AAAAAAA9'))).toEqual(new Map([['071-R-AAAAAAA9', made('order-1044')]]))
  })

  it("tells only a refund batch's rows that named a purchase, by their own record's id", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-journaled-'))
    const at = join(mkdtempSync(join(tmpdir(), 'gw-journal-place-')), 'purchases.ndjson')
    // A purchase batch's journal at a place noted: its records' ids are not refunds'.
    await journal(dataDir, 'a'.repeat(64), [{reference: 'buy-1', transactionId: 'order-1046', status: 'approved', id: '071-R-AAAAAA11'}], {command: 'purchase create', at})
    await noteJournalPlace(dataDir, at)
    const input = {sha256: 'b'.repeat(64)}
    const written = await Journal.open(defaultJournalPath(dataDir, 'refund create', input, target), {command: 'refund create', input, now: new Date(), target})
    // An unmatched refund, to a card: its row named no purchase.
    await written.intent({intent: 'card-1', row: 1, line: 2, request: {card_token: 'tok-1', amount: 100, reference: 'card-1'}, sent_at: '2026-11-22T10:00:00.000Z'})
    await written.result({result: 'card-1', status: 'approved', exit_code: 0, record: {id: '071-R-AAAAAA12', reference: 'card-1'}})
    // A refund whose record names an asked id in its metadata, not as its own.
    await written.intent({intent: 'meta-1', row: 2, line: 3, request: {transaction_id: 'order-1047', amount: 100, reference: 'meta-1'}, sent_at: '2026-11-22T10:00:00.000Z'})
    await written.result({result: 'meta-1', status: 'approved', exit_code: 0, record: {id: '071-R-AAAAAA13', reference: 'meta-1', metadata: {id: '071-R-AAAAAA14'}}})
    await written.close()
    expect(await journaledRefunds(dataDir, target, ids('071-R-AAAAAA11', '071-R-AAAAAA12', '071-R-AAAAAA14'))).toEqual(new Map())
    expect(await journaledRefunds(dataDir, target, ids('071-R-AAAAAA13', '071-R-AAAAAA14'))).toEqual(new Map([['071-R-AAAAAA13', made('order-1047')]]))
  })

  it.skipIf(POSIX_MODES.skip)(`a note others may write is not read, nor added to: it could point gw at journals not the user's${POSIX_MODES.note}`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-journaled-'))
    const at = join(mkdtempSync(join(tmpdir(), 'gw-journal-place-')), 'batch.ndjson')
    await journal(dataDir, 'e'.repeat(64), [{reference: 'evt-8', transactionId: 'order-1043', status: 'approved', id: '071-R-AAAAAAA8'}], {at})
    await noteJournalPlace(dataDir, at)
    const note = join(dataDir, 'journals', 'elsewhere.ndjson')
    chmodSync(note, 0o666)
    expect(await journaledRefunds(dataDir, target, ids('071-R-AAAAAAA8'))).toEqual(new Map())
    await expect(noteJournalPlace(dataDir, at)).rejects.toMatchObject({name: 'NotYoursError'})
    chmodSync(note, 0o600)
    expect(await journaledRefunds(dataDir, target, ids('071-R-AAAAAAA8'))).toEqual(new Map([['071-R-AAAAAAA8', made('order-1043')]]))
  })
})

describe('noteRefundJournal', () => {
  const cost = "refund list --purchase will show this batch's refunds as likely or possible ones, not certain"
  /** Notes the place as a batch does, and what it said on stderr. */
  async function noted(dataDir: string, at: string): Promise<string> {
    const io = testIo()
    await noteRefundJournal({dataDir, io}, at)
    return io.stderr()
  }

  it('notes the place and says nothing; a note it cannot write is said with its code, and the batch goes on', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-journaled-'))
    const at = join(mkdtempSync(join(tmpdir(), 'gw-journal-place-')), 'batch.ndjson')
    writeFileSync(at, '')
    expect(await noted(dataDir, at)).toBe('')
    expect(readFileSync(join(dataDir, 'journals', 'elsewhere.ndjson'), 'utf8')).toBe(`${JSON.stringify(at)}\n`)
    const blocked = mkdtempSync(join(tmpdir(), 'gw-journaled-'))
    mkdirSync(join(blocked, 'journals', 'elsewhere.ndjson'), {recursive: true})
    expect(await noted(blocked, at)).toBe(`Warning: where this journal is could not be noted in ${blocked} (EISDIR): ${cost}.\n`)
  })

  it.skipIf(POSIX_MODES.skip)(`says what is wrong with a note others may write, and its fix${POSIX_MODES.note}`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-journaled-'))
    const note = join(dataDir, 'journals', 'elsewhere.ndjson')
    mkdirSync(join(dataDir, 'journals'), {mode: 0o700})
    writeFileSync(note, '')
    chmodSync(note, 0o666)
    expect(await noted(dataDir, join(dataDir, 'journals'))).toBe(
      `Warning: where this journal is could not be noted: ${cost}.\n${note} can be written by others than you (mode 0666): gw uses only what no one else can change, as ssh does.\nHint: Check what it holds, then take the others' write permission away (chmod go-w ${note}).\n`,
    )
  })
})
