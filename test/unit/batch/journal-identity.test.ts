import {linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {defaultJournalPath, inputHash, Journal, JournalError, type JournalOptions, journalTarget, lockSameBatch, rowChanges} from '../../../src/batch/journal.js'
import {batchName} from '../../../src/batch/batch-name.js'
import {UsageError} from '../../../src/errors.js'
import {letteredHex} from '../../../src/safety/at-rest.js'
import {heldByAnother, killHolder} from '../../held-file.js'
import {journalText, writeJournal} from '../../journal-text.js'

// Identity, not names (design.md §5): a journal is its real file, its input is a file by
// its real path (stdin by its content), and its gateway is its address in one spelling.
const now = new Date('2026-11-22T10:00:00Z')
const SENT_AT = now.toISOString()
const folder = () => realpathSync(mkdtempSync(join(tmpdir(), 'gw-journal-id-')))
const target = {base_url: 'http://127.0.0.1:4010', username: 'TEST'}
const input = {path: '/data/refunds.csv', sha256: 'a'.repeat(64)}
const open = (file: string, options: Partial<JournalOptions> = {}) => Journal.open(file, {command: 'refund create', input, now, target, ...options})
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('was not refused')
    },
    (err: unknown) => err,
  )
const lines = (file: string) => journalText(file).split('\n').slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>)

describe('a journal is its real file', () => {
  it('is opened through a symlink as the file it leads to, whose lock is the one a second open meets', async () => {
    const dir = folder()
    const file = join(dir, 'j.ndjson')
    symlinkSync(file, join(dir, 'link.ndjson'))
    const journal = await open(join(dir, 'link.ndjson'))
    expect(journal.path).toBe(join(dir, 'link.ndjson'))
    expect(lstatSync(file).isFile()).toBe(true)
    const error = await refusal(open(file))
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({exitCode: 2, message: `The batch journal ${file} is already open in this gw: nothing was sent`})
    expect(await refusal(open(join(dir, 'link.ndjson')))).toMatchObject({message: `The batch journal ${join(dir, 'link.ndjson')} (the same file as ${file}) is already open in this gw: nothing was sent`})
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: SENT_AT})
    await journal.close()
    // Written through the link, into the file: the link is still a link.
    expect(lstatSync(join(dir, 'link.ndjson')).isSymbolicLink()).toBe(true)
    expect(lines(file).map((line) => line.intent ?? line.journal)).toEqual([1, 'r-1'])
  })

  it('names the other gw that holds it through a symlink, and the real file', async () => {
    const dir = folder()
    const file = join(dir, 'j.ndjson')
    symlinkSync(file, join(dir, 'link.ndjson'))
    await (await open(file)).close()
    const holder = await heldByAnother(file)
    const error = await refusal(open(join(dir, 'link.ndjson')))
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({
      message: `Another gw (pid ${holder.pid}) is running the batch of journal ${join(dir, 'link.ndjson')} (the same file as ${file}): nothing was sent`,
      hint: 'Wait for it to finish, or stop it; then run this again to resume.',
    })
  })

  it('is one journal by each of its names (a hard link): the other name is refused while one holds it, and finds its entries after', async () => {
    const dir = folder()
    const file = join(dir, 'j.ndjson')
    const journal = await open(file)
    linkSync(file, join(dir, 'again.ndjson'))
    const error = await refusal(open(join(dir, 'again.ndjson')))
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({exitCode: 2, message: `The batch journal ${join(dir, 'again.ndjson')} is already open in this gw: nothing was sent`})
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: SENT_AT})
    await journal.close()
    const again = await open(join(dir, 'again.ndjson'))
    expect([...again.intents.keys()]).toEqual(['r-1'])
    await again.close()
  })

  it('refuses a path it cannot resolve, naming it (exit 1)', async () => {
    const dir = folder()
    writeFileSync(join(dir, 'file'), '')
    const error = await refusal(open(join(dir, 'file', 'j.ndjson')))
    expect(error).toMatchObject({exitCode: 1, message: `The batch journal ${join(dir, 'file', 'j.ndjson')} cannot be used (ENOTDIR): nothing was sent`})
  })
})

describe('a journal that cannot be read is never taken as new', () => {
  it.each([
    ['EACCES', 'EACCES: permission denied'],
    ['EIO', 'EIO'],
  ])('%s: refused, naming it and why; the file is left whole and unlocked', async (code, why) => {
    const dir = folder()
    const file = join(dir, 'j.ndjson')
    const journal = await open(file)
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: SENT_AT})
    await journal.close()
    const before = readFileSync(file, 'utf8')
    const read = () => Promise.reject(Object.assign(new Error(`${code}: cannot, open '${file}'`), {code}))
    const error = await refusal(open(file, {disk: {read}}))
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({
      exitCode: 2,
      message: `The batch journal ${file} cannot be read (${why}): nothing was sent, and it is left as it is`,
      hint: 'It records what an earlier run sent: make it readable, then run this again. Without it, rows already sent would be sent again.',
    })
    expect(readFileSync(file, 'utf8')).toBe(before)
    expect(readdirSync(dir)).toEqual(['j.ndjson'])
    // Readable again, it is the journal it was.
    const again = await open(file)
    expect([...again.intents.keys()]).toEqual(['r-1'])
    await again.close()
  })

  it('says a folder where the journal should be is a folder', async () => {
    const dir = folder()
    mkdirSync(join(dir, 'j.ndjson'))
    expect(await refusal(open(join(dir, 'j.ndjson')))).toMatchObject({message: `The batch journal ${join(dir, 'j.ndjson')} cannot be read (EISDIR: it is a directory): nothing was sent, and it is left as it is`})
  })
})

describe('the input a journal belongs to', () => {
  it('records a file by its real path and the content it had, and the gateway in one spelling', async () => {
    const file = join(folder(), 'j.ndjson')
    await (await open(file, {target: {base_url: 'HTTP://LOCALHOST:4010/', username: 'TEST'}})).close()
    expect(lines(file)[0]).toEqual({
      journal: 1,
      command: 'refund create',
      input: '/data/refunds.csv',
      input_sha256: 'a'.repeat(64),
      target: {base_url: 'http://localhost:4010', username: 'TEST'},
      created_at: '2026-11-22T10:00:00.000Z',
    })
  })

  it('records stdin by its content alone', async () => {
    const file = join(folder(), 'j.ndjson')
    await (await open(file, {input: {sha256: 'c'.repeat(64)}})).close()
    expect(lines(file)[0]).toEqual({journal: 1, command: 'refund create', input_sha256: 'c'.repeat(64), target: {base_url: 'http://localhost:4010', username: 'TEST'}, created_at: now.toISOString()})
  })

  it('is the same file edited since: resumed, its rows kept', async () => {
    const file = join(folder(), 'j.ndjson')
    const journal = await open(file)
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: SENT_AT})
    await journal.close()
    expect(journal.sameRows).toBe(true)
    const again = await open(file, {input: {...input, sha256: 'b'.repeat(64)}})
    expect(again.resumed).toBe(true)
    // Edited: its rows are known by their references, not by their place among the rows.
    expect(again.sameRows).toBe(false)
    expect([...again.intents.keys()]).toEqual(['r-1'])
    await again.close()
    const unedited = await open(file)
    expect(unedited.sameRows).toBe(true)
    await unedited.close()
  })

  it('is its own file when the header keeps its path masked (stamped `refunds-20261127-090300.csv`, digits that pass the Luhn check): resumed, edited or not, and not moved', async () => {
    const stamped = {path: '/data/refunds-20261127-090300.csv', sha256: 'a'.repeat(64)}
    const file = join(folder(), 'j.ndjson')
    const journal = await open(file, {input: stamped})
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: SENT_AT})
    await journal.close()
    expect(lines(file)[0]!.input).toBe('/data/refunds-202611XXXX0300.csv')
    for (const sha256 of ['a'.repeat(64), 'b'.repeat(64)]) {
      const again = await open(file, {input: {...stamped, sha256}})
      expect([again.resumed, again.movedFrom, [...again.intents.keys()]]).toEqual([true, undefined, ['r-1']])
      await again.close()
    }
  })

  it.each([
    ['the same rows at another path (the file moved, copied or hard-linked)', {path: '/elsewhere/refunds.csv', sha256: 'a'.repeat(64)}, '/data/refunds.csv'],
    ['the same rows from stdin', {sha256: 'a'.repeat(64)}, '/data/refunds.csv'],
    ['its own file', input, undefined],
  ])('is %s: resumed, saying which file it was begun for', async (_, same, movedFrom) => {
    const file = join(folder(), 'j.ndjson')
    const journal = await open(file)
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: SENT_AT})
    await journal.close()
    const again = await open(file, {input: same})
    expect([again.resumed, again.movedFrom, [...again.intents.keys()]]).toEqual([true, movedFrom, ['r-1']])
    await again.close()
  })

  it.each([
    ['a file', {path: '/data/refunds.csv', sha256: 'a'.repeat(64)}, 'stdin'],
    ['stdin again', {sha256: 'a'.repeat(64)}, undefined],
  ])('begun on stdin, is given again as %s: resumed, saying it was begun on stdin when it was not this input', async (_, again, movedFrom) => {
    const file = join(folder(), 'j.ndjson')
    const journal = await open(file, {input: {sha256: 'a'.repeat(64)}})
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: SENT_AT})
    await journal.close()
    const resumed = await open(file, {input: again})
    expect([resumed.resumed, resumed.movedFrom, [...resumed.intents.keys()]]).toEqual([true, movedFrom, ['r-1']])
    await resumed.close()
  })

  it.each([
    ['another file with other rows', {path: '/data/other.csv', sha256: 'b'.repeat(64)}, 'this is /data/other.csv'],
    ['stdin with other rows', {sha256: 'b'.repeat(64)}, `this is stdin with sha256 ${'b'.repeat(12)}...`],
  ])('refuses %s, naming both (exit 2)', async (_, other, ours) => {
    const file = join(folder(), 'j.ndjson')
    await (await open(file)).close()
    const error = await refusal(open(file, {input: other}))
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({
      exitCode: 2,
      message: `${file} was written for another input (/data/refunds.csv), and ${ours}: nothing was sent`,
      hint: 'Run the input that journal belongs to, or give this one its own --journal FILE.',
    })
  })

  it('is the same gateway however its address is spelled, and refuses another, naming both in one spelling', async () => {
    const file = join(folder(), 'j.ndjson')
    await (await open(file, {target: {base_url: 'http://localhost:4010', username: 'TEST'}})).close()
    for (const base_url of ['http://127.0.0.1:4010/', 'http://LOCALHOST:4010', 'http://[::1]:4010']) await (await open(file, {target: {base_url, username: 'TEST'}})).close()
    expect(await refusal(open(file, {target: {base_url: 'http://127.0.0.1:4011', username: 'TEST'}}))).toMatchObject({
      message: `${file} is the journal of this batch sent as TEST to http://localhost:4010, and this run sends as TEST to http://localhost:4011: nothing was sent`,
    })
    expect(await refusal(open(file, {target: {base_url: 'http://localhost:4010', username: 'SHOP'}}))).toMatchObject({
      message: `${file} is the journal of this batch sent as TEST to http://localhost:4010, and this run sends as SHOP to http://localhost:4010: nothing was sent`,
    })
  })
})

describe('a rows key whose hex holds digits that read as a card number', () => {
  // 4111111111111111 passes the Luhn check: a masker takes it for a card number wherever it stands.
  const cardLike = `4111111111111111${'a'.repeat(48)}`
  const first = {path: '/data/refunds.csv', sha256: cardLike}
  const copy = {path: '/data/copy.csv', sha256: cardLike}
  const to = journalTarget(target.base_url, target.username)
  const resumedAs = async (file: string, asked: typeof first) => {
    const journal = await open(file, {input: asked})
    await journal.close()
    return [journal.resumed, journal.sameRows, journal.batch, [...journal.intents.keys()]]
  }

  it('is written in letters, which no masker cuts: a copy of the rows at another path finds the journal, and is the same batch', async () => {
    const dir = folder()
    const file = defaultJournalPath(dir, 'refund create', first, to)
    const journal = await open(file, {input: first})
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: SENT_AT})
    await journal.close()
    expect(lines(file)[0]!.input_sha256).toBe(`khhhhhhhhhhhhhhh${'a'.repeat(48)}`)
    expect(defaultJournalPath(dir, 'refund create', copy, to)).toBe(file)
    expect(await resumedAs(file, copy)).toEqual([true, true, batchName('refund create', cardLike), ['r-1']])
  })

  it('names stdin of other rows by the hex of its key, as its sha256 is known', async () => {
    const file = join(folder(), 'j.ndjson')
    await (await open(file, {input: {sha256: '0123456789abcdef'.repeat(4)}})).close()
    expect(lines(file)[0]!.input_sha256).toBe('ghijklmnopabcdef'.repeat(4))
    expect(await refusal(open(file, {input: {sha256: 'b'.repeat(64)}}))).toMatchObject({message: `${file} was written for another input (an input with sha256 0123456789ab...), and this is stdin with sha256 ${'b'.repeat(12)}...: nothing was sent`})
  })
})

describe('a merchant whose username reads as a card number (a merchant id of 16 digits)', () => {
  const rows = {path: '/data/refunds.csv', sha256: 'a'.repeat(64)}
  const copy = {path: '/data/copy.csv', sha256: 'a'.repeat(64)}
  const merchant = journalTarget('http://127.0.0.1:4010', '4111111111111111')
  // Masked alike (first six and last four), and another merchant.
  const twin = journalTarget('http://127.0.0.1:4010', '4111111000071111')

  it('is kept masked in the header, beside its key: its journal is resumed, and found for a copy of the rows; a merchant that masks alike is another', async () => {
    const dir = folder()
    const file = defaultJournalPath(dir, 'refund create', rows, merchant)
    const journal = await open(file, {input: rows, target: merchant})
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: SENT_AT})
    await journal.close()
    expect(lines(file)[0]!.target).toEqual({base_url: 'http://localhost:4010', username: '411111XXXXXX1111', key: letteredHex(inputHash('http://localhost:4010\n4111111111111111'))})
    expect(defaultJournalPath(dir, 'refund create', copy, merchant)).toBe(file)
    const again = await open(file, {input: copy, target: merchant})
    await again.close()
    expect([again.resumed, [...again.intents.keys()]]).toEqual([true, ['r-1']])
    expect(defaultJournalPath(dir, 'refund create', copy, twin)).not.toBe(file)
    expect(await refusal(open(file, {target: twin}))).toMatchObject({
      message: `${file} is the journal of this batch sent as 411111XXXXXX1111 to http://localhost:4010, and this run sends as 4111111000071111 to http://localhost:4010: nothing was sent`,
    })
  })

  it('a username kept whole is written with no key, as before', async () => {
    const file = join(folder(), 'j.ndjson')
    await (await open(file)).close()
    expect(lines(file)[0]!.target).toEqual({base_url: 'http://localhost:4010', username: 'TEST'})
  })
})

describe("an edited input's journal", () => {
  it("keeps only the entries of the input's references; rows in doubt it no longer has are told apart", async () => {
    const file = join(folder(), 'j.ndjson')
    const journal = await open(file)
    for (const [row, reference] of ['kept', 'gone-answered', 'gone-in-doubt', 'gone-failed'].entries()) await journal.intent({intent: reference, row: row + 1, line: row + 2, request: {amount: 100}, sent_at: SENT_AT})
    await journal.result({result: 'kept', status: 'approved', exit_code: 0})
    await journal.result({result: 'gone-answered', status: 'declined', exit_code: 3})
    await journal.result({result: 'gone-failed', status: 'failed', exit_code: 1})
    await journal.close()
    const again = await open(file, {references: new Set(['kept', 'new'])})
    expect([...again.intents.keys()]).toEqual(['kept'])
    expect([...again.results.keys()]).toEqual(['kept'])
    expect(again.inDoubtElsewhere).toEqual([
      {intent: 'gone-in-doubt', row: 3, line: 4, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'},
      {intent: 'gone-failed', row: 4, line: 5, request: {amount: 100}, sent_at: '2026-11-22T10:00:00.000Z'},
    ])
    await again.close()
    const whole = await open(file)
    expect([...whole.intents.keys()]).toEqual(['kept', 'gone-answered', 'gone-in-doubt', 'gone-failed'])
    expect(whole.inDoubtElsewhere).toEqual([])
    await whole.close()
  })

  it("keeps each result's gateway instance", async () => {
    const file = join(folder(), 'j.ndjson')
    const journal = await open(file)
    await journal.result({result: 'r-1', status: 'approved', exit_code: 0, gateway_instance: 'run-1'})
    await journal.close()
    const again = await open(file)
    expect(again.results.get('r-1')).toEqual({result: 'r-1', status: 'approved', exit_code: 0, gateway_instance: 'run-1'})
    await again.close()
  })
})

describe('rowChanges: a row as the file asks for it now, against what an earlier run journaled', () => {
  const request = {transaction_id: '071-P-1', amount: 500, reference: 'r-1'}

  it('finds nothing for a row the journal has not, or the same row (fields in any order, undefined ones absent)', () => {
    expect(rowChanges(undefined, request)).toEqual([])
    expect(rowChanges({request}, {reference: 'r-1', amount: 500, transaction_id: '071-P-1', currency: undefined})).toEqual([])
  })

  it('shows the amount, currency and purchase that changed, and only names other fields (a card token is never shown)', () => {
    expect(rowChanges({request}, {...request, amount: 700, transaction_id: '071-P-2'})).toEqual(['transaction_id 071-P-1, now 071-P-2', 'amount 500, now 700'])
    expect(rowChanges({request: {card_token: 'tok-secret-1', amount: 100, currency: 'AUD'}}, {card_token: 'tok-secret-2', amount: 100, currency: 'NZD'})).toEqual(['card_token changed', 'currency AUD, now NZD'])
    expect(rowChanges({request: {amount: 100, customer_ip: '10.0.0.1'}}, {amount: 100})).toEqual(['customer_ip changed'])
  })

  it('compares a full refund as the file asked for it, not the amount looked up for it', () => {
    const full = {transaction_id: '071-P-1', reference: 'r-1'}
    const journaled = {request: {...full, amount: 1000}, asked: full}
    expect(rowChanges(journaled, {...full, amount: undefined})).toEqual([])
    expect(rowChanges(journaled, {...full, amount: 1000})).toEqual(['amount blank, now 1000'])
    expect(rowChanges({request: {...full, amount: 1000}}, {...full, amount: undefined})).toEqual(['amount 1000, now blank'])
  })
})

describe('where a journal is kept by default', () => {
  const dataDir = '/data/gw'
  const named = (key: string, where: string) => join(dataDir, 'journals', `refund-create-${letteredHex(inputHash(key).slice(0, 16))}-${where}.sqlite`)

  it('is named from the input file by its real path, whatever it holds, and from the gateway and merchant, in letters', () => {
    const where = letteredHex(inputHash('http://localhost:4010\nTEST').slice(0, 8))
    const path = defaultJournalPath(dataDir, 'refund create', input, journalTarget('http://127.0.0.1:4010/', 'TEST'))
    expect(path).toBe(named('/data/refunds.csv', where))
    expect(defaultJournalPath(dataDir, 'refund create', {...input, sha256: 'b'.repeat(64)}, journalTarget('http://LOCALHOST:4010', 'TEST'))).toBe(path)
    expect(defaultJournalPath(dataDir, 'refund create', {...input, path: '/data/other.csv'}, journalTarget('http://localhost:4010', 'TEST'))).not.toBe(path)
    expect(defaultJournalPath(dataDir, 'refund create', input, journalTarget('http://localhost:4010', 'SHOP'))).not.toBe(path)
    expect(defaultJournalPath(dataDir, 'purchase create', input, journalTarget('http://localhost:4010', 'TEST'))).toBe(join(dataDir, 'journals', `purchase-create-${letteredHex(inputHash('/data/refunds.csv').slice(0, 16))}-${where}.sqlite`))
  })

  it('names stdin from its content', () => {
    const where = letteredHex(inputHash('http://localhost:4010\nTEST').slice(0, 8))
    expect(defaultJournalPath(dataDir, 'refund create', {sha256: '0123456789abcdef'.repeat(4)}, journalTarget('http://127.0.0.1:4010', 'TEST'))).toBe(join(dataDir, 'journals', `refund-create-ghijklmnopabcdef-${where}.sqlite`))
  })

  describe('begun for the same rows at another path (the file moved, copied or hard-linked), while the file has none of its own', () => {
    const to = journalTarget('http://127.0.0.1:4010', 'TEST')
    const where = inputHash('http://localhost:4010\nTEST').slice(0, 8)
    const moved = {path: '/data/moved.csv', sha256: 'a'.repeat(64)}
    /** The journal a run of the file at `path` begins, by its own name, whatever other files' journals hold. */
    const begun = async (dir: string, path: string, at: number, options: Partial<JournalOptions> = {}) => {
      const file = join(dir, 'journals', `refund-create-${letteredHex(`${inputHash(path).slice(0, 16)}-${where}`)}.sqlite`)
      await (await Journal.open(file, {command: 'refund create', input: {path, sha256: 'a'.repeat(64)}, now: new Date(now.getTime() + at), target: to, ...options})).close()
      return file
    }
    const header = (fields: Record<string, unknown>) => JSON.stringify({journal: 1, command: 'refund create', input: '/x', input_sha256: 'a'.repeat(64), target: {base_url: 'http://127.0.0.1:4010', username: 'TEST'}, created_at: '2099-01-01T00:00:00.000Z', ...fields})
    /** A journal database at `path` holding these entries. */
    const journalOf = (path: string, ...entries: string[]) => writeJournal(path, entries.map((entry) => `${entry}\n`).join(''))

    it('finds the newest of them, whichever order the folder lists them in', async () => {
      for (const [first, second] of [[1000, 2000], [2000, 1000]] as const) {
        const dir = folder()
        expect(defaultJournalPath(dir, 'refund create', moved, to)).toBe(join(dir, 'journals', `refund-create-${letteredHex(`${inputHash('/data/moved.csv').slice(0, 16)}-${where}`)}.sqlite`))
        const a = await begun(dir, '/data/a.csv', first)
        const b = await begun(dir, '/data/b.csv', second)
        await begun(dir, '/data/older.csv', -1000)
        expect(defaultJournalPath(dir, 'refund create', moved, to)).toBe(first > second ? a : b)
      }
    })

    it('never one of other rows, another command, gateway or merchant, or a file that is no journal', async () => {
      const dir = folder()
      await begun(dir, '/data/other-rows.csv', 0, {input: {path: '/data/other-rows.csv', sha256: 'b'.repeat(64)}})
      const journals = join(dir, 'journals')
      await (await Journal.open(join(journals, 'purchase-create-1.ndjson'), {command: 'purchase create', input: {path: '/data/p.csv', sha256: 'a'.repeat(64)}, now, target: to})).close()
      await (await Journal.open(join(journals, 'shop.ndjson'), {command: 'refund create', input: {path: '/data/shop.csv', sha256: 'a'.repeat(64)}, now, target: journalTarget('http://127.0.0.1:4010', 'SHOP')})).close()
      journalOf(join(journals, 'other-gateway.ndjson'), header({target: {base_url: 'http://127.0.0.1:9999', username: 'TEST'}}))
      journalOf(join(journals, 'no-address.ndjson'), header({target: {base_url: 'not an address', username: 'TEST'}}))
      journalOf(join(journals, 'no-target.ndjson'), header({target: undefined}))
      journalOf(join(journals, 'no-rows-key.ndjson'), header({input_sha256: undefined}))
      writeFileSync(join(journals, 'garbage.ndjson'), 'not a journal\n')
      writeFileSync(join(journals, 'a-lock.ndjson.lock'), '4242')
      writeFileSync(join(journals, 'empty.ndjson'), '')
      mkdirSync(join(journals, 'a-folder.ndjson'))
      expect(defaultJournalPath(dir, 'refund create', moved, to)).toBe(join(journals, `refund-create-${letteredHex(`${inputHash('/data/moved.csv').slice(0, 16)}-${where}`)}.sqlite`))
      // The same header with this gateway (spelled another way) and merchant is one.
      journalOf(join(journals, 'found.ndjson'), header({target: {base_url: 'http://LOCALHOST:4010/', username: 'TEST'}}))
      expect(defaultJournalPath(dir, 'refund create', moved, to)).toBe(join(journals, 'found.ndjson'))
    })

    it('of several begun in one millisecond, finds the first the folder lists, run after run', () => {
      const dir = folder()
      const journals = join(dir, 'journals')
      mkdirSync(journals)
      for (const name of ['one.sqlite', 'two.sqlite', 'three.sqlite']) journalOf(join(journals, name), header({}))
      const first = readdirSync(journals).filter((name) => !name.startsWith('.'))[0]!
      expect(defaultJournalPath(dir, 'refund create', moved, to)).toBe(join(journals, first))
      expect(defaultJournalPath(dir, 'refund create', moved, to)).toBe(join(journals, first))
    })

    it('passes over a file whose name begins with a dot (gw keeps its same-batch locks so), even one holding such a header', () => {
      const dir = folder()
      const journals = join(dir, 'journals')
      mkdirSync(journals)
      journalOf(join(journals, '.hidden.sqlite'), header({}))
      expect(defaultJournalPath(dir, 'refund create', moved, to)).toBe(join(journals, `refund-create-${letteredHex(`${inputHash('/data/moved.csv').slice(0, 16)}-${where}`)}.sqlite`))
    })

    it('is not looked for once the file has its own, nor for stdin, which is named from its content', async () => {
      const dir = folder()
      await begun(dir, '/data/first.csv', 0)
      const own = join(dir, 'journals', `refund-create-${letteredHex(`${inputHash('/data/moved.csv').slice(0, 16)}-${where}`)}.sqlite`)
      writeFileSync(own, '')
      expect(defaultJournalPath(dir, 'refund create', moved, to)).toBe(own)
      expect(defaultJournalPath(dir, 'refund create', {sha256: 'a'.repeat(64)}, to)).toBe(join(dir, 'journals', `refund-create-${'a'.repeat(16)}-${letteredHex(where)}.sqlite`))
    })

    it('reads a header holding the longest path Linux allows (4,096 bytes) whole', () => {
      const dir = folder()
      mkdirSync(join(dir, 'journals'))
      const long = join(dir, 'journals', 'long.ndjson')
      journalOf(long, header({input: `/${'deep/'.repeat(682)}x.csv`}), '{"intent":"r-1"}')
      expect(defaultJournalPath(dir, 'refund create', moved, to)).toBe(long)
    })
  })
})

describe('journalTarget', () => {
  it('is the merchant at the gateway in one spelling', () => {
    expect(journalTarget('http://127.0.0.1:4010/', 'TEST')).toEqual({base_url: 'http://localhost:4010', username: 'TEST'})
  })
})

describe('opening a journal, word for word', () => {
  const header = (fields: Record<string, unknown> = {}) => JSON.stringify({journal: 1, command: 'refund create', input: '/data/refunds.csv', input_sha256: 'a'.repeat(64), target: {base_url: 'http://localhost:4010', username: 'TEST'}, ...fields}) + '\n'

  it('refuses a file that is no journal (exit 2), saying so and what to do, and leaves it as it is', async () => {
    const file = join(folder(), 'notes.txt')
    writeFileSync(file, 'transaction_id,amount,reference\n')
    const error = await refusal(open(file))
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({
      exitCode: 2,
      message: `${file} is not a gw batch journal, and is left as it is: nothing was sent`,
      hint: 'Give --journal a file of its own (a new one is made), or leave --journal out for the default one.',
    })
    expect(readFileSync(file, 'utf8')).toBe('transaction_id,amount,reference\n')
  })

  it.each([2, 0, 1.5])('refuses a journal of version %s (this gw reads 1), saying what to do, and leaves it as it is (exit 2)', async (version) => {
    const file = writeJournal(join(folder(), 'j.journal'), header({journal: version}) + '{"intent":"r-1","row":1,"line":2,"request":{}}\n')
    const before = journalText(file)
    const error = await refusal(open(file))
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({
      exitCode: 2,
      message: `${file} is a gw batch journal of version ${version}, and this gw reads version 1 only: nothing was sent, and it is left as it is`,
      hint: 'Finish that batch with the gw that began it, or give this run its own --journal FILE.',
    })
    expect(journalText(file)).toBe(before)
  })

  it.each([
    ['no gateway', {target: undefined}],
    ['a gateway that is no object', {target: 'http://localhost:4010'}],
    ['no version', {journal: undefined}],
  ])('refuses a header with %s as no journal of gw’s (exit 2)', async (_, fields) => {
    const file = writeJournal(join(folder(), 'j.journal'), header(fields))
    expect(await refusal(open(file))).toMatchObject({exitCode: 2, message: `${file} is not a gw batch journal, and is left as it is: nothing was sent`})
  })

  it('refuses a journal whose first line is no header that can be read as no journal of gw’s (exit 2)', async () => {
    const file = writeJournal(join(folder(), 'j.journal'), 'transaction_id,amount,reference\n{"intent":"r-1","row":1,"line":2,"request":{}}\n')
    expect(await refusal(open(file))).toMatchObject({exitCode: 2, message: `${file} is not a gw batch journal, and is left as it is: nothing was sent`})
  })

  it.each([
    ['a line that is not JSON', '{"intent":"r-1",'],
    ['a line that is JSON but no entry', '5'],
    ['a line that is null', 'null'],
  ])('refuses a journal with %s, naming its line (exit 2)', async (_, damaged) => {
    const file = join(folder(), 'j.ndjson')
    writeJournal(file, header() + '{"intent":"r-0","row":1,"line":2,"request":{}}\n' + damaged + '\n{"result":"r-0","status":"approved","exit_code":0}\n')
    const error = await refusal(open(file))
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({
      message: `${file} line 3 cannot be read: the journal is damaged, nothing was sent`,
      hint: 'Check the rows it names with gw refund get or gw purchase get before running the batch with a new --journal.',
    })
  })

  it('ignores an entry it does not know (from a newer gw), and a later intent counts again after a withdrawal; an intent without its time gets one no clock reads', async () => {
    const file = join(folder(), 'j.ndjson')
    writeJournal(
      file,
      header() +
        ['{"intent":"r-1","row":1,"line":2,"request":{"amount":1}}', '{"withdrawn":"r-1"}', '{"something":"new"}', '{"intent":"r-2","row":2,"line":3,"request":{"amount":2}}', '{"withdrawn":"r-2"}', '{"intent":"r-2","row":2,"line":3,"request":{"amount":3}}'].join('\n') +
        '\n',
    )
    const journal = await open(file)
    expect([...journal.intents.values()]).toEqual([{intent: 'r-2', row: 2, line: 3, request: {amount: 3}, sent_at: ''}])
    await journal.close()
  })

  it('refuses a gw purchase create journal to gw refund create, saying what to do', async () => {
    const file = join(folder(), 'j.ndjson')
    await (await open(file, {command: 'purchase create'})).close()
    expect(await refusal(open(file))).toMatchObject({
      message: `${file} is the journal of a gw purchase create batch, not gw refund create: nothing was sent`,
      hint: 'Give this batch a journal of its own with --journal FILE.',
    })
  })

  it('refuses the journal of another gateway, saying what one gateway answered says of another', async () => {
    const file = join(folder(), 'j.ndjson')
    await (await open(file)).close()
    expect(await refusal(open(file, {target: {base_url: 'https://gateway.example', username: 'TEST'}}))).toMatchObject({
      hint: 'What one gateway answered says nothing of another: leave --journal out (each gateway and merchant gets a journal of its own), or give this run its own --journal FILE.',
    })
  })

  it('says what SQLite found where it cannot be read, not node:sqlite’s code', async () => {
    const file = join(folder(), 'j.ndjson')
    const malformed = Object.assign(new Error('database disk image is malformed'), {code: 'ERR_SQLITE_ERROR'})
    expect(await refusal(open(file, {disk: {read: () => Promise.reject(malformed)}}))).toMatchObject({
      message: `The batch journal ${file} cannot be read (database disk image is malformed): nothing was sent, and it is left as it is`,
    })
  })

  it('says why it cannot be read when the error has no code', async () => {
    const file = join(folder(), 'j.ndjson')
    expect(await refusal(open(file, {disk: {read: () => Promise.reject(new Error('the disk went away'))}}))).toMatchObject({
      message: `The batch journal ${file} cannot be read (the disk went away): nothing was sent, and it is left as it is`,
    })
  })

  it('names the cause when its lock cannot be made (a name too long for one), exit 1, and leaves nothing behind', async () => {
    const dir = folder()
    const file = join(dir, `${'j'.repeat(250)}.ndjson`)
    const error = await refusal(open(file))
    expect(error).toBeInstanceOf(JournalError)
    expect(error).toMatchObject({exitCode: 1, message: `The batch journal ${file} cannot be used (ENAMETOOLONG): nothing was sent`})
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('writing a journal, word for word', () => {
  it('fails a write that cannot be committed (EIO), naming the journal and what to do, and keeps none of it', async () => {
    const file = join(folder(), 'j.ndjson')
    let writes = 0
    const journal = await open(file, {
      disk: {
        append: (journalFile, entries) =>
          journalFile.append(entries, () => {
            // The intent's commit fails once its entry is in.
            if (++writes === 2) throw Object.assign(new Error('EIO: i/o error'), {code: 'EIO'})
          }),
      },
    })
    const headerLine = journalText(file)
    const error = await refusal(journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}, sent_at: SENT_AT}))
    expect(error).toBeInstanceOf(JournalError)
    expect(error).toMatchObject({
      exitCode: 1,
      message: `The batch journal ${file} cannot be written (EIO): no more rows are sent`,
      hint: 'Free space or fix permissions there, or give another --journal FILE, then run the same command again: it finishes the batch, sending only what was not sent.',
    })
    expect(journalText(file)).toBe(headerLine)
    await journal.intent({intent: 'r-2', row: 2, line: 3, request: {amount: 200}, sent_at: SENT_AT})
    await journal.close()
    expect(journalText(file)).toBe(headerLine + '{"intent":"r-2","row":2,"line":3,"request":{"amount":200},"sent_at":"2026-11-22T10:00:00.000Z"}\n')
  })

  it('writes nothing once closed: what is pending is written first, and a later entry fails', async () => {
    const file = join(folder(), 'j.ndjson')
    const journal = await open(file)
    const pending = journal.result({result: 'r-1', status: 'approved', exit_code: 0})
    await journal.close()
    await pending
    expect(lines(file).map((line) => line.result ?? line.journal)).toEqual([1, 'r-1'])
    expect(await refusal(journal.result({result: 'r-2', status: 'approved', exit_code: 0}))).toMatchObject({message: `The batch journal ${file} cannot be written (ERR_INVALID_STATE): no more rows are sent`})
  })

  it('names a cause that is no error as it is', () => {
    expect(new JournalError('/j', undefined).message).toBe('The batch journal /j cannot be written (undefined): no more rows are sent')
    expect(new JournalError('/j', 'full').message).toBe('The batch journal /j cannot be written (full): no more rows are sent')
  })
})

describe('what a journal belongs to, exactly', () => {
  it('hashes with sha256, in hex', () => {
    expect(inputHash('x')).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881')
  })
})

describe('lockSameBatch: one run at a time chooses the journal of a batch', () => {
  it('is keyed by command, rows, gateway and merchant: the same four are refused while held, naming the holder; any other is free', async () => {
    const data = folder()
    const held = lockSameBatch(data, 'refund create', input.sha256, target)
    const journals = join(data, 'journals')
    // SQLite's undo record of the lock's one (empty) transaction lies beside it while it is held.
    expect(readdirSync(journals).filter((name) => !name.endsWith('-journal'))).toEqual([`.same-batch-${inputHash(`refund create\n${input.sha256}\n${target.base_url}\n${target.username}`).slice(0, 16)}.lock`])
    // Another process holding it is named by its pid; this one, asking twice, is "another gw" too (a second batch in one process).
    expect(() => lockSameBatch(data, 'refund create', input.sha256, target)).toThrow('Another gw is starting this batch (the same rows, for the same gateway and merchant): nothing was sent')
    for (const [command, sha256, other] of [
      ['purchase create', input.sha256, target],
      ['refund create', 'b'.repeat(64), target],
      ['refund create', input.sha256, {...target, base_url: 'http://127.0.0.1:4011'}],
      ['refund create', input.sha256, {...target, username: 'ACME'}],
    ] as const) {
      lockSameBatch(data, command, sha256, other).release()
    }
    held.release()
  })

  it('refuses while another live process holds it, naming its pid and what to do', async () => {
    const data = folder()
    lockSameBatch(data, 'refund create', input.sha256, target).release()
    const lock = join(data, 'journals', `.same-batch-${inputHash(`refund create\n${input.sha256}\n${target.base_url}\n${target.username}`).slice(0, 16)}.lock`)
    const holder = await heldByAnother(lock)
    const error = (() => {
      try {
        lockSameBatch(data, 'refund create', input.sha256, target)
      } catch (err) {
        return err
      }
    })()
    expect(error).toMatchObject({
      message: `Another gw (pid ${holder.pid}) is starting this batch (the same rows, for the same gateway and merchant): nothing was sent`,
      hint: "Wait for it to finish, then run this again: it finds that batch's journal and sends only what is left.",
      exitCode: 2,
    })
    await killHolder(holder)
    lockSameBatch(data, 'refund create', input.sha256, target).release()
  })

  it('throws what is not the lock being held: no folder can be made', () => {
    const data = folder()
    writeFileSync(join(data, 'journals'), '')
    expect(() => lockSameBatch(data, 'refund create', input.sha256, target)).toThrow(/EEXIST|ENOTDIR/)
  })

  it('throws what is not the lock being held as it is: a folder in the lock file’s place is no database, not another gw', () => {
    const data = folder()
    mkdirSync(join(data, 'journals', `.same-batch-${inputHash(`refund create\n${input.sha256}\n${target.base_url}\n${target.username}`).slice(0, 16)}.lock`), {recursive: true})
    expect(() => lockSameBatch(data, 'refund create', input.sha256, target)).toThrow(/is not a SQLite database \(it is a directory\)$/)
  })
})
