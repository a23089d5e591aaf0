import {describe, expect, it} from 'vitest'
import {platformOf} from '../../../src/lib/platform.js'
import {listen} from '../../../src/webhooks/listen.js'
import {testIo} from '../../test-io.js'

// gw listen on Windows: Ctrl-Break, which is what Windows has for SIGTERM, stops it as
// SIGTERM does: cleanly, exit 0, as a service manager expects; Ctrl-C exits 130.
describe('gw listen stops on its system’s signals', () => {
  const options = {host: '127.0.0.1', port: 0, path: '/', allowedHosts: [], allowedOrigins: [], events: [], json: false, forwardTimeoutMs: 1000, ackAlways: false, receiveTimeoutMs: 1000}

  it.each([
    ['SIGBREAK', 0],
    ['SIGINT', 130],
  ])('on Windows, %s: stopped cleanly, exit %i', async (signal, code) => {
    const io = testIo()
    const listening = listen({...options, stopSignals: platformOf('win32').serviceSignals}, io)
    await expect.poll(() => io.stderr()).toContain('Listening for web hooks on')
    process.emit(signal as NodeJS.Signals, signal as NodeJS.Signals)
    expect(await listening).toBe(code)
    expect(io.stderr()).toContain('Stopped. 0 events shown, 0 requests refused.\n')
  })
})
