import {existsSync, lchownSync, mkdtempSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {Worker} from 'node:worker_threads'
import {describe, expect, it, onTestFinished, vi} from 'vitest'
import {batchName} from '../../../src/batch/batch-name.js'
import {defaultJournalPath, inputHash, Journal, type JournalDisk, JournalError} from '../../../src/batch/journal.js'
import {peekJournal, STDIN} from '../../../src/batch/journal-entries.js'
import {readJournal} from '../../../src/batch/journal-file.js'
import {startJournalWorker} from '../../../src/batch/journal-worker.js'
import {unjournaledAnswers} from '../../../src/batch/gateway-slots.js'
import {UsageError} from '../../../src/errors.js'
import {DatabaseLockedError} from '../../../src/lib/locked-database.js'
import {NotYoursError} from '../../../src/lib/own-file.js'
import {letteredHex} from '../../../src/safety/at-rest.js'
import {OverlayNameError} from '../../../src/lib/overlay-names.js'
import {expectReject} from '../../expect-error.js'
import {anotherCouldTake, heldByAnother, killHolder} from '../../held-file.js'
import {journalText, writeJournal} from '../../journal-text.js'
import {OVERLAY_SKIPPED, overlayForBlock, overlaysMountable} from '../../overlay-mount.js'

const now = new Date('2026-11-22T10:00:00Z')
const path = () => join(mkdtempSync(join(tmpdir(), 'gw-journal-')), 'j.ndjson')
const target = {base_url: 'http://127.0.0.1:8787', username: 'TEST'}
const openOn = (file: string, hash = 'a'.repeat(64), command = 'refund create', options: Partial<Parameters<typeof Journal.open>[1]> = {}) => Journal.open(file, {command, input: {sha256: hash}, now, target, ...options})

// The journal of a batch of more rows than --concurrency is held on a worker thread, of fewer on the
// batch's own (run-batch.ts): the same file, lock and entries either way.
// Each with the workers it starts, ended once the journal closes.
const HOLDERS = [
  ['on a worker thread', {}, 1],
  ['on this thread', {thread: 'this'}, 0],
] as const

describe('where a journal is held', () => {
  it.for(HOLDERS)('%s: the workers it starts are ended once it closes', async ([, holder, workers]) => {
    const posted = vi.spyOn(Worker.prototype, 'postMessage')
    onTestFinished(() => void vi.restoreAllMocks())
    const journal = await openOn(path(), undefined, undefined, holder)
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.close()
    const started = new Set(posted.mock.contexts as Worker[])
    expect(started.size).toBe(workers)
    // Ended by the close's terminate, or on its own once its port closed, whichever came first: a
    // thread no longer running has the id -1.
    for (const worker of started) await vi.waitFor(() => expect(worker.threadId).toBe(-1))
  })
})

// run-batch.ts starts a batch's worker as its input is read, before the journal's path is known.
describe('a journal given a worker started ahead', () => {
  it('opens on that worker and ends it once it closes', async () => {
    const file = path()
    const worker = startJournalWorker()
    const journal = await openOn(file, undefined, undefined, {thread: worker})
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.close()
    expect(journalText(file).split('\n')[1]).toBe(JSON.stringify({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'}))
    // Ended (by the journal's close, or on its own once its port closed), it answers nothing more; never used, it would answer that it has no journal open.
    await vi.waitFor(async () => expect(await worker.ask({op: 'append', lines: [], probe: false})).toEqual({error: {message: 'the journal worker ended'}}))
  })

  it('ends it when the journal cannot be opened', async () => {
    const worker = startJournalWorker()
    await expectReject(openOn(mkdtempSync(join(tmpdir(), 'gw-journal-')), undefined, undefined, {thread: worker}), UsageError, /it is a directory/)
    await vi.waitFor(async () => expect(await worker.ask({op: 'append', lines: [], probe: false})).toEqual({error: {message: 'the journal worker ended'}}))
  })
})

describe.each(HOLDERS)('Journal, %s', (_, holder) => {
  const open: typeof openOn = (file, hash, command, options = {}) => openOn(file, hash, command, {...holder, ...options})

  it('writes a header, then intents and results a line each; a new run reads them back', async () => {
    const file = path()
    const journal = await open(file)
    expect(journal.resumed).toBe(false)
    expect(journal.sameRows).toBe(true)
    await Promise.all([
      journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'}),
      journal.intent({intent: 'r-2', row: 2, line: 3, request: {amount: 200}, sent_at: '2026-11-22T10:00:00.000Z'}),
    ])
    await journal.result({result: 'r-1', status: 'approved', exit_code: 0, record: {id: '071-R-1'}})
    await journal.close()
    expect(journalText(file).split('\n')).toEqual([
      JSON.stringify({journal: 1, command: 'refund create', input_sha256: 'a'.repeat(64), target: {base_url: 'http://localhost:8787', username: 'TEST'}, created_at: now.toISOString()}),
      JSON.stringify({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'}),
      JSON.stringify({intent: 'r-2', row: 2, line: 3, request: {amount: 200}, sent_at: '2026-11-22T10:00:00.000Z'}),
      JSON.stringify({result: 'r-1', status: 'approved', exit_code: 0, record: {id: '071-R-1'}}),
      '',
    ])
    const again = await open(file)
    expect(again.resumed).toBe(true)
    expect([...again.intents.keys()]).toEqual(['r-1', 'r-2'])
    expect(again.results.get('r-1')).toMatchObject({status: 'approved'})
    await again.close()
  })

  it('refuses the journal of another input or another command, and one another gw holds', async () => {
    const file = path()
    await (await open(file)).close()
    await expectReject(open(file, 'b'.repeat(64)), UsageError, `${file} was written for another input (an input with sha256 aaaaaaaaaaaa...), and this is stdin with sha256 bbbbbbbbbbbb...: nothing was sent`)
    await expectReject(open(file, 'a'.repeat(64), 'purchase create'), UsageError, 'is the journal of a gw refund create batch, not gw purchase create')
    const holder = await heldByAnother(file)
    await expectReject(open(file), UsageError, `Another gw (pid ${holder.pid}) is running the batch of journal ${file}: nothing was sent`)
  })

  it('is named from the input (stdin by its content) and the gateway and merchant, in the data directory', () => {
    const input = {sha256: inputHash('x')}
    const path = defaultJournalPath('/data/gw', 'refund create', input, target)
    expect(path).toMatch(new RegExp(`^/data/gw/journals/refund-create-${letteredHex(inputHash('x').slice(0, 16))}-[a-p]{8}\\.sqlite$`))
    expect(defaultJournalPath('/data/gw', 'refund create', input, {...target, base_url: 'https://gateway.example'})).not.toBe(path)
    expect(defaultJournalPath('/data/gw', 'refund create', input, {...target, username: 'ACME'})).not.toBe(path)
  })

  it('refuses the journal of the same input sent to another gateway or merchant, naming both', async () => {
    const file = path()
    await (await open(file)).close()
    await expectReject(
      open(file, 'a'.repeat(64), 'refund create', {target: {base_url: 'https://gateway.example', username: 'SHOP'}}),
      UsageError,
      `${file} is the journal of this batch sent as TEST to http://localhost:8787, and this run sends as SHOP to https://gateway.example: nothing was sent`,
    )
  })

  it('takes a header whose gateway is no address as another gateway’s, naming it as written, in the real run and the dry run alike', async () => {
    const file = path()
    writeJournal(file, JSON.stringify({journal: 1, command: 'refund create', input_sha256: 'a'.repeat(64), target: {base_url: 'not a url', username: 'TEST'}, created_at: now.toISOString()}) + '\n')
    const refused = `${file} is the journal of this batch sent as TEST to not a url, and this run sends as TEST to http://localhost:8787: nothing was sent`
    await expectReject(open(file), UsageError, refused)
    await expectReject(peekJournal(file, {command: 'refund create', input: {sha256: 'a'.repeat(64)}, target}), UsageError, refused)
  })
})

describe('the batch a journal names at the gateway (batch-name.ts)', () => {
  it('is its command’s and rows’ as it was begun, from any copy; --new-batch begins one of its own name, kept in the header and resumed', async () => {
    const file = path()
    const journal = await Journal.open(file, {command: 'refund create', input: {path: '/x', sha256: 'c'.repeat(64)}, now, target})
    expect(journal.batch).toBe(batchName('refund create', 'c'.repeat(64)))
    await journal.close()
    expect(JSON.parse(journalText(file).split('\n')[0]!)).not.toHaveProperty('batch')
    // An edit of its input (same path, other rows) is the batch begun: its name stays.
    const edited = await Journal.open(file, {command: 'refund create', input: {path: '/x', sha256: 'd'.repeat(64)}, now, target})
    expect(edited.batch).toBe(journal.batch)
    await edited.close()

    const anew = path()
    const begun = await openOn(anew, 'c'.repeat(64), undefined, {newBatch: true})
    expect(begun.batch).toMatch(/^[a-p]{16}$/)
    expect(begun.batch).not.toBe(journal.batch)
    await begun.close()
    expect(JSON.parse(journalText(anew).split('\n')[0]!)).toMatchObject({batch: begun.batch})
    for (const newBatch of [true, false]) {
      const resumed = await openOn(anew, 'c'.repeat(64), undefined, {newBatch})
      expect(resumed.batch).toBe(begun.batch)
      await resumed.close()
    }
  })

  it('--new-batch on a journal begun without it is refused (exit 2), naming it, and the journal is left as it was', async () => {
    const file = path()
    const journal = await openOn(file)
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.close()
    const before = journalText(file)
    const error = await expectReject(openOn(file, undefined, undefined, {newBatch: true}), UsageError, `--new-batch begins a batch in a journal of its own, and ${file} holds a batch begun for these rows without it: nothing was sent`)
    expect(error).toMatchObject({exitCode: 2, hint: 'Give --journal a new file to begin the new batch in; run the same command again to finish it.'})
    expect(journalText(file)).toBe(before)
  })

  it('a dry run reads the same name: the header’s, or the rows’ the journal was begun for', async () => {
    const file = path()
    await (await openOn(file, 'e'.repeat(64), undefined, {newBatch: true})).close()
    const named = await peekJournal(file, {command: 'refund create', input: {sha256: 'e'.repeat(64)}, target})
    expect(named).toMatchObject({begunAnew: true, batch: expect.stringMatching(/^[a-p]{16}$/)})
    const plain = path()
    await (await openOn(plain, 'e'.repeat(64))).close()
    expect(await peekJournal(plain, {command: 'refund create', input: {sha256: 'e'.repeat(64)}, target})).toMatchObject({begunAnew: false, batch: batchName('refund create', 'e'.repeat(64))})
  })
})

describe('what the file holds of a row, read back (Journal.holds)', () => {
  it('its intent, until a withdrawal takes it back; an earlier run’s counts too; a file that cannot be read may hold it', async () => {
    const file = path()
    const journal = await openOn(file)
    expect(await journal.holds('r-1')).toBe(false)
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.intent({intent: 'r-10', row: 2, line: 3, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    expect(await journal.holds('r-1')).toBe(true)
    await journal.withdraw('r-1')
    expect(await journal.holds('r-1')).toBe(false)
    expect(await journal.holds('r-10')).toBe(true)
    await journal.close()
    const again = await openOn(file, undefined, undefined, {disk: {read: async (f) => f.lines()}})
    expect(await again.holds('r-10')).toBe(true)
    await journal.close()
    await again.close()
    let reads = 0
    const failing = await openOn(path(), undefined, undefined, {disk: {read: async (f) => (reads++ === 0 ? f.lines() : Promise.reject(new Error('EIO')))}})
    expect(await failing.holds('r-1')).toBe(true)
    await failing.close()
  })

  it('a row withdrawn whose reference holds another’s (r-10, r-1) takes back its own intent alone', async () => {
    const journal = await openOn(path())
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.intent({intent: 'r-10', row: 2, line: 3, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.withdraw('r-10')
    expect(await journal.holds('r-1')).toBe(true)
    expect(await journal.holds('r-10')).toBe(false)
    await journal.close()
  })
})

describe('a journal whose thread refuses it', () => {
  /** A journal worker whose opening fails as `failure` says, as the real one's would from its lock or mount table. */
  const refusing = (failure: Error) => ({ask: () => Promise.reject(failure), end: async () => {}})

  it('on an overlay whose upper directory cannot be told: refused, saying why, nothing sent', async () => {
    const file = path()
    const refusal = await openOn(file, undefined, undefined, {thread: refusing(new OverlayNameError(file, 'upper'))}).catch((err: unknown) => err)
    expect(refusal).toBeInstanceOf(UsageError)
    expect(refusal).toMatchObject({
      exitCode: 2,
      message: `The batch journal ${file} is on an overlay file system, and the mount table names its upper directory only as it was given (upper): a gw reaching the file through it would not meet this one's lock, so nothing was sent`,
      hint: 'Give --journal a file outside the overlay (on a volume, or another file system).',
    })
  })

  it('where the system refuses it (a full disk): cannot be used, naming the journal and the system’s code, nothing sent (exit 1)', async () => {
    const file = path()
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'})
    const error = await expectReject(openOn(file, undefined, undefined, {thread: refusing(full)}), JournalError, `The batch journal ${file} cannot be used (ENOSPC): nothing was sent`)
    expect(error).toMatchObject({exitCode: 1, message: `The batch journal ${file} cannot be used (ENOSPC): nothing was sent`, cause: full, hint: 'Free space or fix permissions there, or give another --journal FILE, then run the same command again: nothing of it was sent yet.'})
  })

  it('held by another gw whose pid the system does not tell: names no pid', async () => {
    const file = path()
    await expectReject(openOn(file, undefined, undefined, {thread: refusing(new DatabaseLockedError(file, undefined))}), UsageError, `Another gw is running the batch of journal ${file}: nothing was sent`)
  })
})

describe('what the file holds of a row named in another row’s request', () => {
  it('is not its intent: a line that names it otherwise (a refund of purchase r-1) holds no intent of it; a line that cannot be read holds none either', async () => {
    const file = path()
    const journal = await openOn(file)
    await journal.intent({intent: 'r-2', row: 1, line: 2, request: {transaction_id: 'r-1', amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    expect(await journal.holds('r-1')).toBe(false)
    expect(await journal.holds('r-2')).toBe(true)
    await journal.close()
    let reads = 0
    const torn = await openOn(path(), undefined, undefined, {disk: {read: async (f) => [...(await f.lines()), ...(reads++ === 0 ? [] : ['{"intent":"r-1"'])]}})
    expect(await torn.holds('r-1')).toBe(false)
    await torn.close()
  })
})

describe('what the file holds of a row whose reference holds a card number (kept masked, found by its keyed hash)', () => {
  it('its intent, until a withdrawal takes it back; another reference that masks alike is another row', async () => {
    const file = path()
    const journal = await openOn(file)
    const reference = 'ord-4929123456789015'
    const alike = 'ord-4929120000009015'
    await journal.intent({intent: reference, row: 1, line: 2, request: {amount: 100, reference}, sent_at: '2026-11-22T10:00:00.000Z'})
    expect(await journal.holds(reference)).toBe(true)
    expect(await journal.holds(alike)).toBe(false)
    await journal.withdraw(reference)
    expect(await journal.holds(reference)).toBe(false)
    await journal.close()
  })

  it('a withdrawal of it takes back no intent of the reference it is kept as (ord-492912XXXXXX9015, another row)', async () => {
    const journal = await openOn(path())
    const reference = 'ord-4929123456789015'
    const masked = 'ord-492912XXXXXX9015'
    await journal.intent({intent: masked, row: 1, line: 2, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.intent({intent: reference, row: 2, line: 3, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    // The withdrawal's line names the masked reference as the other row's does: its keyed hash tells them apart.
    await journal.withdraw(reference)
    expect(await journal.holds(masked)).toBe(true)
    expect(await journal.holds(reference)).toBe(false)
    await journal.close()
  })
})

describe('a --journal that is no journal', () => {
  it.each([
    ['a header of another version', '{"journal":2,"command":"refund create"}\n'],
    ['a first line that is no JSON', '{"journal":1,"command"\n{"intent":"r-1"}\n'],
  ])('is refused by the real run and the dry run alike: %s', async (_, text) => {
    const file = path()
    writeFileSync(file, text)
    const refused = `${file} is not a gw batch journal, and is left as it is: nothing was sent`
    await expectReject(peekJournal(file, {command: 'refund create', input: {sha256: 'a'.repeat(64)}, target}), UsageError, refused)
    await expectReject(openOn(file), UsageError, refused)
  })

  it('is refused by the dry run too, left as it is', async () => {
    const file = path()
    writeFileSync(file, 'notes\n')
    await expectReject(peekJournal(file, {command: 'refund create', input: {sha256: 'a'.repeat(64)}, target}), UsageError, `${file} is not a gw batch journal, and is left as it is: nothing was sent`)
    expect(readFileSync(file, 'utf8')).toBe('notes\n')
  })

  it('says the system’s error where the journal’s file cannot be opened (exit 1)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-journal-')), 'j'.repeat(256))
    const error = await expectReject(openOn(file), JournalError, `The batch journal ${file} cannot be used (ENAMETOOLONG): nothing was sent`)
    expect(error).toMatchObject({exitCode: 1, hint: 'Free space or fix permissions there, or give another --journal FILE, then run the same command again: nothing of it was sent yet.'})
  })

  it('says, where a new journal’s header cannot be written (a full disk), that it cannot be used and nothing was sent; the next run begins it afresh', async () => {
    const file = path()
    const full = {append: () => Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'}))}
    const error = await expectReject(openOn(file, undefined, undefined, {disk: full}), JournalError, `The batch journal ${file} cannot be used (ENOSPC): nothing was sent`)
    expect(error).toMatchObject({exitCode: 1, hint: 'Free space or fix permissions there, or give another --journal FILE, then run the same command again: nothing of it was sent yet.'})
    const again = await openOn(file)
    expect(again.resumed).toBe(false)
    await again.close()
    expect(journalText(file).split('\n')).toHaveLength(2)
  })

  it.each([
    ['a CSV without a final newline', 'transaction_id,amount,reference\n071-P-A,100,r-1'],
    ['a one-line file', 'notes'],
  ])('is refused and left untouched: %s', async (_, text) => {
    const file = path()
    writeFileSync(file, text)
    await expectReject(openOn(file), UsageError, `${file} is not a gw batch journal, and is left as it is: nothing was sent`)
    expect(readFileSync(file, 'utf8')).toBe(text)
    expect(existsSync(file + '.lock')).toBe(false)
  })
})

describe.each(HOLDERS)('a journal cut short (a copy stopped half-way, a disk that lost its end), %s', (_, holder) => {
  // Cut inside its header, inside its first page, at a page's end and inside a later page: each shows another way.
  it.for<[number, string]>([
    [10, 'cut short at 10 bytes, inside its header'],
    [50, 'cut short at 50 bytes, not a whole number of its 4096-byte pages'],
    [4096, 'database disk image is malformed'],
    [20_000, 'cut short at 20000 bytes, not a whole number of its 4096-byte pages'],
    [20_480, 'database disk image is malformed'],
  ])('at %s bytes: refused as unreadable (exit 2), naming it and why, and left as it is', async ([at, why]) => {
    const file = path()
    const journal = await openOn(file, undefined, undefined, holder)
    for (let i = 0; i < 80; i++) await journal.intent({intent: `r-${i}`, row: i + 1, line: i + 2, request: {amount: 100, note: 'x'.repeat(200)}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.close()
    writeFileSync(file, readFileSync(file).subarray(0, at))
    const cut = readFileSync(file)
    const error = await expectReject(openOn(file, undefined, undefined, holder), UsageError, `The batch journal ${file} cannot be read (it is damaged: ${why}): nothing was sent, and it is left as it is`)
    expect(error.exitCode).toBe(2)
    expect(readFileSync(file).equals(cut)).toBe(true)
    expect(readdirSync(dirname(file))).toEqual(['j.ndjson'])
  })
})

describe.each(HOLDERS)('the journal lock, %s', (_, holder) => {
  const open: typeof openOn = (file, hash, command, options = {}) => openOn(file, hash, command, {...holder, ...options})

  it('is refused to a second open in the same process', async () => {
    const file = path()
    const first = await open(file)
    await expectReject(open(file), UsageError, `The batch journal ${file} is already open in this gw: nothing was sent`)
    await first.close()
    await (await open(file)).close()
  })

  it('holds a journal it makes by the file itself: renamed while its run holds it, it is refused at its new name', async () => {
    const file = path()
    const first = await open(file)
    renameSync(file, `${file}.moved`)
    await expectReject(open(`${file}.moved`), UsageError, `The batch journal ${file}.moved is already open in this gw: nothing was sent`)
    await first.close()
  })

  it('ends with the process that holds it: a gw killed (kill -9) while it runs leaves the journal to the next', async () => {
    const file = path()
    await (await open(file)).close()
    const holder = await heldByAnother(file)
    await expectReject(open(file), UsageError, `Another gw (pid ${holder.pid}) is running the batch of journal ${file}: nothing was sent`)
    await killHolder(holder)
    const journal = await open(file)
    expect(journal.resumed).toBe(true)
    await journal.close()
    expect(readdirSync(dirname(file))).toEqual(['j.ndjson'])
  })
})

const root = process.getuid?.() === 0

describe('a journal reached by another user’s link', () => {
  it.skipIf(!root)(`is refused, naming the link, though the journal it leads to is the user’s, by a run and a dry run alike; nothing is written${root ? '' : ' (skipped: lchown to another user needs root; CI runs it)'}`, async () => {
    const file = path()
    await (await openOn(file)).close()
    const before = journalText(file)
    const link = join(dirname(file), 'planted')
    symlinkSync(file, link)
    lchownSync(link, 1001, 1001)
    const error = await expectReject(openOn(link), NotYoursError, `${link} is a symbolic link made by`)
    expect(error).toMatchObject({path: link, problem: 'link'})
    // A dry run reads nothing through it either.
    await expectReject(peekJournal(link, {command: 'refund create', input: {sha256: 'a'.repeat(64)}, target}), NotYoursError, `${link} is a symbolic link made by`)
    expect(journalText(file)).toBe(before)
  })
})

describe.each(HOLDERS)('a journal on an overlay file system, %s', (where, holder) => {
  const overlay = overlayForBlock()
  const open: typeof openOn = (file, hash, command, options = {}) => openOn(file, hash, command, {...holder, ...options})

  it.skipIf(!overlaysMountable)(`opened through the overlay is held under its upper directory's name too, until it closes${OVERLAY_SKIPPED}`, async () => {
    const name = `held-${where.replaceAll(' ', '-')}`
    const journal = await open(join(overlay.merged, name))
    expect(anotherCouldTake(join(overlay.upper, name))).toBe(false)
    await journal.close()
    expect(anotherCouldTake(join(overlay.upper, name))).toBe(true)
  })

  it.skipIf(!overlaysMountable)(`opened through its upper directory while another process holds the overlay's name: refused, naming that pid, nothing held${OVERLAY_SKIPPED}`, async () => {
    const name = `taken-${where.replaceAll(' ', '-')}`
    await (await open(join(overlay.merged, name))).close()
    const other = await heldByAnother(join(overlay.merged, name))
    const upper = join(overlay.upper, name)
    await expectReject(open(upper), UsageError, `Another gw (pid ${other.pid}) is running the batch of journal ${upper}: nothing was sent`)
    await killHolder(other)
    await (await open(upper)).close()
  })
})

describe('a journal on a disk that fails', () => {
  /** The real writes, but the Nth one fails with `code`, none of its entries written. */
  const failing = (nth: number, code = 'EIO'): Partial<JournalDisk> => {
    let writes = 0
    return {
      append: (file, lines) => {
        if (++writes === nth) throw Object.assign(new Error(`${code}: failed, write`), {code})
        return file.append(lines)
      },
    }
  }

  it('fails the entries of a write that throws (ENOSPC once), naming the journal, and takes later ones', async () => {
    const file = path()
    const journal = await openOn(file, undefined, undefined, {disk: failing(2, 'ENOSPC')})
    const error = await journal.intent({intent: 'r-1', row: 1, line: 2, request: {}, sent_at: '2026-11-22T10:00:00.000Z'}).catch((err: unknown) => err)
    expect(error).toMatchObject({kind: 'io', exitCode: 1, message: `The batch journal ${file} cannot be written (ENOSPC): no more rows are sent`})
    await journal.intent({intent: 'r-2', row: 2, line: 3, request: {}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.close()
    const again = await openOn(file)
    expect([...again.intents.keys()]).toEqual(['r-2'])
    await again.close()
  })

  it('counts an intent only once its commit is whole: one whose commit failed half-way leaves no part of it', async () => {
    const file = path()
    const journal = await openOn(file, undefined, undefined, {
      disk: {
        append: (journalFile, lines) =>
          journalFile.append(lines, () => {
            // Inserted, then the commit fails, as a full disk would fail it.
            if (lines.some((line) => line.includes('"intent"'))) throw Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'})
          }),
      },
    })
    await expect(journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})).rejects.toMatchObject({kind: 'io'})
    await journal.close()
    expect(journalText(file).split('\n')).toHaveLength(2)
    const again = await openOn(file)
    expect(again.intents.size).toBe(0)
    await again.close()
  })
})

describe('peekJournal: what a dry run reads of the journal the real run would open', () => {
  const asked = (hash = 'a'.repeat(64), inputPath?: string, command = 'refund create') => ({command, input: {sha256: hash, ...(inputPath === undefined ? {} : {path: inputPath})}, target})

  it('is nothing where there is no journal, or an empty one; and makes none', async () => {
    const file = path()
    expect(await peekJournal(file, asked())).toBeUndefined()
    expect(existsSync(file)).toBe(false)
    writeFileSync(file, '')
    expect(await peekJournal(file, asked())).toBeUndefined()
    expect(readFileSync(file, 'utf8')).toBe('')
  })

  it('reads an earlier run’s intents and results, whole lines only, without taking its lock; the input it was begun for when this one is elsewhere', async () => {
    const file = path()
    const journal = await Journal.open(file, {command: 'refund create', input: {sha256: 'a'.repeat(64), path: '/data/then.csv'}, now, target})
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.result({result: 'r-1', status: 'approved', exit_code: 0})
    await journal.intent({intent: 'r-2', row: 2, line: 3, request: {amount: 200}, sent_at: '2026-11-22T10:00:00.000Z'})
    // Read while the run holds it.
    const entries = (await peekJournal(file, asked('a'.repeat(64), '/data/now.csv')))!
    expect([...entries.intents.keys()]).toEqual(['r-1', 'r-2'])
    expect([...entries.results.keys()]).toEqual(['r-1'])
    expect(entries.movedFrom).toBe('/data/then.csv')
    expect((await peekJournal(file, asked('a'.repeat(64), '/data/then.csv')))!.movedFrom).toBeUndefined()
    await journal.close()
    // Begun on stdin, which has no path: given as a file, it was moved from stdin; given on stdin again, not moved.
    const fromStdin = path()
    await (await openOn(fromStdin)).close()
    expect((await peekJournal(fromStdin, asked('a'.repeat(64), '/data/now.csv')))!.movedFrom).toBe(STDIN)
    expect((await peekJournal(fromStdin, asked()))!.movedFrom).toBeUndefined()
  })

  it('refuses another batch’s journal as the real run would, and says what stops it reading one', async () => {
    const file = path()
    await (await openOn(file)).close()
    await expect(peekJournal(file, asked('a'.repeat(64), undefined, 'purchase create'))).rejects.toBeInstanceOf(UsageError)
    await expect(peekJournal(dirname(file), asked())).rejects.toMatchObject({exitCode: 2, message: `The batch journal ${dirname(file)} cannot be read (EISDIR: it is a directory): nothing was sent, and it is left as it is`})
  })
})

describe('how far the journal may lag the answers (its commits on a thread of its own)', () => {
  it('caughtUp(n) resolves once fewer than n answers wait to be written, counting those that failed as done', async () => {
    const file = path()
    let writes = 0
    const journal = await openOn(file, undefined, undefined, {
      disk: {
        append: (journalFile, lines) => {
          // The third write (after the header and the first group) fails.
          if (++writes === 3) throw Object.assign(new Error('EIO: failed, write'), {code: 'EIO'})
          return journalFile.append(lines)
        },
      },
    })
    const r = (n: number) => ({result: `r-${n}`, status: 'approved' as const, exit_code: 0})
    let settled = 0
    const first = [journal.result(r(1)), journal.result(r(2))]
    for (const answer of first) void answer.then(() => settled++)
    // Two answers wait, in one group: caughtUp(2) waits until fewer than 2 do, here none (told by
    // their promises: the worker's thread may have written the file already either way).
    await journal.caughtUp(2)
    expect(settled).toBe(2)
    expect(readJournal(file).slice(1)).toEqual([JSON.stringify(r(1)), JSON.stringify(r(2))])
    await expect(Promise.all(first)).resolves.toEqual([undefined, undefined])
    const failed = journal.result(r(3))
    await journal.caughtUp(1)
    await expect(failed).rejects.toBeInstanceOf(JournalError)
    // With room for more than wait, it resolves after a turn of the event loop, the answer still on its way to the disk.
    let written = false
    const pending = journal.result(r(4)).then(() => (written = true))
    await journal.caughtUp(2)
    expect(written).toBe(false)
    await journal.caughtUp(1)
    expect(written).toBe(true)
    await pending
    await journal.close()
  })

  it('is nothing with one slot (a row is sent once the answer before it is on disk), and the rows at work with more', () => {
    expect(unjournaledAnswers(1)).toBe(1)
    expect(unjournaledAnswers(2)).toBe(8)
    expect(unjournaledAnswers(8)).toBe(32)
  })
})
