import {afterEach, describe, expect, it} from 'vitest'
import {isolatedHome, runGw, type Sandbox, sharedSandbox, startSandbox} from './helpers.js'
import {type Listener, type Recorder, startListen, startRecorder} from './listen-helpers.js'

// With the profile of a local gateway (the one gw sandbox start writes), gw listen
// registers itself and removes its registration when it stops, as stripe listen does.
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))
const running: (Listener | Recorder)[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => ('stop' in item ? item.stop('SIGKILL') : item.close())))
})

/** gw listen with the sandbox's home: its profile local is the active one, no credentials in the environment. */
async function listen(args: string[] = [], options: {process?: boolean} = {}): Promise<Listener> {
  const listener = await startListen(args, {env: sandbox.home, ...options})
  running.push(listener)
  return listener
}

async function hooks(): Promise<{id: string; name: string; address: string}[]> {
  const result = await sandbox.gw(['webhook', 'list', '--json'])
  expect(result.code, result.stderr).toBe(0)
  return result.records as {id: string; name: string; address: string}[]
}

const registeredId = (stderr: string) => /Registered as web hook (\S+) with the local gateway/.exec(stderr)?.[1]

describe('gw listen with a local gateway profile', () => {
  for (const [signal, exitCode] of [['SIGINT', 130], ['SIGTERM', 0]] as const) {
    it(`registers itself unasked, says so, receives the gateway's events and removes the registration on ${signal}`, async () => {
      const listener = await listen(['--json'])
      const id = registeredId(listener.stderr())
      expect(listener.stderr()).toContain(`Registered as web hook ${id} with the local gateway at ${sandbox.url}, as stripe listen does; it is removed when gw listen stops (--no-register leaves the gateway alone).`)
      expect(listener.stderr()).not.toContain('To have the gateway deliver here')
      expect(await hooks()).toContainEqual(expect.objectContaining({id, address: listener.url, name: `gw listen ${listener.url} (pid ${listener.pid})`, events: '*', mode: 'Test'}))

      expect((await sandbox.gw(['sandbox', 'trigger', 'card:expiring'])).code).toBe(0)
      await listener.waitForStdout(/"event":"card:expiring"/)

      const stopped = await listener.stop(signal)
      expect(stopped.code).toBe(exitCode)
      expect(stopped.stderr).toContain(`Removed web hook ${id}.`)
      expect((await hooks()).map((hook) => hook.id)).not.toContain(id)
    })
  }

  it('removes its registration when it ends by itself (stdout closed)', async () => {
    // A process: its stdout's reader is what goes away.
    const listener = await listen(['--json'], {process: true})
    const id = registeredId(listener.stderr())
    expect((await sandbox.gw(['sandbox', 'trigger', 'card:expiring'])).code).toBe(0)
    await listener.waitForStdout(/"event":"card:expiring"/)
    listener.process!.stdout!.destroy()
    expect((await sandbox.gw(['sandbox', 'trigger', 'card:expiring'])).code).toBe(0)
    expect(await listener.exited()).toBe(0)
    expect(listener.stderr()).toContain(`Removed web hook ${id}.`)
    expect((await hooks()).map((hook) => hook.id)).not.toContain(id)
  })

  it('a registration left by a gw listen that was killed is removed by the next one; a running one is left alone', async () => {
    const killed = await listen()
    const killedId = registeredId(killed.stderr())!
    await killed.stop('SIGKILL')
    const running = await listen()
    const runningId = registeredId(running.stderr())!
    expect(running.stderr()).toContain(`Removed web hook ${killedId}: a gw listen no longer running left it registered for ${killed.url}.`)

    const next = await listen()
    const nextId = registeredId(next.stderr())!
    expect(next.stderr()).not.toContain('Removed web hook')
    const ids = (await hooks()).map((hook) => hook.id)
    expect(ids).toEqual(expect.arrayContaining([runningId, nextId]))
    expect(ids).not.toContain(killedId)
  })

  it('a registration a killed gw listen left at the same address is removed, not kept beside the new one', async () => {
    const killed = await listen()
    const killedId = registeredId(killed.stderr())!
    await killed.stop('SIGKILL')
    const port = new URL(killed.url).port
    const again = await listen(['--port', port])
    expect(again.url).toBe(killed.url)
    expect(again.stderr()).toContain(`Removed web hook ${killedId}: a gw listen no longer running left it registered for ${killed.url}.`)
    expect((await hooks()).filter((hook) => hook.address === killed.url).map((hook) => hook.id)).toEqual([registeredId(again.stderr())])
  })

  it('--no-register leaves the gateway alone', async () => {
    const before = await hooks()
    const listener = await listen(['--no-register'])
    expect(listener.stderr()).toContain(`To have the gateway deliver here, run with --register, or register ${listener.url} yourself.`)
    expect(await hooks()).toEqual(before)
  })

  it('--forward-to with no scheme reaches the app over http', async () => {
    const app = await startRecorder(() => ({status: 202}))
    running.push(app)
    const listener = await listen(['--json', '--forward-to', `${app.url.replace('http://', '')}/hooks`])
    expect((await sandbox.gw(['sandbox', 'trigger', 'card:expiring'])).code).toBe(0)
    await listener.waitForStderr(/card:expiring forwarded/)
    expect(app.requests).toHaveLength(1)
    expect(app.requests[0]).toMatchObject({method: 'POST', url: '/hooks'})
    expect(JSON.parse(app.requests[0]!.body)).toMatchObject({event: 'card:expiring'})
  })

  it('with a live-mode local gateway registers a Live hook, and removes it on exit with no confirmation to ask for', async () => {
    const live = await startSandbox(['--mode', 'live'], isolatedHome())
    try {
      const listener = await startListen([], {env: live.home})
      running.push(listener)
      const id = registeredId(listener.stderr())
      const listed = await runGw(['webhook', 'list', '--json'], {env: live.home})
      expect(listed.records).toContainEqual(expect.objectContaining({id, mode: 'Live'}))
      const stopped = await listener.stop('SIGTERM')
      expect(stopped.code).toBe(0)
      expect(stopped.stderr).toContain(`Removed web hook ${id}.`)
      expect((await runGw(['webhook', 'list', '--json'], {env: live.home})).records).toEqual([])
    } finally {
      await live.stop()
    }
  })
})
