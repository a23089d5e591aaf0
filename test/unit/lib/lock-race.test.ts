import {spawn} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {createInterface} from 'node:readline'
import {describe, expect, it} from 'vitest'
import {TAKE_LOCK} from '../../../src/lib/locked-database.js'

// Two gw that take one lock at the same moment (two copies of one batch started at once): SQLite
// takes a shared lock before the exclusive one, and in EXCLUSIVE locking mode a connection keeps
// it even when refused the exclusive one, so each could refuse the other (seen: both copies of one
// batch refused, nothing sent). One of them must win. The losers here keep their connections
// open, as a slow close would.

/**
 * Processes that race for a lock when told: each opens the file a round names, says it is ready,
 * and takes the lock on `go`, answering 'took' or SQLite's code. Started once for all their rounds (a
 * process a round would cost more than the race it checks); each keeps its connections of earlier
 * rounds open.
 */
function contenders(count: number) {
  const script = `const {DatabaseSync} = require('node:sqlite'); let db
    require('node:readline').createInterface({input: process.stdin}).on('line', (line) => {
      if (line !== 'go') { db = new DatabaseSync(line); process.stdout.write('ready\\n'); return }
      try { db.exec(process.env.TAKE_LOCK); process.stdout.write('took\\n') } catch (e) { process.stdout.write(e.errcode + '\\n') }
    })`
  const children = Array.from({length: count}, () => spawn(process.execPath, ['--no-warnings', '-e', script], {env: {...process.env, TAKE_LOCK}, stdio: ['pipe', 'pipe', 'inherit']}))
  const lines = children.map((child) => createInterface({input: child.stdout!})[Symbol.asyncIterator]())
  const everyNext = () => Promise.all(lines.map(async (line) => String((await line.next()).value)))
  return {
    /** What each got when all of them took the lock on `path` at once. */
    async race(path: string): Promise<string[]> {
      for (const child of children) child.stdin!.write(`${path}\n`)
      await everyNext()
      for (const child of children) child.stdin!.write('go\n')
      return everyNext()
    },
    stop: () => children.forEach((child) => child.kill('SIGKILL')),
  }
}

describe('the lock taken by several processes at once', () => {
  it('goes to exactly one of them, every time', async ({onTestFinished}) => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-lock-race-'))
    // The losers wait out the lock (LOCK_WAIT_MS) each round: four trios race at once, on files of their own.
    const trios = Array.from({length: 4}, () => contenders(3))
    onTestFinished(() => trios.forEach((trio) => trio.stop()))
    await Promise.all(
      trios.map(async (trio, which) => {
        for (let round = 0; round < 10; round++) {
          const got = await trio.race(join(dir, `race-${which}-${round}.sqlite`))
          expect(got.filter((answer) => answer === 'took'), `trio ${which}, round ${round}: ${got.join(', ')}`).toHaveLength(1)
        }
      }),
    )
  }, 60_000)
})
