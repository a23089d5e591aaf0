import {linkSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {nodeSqlite} from '../../../src/lib/locked-database.js'
import {Journal} from '../../../src/sandbox/server/journal.js'
import {isMountPoint, openState, type OpenState} from '../../../src/sandbox/server/persist.js'
import {platformOf} from '../../../src/lib/platform.js'
import {StateFileError, UnsavedChangeError} from '../../../src/sandbox/server/state-file-error.js'
import type {StateWrite} from '../../../src/sandbox/server/state-database.js'
import {Store} from '../../../src/sandbox/domain/store.js'
import {aCard, aPurchase, aRefund} from './fixtures.js'
import {expectReject, expectThrow} from '../../expect-error.js'
import {rowsOf, runSql, stateIn, stateOnDisk} from '../../sandbox/state-file.js'

const tempDir = () => mkdtempSync(join(tmpdir(), 'gw-sandbox-'))
const SQLITE_HEADER = 'SQLite format 3\0'
const header = (file: string) => readFileSync(file).subarray(0, 16).toString('latin1')

/** The error SQLite gives for a disk that fails. */
const ioError = () => Object.assign(new Error('disk I/O error'), {code: 'ERR_SQLITE_ERROR', errcode: 10, errstr: 'disk I/O error'})

/**
 * A disk on which the `nth` write whose step matches fails with an I/O error: before the step
 * runs, or once it has (a sync that failed after the data went out). Counts the steps matched.
 */
function failing(step: RegExp, nth = 1, when: 'before' | 'after' = 'before'): StateWrite & {seen: () => number} {
  let seen = 0
  const write = ((name, run) => {
    if (!step.test(name) || ++seen !== nth) return run()
    if (when === 'after') run()
    throw ioError()
  }) as StateWrite & {seen: () => number}
  write.seen = () => seen
  return write
}

// Every state file and journal is let go of after its test, so its lock does not outlive it.
const opened: {state: OpenState; journal?: Journal}[] = []
afterEach(() => {
  for (const {state, journal} of opened.splice(0)) {
    try {
      journal?.close()
    } catch {
      // A test's failing disk may refuse the last snapshot too.
    }
    state.close()
  }
})

function open(file: string, write?: StateWrite): OpenState {
  const state = openState(file, write)
  opened.push({state})
  return state
}

/** A journal on a state file, on a disk that `disk(write)` makes fail from then on. */
function start(file: string): {state: OpenState; journal: Journal; store: Store; disk(write: StateWrite): void} {
  let current: StateWrite = (_, run) => run()
  const state = open(file, (step, run) => current(step, run))
  const journal = Journal.start(state)
  opened.at(-1)!.journal = journal
  return {state, journal, store: state.store, disk: (write) => (current = write)}
}

describe('state file', () => {
  it('is a SQLite database made in a folder 0700, itself 0600, nothing else beside it; it round-trips every record', async () => {
    const dir = tempDir()
    const file = join(dir, 'nested', 'state.json')
    const {journal, store, state} = start(file)
    store.save('cards', 'TEST', aCard('testtoken00000000000', 'jo'))
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    store.save('refunds', 'ACME', aRefund('512-R-AAAAAAAA', 'refund-1', '512-P-AAAAAAAA', 100))
    await journal.commit()
    journal.close()
    state.close()

    expect(header(file)).toBe(SQLITE_HEADER)
    expect(stateIn(file).snapshot()).toEqual(store.snapshot())
    expect(readdirSync(join(dir, 'nested'))).toEqual(['state.json'])
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700)
    expect(rowsOf(file).snapshot).not.toMatch(/"cvv"/i)
  })

  it('starts empty when the file does not exist, or is empty, and makes it a state file', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'empty.json'), '')
    for (const name of ['missing.json', 'empty.json']) {
      expect(stateIn(join(dir, name)).snapshot()).toEqual({merchants: {}})
      expect(rowsOf(join(dir, name))).toEqual({snapshot: '{"merchants":{}}', batches: []})
    }
  })

  it.each([
    ['not json', 'not json', 'not a SQLite database'],
    ['a JSON document', '{"version":1,"merchants":{}}', 'not a SQLite database'],
    ["SQLite's header, then no database", `${SQLITE_HEADER}and then no database at all, however long it goes on`.repeat(20), 'its first bytes are no database header'],
  ])('refuses a file that is not a state file, and leaves it as it was: %s', (_, text, reason) => {
    const dir = tempDir()
    const file = join(dir, 'state.json')
    writeFileSync(file, text)
    expectThrow(() => openState(file), StateFileError, `${file} is not a gw sandbox state file (${reason}`)
    expect(readFileSync(file, 'latin1')).toBe(text)
    expect(readdirSync(dir)).toEqual(['state.json'])
  })

  it("refuses another program's database, and leaves it as it was", () => {
    const file = join(tempDir(), 'state.json')
    const {DatabaseSync} = nodeSqlite()
    const db = new DatabaseSync(file)
    db.exec('CREATE TABLE notes (text TEXT)')
    db.close()
    const before = readFileSync(file)
    expectThrow(() => openState(file), StateFileError, `${file} is not a gw sandbox state file (another program's SQLite database); move it away or pick another file`)
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it.each([0, 2, 3, 4])('refuses a state file of layout %i (this gw reads 1), saying what to do, and leaves it as it was', (layout) => {
    const file = join(tempDir(), 'state.json')
    const {DatabaseSync} = nodeSqlite()
    const db = new DatabaseSync(file)
    db.exec(`PRAGMA application_id = 1735881570; PRAGMA user_version = ${layout}; CREATE TABLE snapshot (state TEXT)`)
    db.close()
    const before = readFileSync(file)
    const error = expectThrow(() => openState(file), StateFileError, `${file} is a gw sandbox state file of layout ${layout}, and this gw reads layout 1 only`)
    expect(error.hint).toBe('Run it with the gw that wrote it, or give this one another --state file: gw never overwrites a file it cannot read.')
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it('refuses a directory, naming it', () => {
    const dir = tempDir()
    expectThrow(() => openState(dir), StateFileError, `${dir} is not a gw sandbox state file (it is a directory)`)
  })

  it('refuses a snapshot with a wrong shape, naming the first bad path; a change with one, naming its batch', async () => {
    const file = join(tempDir(), 'state.json')
    stateIn(file)
    const purchase = {...aPurchase('071-P-AAAAAAAA', 'order-1'), amount: '1000'}
    runSql(file, 'UPDATE snapshot SET state = ?', JSON.stringify({merchants: {TEST: {purchases: {[purchase.id]: purchase}}}}))
    expectThrow(() => openState(file), StateFileError, `${file} is not a gw sandbox state file (snapshot, merchants.TEST.purchases.071-P-AAAAAAAA.amount: Invalid input: expected number, received string)`)
    runSql(file, 'UPDATE snapshot SET state = ?', '{"merchants":{}}')
    runSql(file, 'INSERT INTO changes (batch, changes) VALUES (7, ?)', JSON.stringify([{op: 'put', collection: 'purchases', merchant: 'TEST', record: {id: 1}}]))
    expectThrow(() => openState(file), StateFileError, `${file} is not a gw sandbox state file (change batch 7, 0.record.id: Invalid input: expected string, received number)`)
    runSql(file, 'UPDATE changes SET changes = ?', '[{"op":')
    expectThrow(() => openState(file), StateFileError, `${file} is not a gw sandbox state file (change batch 7, not JSON)`)
  })

  it('refuses a record filed under a key that is not its own', () => {
    const file = join(tempDir(), 'state.json')
    stateIn(file)
    runSql(file, 'UPDATE snapshot SET state = ?', JSON.stringify({merchants: {TEST: {purchases: {other: aPurchase('071-P-AAAAAAAA', 'o')}}}}))
    expectThrow(() => openState(file), StateFileError, 'snapshot, merchants.TEST.purchases.other.id: must be "other", the key it is filed under')
  })

  it('keeps the virtual date, the card notices sent and the deliveries still queued', async () => {
    const file = join(tempDir(), 'state.json')
    const {journal, store, state} = start(file)
    const card = aCard('testtoken00000000000')
    store.today = '2027-01-05'
    store.recordCardNotice(card, 'card:expiring')
    store.enqueueDelivery({
      id: 'd1',
      target: {hook_id: '071-WH-AAAAAAAA', address: 'http://127.0.0.1:9/hooks', username: null, password: null},
      event: 'card:expiring',
      payload: [{id: '071-C-AAAAAAAA'}],
      attempts: 2,
      last_error: 'ECONNREFUSED',
    })
    await journal.commit()
    journal.close()
    state.close()

    const loaded = stateIn(file)
    expect(loaded.today).toBe('2027-01-05')
    expect(loaded.cardNoticesSent(card)).toEqual(['card:expiring'])
    expect(loaded.deliveries()).toEqual(store.deliveries())
  })

  it('refuses a second open in this process as in use', () => {
    const file = join(tempDir(), 'state.json')
    open(file)
    expectThrow(() => openState(file), StateFileError, `${file} is in use by another local gateway in this process: two gateways on one state file would lose each other's writes`)
  })

  it('refuses a file with another name (a hard link), by either name, and leaves both', () => {
    const dir = tempDir()
    const file = join(dir, 'state.json')
    stateIn(file)
    linkSync(file, join(dir, 'again.json'))
    for (const name of [file, join(dir, 'again.json')]) {
      const error = expectThrow(() => openState(name), StateFileError, `${name} has 2 names (hard links): SQLite keeps the latest writes beside the name the gateway opened it by, where a gateway started on the file's other name after a crash would not look`)
      expect(error.hint).toBe('Give --state a file with one name: remove the other names, or copy the file (cp) and use the copy.')
    }
    expect(statSync(file).nlink).toBe(2)
  })
})

describe('journal', () => {
  it('saves each commit as one row, and a restart reads the snapshot with every row replayed', async () => {
    const file = join(tempDir(), 'state.json')
    const {journal, store} = start(file)
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    await journal.commit()
    store.save('refunds', 'TEST', aRefund('071-R-AAAAAAAA', 'refund-1', '071-P-AAAAAAAA', 100))
    store.remove('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    store.today = '2027-01-01'
    await journal.commit()
    // A commit with nothing to save writes nothing.
    await journal.commit()

    expect(rowsOf(file).batches).toHaveLength(2)
    expect(stateOnDisk(file).snapshot()).toEqual(store.snapshot())
  })

  it('writes card numbers inside text masked, in each row and the snapshot; tokens, credentials and merchant names whole; the name as sent, and only it, finds its record after loading', async () => {
    const file = join(tempDir(), 'state.json')
    const {journal, store, state} = start(file)
    const merchant = '4012888888881881'
    const token = '4111111111111111abcd'
    const purchase = {...aPurchase('071-P-AAAAAAAA', 'x4111111111111111y'), card_holder: '4111 1111 1111 1111', message: 'card 4242-4242-4242-4242 declined', card_token: token}
    store.save('purchases', merchant, purchase)
    store.save('cards', merchant, aCard(token, 'alias 5555 5555 5555 4444'))
    store.save('webhooks', merchant, {id: '071-WH-AAAAAAAA', name: 'hooks', address: 'http://127.0.0.1/hooks', events: '*', mode: 'Test', authentication_username: '4242424242424242', authentication_password: '5555555555554444', created_at: '2026-11-23T10:00:00+00:00'})
    await journal.commit()
    const row = rowsOf(file).batches.join('\n')
    journal.close()
    state.close()
    const texts = [row, rowsOf(file).snapshot]
    for (const text of texts) {
      expect(text).toContain('"reference":"x411111XXXXXX1111y","currency"')
      for (const kept of [`"card_holder":"411111XXXXXX1111"`, '"message":"card 424242XXXXXX4242 declined"', '"alias":"alias 555555XXXXXX4444"', `"card_token":"${token}"`, `"token":"${token}"`]) expect(text).toContain(kept)
      expect(text).toContain('"authentication_username":"4242424242424242","authentication_password":"5555555555554444"')
      expect(text).not.toMatch(/4111[ -]?1111[ -]?1111[ -]?1111(?!abcd)/)
    }
    expect(texts[0]).toContain(`"merchant":"${merchant}"`)
    expect(texts[1]).toContain(`{"merchants":{"${merchant}":`)
    // Nor anywhere in the file's bytes.
    expect(readFileSync(file, 'latin1')).not.toMatch(/4111[ -]?1111[ -]?1111[ -]?1111(?!abcd)/)
    const loaded = stateIn(file)
    expect(loaded.find('purchases', merchant, 'x4111111111111111y')).toMatchObject({found: 'own', record: {id: '071-P-AAAAAAAA', reference: 'x411111XXXXXX1111y'}})
    expect(loaded.isTaken('cards', merchant, 'alias 5555 5555 5555 4444')).toBe(true)
    // Names masked alike are other names: the one sent finds its record by its keyed hash.
    for (const other of ['x411111XXXXXX1111y', 'x4111111000071111y', 'x4111111111111112y']) expect(loaded.find('purchases', merchant, other).found).toBe('none')
    expect(loaded.isTaken('cards', merchant, 'alias 5555-5555-5555-4444')).toBe(false)
  })

  it('groups the commits made in one turn of the event loop into one row', async () => {
    const file = join(tempDir(), 'state.json')
    const {journal, store} = start(file)
    const commits = []
    for (let index = 0; index < 5; index++) {
      store.save('purchases', 'TEST', aPurchase(`071-P-AAAAAAA${index}`, `order-${index}`))
      commits.push(journal.commit())
    }
    // A commit with nothing of its own waits for the group before it.
    let waited = false
    const reader = journal.commit().then(() => (waited = true))
    expect(waited).toBe(false)
    await Promise.all([...commits, reader])
    expect(rowsOf(file).batches).toHaveLength(1)
    expect(stateOnDisk(file).list('purchases', 'TEST')).toHaveLength(5)
  })

  it.each([
    ['the row', /^INSERT/, 'before'],
    ['the commit', /^COMMIT/, 'before'],
  ] as const)('takes back every change of a group whose write fails (%s), latest first; the file holds what it held, and later writes carry on', async (_, step, when) => {
    const file = join(tempDir(), 'state.json')
    const {journal, store, disk} = start(file)
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    await journal.commit()
    const before = store.snapshot()

    disk(failing(step, 1, when))
    store.save('purchases', 'TEST', aPurchase('071-P-BBBBBBBB', 'order-2'))
    store.save('cards', 'TEST', aCard('testtoken00000000000'))
    const second = journal.commit()
    // A request made on top of the failing one goes with it.
    store.save('refunds', 'TEST', aRefund('071-R-AAAAAAAA', 'refund-1', '071-P-BBBBBBBB', 100))
    const third = journal.commit()
    await expectReject(second, Error, 'disk I/O error')
    await expectReject(third, Error, 'disk I/O error')

    expect(store.snapshot()).toEqual(before)
    expect(store.find('purchases', 'TEST', 'order-2').found).toBe('none')
    expect(stateOnDisk(file).snapshot()).toEqual(before)

    store.save('purchases', 'TEST', aPurchase('071-P-CCCCCCCC', 'order-3'))
    await journal.commit()
    expect(stateOnDisk(file).list('purchases', 'TEST').map((purchase) => purchase.id)).toEqual(['071-P-AAAAAAAA', '071-P-CCCCCCCC'])
  })

  it('empties a group in the file again when its commit reached it but failed (a sync that failed after the write): nothing was done, and later writes carry on', async () => {
    const file = join(tempDir(), 'state.json')
    const {journal, store, disk} = start(file)
    disk(failing(/^COMMIT/, 1, 'after'))
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    const failed = await expectReject(journal.commit(), UnsavedChangeError, 'the change could not be saved to the state file (disk I/O error)')
    expect(failed).toMatchObject({reason: 'disk I/O error', undone: true, earlier: false})
    expect(store.list('purchases', 'TEST')).toEqual([])
    expect(rowsOf(file).batches).toEqual(['[]'])
    store.save('purchases', 'TEST', aPurchase('071-P-BBBBBBBB', 'order-2'))
    await journal.commit()
    expect(stateOnDisk(file).list('purchases', 'TEST').map((purchase) => purchase.id)).toEqual(['071-P-BBBBBBBB'])
  })

  it.each([
    ['its row', /^INSERT INTO/],
    ['its BEGIN', /^BEGIN/],
  ] as const)('writes nothing to empty a group that failed before its COMMIT (%s): nothing was done', async (_, step) => {
    const file = join(tempDir(), 'state.json')
    const {journal, store, disk} = start(file)
    const steps: string[] = []
    const failOnce = failing(step)
    disk((name, run) => {
      steps.push(name)
      failOnce(name, run)
    })
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    expect(await expectReject(journal.commit(), UnsavedChangeError, 'disk I/O error')).toMatchObject({undone: true})
    expect(steps.some((name) => name.startsWith('INSERT OR REPLACE'))).toBe(false)
    expect(rowsOf(file).batches).toEqual([])
  })

  it('takes a COMMIT that found the disk full, and that this process does not see, for one that was never whole, though emptying it finds no room either', async () => {
    const file = join(tempDir(), 'state.json')
    const {journal, store, disk} = start(file)
    const full = () => Object.assign(new Error('database or disk is full'), {code: 'ERR_SQLITE_ERROR', errcode: 13, errstr: 'database or disk is full'})
    disk((name, run) => {
      if (name === 'COMMIT') throw full()
      run()
    })
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    expect(await expectReject(journal.commit(), UnsavedChangeError, 'database or disk is full')).toMatchObject({undone: true})
    disk((_, run) => run())
    store.save('purchases', 'TEST', aPurchase('071-P-BBBBBBBB', 'order-2'))
    await journal.commit()
    expect(stateOnDisk(file).list('purchases', 'TEST').map((purchase) => purchase.id)).toEqual(['071-P-BBBBBBBB'])
  })

  it.each([
    ['an I/O error', 10, 'disk I/O error'],
    ['a full disk', 13, 'database or disk is full'],
  ])('says a group may be in the file when its COMMIT took here and then failed (its checkpoint: %s), and emptying it fails', async (_, errcode, errstr) => {
    const file = join(tempDir(), 'state.json')
    const {journal, store, disk} = start(file)
    disk((name, run) => {
      if (name.startsWith('INSERT OR REPLACE')) throw ioError()
      run()
      if (name === 'COMMIT') throw Object.assign(new Error(errstr), {code: 'ERR_SQLITE_ERROR', errcode, errstr})
    })
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    expect(await expectReject(journal.commit(), UnsavedChangeError, errstr)).toMatchObject({reason: errstr, undone: false, earlier: false})
  })

  it('writes nothing more once a group that reached the file cannot be emptied: every later request, a read too, is told an earlier change may be in the file; the clean stop folds the store, which holds only what was saved', async () => {
    const file = join(tempDir(), 'state.json')
    const {journal, store, state, disk} = start(file)
    const steps: string[] = []
    disk((name, run) => {
      steps.push(name)
      if (/^INSERT OR REPLACE INTO changes/.test(name)) throw ioError()
      run()
      if (/^COMMIT/.test(name)) throw ioError()
    })
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    expect(await expectReject(journal.commit(), UnsavedChangeError, 'the change could not be saved to the state file (disk I/O error)')).toMatchObject({undone: false, earlier: false})
    const written = steps.length
    store.save('purchases', 'TEST', aPurchase('071-P-BBBBBBBB', 'order-2'))
    expect(await expectReject(journal.commit(), UnsavedChangeError, 'an earlier change could not be saved to the state file (disk I/O error)')).toMatchObject({reason: 'disk I/O error', undone: false, earlier: true})
    await expectReject(journal.commit(), UnsavedChangeError, 'an earlier change')
    expect(steps).toHaveLength(written)
    expect(store.list('purchases', 'TEST')).toEqual([])
    // The failed group is in the file: a crash now would bring it back.
    expect(rowsOf(file).batches).toHaveLength(1)
    disk((_, run) => run())
    journal.close()
    state.close()
    expect(stateIn(file).list('purchases', 'TEST')).toEqual([])
  })

  it('folds the rows into the snapshot when it closes, in one transaction: a failing fold leaves the file as it was', async () => {
    const file = join(tempDir(), 'state.json')
    const {journal, store, state, disk} = start(file)
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    await journal.commit()
    const rows = rowsOf(file)
    disk(failing(/^DELETE FROM changes$/))
    expect(() => journal.close()).toThrow('disk I/O error')
    expect(rowsOf(file)).toEqual(rows)
    disk((_, run) => run())
    journal.close()
    state.close()
    expect(rowsOf(file).batches).toEqual([])
    expect(stateIn(file).snapshot()).toEqual(store.snapshot())
  })
})

// A bind mount gives a state file another name; only Linux says which files are mount points, in /proc/self/mountinfo.
describe('isMountPoint', () => {
  const table = '36 35 98:0 / /srv/state\\040files/gw.json rw,noatime master:1 - ext3 /dev/root rw\n'
  const reading = (os: NodeJS.Platform) => platformOf(os, {readFile: (path) => (path === '/proc/self/mountinfo' ? table : undefined), ownerOf: () => undefined, run: () => undefined, probe: () => {}, uid: () => 0})

  it('reads the mounts table on Linux, its escapes undone', () => {
    expect(isMountPoint('/srv/state files/gw.json', reading('linux'))).toBe(true)
    expect(isMountPoint('/srv/state files/other.json', reading('linux'))).toBe(false)
  })

  it('knows none elsewhere, whatever /proc it sees (wine maps the Linux host’s)', () => {
    expect(isMountPoint('/srv/state files/gw.json', reading('win32'))).toBe(false)
    expect(isMountPoint('/srv/state files/gw.json', reading('darwin'))).toBe(false)
  })
})
