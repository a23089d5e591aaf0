// gw's record of the refunds single `gw refund create`s made (src/batch/refunds-made.ts), which
// `gw purchase get --refunds` and `gw refund list --purchase` ask which purchase each refund on a
// card was made for: a look-up at 1,000,000 records against the same at 1,000, in alternating
// rounds, medians count. Each look-up is what a command pays: open the record, find the refunds
// by the index, close. Goals: under a second at a million, and no more than 2x the cost at a
// thousand (an index is a B-tree: a few levels deeper at a million).
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {tsImport} from 'tsx/esm/api'
import {count, median} from './lib.js'

const LARGE = Number(process.env.BENCH_REFUNDS_MADE_LARGE ?? 1_000_000)
const SMALL = 1_000
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const LOOKUPS = 50
const BASE_URL = 'https://gateway.example'

const id = (i) => `071-R-${String(i).padStart(8, '0')}`

/**
 * A data directory whose record holds `count` refunds, in gw's own tables and statement (openRefundsMade, INSERT_REFUND_MADE) and
 * one transaction: recordRefundMade commits each refund to the disk, a million times too slow here.
 */
function record(count, target, {openRefundsMade, INSERT_REFUND_MADE}) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-refunds-made-'))
  const db = openRefundsMade(dir)
  try {
    const insert = db.prepare(INSERT_REFUND_MADE)
    db.exec('BEGIN')
    for (let i = 0; i < count; i++) insert.run(id(i), target.base_url, target.username, null, `order-${i}-R1`, `order-${i}`, `071-P-${String(i).padStart(8, '0')}`, `order-${i}`, '2026-11-17T00:00:00.000Z')
    db.exec('COMMIT')
  } finally {
    db.close()
  }
  return dir
}

export default async function bench() {
  const made = await tsImport('../src/batch/refunds-made.ts', import.meta.url)
  const {keptTarget} = await tsImport('../src/batch/journal-identity.ts', import.meta.url)
  const target = {base_url: BASE_URL, username: 'TEST'}
  const sizes = [SMALL, LARGE]
  const dirs = []
  try {
    for (const size of sizes) dirs.push(record(size, keptTarget(target), made))
    // The refunds on one card: some recorded (spread over the record), some not (made past gw).
    const wanted = (size) => new Set([...Array.from({length: 20}, (_, i) => id(Math.floor((i * size) / 20))), ...Array.from({length: 5}, (_, i) => `071-R-NOTMADE${i}`)])
    const times = sizes.map(() => [])
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, dir] of dirs.entries()) {
        const ids = wanted(sizes[i])
        const started = performance.now()
        for (let n = 0; n < LOOKUPS; n++) {
          const found = await made.refundsMade(dir, target, ids)
          if (found.size !== 20) throw new Error(`found ${found.size} of 20 at ${sizes[i]}`)
        }
        times[i].push((performance.now() - started) / LOOKUPS)
      }
    }
    const [small, large] = times.map(median)
    console.log(`refunds-made: a look-up of 25 refunds (20 recorded): ${large.toFixed(2)} ms at ${count(LARGE)} / ${small.toFixed(2)} ms at ${count(SMALL)} = ${(large / small).toFixed(2)}x (goals: under 1,000 ms; <= 2x)`)
  } finally {
    for (const dir of dirs) rmSync(dir, {recursive: true, force: true})
  }
}
