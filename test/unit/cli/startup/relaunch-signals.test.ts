import {createRequire} from 'node:module'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

// bin/relaunch.js's signal forwarding, the platform handed to it (#59 item 5): on Windows child.kill
// is TerminateProcess, and the console delivers Ctrl-C and Ctrl-Break to both processes already.
const {forwards} = createRequire(import.meta.url)(join(import.meta.dirname, '..', '..', '..', '..', 'bin', 'relaunch.js')) as {
  forwards: (signal: string, options: {platform: NodeJS.Platform; foreground: () => boolean}) => boolean
}

describe('the relaunch passes a signal on to the gw it started', () => {
  it.each(['linux', 'darwin'] as const)('on %s: SIGTERM always; Ctrl-C and a hang-up only when its terminal has not sent them to both', (platform) => {
    const asked = (foreground: boolean) => (signal: string) => forwards(signal, {platform, foreground: () => foreground})
    expect(['SIGINT', 'SIGTERM', 'SIGHUP'].map(asked(true))).toEqual([false, true, false])
    expect(['SIGINT', 'SIGTERM', 'SIGHUP'].map(asked(false))).toEqual([true, true, true])
  })

  it('on Windows never, Ctrl-C least of all: a kill there ends gw at once, a purchase in flight unanswered', () => {
    let asked = false
    const foreground = () => ((asked = true), false)
    expect(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'].map((signal) => forwards(signal, {platform: 'win32', foreground}))).toEqual([false, false, false, false])
    expect(asked).toBe(false)
  })
})
