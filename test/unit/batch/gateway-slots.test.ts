import {getEventListeners} from 'node:events'
import {describe, expect, it} from 'vitest'
import {GatewaySlots, LOST_IN_A_ROW, rateLimited, STOPPED} from '../../../src/batch/gateway-slots.js'
import {RateLimitedError} from '../../../src/errors.js'
import type {RowReport} from '../../../src/batch/row-reports.js'

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

  it('a request asked for once the batch stopped, while every slot is busy, is never made, and says so at once', async () => {
    const stop = new AbortController()
    const slots = new GatewaySlots(1, stop.signal)
    const first = held()
    const running = slots.run(first.run)
    await Promise.resolve()
    stop.abort()
    const late = held()
    // Before the next turn of the event loop: not once the busy slot is free.
    const turn = new Promise((resolve) => setImmediate(() => resolve('still waiting')))
    expect(await Promise.race([slots.run(late.run), turn])).toBe(STOPPED)
    expect(late.started).toBe(false)
    first.release()
    expect(await running).toBe('answered')
  })

  it('leaves no listener on the stop signal once its requests are done, however many it ran', async () => {
    const stop = new AbortController()
    const slots = new GatewaySlots(2, stop.signal)
    for (let i = 0; i < 20; i++) await slots.run(async () => i)
    await Promise.allSettled([slots.run(() => Promise.reject(new Error('no answer'))), slots.run(async () => 'ok')])
    await new Promise((resolve) => setImmediate(resolve))
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0)
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

describe('GatewaySlots.lost', () => {
  const report = (fields: Partial<RowReport>) => ({row: 1, line: 2, reference: 'r', exitCode: 1, ...fields}) as RowReport
  it('counts a failure for want of an answer (network, a 5xx); not a failure without an error, nor any other status whose error is of those kinds', () => {
    const slots = new GatewaySlots(1, new AbortController().signal)
    const lost = report({status: 'failed', error: {kind: 'network', status: null, messages: ['x'], request_id: null}})
    for (let i = 1; i < LOST_IN_A_ROW; i++) expect(slots.lost(lost)).toBe(false)
    // A row refused for another reason, though its error names the gateway, is an answer: the count starts over.
    expect(slots.lost(report({status: 'rejected', error: {kind: 'gateway', status: 502, messages: ['x'], request_id: null}}))).toBe(false)
    for (let i = 1; i < LOST_IN_A_ROW; i++) expect(slots.lost(lost)).toBe(false)
    expect(slots.lost(report({status: 'failed'}))).toBe(false)
    for (let i = 1; i < LOST_IN_A_ROW; i++) expect(slots.lost(lost)).toBe(false)
    expect(slots.lost(lost)).toBe(true)
  })
})

describe('rateLimited', () => {
  it.each([
    [undefined, 'Nothing was made for the rows it held back: run the same command again later; it sends them then, and nothing twice.'],
    [90_000, 'Nothing was made for the rows it held back: run the same command again later (the gateway asked for 90 s); it sends them then, and nothing twice.'],
  ])('a wait of %s ms asked: the batch stops with exit 9, the status and the wait, and says when to run it again', (retryAfterMs, hint) => {
    const stop = rateLimited('refund', new RateLimitedError('limited', {retryAfterMs}, {status: 503}))
    expect(stop).toBeInstanceOf(RateLimitedError)
    expect({message: stop.message, exitCode: stop.exitCode, status: stop.status, retryAfterMs: stop.retryAfterMs, hint: stop.hint}).toStrictEqual({
      message: 'The gateway kept rate limiting the refunds past the wait gw allows each one: no more rows were started',
      exitCode: 9,
      status: 503,
      retryAfterMs,
      hint,
    })
  })
})
