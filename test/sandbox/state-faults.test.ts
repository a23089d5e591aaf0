import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {openStateFile, type OpenStateFile} from '../../src/sandbox/server/persist.js'
import {startSandbox} from '../../src/sandbox/server/server.js'
import {call, fixedClock, purchase} from './helpers.js'

// The local gateway's state file, tested as a batch's journal is: the Nth write (then,
// in a second series, the Nth fdatasync) fails with EIO, for every N until a run goes untouched.
// Every purchase answered 200 survives a restart; every one answered otherwise is absent.
const PURCHASES = 12

function failing(which: 'write' | 'sync', nth: number): OpenStateFile & {calls: () => number} {
  let calls = 0
  const open = (async (path, flags) => {
    const real = await openStateFile(path, flags)
    const fault = () => Promise.reject(Object.assign(new Error('EIO: i/o error'), {code: 'EIO'}))
    return {
      ...real,
      write: (data, position) => (which === 'write' && ++calls === nth ? fault() : real.write(data, position)),
      sync: () => (which === 'sync' && ++calls === nth ? fault() : real.sync()),
    }
  }) as OpenStateFile & {calls: () => number}
  open.calls = () => calls
  return open
}

describe.each(['write', 'sync'] as const)('the Nth state file %s fails with EIO', (which) => {
  it('for every N: a purchase answered 200 survives a restart, one answered otherwise is absent', async () => {
    let untouched = false
    let positions = 0
    for (let nth = 1; !untouched; nth++) {
      positions = nth
      const stateFile = join(mkdtempSync(join(tmpdir(), 'gw-state-faults-')), 'state.json')
      const disk = failing(which, nth)
      const answered = new Map<string, number>()
      const gateway = await startSandbox({port: 0, host: '127.0.0.1', mode: 'sandbox', merchants: [], clock: fixedClock, stateFile, openStateFile: disk}).catch(() => undefined)
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
