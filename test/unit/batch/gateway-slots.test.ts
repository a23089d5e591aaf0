import {describe, expect, it} from 'vitest'
import {GatewaySlots, STOPPED} from '../../../src/batch/gateway-slots.js'

// A batch's way to the gateway: `concurrency` requests at once, the first alone, none once stopped.

/** A request that waits to be let go; `started` says whether it began. */
function held() {
  let release = () => {}
  const done = new Promise<void>((resolve) => (release = resolve))
  const request = {started: false, release, run: async () => {
    request.started = true
    await done
    return 'answered'
  }}
  return request
}

describe('GatewaySlots', () => {
  it('a request waiting for a slot when the batch stops is never made, and says so at once; one already at the gateway finishes', async () => {
    const stop = new AbortController()
    const slots = new GatewaySlots(1, stop.signal)
    const first = held()
    const second = held()
    const running = slots.run(first.run)
    const waiting = slots.run(second.run)
    await Promise.resolve()
    expect(first.started).toBe(true)
    stop.abort()
    // Known at once, while the first still holds the only slot.
    expect(await waiting).toBe(STOPPED)
    expect(second.started).toBe(false)
    first.release()
    expect(await running).toBe('answered')
    // And none is made after.
    const third = held()
    expect(await slots.run(third.run)).toBe(STOPPED)
    expect(third.started).toBe(false)
  })

  it('the first request goes alone; once it is answered, the others go `concurrency` at a time', async () => {
    const slots = new GatewaySlots(2, new AbortController().signal)
    const requests = [held(), held(), held()]
    const runs = requests.map((request) => slots.run(request.run))
    await new Promise((resolve) => setImmediate(resolve))
    expect(requests.map((request) => request.started)).toEqual([true, false, false])
    requests[0]!.release()
    await runs[0]
    await new Promise((resolve) => setImmediate(resolve))
    expect(requests.map((request) => request.started)).toEqual([true, true, true])
    for (const request of requests) request.release()
    expect(await Promise.all(runs)).toEqual(['answered', 'answered', 'answered'])
  })

  it('a request that fails passes its failure on, and frees its slot', async () => {
    const stop = new AbortController()
    const slots = new GatewaySlots(1, stop.signal)
    await expect(slots.run(() => Promise.reject(new Error('no answer')))).rejects.toThrow('no answer')
    expect(await slots.run(async () => 'next')).toBe('next')
    stop.abort()
    await expect(slots.run(() => Promise.reject(new Error('never made')))).resolves.toBe(STOPPED)
  })
})
