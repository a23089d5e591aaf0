import {spawn} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {TAKE_LOCK} from '../../../src/lib/locked-database.js'

// Two gw that take one lock at the same moment (two copies of one batch started at once): SQLite
// takes a shared lock before the exclusive one, and in EXCLUSIVE locking mode a connection keeps
// it even when refused the exclusive one, so each could refuse the other (seen: both copies of one
// batch refused, nothing sent). One of them must win. The losers here keep their connections
// open, as a slow close would.

/** Processes that each take the lock on `path` at once, once all are ready; what each got: 'took' or SQLite's code. */
async function race(path: string, contenders: number): Promise<string[]> {
  const script = `const {DatabaseSync} = require('node:sqlite'); const db = new DatabaseSync(process.argv[1])
    process.stdout.write('ready\\n')
    process.stdin.once('data', () => { try { db.exec(process.env.TAKE_LOCK); process.stdout.write('took\\n') } catch (e) { process.stdout.write(e.errcode + '\\n') } })`
  const children = Array.from({length: contenders}, () => spawn(process.execPath, ['--no-warnings', '-e', script, path], {env: {...process.env, TAKE_LOCK}, stdio: ['pipe', 'pipe', 'inherit']}))
  const next = children.map((child) => () => new Promise<string>((resolve) => child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()))))
  await Promise.all(next.map((line) => line()))
  const answers = next.map((line) => line())
  for (const child of children) child.stdin.write('go\n')
  const got = await Promise.all(answers)
  for (const child of children) child.kill('SIGKILL')
  return got
}

describe('the lock taken by several processes at once', () => {
  it('goes to exactly one of them, every time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-lock-race-'))
    for (let round = 0; round < 40; round++) {
      const got = await race(join(dir, `race-${round}.sqlite`), 3)
      expect(got.filter((answer) => answer === 'took'), `round ${round}: ${got.join(', ')}`).toHaveLength(1)
    }
  }, 60_000)
})
