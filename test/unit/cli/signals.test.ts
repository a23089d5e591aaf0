import {afterEach, describe, expect, it} from 'vitest'
import {Stop} from '../../../src/cli/signals.js'
import {InterruptedError} from '../../../src/errors.js'
import {platformOf} from '../../../src/lib/platform.js'
import {testIo} from '../../test-io.js'

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
})
