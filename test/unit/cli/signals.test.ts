import {afterEach, describe, expect, it} from 'vitest'
import {Stop} from '../../../src/cli/signals.js'
import {InterruptedError} from '../../../src/errors.js'
import {platformOf} from '../../../src/lib/platform.js'
import {testIo} from '../../test-io.js'
import {until} from '../../until.js'
import {waitingNotice} from '../../../src/output/hints.js'

// A command's stop on each system, the system's signals handed to it: Ctrl-Break,
// which is what Windows has for SIGTERM, stops gw as SIGTERM does (exit 143).
let unwatch = () => {}
afterEach(() => unwatch())

describe('Stop', () => {
  it("on Windows takes Ctrl-Break for SIGTERM: the command stops, exit 143", async () => {
    const stop = new Stop({inFlight: () => undefined, io: () => testIo(), signals: platformOf('win32').stopSignals})
    unwatch = stop.watch()
    process.emit('SIGBREAK' as NodeJS.Signals, 'SIGBREAK' as NodeJS.Signals)
    const error = await stop.interrupted.catch((err: unknown) => err)
    expect(error).toBeInstanceOf(InterruptedError)
    expect(error).toMatchObject({signal: 'SIGTERM', exitCode: 143})
    expect(stop.signal.reason).toBe('SIGTERM')
  })

  it('waits through the first Ctrl-Break while a purchase is in flight, as through a SIGTERM', async () => {
    const io = testIo()
    const stop = new Stop({inFlight: () => ({noun: 'purchase', reference: 'order-1'}), io: () => io, signals: platformOf('win32').stopSignals})
    unwatch = stop.watch()
    process.emit('SIGBREAK' as NodeJS.Signals, 'SIGBREAK' as NodeJS.Signals)
    expect(stop.waitedThrough).toBe('SIGTERM')
    expect(stop.exitCode()).toBe(143)
    expect(stop.signal.aborted).toBe(false)
  })

  it('elsewhere listens to no Ctrl-Break, which the system does not have', () => {
    const stop = new Stop({inFlight: () => undefined, io: () => testIo(), signals: platformOf('linux').stopSignals})
    const before = process.listenerCount('SIGBREAK')
    unwatch = stop.watch()
    expect(process.listenerCount('SIGBREAK')).toBe(before)
    expect(process.listenerCount('SIGHUP')).toBeGreaterThan(0)
  })

  it("a batch's signals: the first finishes its rows, the second aborts its requests and lets it end, a third stops gw at once", async () => {
    const stop = new Stop({inFlight: () => undefined, io: () => testIo(), signals: platformOf('win32').stopSignals})
    unwatch = stop.watch()
    const told: boolean[] = []
    stop.onSignal((atOnce) => told.push(atOnce))
    let rejected: unknown
    stop.interrupted.catch((err: unknown) => (rejected = err))
    const third = new InterruptedError('SIGTERM')
    const outcomes = ['finish', 'abort', third] as const
    let signals = 0
    stop.onSoftStop(() => outcomes[signals++]!)
    const settled = () => new Promise((resolve) => setImmediate(resolve))

    process.emit('SIGBREAK' as NodeJS.Signals, 'SIGBREAK' as NodeJS.Signals)
    await settled()
    expect({aborted: stop.signal.aborted, rejected, told}).toEqual({aborted: false, rejected: undefined, told: [false]})

    // Its requests end, and the batch with them: it reports its summary before gw exits.
    process.emit('SIGBREAK' as NodeJS.Signals, 'SIGBREAK' as NodeJS.Signals)
    await settled()
    expect({aborted: stop.signal.aborted, reason: stop.signal.reason, rejected, told}).toEqual({aborted: true, reason: 'SIGTERM', rejected: undefined, told: [false, true]})

    process.emit('SIGBREAK' as NodeJS.Signals, 'SIGBREAK' as NodeJS.Signals)
    await settled()
    expect(rejected).toBe(third)
    expect(told).toEqual([false, true, true])
  })

  it('once the work is done, a signal lets the outcome be shown, the exit status says it came, and a second finds no listener', async () => {
    const stop = new Stop({inFlight: () => undefined, io: () => testIo(), signals: platformOf('linux').stopSignals})
    const before = process.listenerCount('SIGHUP')
    unwatch = stop.watch()
    const told: boolean[] = []
    stop.onSignal((atOnce) => told.push(atOnce))
    let rejected: unknown
    stop.interrupted.catch((err: unknown) => (rejected = err))
    stop.workDone()
    process.emit('SIGHUP', 'SIGHUP')
    await new Promise((resolve) => setImmediate(resolve))
    expect({rejected, told, exitCode: stop.exitCode(), listeners: process.listenerCount('SIGHUP') - before}).toEqual({rejected: undefined, told: [true], exitCode: 129, listeners: 0})
  })

  it('a purchase in flight: the first signal waits for its answer and says so, the second stops at once, leaving it unknown', async () => {
    const io = testIo()
    const inFlight = {noun: 'purchase', reference: 'order-1'} as const
    const stop = new Stop({inFlight: () => inFlight, io: () => io, signals: platformOf('linux').stopSignals})
    unwatch = stop.watch()
    const told: boolean[] = []
    stop.onSignal((atOnce) => told.push(atOnce))
    process.emit('SIGINT', 'SIGINT')
    await until('the waiting notice', () => io.stderr() !== '')
    expect({told, aborted: stop.signal.aborted, exitCode: stop.exitCode()}).toEqual({told: [false], aborted: false, exitCode: 130})
    expect(io.stderr()).toBe(waitingNotice('SIGINT', inFlight))
    process.emit('SIGTERM', 'SIGTERM')
    const error = await stop.interrupted.catch((err: unknown) => err)
    expect(error).toMatchObject({signal: 'SIGTERM', exitCode: 143})
    expect({told, reason: stop.signal.reason, waitedThrough: stop.waitedThrough}).toEqual({told: [false, true], reason: 'SIGTERM', waitedThrough: 'SIGINT'})
  })

  it('a signal heard by --jq once the command stopped watching: the exit status says the first one', () => {
    const stop = new Stop({inFlight: () => undefined, io: () => testIo(), signals: platformOf('linux').stopSignals})
    expect(stop.exitCode()).toBeUndefined()
    stop.heard('SIGHUP')
    stop.heard('SIGINT')
    expect(stop.exitCode()).toBe(129)
  })

  it('a signal that no one waits on leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = []
    const keep = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', keep)
    try {
      const stop = new Stop({inFlight: () => undefined, io: () => testIo(), signals: platformOf('linux').stopSignals})
      unwatch = stop.watch()
      process.emit('SIGTERM', 'SIGTERM')
      await new Promise((resolve) => setTimeout(resolve, 0))
      expect(stop.signal.aborted).toBe(true)
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', keep)
    }
  })
})
