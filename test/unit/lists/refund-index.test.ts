import {mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it, vi} from 'vitest'
import {InterruptedError} from '../../../src/errors.js'
import {nodeSqlite} from '../../../src/lib/locked-database.js'
import {fillIndex} from '../../../src/lists/refund-index.js'
import {RefundIndexFile, refundIndexFile} from '../../../src/lists/refund-index-file.js'
import {MemoryIndex} from '../../../src/lists/refund-index-memory.js'
import {refundBook} from '../../../src/lists/refunds-of-purchase.js'
import {liveRefund} from '../../fixtures/live-records.js'
import {afterThisTest} from '../../after-each-test.js'
import {fakeClient} from '../operations/fake-client.js'
import {testBook} from './test-book.js'
import {testIo} from '../../test-io.js'

// gw's index of a merchant's refunds (design.md §5, costs that do not grow with history): one walk
// fills it, after that only the pages newer than what it holds are read, and a walk stopped midway
// keeps what it read.

type Rec = Record<string, unknown>
const MINUTE = 60_000
const T0 = Date.parse('2026-09-01T00:00:00Z')

/** A refund made `minute` minutes after T0, on the fixture's card unless told. */
const refund = (n: number, minute = n, extra: Rec = {}): Rec => ({...liveRefund, id: `R-${n}`, reference: `ref-${n}`, transaction_date: new Date(T0 + minute * MINUTE).toISOString(), ...extra})

/**
 * A gateway's refunds list, newest first, 50 a page, narrowed by `from` and `to` as the gateway
 * narrows it (whole days; gw asks a day either side); `fail` makes the page at that offset fail.
 */
function gateway(records: Rec[]) {
  const state = {records, fail: undefined as number | undefined, pages: [] as number[]}
  const fake = fakeClient({
    'refunds.list': async ({offset, limit, from, to}: {offset: number; limit: number; from?: string; to?: string}) => {
      if (offset === state.fail) throw new InterruptedError('SIGINT')
      state.pages.push(offset)
      const since = from === undefined ? -Infinity : Date.parse(from.replaceAll('/', '-') + 'T00:00:00Z')
      const until = to === undefined ? Infinity : Date.parse(to.replaceAll('/', '-') + 'T23:59:59.999Z')
      const inDays = (record: Rec) => Date.parse(String(record.transaction_date)) >= since && Date.parse(String(record.transaction_date)) <= until
      const newest = state.records.filter(inDays).sort((a, b) => Date.parse(String(b.transaction_date)) - Date.parse(String(a.transaction_date)))
      return {records: newest.slice(offset, offset + limit), paging: {page: offset / limit, pages: Math.ceil(newest.length / limit), total: newest.length}}
    },
  })
  return {...fake, state}
}

function opened(): RefundIndexFile {
  const index = RefundIndexFile.open(mkdtempSync(join(tmpdir(), 'gw-index-')), {base_url: 'https://gateway.example', username: 'merchant'}, undefined)
  afterThisTest(() => index.close())
  return index
}

const fill = {concurrency: 1}
const ids = (records: Rec[]) => records.map((record) => record.id)

describe('filling the index', () => {
  it('walks back to the purchase once; after that reads only the page newer than what it holds', async () => {
    const history = Array.from({length: 230}, (_, i) => refund(i + 1))
    const {client, state} = gateway(history)
    const index = opened()
    await fillIndex(index, T0 + 20 * MINUTE, async () => 1000, {...fill, topUp: true}, {client})
    expect(state.pages).toEqual([0, 50, 100, 150, 200])
    expect(index.walked()).toEqual({coveredFrom: T0 + 20 * MINUTE, newest: T0 + 230 * MINUTE})
    state.pages.length = 0
    state.records = [...history, refund(231), refund(232)]
    await fillIndex(index, T0 + 20 * MINUTE, async () => 1000, {...fill, topUp: true}, {client})
    expect(state.pages).toEqual([0])
    expect(index.walked()).toEqual({coveredFrom: T0 + 20 * MINUTE, newest: T0 + 232 * MINUTE})
    expect(ids(index.onCard('2346\njane citizen', T0 + 229 * MINUTE))).toEqual(['R-232', 'R-231', 'R-230', 'R-229'])
  })

  it('a top-up reads down past the newest held by the processing window: a refund listed late is not missed', async () => {
    const {client, state} = gateway([refund(1), refund(2), refund(3)])
    const index = opened()
    await fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client})
    // Made a minute before the newest held, listed only now: within a window of two minutes.
    state.records = [...state.records, refund(9, 2)]
    await fillIndex(index, T0, async () => 2 * MINUTE, {...fill, topUp: true}, {client})
    expect(ids(index.onCard('2346\njane citizen', T0))).toEqual(['R-3', 'R-9', 'R-2', 'R-1'])
  })

  it('a purchase older than what is held walks back only the span between', async () => {
    const history = Array.from({length: 120}, (_, i) => refund(i + 1))
    const {client, state} = gateway(history)
    const index = opened()
    await fillIndex(index, T0 + 100 * MINUTE, async () => 0, {...fill, topUp: true}, {client})
    state.pages.length = 0
    await fillIndex(index, T0 + 10 * MINUTE, async () => 0, {...fill, topUp: false}, {client})
    expect(index.walked()).toEqual({coveredFrom: T0 + 10 * MINUTE, newest: T0 + 120 * MINUTE})
    expect(index.onCard('2346\njane citizen', T0 + 10 * MINUTE)).toHaveLength(111)
  })

  it('a walk stopped midway keeps the pages it read, and the next goes on from there', async () => {
    const history = Array.from({length: 150}, (_, i) => refund(i + 1))
    const {client, state} = gateway(history)
    const index = opened()
    state.fail = 100
    await expect(fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client})).rejects.toBeInstanceOf(InterruptedError)
    // The newest 100 are held whole: every refund after the oldest one read.
    expect(index.walked()).toEqual({coveredFrom: T0 + 51 * MINUTE + 1, newest: T0 + 150 * MINUTE})
    state.fail = undefined
    state.pages.length = 0
    await fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client})
    expect(index.walked()).toEqual({coveredFrom: T0, newest: T0 + 150 * MINUTE})
    expect(index.onCard('2346\njane citizen', T0)).toHaveLength(150)
  })

  it('keeps the order the gateway lists refunds of one second in, across walks; a record read again keeps its place and takes its new words', async () => {
    const {client, state} = gateway([refund(1, 5), refund(2, 5), refund(3, 5)])
    // The gateway lists, R-1 (its own order within the second), newest first.
    state.records = [refund(3, 5), refund(2, 5), refund(1, 5)]
    const index = opened()
    await fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client})
    state.records = [refund(4, 5), ...state.records.map((record) => (record.id === 'R-2' ? {...record, message: 'Voided'} : record))]
    await fillIndex(index, T0, async () => MINUTE, {...fill, topUp: true}, {client})
    const held = index.onCard('2346\njane citizen', T0)
    expect(ids(held)).toEqual(['R-4', 'R-3', 'R-2', 'R-1'])
    expect(held[2]!.message).toBe('Voided')
  })

  it('a top-up reads on while the pages hold refunds of the newest held (less the window): 120 new ones of one minute are all read', async () => {
    const {client, state} = gateway(Array.from({length: 60}, (_, i) => refund(i + 1)))
    const index = opened()
    await fillIndex(index, T0, async () => MINUTE, {...fill, topUp: true}, {client})
    state.pages.length = 0
    // The gateway lists refunds of one second in the order it made them, newest first.
    const burst = Array.from({length: 120}, (_, i) => refund(1000 + i, 100))
    state.records = [...burst.toReversed(), ...state.records]
    await fillIndex(index, T0, async () => MINUTE, {...fill, topUp: true}, {client})
    // A first page of one second only: the list's last is read to learn its order (api/paging.ts), then each page down to the held ones.
    expect(new Set(state.pages)).toEqual(new Set([0, 50, 100, 150]))
    const held = index.onCard('2346\njane citizen', T0 + 100 * MINUTE)
    expect(ids(held)).toEqual(ids(burst.toReversed()))
    expect(index.walked()).toEqual({coveredFrom: T0, newest: T0 + 100 * MINUTE})
  })

  it('keeps the gateway’s order of refunds of one second across the pages of a first walk, and below those held for a walk further back', async () => {
    const newer = Array.from({length: 70}, (_, i) => refund(i + 1, 50))
    const older = Array.from({length: 70}, (_, i) => refund(i + 101, 10))
    const {client} = gateway([])
    const index = opened()
    // Listed as the gateway lists them: the last made first.
    const listing = (records: Rec[]) => fakeClient({'refunds.list': ({offset, limit}: {offset: number; limit: number}) => ({records: records.slice(offset, offset + limit), paging: {page: offset / limit, pages: Math.ceil(records.length / limit), total: records.length}})}).client
    await fillIndex(index, T0 + 50 * MINUTE, async () => 0, {...fill, topUp: true}, {client: listing(newer.toReversed())})
    await fillIndex(index, T0 + 10 * MINUTE, async () => 0, {...fill, topUp: false}, {client: listing([...newer.toReversed(), ...older.toReversed()])})
    expect(ids(index.onCard('2346\njane citizen', T0))).toEqual([...ids(newer.toReversed()), ...ids(older.toReversed())])
    void client
  })

  it('a purchase with no date reads every refund, whenever made; a page of undated refunds proves nothing held', async () => {
    const {client, state} = gateway([refund(1), refund(2)])
    const book = testBook(client)
    expect(ids(await book.onCard({card_number: '512345XXXXXX2346', card_holder: 'Jane Citizen'}, undefined, fill))).toEqual(['R-2', 'R-1'])
    // Asked with no from: the gateway was asked for every day.
    expect(state.pages).toEqual([0])
    const undated = opened()
    const {client: blank} = gateway([{...refund(3), transaction_date: undefined}])
    await fillIndex(undated, T0, async () => 0, {...fill, topUp: true}, {client: blank})
    expect(undated.walked()).toEqual({coveredFrom: T0, newest: T0})
  })

  it('asks the gateway for the days since the purchase only', async () => {
    const DAY = 24 * 60 * MINUTE
    const {client, calls, state} = gateway(Array.from({length: 100}, (_, i) => refund(i + 1, (i * DAY) / MINUTE)))
    const index = opened()
    await fillIndex(index, T0 + 80 * DAY, async () => 0, {...fill, topUp: true}, {client})
    // From the day before (its days may be another zone's): 21 refunds since, and the one before, on one page.
    expect(calls.map((call) => (call.args[0] as {from?: string}).from)).toEqual(['2026/11/19'])
    expect(state.pages).toEqual([0])
    expect(index.onCard('2346\njane citizen', T0 + 80 * DAY)).toHaveLength(20)
  })

  it('a top-up reads as many pages as the window below the newest held takes: one made within it and listed late is kept', async () => {
    const {client, state} = gateway(Array.from({length: 100}, (_, i) => refund(i + 1)))
    const index = opened()
    await fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client})
    state.records = [...state.records, refund(999, 45)]
    state.pages.length = 0
    await fillIndex(index, T0, async () => 60 * MINUTE, {...fill, topUp: true}, {client})
    // Down to minute 40, on the second page (the list's reader asks for the page after it meanwhile).
    expect(state.pages.slice(0, 2)).toEqual([0, 50])
    expect(ids(index.onCard('2346\njane citizen', T0 + 45 * MINUTE))).toContain('R-999')
  })

  it('refunds of one second met by one top-up after another are held in the order the gateway lists them', async () => {
    const {client, state} = gateway([refund(1, 5)])
    const index = opened()
    const topUp = () => fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client})
    await topUp()
    state.records = [refund(3, 10), refund(2, 10), ...state.records]
    await topUp()
    state.records = [refund(5, 10), refund(4, 10), ...state.records]
    await topUp()
    expect(ids(index.onCard('2346\njane citizen', T0))).toEqual(['R-5', 'R-4', 'R-3', 'R-2', 'R-1'])
  })

  it('an empty list walked, then refunds made: the top-up and a walk further back rank them as the gateway lists them', async () => {
    const {client, state} = gateway([])
    const index = opened()
    await fillIndex(index, T0 + 20 * MINUTE, async () => 0, {...fill, topUp: true}, {client})
    expect(index.ranks()).toBeUndefined()
    await fillIndex(index, T0 + 10 * MINUTE, async () => 0, {...fill, topUp: false}, {client})
    state.records = [refund(2, 30), refund(1, 30)]
    await fillIndex(index, T0 + 20 * MINUTE, async () => 0, {...fill, topUp: true}, {client})
    expect(ids(index.onCard('2346\njane citizen', T0))).toEqual(['R-2', 'R-1'])
  })

  it('a top-up reads on past a page whose oldest refund is the window’s edge itself', async () => {
    const {client, state} = gateway([refund(1, 5)])
    const index = opened()
    await fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client})
    // 49 newer, then R-1 at minute 5 on the first page; R-2, of the same minute and listed after it, on the second.
    const newer = Array.from({length: 49}, (_, i) => refund(100 + i, 11 + i))
    const listing = [...newer.toReversed(), refund(1, 5), refund(2, 5), refund(3, 1)]
    const {client: paged} = fakeClient({'refunds.list': ({offset, limit}: {offset: number; limit: number}) => ({records: listing.slice(offset, offset + limit), paging: {page: offset / limit, pages: Math.ceil(listing.length / limit), total: listing.length}})})
    void state
    await fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client: paged})
    expect(ids(index.onCard('2346\njane citizen', T0))).toContain('R-2')
  })

  it('a walk further back asks for the days between only', async () => {
    const DAY = 24 * 60 * MINUTE
    const {client, state} = gateway(Array.from({length: 300}, (_, i) => refund(i + 1, (Math.floor(i / 3) * DAY) / MINUTE)))
    const index = opened()
    await fillIndex(index, T0 + 80 * DAY, async () => 0, {...fill, topUp: true}, {client})
    state.pages.length = 0
    await fillIndex(index, T0 + 10 * DAY, async () => 0, {...fill, topUp: false}, {client})
    // Days 9 to 81 (a day either side, whatever the gateway's zone): 219 refunds, 5 pages.
    expect(state.pages).toEqual([0, 50, 100, 150, 200])
  })

  it('refunds of one second the first walk stopped in the middle of: the rest ranked after those it held', async () => {
    const newest = refund(99, 31)
    const tied = Array.from({length: 60}, (_, i) => refund(i + 1, 30))
    const older = Array.from({length: 20}, (_, i) => refund(100 + i, 20 - i))
    const all = [newest, ...tied.toReversed(), ...older]
    let fail: number | undefined = 50
    const {client} = fakeClient({
      'refunds.list': ({offset, limit}: {offset: number; limit: number}) => {
        if (offset === fail) throw new InterruptedError('SIGINT')
        return {records: all.slice(offset, offset + limit), paging: {page: offset / limit, pages: Math.ceil(all.length / limit), total: all.length}}
      },
    })
    const index = opened()
    await expect(fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client})).rejects.toBeInstanceOf(InterruptedError)
    // The first page's 49 of that second are held; the 11 after them on the next page are not yet.
    expect(index.walked()).toEqual({coveredFrom: T0 + 30 * MINUTE + 1, newest: T0 + 31 * MINUTE})
    fail = undefined
    await fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client})
    expect(ids(index.onCard('2346\njane citizen', T0 + 30 * MINUTE))).toEqual(ids([newest, ...tied.toReversed()]))
  })

  it('a purchase with no date and refunds with none: nothing is claimed held beyond what the walk began at; a page with undated refunds still moves the newest', async () => {
    /** A list of exactly these pages, as a gateway that dates some records and not others might send them. */
    const pages = (...answers: Rec[][]) =>
      fakeClient({'refunds.list': ({offset, limit}: {offset: number; limit: number}) => ({records: answers[offset / limit] ?? [], paging: {page: offset / limit, pages: answers.length, total: answers.flat().length}})}).client
    const undated = opened()
    await fillIndex(undated, -8.64e15, async () => 0, {...fill, topUp: true}, {client: pages([{...refund(1), transaction_date: undefined}])})
    expect(undated.walked()).toEqual({coveredFrom: -8.64e15, newest: -8.64e15})
    const index = opened()
    await fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client: pages([refund(1, 1)])})
    await fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client: pages([refund(2, 9), {...refund(3), transaction_date: undefined}, refund(1, 1)])})
    expect(index.walked()).toEqual({coveredFrom: T0, newest: T0 + 9 * MINUTE})
    // A first walk whose first page holds no date at all claims nothing of it, and goes on.
    const mixed = opened()
    await fillIndex(mixed, -8.64e15, async () => 0, {...fill, topUp: true}, {client: pages([{...refund(5), transaction_date: undefined}], [refund(4, 4)])})
    expect(mixed.walked()).toEqual({coveredFrom: -8.64e15, newest: T0 + 4 * MINUTE})
  })

  it('keeps card numbers masked: a reference that holds one is kept masked, and found only by the gateway', async () => {
    const {client} = gateway([refund(1, 1, {reference: 'r 4242424242424242'})])
    const index = opened()
    await fillIndex(index, T0, async () => 0, {...fill, topUp: true}, {client})
    expect(index.byReference('r 4242424242424242')).toEqual([])
    expect(index.onCard('2346\njane citizen', T0)[0]!.reference).toBe('r 424242XXXXXX4242')
    const book = testBook(client)
    expect(await book.underReference('r 4242424242424242', T0, fill)).toBeUndefined()
  })
})

describe('a command’s book of refunds', () => {
  it('brings the index up to date once a command, however many purchases ask', async () => {
    const {client, state} = gateway([refund(1), refund(2)])
    const book = testBook(client)
    const purchase = {card_number: '512345XXXXXX2346', card_holder: 'Jane Citizen'}
    expect(ids(await book.onCard(purchase, T0, fill))).toEqual(['R-2', 'R-1'])
    state.records.push(refund(3))
    expect(ids(await book.onCard(purchase, T0, fill))).toEqual(['R-2', 'R-1'])
    expect(state.pages).toEqual([0])
    // The next command reads the page newer than what the index holds.
    const next = testBook(client, book.dataDir)
    expect(ids(await next.onCard(purchase, T0, fill))).toEqual(['R-3', 'R-2', 'R-1'])
    expect(state.pages).toEqual([0, 0])
  })

  it("an index that cannot be opened: said once on the command's stderr, as gw's other warnings are, and the command reads the gateway instead", async () => {
    const {client} = gateway([refund(1)])
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-book-'))
    mkdirSync(refundIndexFile(dataDir))
    const io = testIo()
    const book = refundBook({dataDir, io, target: async () => ({baseUrl: 'https://gateway.example', username: 'merchant'})}, client)
    afterThisTest(() => book.close())
    const purchase = {card_number: '512345XXXXXX2346', card_holder: 'Jane Citizen'}
    expect(ids(await book.onCard(purchase, T0, fill))).toEqual(['R-1'])
    expect(ids(await book.onCard(purchase, T0, fill))).toEqual(['R-1'])
    expect(io.stderr()).toMatch(/^Warning: gw could not use its index of refunds \(.+\): it reads them from the gateway for this command, which takes more requests\.\n$/)
    expect(io.stdout()).toBe('')
  })

  it('a file that is no database: the same', async () => {
    const {client} = gateway([refund(1)])
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-book-'))
    writeFileSync(refundIndexFile(dataDir), 'not a database, but long enough to be read as a header by SQLite: '.repeat(20))
    const book = testBook(client, dataDir)
    expect(ids(await book.onCard({card_number: '512345XXXXXX2346', card_holder: 'Jane Citizen'}, T0, fill))).toEqual(['R-1'])
    expect(book.warned).toHaveLength(1)
  })

  it('an index of another version (this gw keeps 1): said once, naming it and what to do, the gateway read instead, and the file left as it is', async () => {
    const {client} = gateway([refund(1)])
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-book-'))
    const db = new (nodeSqlite().DatabaseSync)(refundIndexFile(dataDir))
    db.exec('CREATE TABLE refunds (id TEXT); PRAGMA user_version = 2')
    db.close()
    const before = readFileSync(refundIndexFile(dataDir))
    const book = testBook(client, dataDir)
    expect(ids(await book.onCard({card_number: '512345XXXXXX2346', card_holder: 'Jane Citizen'}, T0, fill))).toEqual(['R-1'])
    expect(book.warned).toEqual([
      `gw could not use its index of refunds (${refundIndexFile(dataDir)} is of version 2, and this gw reads version 1 only: remove it, and gw makes it again): it reads them from the gateway for this command, which takes more requests.`,
    ])
    expect(readFileSync(refundIndexFile(dataDir)).equals(before)).toBe(true)
  })

  it('asks the gateway for another purchase by its reference once, and keeps the answer for the next command', async () => {
    const asked: string[] = []
    const other = {id: '071-P-OTHER001', reference: 'order-9', card_number: '512345XXXXXX2346', transaction_date: new Date(T0).toISOString()}
    const {client} = fakeClient({
      'purchases.get': (reference: string) => (asked.push(reference), reference === 'order-9' ? other : Promise.reject(new (class extends Error {})('odd'))),
      'refunds.list': () => ({records: [], paging: {page: 0, pages: 1, total: 0}}),
    })
    const book = testBook(client)
    await book.onCard({}, T0, fill)
    const wanted = new Map([['order-9', T0 + MINUTE]])
    expect([...(await book.purchasesNamed(wanted, 2)).keys()]).toEqual(['order-9'])
    expect([...(await book.purchasesNamed(wanted, 2)).keys()]).toEqual(['order-9'])
    const next = testBook(client, book.dataDir)
    expect([...(await next.purchasesNamed(wanted, 2)).keys()]).toEqual(['order-9'])
    expect(asked).toEqual(['order-9'])
  })

  it('a refund gw voided is kept voided in the index, for the commands after it', async () => {
    // The refund voided is an old one, past the first page: a later command does not read it again.
    const {client, state} = gateway(Array.from({length: 60}, (_, i) => refund(i + 1)))
    const book = testBook(client)
    const purchase = {card_number: '512345XXXXXX2346', card_holder: 'Jane Citizen'}
    await book.onCard(purchase, T0, fill)
    await book.keep({...refund(1), message: 'Voided', refunded: 'Voided'})
    const next = testBook(client, book.dataDir)
    expect((await next.onCard(purchase, T0, fill)).at(-1)).toMatchObject({id: 'R-1', message: 'Voided'})
    expect(state.pages).toEqual([0, 50, 0])
  })

  it('a local gateway’s new run of its data: the refunds of its earlier runs are forgotten', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-runs-'))
    const target = {base_url: 'http://127.0.0.1:8787', username: 'TEST'}
    const first = RefundIndexFile.open(dataDir, target, 'run-a')
    first.keep([refund(1)], {coveredFrom: T0, newest: T0 + MINUTE})
    first.close()
    const other = RefundIndexFile.open(dataDir, {...target, username: 'OTHER'}, 'run-a')
    other.keep([refund(2)], {coveredFrom: T0, newest: T0 + 2 * MINUTE})
    other.close()
    const second = RefundIndexFile.open(dataDir, target, 'run-b')
    afterThisTest(() => second.close())
    expect(second.walked()).toBeUndefined()
    second.keep([refund(3)], {coveredFrom: T0, newest: T0 + 3 * MINUTE})
    const again = RefundIndexFile.open(dataDir, target, 'run-a')
    afterThisTest(() => again.close())
    expect(again.walked()).toBeUndefined()
    expect(again.onCard('2346\njane citizen', T0)).toEqual([])
    // Another merchant's runs are its own.
    const theirs = RefundIndexFile.open(dataDir, {...target, username: 'OTHER'}, 'run-a')
    afterThisTest(() => theirs.close())
    expect(ids(theirs.onCard('2346\njane citizen', T0))).toEqual(['R-2'])
  })

  it('a purchase whose card’s refunds could not be read is decided afresh by the next, not failed again', async () => {
    const {client, state} = gateway([refund(1, 1, {amount: 3000})])
    state.fail = 0
    const book = testBook(client)
    const purchase = {card_number: '512345XXXXXX2346', card_holder: 'Jane Citizen', amount: 5000, transaction_date: new Date(T0).toISOString()}
    await expect(book.decide(purchase, T0, undefined, fill)).rejects.toBeInstanceOf(InterruptedError)
    state.fail = undefined
    expect(await book.decide(purchase, T0, undefined, fill)).toMatchObject({left: 5000, leftAtLeast: 2000})
  })

  it('an index in memory answers as the file does', async () => {
    const memory = new MemoryIndex()
    const {client} = gateway([refund(1), refund(2, 2, {card_holder: 'Other'})])
    await fillIndex(memory, T0, async () => 0, {...fill, topUp: true}, {client})
    expect(ids(memory.onCard('2346\njane citizen', T0))).toEqual(['R-1'])
    expect(ids(memory.byReference('ref-2'))).toEqual(['R-2'])
    expect(memory.heldReferences(['ref-9', 'ref-2', 'ref-2', 'ref-1']).sort()).toEqual(['ref-1', 'ref-2'])
    expect(memory.heldReferences(['ref-9'])).toEqual([])
    expect(memory.walked()).toEqual({coveredFrom: T0, newest: T0 + 2 * MINUTE})
  })
})

describe('a batch’s references (costs that grow with its rows, not one query each)', () => {
  /** A batch's references in its rows' order: 600 new ones, and among them two the index holds. */
  const batchReferences = () => new Set(['ref-2', ...Array.from({length: 600}, (_, n) => `new-${n}`), 'r 4242424242424242', 'ref-3'])

  it('which of them the index holds is read once, 500 a query; those it holds are read each, the rest answered none unasked', async () => {
    const {client} = gateway([refund(1), refund(2), refund(3)])
    const book = testBook(client)
    const held = vi.spyOn(RefundIndexFile.prototype, 'heldReferences')
    const byReference = vi.spyOn(RefundIndexFile.prototype, 'byReference')
    afterThisTest(() => (held.mockRestore(), byReference.mockRestore()))
    const references = batchReferences()
    book.expect(references)
    const found = new Map<string, unknown>()
    for (const reference of references) found.set(reference, await book.underReference(reference, T0, fill))
    expect(ids(found.get('ref-2') as Rec[])).toEqual(['R-2'])
    expect(ids(found.get('ref-3') as Rec[])).toEqual(['R-3'])
    expect(found.get('new-0')).toEqual([])
    expect(found.get('new-599')).toEqual([])
    // Kept masked: only the gateway can tell, as before.
    expect(found.get('r 4242424242424242')).toBeUndefined()
    expect(held.mock.calls.map(([asked]) => asked.length)).toEqual([500, 102])
    expect(held.mock.calls.flatMap(([asked]) => asked)).not.toContain('r 4242424242424242')
    expect(byReference.mock.calls).toEqual([['ref-2'], ['ref-3']])
    // One the batch does not give is asked of the index as before.
    expect(ids((await book.underReference('ref-1', T0, fill))!)).toEqual(['R-1'])
    expect(byReference.mock.calls.at(-1)).toEqual(['ref-1'])
  })

  it('a walk further back, after they were read: what its pages hold under them is found', async () => {
    const {client, state} = gateway([refund(1), refund(2)])
    const book = testBook(client)
    book.expect(new Set(['ref-2', 'ref-7', 'new-1']))
    expect(await book.underReference('new-1', T0, fill)).toEqual([])
    expect(await book.underReference('ref-7', T0, fill)).toEqual([])
    // An older purchase's row: the walk back to it reads a refund under one of the batch's references.
    state.records.push(refund(7, -180))
    expect(ids((await book.underReference('ref-7', T0 - 240 * MINUTE, fill))!)).toEqual(['R-7'])
    expect(ids((await book.underReference('ref-2', T0 - 240 * MINUTE, fill))!)).toEqual(['R-2'])
  })

  it('an index that cannot be opened: the one in memory is read for them the same way', async () => {
    const {client} = gateway([refund(1), refund(2)])
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-book-'))
    mkdirSync(refundIndexFile(dataDir))
    const book = testBook(client, dataDir)
    book.expect(new Set(['ref-2', 'new-1']))
    expect(ids((await book.underReference('ref-2', T0, fill))!)).toEqual(['R-2'])
    expect(await book.underReference('new-1', T0, fill)).toEqual([])
    expect(book.warned).toHaveLength(1)
  })

  it('the file answers which it holds, each once', () => {
    const index = opened()
    index.keep([refund(1), refund(2), refund(3, 3, {reference: 'ref-2'})])
    expect(index.heldReferences([]).sort()).toEqual([])
    expect(index.heldReferences(['ref-9', 'ref-2', 'ref-1', 'ref-2']).sort()).toEqual(['ref-1', 'ref-2'])
  })
})
