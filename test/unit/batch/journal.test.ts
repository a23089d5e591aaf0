import {spawn, spawnSync} from 'node:child_process'
import {appendFileSync, existsSync, fdatasync, mkdtempSync, readdirSync, readFileSync, renameSync, utimesSync, writeFileSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {defaultJournalPath, inputHash, Journal} from '../../../src/batch/journal.js'
import {peekJournal, STDIN} from '../../../src/batch/journal-entries.js'
import {UsageError} from '../../../src/errors.js'
import {expectReject} from '../../expect-error.js'

const now = new Date('2026-11-22T10:00:00Z')
const path = () => join(mkdtempSync(join(tmpdir(), 'gw-journal-')), 'j.ndjson')
const target = {base_url: 'http://127.0.0.1:8787', username: 'TEST'}
const open = (file: string, hash = 'a'.repeat(64), command = 'refund create', options: Partial<Parameters<typeof Journal.open>[1]> = {}) => Journal.open(file, {command, input: {sha256: hash}, now, target, ...options})

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
      JSON.stringify({journal: 1, command: 'refund create', input_sha256: 'a'.repeat(64), target: {base_url: 'http://localhost:8787', username: 'TEST'}, created_at: now.toISOString()}),
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
    await expectReject(open(file, 'b'.repeat(64)), UsageError, `${file} was written for another input (an input with sha256 aaaaaaaaaaaa...), and this is stdin with sha256 bbbbbbbbbbbb...: nothing was sent`)
    await expectReject(open(file, 'a'.repeat(64), 'purchase create'), UsageError, 'is the journal of a gw refund create batch, not gw purchase create')
    writeFileSync(file + '.lock', String(process.ppid))
    await expectReject(open(file), UsageError, `Another gw (pid ${process.ppid}) is running the batch of journal ${file}`)
  })

  it('is named from the input (stdin by its content) and the gateway and merchant, in the data directory', () => {
    const input = {sha256: inputHash('x')}
    const path = defaultJournalPath('/data/gw', 'refund create', input, target)
    expect(path).toMatch(new RegExp(`^/data/gw/journals/refund-create-${inputHash('x').slice(0, 16)}-[0-9a-f]{8}\\.ndjson$`))
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
    writeFileSync(file, JSON.stringify({journal: 1, command: 'refund create', input_sha256: 'a'.repeat(64), target: {base_url: 'not a url', username: 'TEST'}, created_at: now.toISOString()}) + '\n')
    const refused = `${file} is the journal of this batch sent as TEST to not a url, and this run sends as TEST to http://localhost:8787: nothing was sent`
    await expectReject(open(file), UsageError, refused)
    await expectReject(peekJournal(file, {command: 'refund create', input: {sha256: 'a'.repeat(64)}, target}), UsageError, refused)
  })
})

describe('a --journal that is no journal', () => {
  it.each([
    ['a CSV without a final newline', 'transaction_id,amount,reference\n071-P-A,100,r-1'],
    ['a one-line file', 'notes'],
  ])('is refused and left untouched: %s', async (_, text) => {
    const file = path()
    writeFileSync(file, text)
    await expectReject(open(file), UsageError, `${file} is not a gw batch journal, and is left as it is: nothing was sent`)
    expect(readFileSync(file, 'utf8')).toBe(text)
    expect(existsSync(file + '.lock')).toBe(false)
  })
})

describe('the journal lock', () => {
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

  it('treats an empty lock file as held while it is young (its writer between creating it and writing its pid), and takes it over once old', async () => {
    const file = path()
    writeFileSync(file + '.lock', '')
    await expectReject(open(file), UsageError, `The batch journal ${file} is being taken by another gw: nothing was sent`)
    const old = new Date(Date.now() - 60_000)
    utimesSync(file + '.lock', old, old)
    const journal = await open(file)
    expect(readFileSync(file + '.lock', 'utf8')).toBe(String(process.pid))
    await journal.close()
    expect(existsSync(file + '.lock')).toBe(false)
  })

  it("takes over a dead owner's lock, and leaves no file of its own beside it", async () => {
    const file = path()
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
    writeFileSync(file + '.lock', dead)
    const journal = await open(file)
    expect(readFileSync(file + '.lock', 'utf8')).toBe(String(process.pid))
    expect(readdirSync(dirname(file)).sort()).toEqual(['j.ndjson', 'j.ndjson.lock'])
    await journal.close()
  })

  it("leaves a dead owner's lock to the one process taking it over (LOCK.takeover), and clears a take-over left by a killed process once old", async () => {
    const file = path()
    writeFileSync(file + '.lock', '999999999')
    // Another process is between finding the lock dead and removing it: the lock's name is never left vacant.
    writeFileSync(file + '.lock.takeover', '999999998')
    await expectReject(open(file), UsageError, `The batch journal ${file} is being taken by another gw: nothing was sent`)
    expect(readFileSync(file + '.lock', 'utf8')).toBe('999999999')
    const old = new Date(Date.now() - 60_000)
    utimesSync(file + '.lock.takeover', old, old)
    const journal = await open(file)
    expect(readFileSync(file + '.lock', 'utf8')).toBe(String(process.pid))
    expect(readdirSync(dirname(file)).sort()).toEqual(['j.ndjson', 'j.ndjson.lock'])
    await journal.close()
  })

  it("lets exactly one of many processes racing for a dead owner's lock have it, all trying at once and none letting go", async () => {
    const file = path()
    writeFileSync(file + '.lock', '999999999')
    // Each racer loads the lock module, says it is ready, and takes the lock when told to go; a
    // holder keeps it (and runs) until its stdin closes, so a later racer cannot find it dead.
    const script = `import('${join(import.meta.dirname, '../../../src/lib/file-lock.ts').replaceAll('\\', '/')}').then(({takeLock}) => {
      process.stdout.write('ready\\n')
      process.stdin.once('data', () => {
        try { takeLock(process.argv[1].slice(0, -'.lock'.length)); process.stdout.write('held\\n') } catch { process.stdout.write('refused\\n') }
        process.stdin.on('end', () => process.exit(0))
      })
    })`
    for (let round = 0; round < 5; round++) {
      const racers = Array.from({length: 6}, () => {
        const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, file + '.lock'], {stdio: ['pipe', 'pipe', 'inherit']})
        let out = ''
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
        /** Resolves once the racer has said one of the words. */
        const said = (...words: string[]) => new Promise<void>((resolve) => {
          const look = () => (words.some((word) => out.includes(word)) ? resolve() : child.stdout.once('data', () => setImmediate(look)))
          look()
        })
        const closed = new Promise<void>((resolve) => child.on('close', () => resolve()))
        return {child, said, closed, outcome: () => out.replace('ready\n', '').trim()}
      })
      await Promise.all(racers.map((racer) => racer.said('ready')))
      for (const racer of racers) racer.child.stdin.write('go\n')
      await Promise.all(racers.map((racer) => racer.said('held', 'refused')))
      const outcomes = racers.map((racer) => racer.outcome())
      for (const racer of racers) racer.child.stdin.end()
      await Promise.all(racers.map((racer) => racer.closed))
      expect(outcomes.filter((outcome) => outcome === 'held'), `round ${round}: ${outcomes.join(' ')}`).toHaveLength(1)
      // Its holder exited without letting go: the next round races for a dead owner's lock again.
    }
  }, 60_000)
})

describe('a journal on a disk that fails', () => {
  it('begins anew a journal that is gone when it is read (removed since its lock made it), as one never made', async () => {
    const file = path()
    const gone = Object.assign(new Error('no such file'), {code: 'ENOENT'})
    const journal = await open(file, 'a'.repeat(64), 'refund create', {disk: {read: () => Promise.reject(gone)}})
    expect(journal.resumed).toBe(false)
    await journal.close()
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({journal: 1, command: 'refund create'})
  })

  /** The real writes, but the Nth one fails: EIO, or (`part`) after writing that many bytes of it. */
  const failing = (nth: number, {part = 0, code = 'EIO'} = {}) => {
    let writes = 0
    return {
      write: (fd: number, data: Uint8Array) => {
        if (++writes !== nth) return writeSync(fd, data)
        if (part > 0) return writeSync(fd, data.subarray(0, part))
        throw Object.assign(new Error(`${code}: failed, write`), {code})
      },
      datasync: (fd: number) => new Promise<void>((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve()))),
    }
  }

  it('fails the entries of a write that throws (ENOSPC once), naming the journal, and takes later ones', async () => {
    const file = path()
    const journal = await open(file, undefined, undefined, {disk: failing(2, {code: 'ENOSPC'})})
    const error = await journal.intent({intent: 'r-1', row: 1, line: 2, request: {}}).catch((err: unknown) => err)
    expect(error).toMatchObject({kind: 'io', exitCode: 1, message: `The batch journal ${file} cannot be written (ENOSPC): no more rows are sent`})
    await journal.intent({intent: 'r-2', row: 2, line: 3, request: {}})
    await journal.close()
    const again = await open(file)
    expect([...again.intents.keys()]).toEqual(['r-2'])
    await again.close()
  })

  it('counts an intent only once its whole line is on disk: one written 10 bytes short is failed and cut off', async () => {
    const file = path()
    let writes = 0
    const disk = {
      ...failing(99),
      write: (fd: number, data: Uint8Array) => {
        writes++
        // The second write (the intent) goes 10 bytes, then the disk is full.
        if (writes === 2) return writeSync(fd, data.subarray(0, 10))
        if (writes === 3) throw Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'})
        return writeSync(fd, data)
      },
    }
    const journal = await open(file, undefined, undefined, {disk})
    await expect(journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}})).rejects.toMatchObject({kind: 'io'})
    await journal.close()
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(2)
    const again = await open(file)
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
    // A header torn by a crash: the real run takes it as a new journal, so nothing was sent under it.
    writeFileSync(file, '{"journal":1,"comm')
    expect(await peekJournal(file, asked())).toBeUndefined()
  })

  it('reads an earlier run’s intents and results, whole lines only, without taking its lock; the input it was begun for when this one is elsewhere', async () => {
    const file = path()
    const journal = await Journal.open(file, {command: 'refund create', input: {sha256: 'a'.repeat(64), path: '/data/then.csv'}, now, target})
    await journal.intent({intent: 'r-1', row: 1, line: 2, request: {amount: 100}})
    await journal.result({result: 'r-1', status: 'approved', exit_code: 0})
    await journal.intent({intent: 'r-2', row: 2, line: 3, request: {amount: 200}})
    // Read while the run holds it, a torn line at the end.
    appendFileSync(file, '{"result":"r-2","sta')
    const entries = (await peekJournal(file, asked('a'.repeat(64), '/data/now.csv')))!
    expect([...entries.intents.keys()]).toEqual(['r-1', 'r-2'])
    expect([...entries.results.keys()]).toEqual(['r-1'])
    expect(entries.movedFrom).toBe('/data/then.csv')
    expect((await peekJournal(file, asked('a'.repeat(64), '/data/then.csv')))!.movedFrom).toBeUndefined()
    await journal.close()
    // Begun on stdin, which has no path: given as a file, it was moved from stdin; given on stdin again, not moved.
    const fromStdin = path()
    await (await open(fromStdin)).close()
    expect((await peekJournal(fromStdin, asked('a'.repeat(64), '/data/now.csv')))!.movedFrom).toBe(STDIN)
    expect((await peekJournal(fromStdin, asked()))!.movedFrom).toBeUndefined()
  })

  it('refuses another batch’s journal as the real run would, and says what stops it reading one', async () => {
    const file = path()
    await (await open(file)).close()
    await expect(peekJournal(file, asked('a'.repeat(64), undefined, 'purchase create'))).rejects.toBeInstanceOf(UsageError)
    await expect(peekJournal(dirname(file), asked())).rejects.toMatchObject({exitCode: 2, message: `The batch journal ${dirname(file)} cannot be read (EISDIR: it is a directory): nothing was sent, and it is left as it is`})
  })
})
