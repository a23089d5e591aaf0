import {appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync} from 'node:fs'
import {open} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {Journal} from '../../../src/sandbox/server/journal.js'
import {loadStore, openStateFile, StateFileError, writeSnapshot, type OpenStateFile} from '../../../src/sandbox/server/persist.js'
import {Store} from '../../../src/sandbox/domain/store.js'
import {identityLockFolder, takeLock} from '../../../src/lib/file-lock.js'
import {aCard, aPurchase, aRefund} from './fixtures.js'
import {expectReject, expectThrow} from '../../expect-error.js'

const tempDir = () => mkdtempSync(join(tmpdir(), 'gw-sandbox-'))

/** A disk that takes `bytes` bytes of the next write, then fails with ENOSPC. */
function failingDisk(bytes: number): OpenStateFile & {failNext(): void} {
  let fail = false
  const openFile = (async (path, flags) => {
    const real = await openStateFile(path, flags)
    return {
      ...real,
      async write(data, position) {
        if (!fail) return real.write(data, position)
        fail = false
        const handle = await open(path, 'r+')
        await handle.write(data, 0, Math.min(bytes, data.length), position)
        await handle.close()
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'})
      },
    }
  }) as OpenStateFile & {failNext(): void}
  openFile.failNext = () => (fail = true)
  return openFile
}

describe('state file', () => {
  it('round-trips every record through a snapshot, creating the directory 0700 and the file 0600, leaving no temporary file', async () => {
    const store = new Store()
    store.save('cards', 'TEST', aCard('testtoken00000000000', 'jo'))
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    store.save('refunds', 'ACME', aRefund('512-R-AAAAAAAA', 'refund-1', '512-P-AAAAAAAA', 100))
    const dir = tempDir()
    const file = join(dir, 'nested', 'state.json')

    await writeSnapshot(file, store.snapshot())

    expect(loadStore(file).snapshot()).toEqual(store.snapshot())
    expect(readdirSync(join(dir, 'nested'))).toEqual(['state.json'])
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700)
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(2)
    expect(readFileSync(file, 'utf8')).not.toMatch(/"cvv"/i)
  })

  it('starts empty when the file does not exist', () => {
    expect(loadStore(join(tempDir(), 'missing.json')).snapshot()).toEqual({merchants: {}})
  })

  it.each([
    ['not json', 'not JSON'],
    ['{"merchants":{}}', 'no version 2 snapshot'],
    ['{"version":1}', 'the file, merchants: Invalid input'],
    ['null', 'no version 2 snapshot'],
    ['[]', 'no version 2 snapshot'],
  ])('refuses a file that is not a state file: %s', (text, reason) => {
    const file = join(tempDir(), 'state.json')
    writeFileSync(file, text)
    expectThrow(() => loadStore(file), StateFileError, `${file} is not a gw sandbox state file (${reason}`)
  })

  it('refuses a snapshot with the right version and a wrong shape, naming the first bad path', () => {
    const file = join(tempDir(), 'state.json')
    const purchase = {...aPurchase('071-P-AAAAAAAA', 'order-1'), amount: '1000'}
    writeFileSync(file, `${JSON.stringify({version: 2, snapshot: {merchants: {TEST: {purchases: {[purchase.id]: purchase}}}}})}\n`)
    expectThrow(
      () => loadStore(file),
      StateFileError,
      `${file} is not a gw sandbox state file (line 1, snapshot.merchants.TEST.purchases.071-P-AAAAAAAA.amount: Invalid input: expected number, received string)`,
    )
  })

  it('refuses a record filed under a key that is not its own', () => {
    const file = join(tempDir(), 'state.json')
    writeFileSync(file, `${JSON.stringify({version: 2, snapshot: {merchants: {TEST: {purchases: {other: aPurchase('071-P-AAAAAAAA', 'o')}}}}})}\n`)
    expectThrow(() => loadStore(file), StateFileError, 'snapshot.merchants.TEST.purchases.other.id: must be "other", the key it is filed under')
  })

  it('reads a file from before the journal (version 1), completing the collections it lacks', () => {
    const file = join(tempDir(), 'state.json')
    const purchase = aPurchase('071-P-AAAAAAAA', 'order-1')
    writeFileSync(file, JSON.stringify({version: 1, merchants: {TEST: {cards: {}, purchases: {[purchase.id]: purchase}, refunds: {}}}}, null, 2))
    const store = loadStore(file)
    expect(store.list('plans', 'TEST')).toEqual([])
    expect(store.find('purchases', 'TEST', 'order-1')).toEqual({found: 'own', record: purchase})
    expect(store.today).toBeUndefined()
  })

  it('keeps the virtual date, the card notices sent and the deliveries still queued', async () => {
    const file = join(tempDir(), 'state.json')
    const store = new Store()
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
    await writeSnapshot(file, store.snapshot())

    const loaded = loadStore(file)
    expect(loaded.today).toBe('2027-01-05')
    expect(loaded.cardNoticesSent(card)).toEqual(['card:expiring'])
    expect(loaded.deliveries()).toEqual(store.deliveries())
  })
})

describe('journal', () => {
  // Every journal is closed after its test: a FileHandle left to the garbage collector is DEP0137.
  const opened: Journal[] = []
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((journal) => journal.close()))
  })
  const start = async (...args: Parameters<typeof Journal.start>) => {
    const journal = await Journal.start(...args)
    opened.push(journal)
    return journal
  }

  it('appends each commit as one line and loads the snapshot with every line replayed', async () => {
    const file = join(tempDir(), 'state.json')
    const store = new Store()
    const journal = await start(file, store)
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    await journal.commit()
    store.save('refunds', 'TEST', aRefund('071-R-AAAAAAAA', 'refund-1', '071-P-AAAAAAAA', 100))
    store.remove('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    store.today = '2027-01-01'
    await journal.commit()

    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(3)
    expect(loadStore(file).snapshot()).toEqual(store.snapshot())
  })

  it('writes card numbers inside text masked, in each line and the snapshot; tokens, credentials and merchant names whole; the name as sent, and only it, finds its record after loading', async () => {
    const file = join(tempDir(), 'state.json')
    const store = new Store()
    const journal = await start(file, store)
    const merchant = '4012888888881881'
    const token = '4111111111111111abcd'
    const purchase = {...aPurchase('071-P-AAAAAAAA', 'x4111111111111111y'), card_holder: '4111 1111 1111 1111', message: 'card 4242-4242-4242-4242 declined', card_token: token}
    store.save('purchases', merchant, purchase)
    store.save('cards', merchant, aCard(token, 'alias 5555 5555 5555 4444'))
    store.save('webhooks', merchant, {id: '071-WH-AAAAAAAA', name: 'hooks', address: 'http://127.0.0.1/hooks', events: '*', mode: 'Test', authentication_username: '4242424242424242', authentication_password: '5555555555554444', created_at: '2026-11-23T10:00:00+00:00'})
    await journal.commit()
    const lines = [readFileSync(file, 'utf8')]
    await journal.close()
    lines.push(readFileSync(file, 'utf8'))
    for (const text of lines) {
      expect(text).toContain('"reference":"x411111XXXXXX1111y","currency"')
      for (const kept of [`"card_holder":"411111XXXXXX1111"`, '"message":"card 424242XXXXXX4242 declined"', '"alias":"alias 555555XXXXXX4444"', `"card_token":"${token}"`, `"token":"${token}"`]) expect(text).toContain(kept)
      expect(text).toContain('"authentication_username":"4242424242424242","authentication_password":"5555555555554444"')
    }
    expect(lines[0]).toContain(`"merchant":"${merchant}"`)
    expect(lines[1]).toContain(`{"merchants":{"${merchant}":`)
    const loaded = loadStore(file)
    expect(loaded.find('purchases', merchant, 'x4111111111111111y')).toMatchObject({found: 'own', record: {id: '071-P-AAAAAAAA', reference: 'x411111XXXXXX1111y'}})
    expect(loaded.isTaken('cards', merchant, 'alias 5555 5555 5555 4444')).toBe(true)
    // Names masked alike are other names: the one sent finds its record by its keyed hash.
    for (const other of ['x411111XXXXXX1111y', 'x4111111000071111y', 'x4111111111111112y']) expect(loaded.find('purchases', merchant, other).found).toBe('none')
    expect(loaded.isTaken('cards', merchant, 'alias 5555-5555-5555-4444')).toBe(false)
    // A record whose text holds none is written as it is, and read back equal.
    const plain = join(tempDir(), 'plain.json')
    const other = new Store()
    other.save('purchases', 'TEST', aPurchase('071-P-BBBBBBBB', 'order-1', 4111111111111111))
    await writeSnapshot(plain, other.snapshot())
    expect(readFileSync(plain, 'utf8')).toBe(`${JSON.stringify({version: 2, snapshot: other.snapshot()})}\n`)
  })

  it('groups the commits made while a write is on its way into one line', async () => {
    const file = join(tempDir(), 'state.json')
    const store = new Store()
    const journal = await start(file, store)
    const commits = []
    for (let index = 0; index < 5; index++) {
      store.save('purchases', 'TEST', aPurchase(`071-P-AAAAAAA${index}`, `order-${index}`))
      commits.push(journal.commit())
    }
    await Promise.all(commits)
    // The snapshot, then one line for the five.
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(2)
    expect(loadStore(file).list('purchases', 'TEST')).toHaveLength(5)
  })

  it('ignores a torn last line: a write that never finished was never acknowledged', async () => {
    const file = join(tempDir(), 'state.json')
    const store = new Store()
    const journal = await start(file, store)
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    await journal.commit()
    appendFileSync(file, '{"changes":[{"op":"put","collection":"purchases","merchant":"TEST","record":{"id":"071-P-B')
    expect(loadStore(file).list('purchases', 'TEST').map((purchase) => purchase.id)).toEqual(['071-P-AAAAAAAA'])
  })

  it('covers each snapshot’s inode with the state file’s lock before the rename, the ones replaced too, until the lock is let go', async () => {
    const file = join(tempDir(), 'state.json')
    writeFileSync(file, '')
    const byInode = () => {
      const {dev, ino} = statSync(file)
      return join(identityLockFolder(), `${dev}-${ino}.lock`)
    }
    const lock = takeLock(file)
    const locks = [byInode()]
    const journal = await Journal.start(file, new Store(), undefined, lock)
    locks.push(byInode())
    await journal.close()
    locks.push(byInode())
    // Three inodes (the file, the start's snapshot, the stop's), each locked: a bind mount of any is refused.
    expect(new Set(locks).size).toBe(3)
    expect(locks.map((path) => readFileSync(path, 'utf8'))).toEqual(locks.map(() => String(process.pid)))
    lock.release()
    expect(locks.filter((path) => existsSync(path))).toEqual([])
  })

  it('refuses a bad line that is not the last, naming it', async () => {
    const file = join(tempDir(), 'state.json')
    const journal = await Journal.start(file, new Store())
    await journal.close()
    appendFileSync(file, 'garbage\n{"changes":[]}\n')
    expectThrow(() => loadStore(file), StateFileError, `${file} is not a gw sandbox state file (line 2 is not JSON)`)
  })

  it('refuses a complete line with a wrong shape, naming its path', async () => {
    const file = join(tempDir(), 'state.json')
    await start(file, new Store())
    appendFileSync(file, `${JSON.stringify({changes: [{op: 'put', collection: 'purchases', merchant: 'TEST', record: {id: 1}}]})}\n`)
    expectThrow(() => loadStore(file), StateFileError, `${file} is not a gw sandbox state file (line 2, changes.0.record.id: Invalid input: expected string, received number)`)
  })

  it('takes back a change whose write failed half-way; the file still loads whole, and later writes carry on', async () => {
    const file = join(tempDir(), 'state.json')
    const disk = failingDisk(40)
    const store = new Store()
    const journal = await start(file, store, disk)
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    await journal.commit()
    const before = store.snapshot()

    disk.failNext()
    store.save('purchases', 'TEST', aPurchase('071-P-BBBBBBBB', 'order-2'))
    store.save('cards', 'TEST', aCard('testtoken00000000000'))
    const second = journal.commit()
    // A request made on top of the failing one goes with it.
    store.save('refunds', 'TEST', aRefund('071-R-AAAAAAAA', 'refund-1', '071-P-BBBBBBBB', 100))
    const third = journal.commit()
    await expectReject(second, Error, 'ENOSPC')
    await expectReject(third, Error, 'ENOSPC')

    expect(store.snapshot()).toEqual(before)
    expect(store.find('purchases', 'TEST', 'order-2').found).toBe('none')
    expect(loadStore(file).snapshot()).toEqual(before)

    store.save('purchases', 'TEST', aPurchase('071-P-CCCCCCCC', 'order-3'))
    await journal.commit()
    expect(loadStore(file).list('purchases', 'TEST').map((purchase) => purchase.id)).toEqual(['071-P-AAAAAAAA', '071-P-CCCCCCCC'])
  })

  it('keeps the previous state file whole when a snapshot write fails half-way', async () => {
    const file = join(tempDir(), 'state.json')
    const store = new Store()
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    await writeSnapshot(file, store.snapshot())
    const disk = failingDisk(30)
    disk.failNext()
    store.save('purchases', 'TEST', aPurchase('071-P-BBBBBBBB', 'order-2'))
    await expectReject(writeSnapshot(file, store.snapshot(), disk), Error, 'ENOSPC')
    expect(loadStore(file).list('purchases', 'TEST').map((purchase) => purchase.id)).toEqual(['071-P-AAAAAAAA'])
    expect(readdirSync(dirname(file))).toEqual(['state.json'])
  })

  it('folds the journal into one snapshot line when it closes', async () => {
    const file = join(tempDir(), 'state.json')
    const store = new Store()
    const journal = await Journal.start(file, store)
    store.save('purchases', 'TEST', aPurchase('071-P-AAAAAAAA', 'order-1'))
    await journal.commit()
    await journal.close()
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(1)
    expect(loadStore(file).snapshot()).toEqual(store.snapshot())
  })
})
