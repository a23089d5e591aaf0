import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {StateWrite} from '../../src/sandbox/server/state-database.js'
import {startSandbox} from '../../src/sandbox/server/server.js'
import {call, fixedClock, purchase} from './helpers.js'

// The local gateway's state file, tested as a batch's journal is: the Nth write (a statement that
// changes a table), then in other series the Nth COMMIT, before it runs and once it has (a sync
// that failed after the data went out), fails with an I/O error, for every N until a run goes
// untouched. Every purchase answered 200 survives a restart; every one answered otherwise is absent.
const PURCHASES = 12

const SERIES = {
  write: {step: /^(INSERT|UPDATE|DELETE)/, after: false},
  commit: {step: /^COMMIT$/, after: false},
  'commit, once it reached the file,': {step: /^COMMIT$/, after: true},
}

function failing({step, after}: (typeof SERIES)[keyof typeof SERIES], nth: number): StateWrite & {calls: () => number} {
  let calls = 0
  const write = ((name, run) => {
    if (!step.test(name) || ++calls !== nth) return run()
    if (after) run()
    throw Object.assign(new Error('disk I/O error'), {code: 'ERR_SQLITE_ERROR', errcode: 10, errstr: 'disk I/O error'})
  }) as StateWrite & {calls: () => number}
  write.calls = () => calls
  return write
}

describe.each(Object.keys(SERIES) as (keyof typeof SERIES)[])('the Nth state file %s fails with an I/O error', (which) => {
  it('for every N: a purchase answered 200 survives a restart, one answered otherwise is absent', async () => {
    let untouched = false
    let positions = 0
    for (let nth = 1; !untouched; nth++) {
      positions = nth
      const stateFile = join(mkdtempSync(join(tmpdir(), 'gw-state-faults-')), 'state.json')
      const disk = failing(SERIES[which], nth)
      const answered = new Map<string, number>()
      const gateway = await startSandbox({port: 0, host: '127.0.0.1', mode: 'sandbox', merchants: [], clock: fixedClock, stateFile, stateWrite: disk}).catch(() => undefined)
      if (gateway) {
        await Promise.all(
          Array.from({length: PURCHASES}, async (_, i) => {
            const reference = `fault-${i}`
            answered.set(reference, (await purchase(gateway, {reference})).status)
          }),
        )
        await gateway.close().catch(() => {})
      }
      untouched = disk.calls() < nth
      const restarted = await startSandbox({port: 0, host: '127.0.0.1', mode: 'sandbox', merchants: [], clock: fixedClock, stateFile})
      try {
        for (const [reference, status] of answered) {
          const found = await call(restarted, 'GET', `/v1.0/purchases/${reference}`)
          expect(found.status, `${reference}, answered ${status}, after the ${which} #${nth} failed`).toBe(status === 200 ? 200 : 404)
        }
      } finally {
        await restarted.close()
      }
      expect(nth).toBeLessThan(200)
    }
    expect(positions).toBeGreaterThan(2)
  }, 120_000)
})
