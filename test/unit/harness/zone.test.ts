import {Worker} from 'node:worker_threads'
import {describe, expect, it} from 'vitest'
import {inThisZone} from '../../e2e/helpers.js'

/**
 * A time zone is the process's: gw in a thread given TZ keeps the process's zone. So runGw and
 * startSandbox run gw as a process where the TZ given is another zone (helpers.ts inThisZone).
 */
const here = Intl.DateTimeFormat().resolvedOptions().timeZone
const elsewhere = here === 'Pacific/Kiritimati' ? 'Etc/GMT+12' : 'Pacific/Kiritimati'

describe('a time zone given to gw in a test', () => {
  it('is the process\'s in a worker thread, whatever TZ the thread is given: why a run given another zone spawns', async () => {
    const worker = new Worker(`process.env.TZ = ${JSON.stringify(elsewhere)}; require('node:worker_threads').parentPort.postMessage(Intl.DateTimeFormat().resolvedOptions().timeZone)`, {eval: true, env: {}})
    const [seen] = (await new Promise((resolve) => worker.once('message', (zone) => resolve([zone])))) as [string]
    await worker.terminate()
    expect(seen).toBe(here)
  })

  it('runs in a thread where it is none, or this process\'s own; as a process where it is another, or one Intl cannot name', () => {
    expect(inThisZone({})).toBe(true)
    expect(inThisZone({TZ: here})).toBe(true)
    expect(inThisZone({TZ: elsewhere})).toBe(false)
    expect(inThisZone({TZ: ':Europe/Berlin'})).toBe(false)
  })
})
