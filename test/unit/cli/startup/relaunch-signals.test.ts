import {EventEmitter} from 'node:events'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

// bin/relaunch.js's signal forwarding, the platform handed to it: on Windows child.kill
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

describe("a relaunched gw notices its launcher's end, on each platform's descriptor (design §5: one process sends)", () => {
  const {stopWithLauncher} = createRequire(import.meta.url)(join(import.meta.dirname, '..', '..', '..', '..', 'bin', 'relaunch.js')) as {
    stopWithLauncher: (system: object) => void
  }
  /** The descriptor's kind as fstat tells it: a socket pair's end (Linux, macOS), or the named pipe libuv makes on Windows. */
  const kind = (socket: boolean) => () => ({isSocket: () => socket, isFIFO: () => !socket})

  /** A relaunched gw's process, its launcher's end as an emitter the test closes; what it did is in `done`. */
  function relaunched(platform: NodeJS.Platform, descriptor: ReturnType<typeof kind>, listeners = 0) {
    const done: string[] = []
    const end = new EventEmitter() as EventEmitter & {unref: () => typeof end; resume: () => void}
    end.unref = () => end
    end.resume = () => {}
    const proc = {
      env: {GW_RELAUNCHED_FROM_NODE: 'v20.20.2'} as NodeJS.ProcessEnv,
      pid: 4242,
      ppid: 4241,
      kill: (pid: number, signal: string) => done.push(`kill ${pid} ${signal}`),
      listenerCount: () => listeners,
      emit: (event: string, signal: string) => done.push(`emit ${event} ${signal}`),
      exit: (code: number) => done.push(`exit ${code}`),
    }
    let opened = false
    stopWithLauncher({platform, proc, fstat: descriptor, open: () => ((opened = true), end), say: (text: string) => done.push(text.trim())})
    return {done, end, opened: () => opened, proc}
  }

  it.each(['linux', 'darwin'] as const)('on %s: its socket closes, and gw raises SIGTERM on itself', (platform) => {
    const gw = relaunched(platform, kind(true))
    expect(gw.opened()).toBe(true)
    expect(gw.proc.env.GW_RELAUNCHED_FROM_NODE).toBeUndefined()
    expect(gw.done).toEqual([])
    gw.end.emit('close')
    expect(gw.done).toEqual(['The gw that started this one on Node v20.20.2 (pid 4241) has ended: stopping as on SIGTERM.', 'kill 4242 SIGTERM'])
  })

  it('on Windows: its named pipe closes, and gw calls its own SIGTERM listeners (process.kill there would be TerminateProcess)', () => {
    const gw = relaunched('win32', kind(false), 1)
    expect(gw.opened()).toBe(true)
    gw.end.emit('close')
    expect(gw.done).toEqual(['The gw that started this one on Node v20.20.2 (pid 4241) has ended: stopping as on SIGTERM.', 'emit SIGTERM SIGTERM'])
    // With no listener (a command that stops at once), it ends as a SIGTERM ends a program.
    const bare = relaunched('win32', kind(false), 0)
    bare.end.emit('close')
    expect(bare.done.at(-1)).toBe('exit 143')
  })

  it("watches nothing on Linux that is not a socket, nor where gw was not relaunched", () => {
    expect(relaunched('linux', kind(false)).opened()).toBe(false)
    let opened = false
    stopWithLauncher({platform: 'win32', proc: {env: {}}, fstat: kind(false), open: () => ((opened = true), new EventEmitter())})
    expect(opened).toBe(false)
  })
})
