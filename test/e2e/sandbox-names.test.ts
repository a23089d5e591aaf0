import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {isolatedHome, runGw} from './helpers.js'

// --name means one thing on every gw sandbox command, the local gateway started
// with that --name, as on start, stop and status; --profile keeps working where it did.
const home = isolatedHome()
let local: string
let livey: string

beforeAll(async () => {
  local = (await runGw(['sandbox', 'start', '--detach', '--port', '0'], {env: home})).stdout.trim()
  livey = (await runGw(['sandbox', 'start', '--detach', '--name', 'livey', '--dialect', 'live'], {env: home})).stdout.trim()
  expect(local).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  expect(livey).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
}, 60_000)

afterAll(async () => {
  await runGw(['sandbox', 'stop', '--all'], {env: home})
})

describe('--name on the gw sandbox commands that talk to a local gateway', () => {
  it('every gw sandbox command takes --name, each but start, stop and status refusing it beside --profile', () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, {flags: Record<string, {exclusive?: string[]}>}>}
    const sandboxCommands = Object.entries(manifest.commands).filter(([id]) => id.startsWith('sandbox:'))
    expect(sandboxCommands.length).toBeGreaterThan(9)
    for (const [id, command] of sandboxCommands) {
      expect(command.flags.name, id).toBeDefined()
      if (!['sandbox:start', 'sandbox:stop', 'sandbox:status'].includes(id)) expect(command.flags.name!.exclusive, id).toEqual(['profile'])
    }
  })

  it('logs, trigger, deliveries, clock, clock advance, seed and fault reach the gateway named, not the active one', async () => {
    const hook = 'http://127.0.0.1:9/hooks'
    const triggered = await runGw(['sandbox', 'trigger', 'card:expiring', '--webhook', hook, '--name', 'livey', '--json'], {env: home})
    expect(triggered.code, triggered.stderr).toBe(0)
    expect(triggered.json).toMatchObject({event: 'card:expiring', delivered_to: [hook]})

    const deliveries = await runGw(['sandbox', 'deliveries', '--name', 'livey'], {env: home})
    expect(deliveries.records).toMatchObject([{event: 'card:expiring'}])
    expect(JSON.stringify(deliveries.records)).toContain(hook)

    expect((await runGw(['sandbox', 'clock', 'advance', '--days', '2', '--name', 'livey'], {env: home})).code).toBe(0)
    const [liveyClock, localClock] = await Promise.all([runGw(['sandbox', 'clock', '--name', 'livey'], {env: home}), runGw(['sandbox', 'clock'], {env: home})])
    expect(liveyClock.json).not.toEqual(localClock.json)

    const fixtures = join(home.HOME!, 'fixtures.json')
    writeFileSync(fixtures, JSON.stringify({steps: [{name: 'gold', create: 'plan', fields: {name: 'Gold', amount: 1000, reference: 'gold-by-name', description: 'Gold'}}]}))
    const seeded = await runGw(['sandbox', 'seed', fixtures, '--name', 'livey'], {env: home})
    expect(seeded.code, seeded.stderr).toBe(0)
    expect((await runGw(['plan', 'list', '--profile', 'livey'], {env: home})).records).toContainEqual(expect.objectContaining({reference: 'gold-by-name'}))
    expect((await runGw(['plan', 'list'], {env: home})).records).toEqual([])

    const logs = await runGw(['sandbox', 'logs', '--name', 'livey', '--path', '/v1.0/plans'], {env: home})
    expect(logs.code, logs.stderr).toBe(0)
    expect(logs.records).toContainEqual(expect.objectContaining({method: 'POST', path: '/v1.0/plans', reference: 'gold-by-name'}))
    // The active profile's gateway (local) never saw it.
    const localLogs = await runGw(['sandbox', 'logs', '--path', '/v1.0/plans', '--json'], {env: home})
    expect(localLogs.records.every((entry) => (entry as {method: string}).method === 'GET')).toBe(true)
    expect((await runGw(['sandbox', 'logs', '--name', 'local', '--path', '/v1.0/plans'], {env: home})).records).toEqual(localLogs.records)
  })

  it('gw sandbox fault add, list and clear: the fault API without curl, on the gateway --name names', async () => {
    const added = await runGw(['sandbox', 'fault', 'add', '--name', 'livey', '--method', 'get', '--path', '/v1.0/plans', '--action', 'status', '--status', '404', '--times', '2', '--json'], {env: home})
    expect(added.code, added.stderr).toBe(0)
    expect(added.json).toEqual({method: 'GET', path: '/v1.0/plans', times: 2, action: 'status', status: 404, html: false})
    const listed = await runGw(['sandbox', 'fault', 'list', '--name', 'livey'], {env: home})
    expect(listed.records).toEqual([{method: 'GET', path: '/v1.0/plans', times: 2, action: 'status', status: 404, html: false}])
    // The active gateway has none, and says so.
    const none = await runGw(['sandbox', 'fault', 'list'], {env: home})
    expect(none).toMatchObject({code: 0, stdout: '', stderr: 'No faults are waiting.\n'})
    // The fault answers the next plan list of livey, and has one time left.
    expect((await runGw(['plan', 'list', '--profile', 'livey'], {env: home})).code).toBe(5)
    expect((await runGw(['sandbox', 'fault', 'list', '--name', 'livey'], {env: home})).records).toMatchObject([{path: '/v1.0/plans', times: 1}])

    await runGw(['sandbox', 'fault', 'add', '--name', 'livey', '--method', 'POST', '--path', '/v1.0/purchases', '--action', 'delay', '--delay-ms', '10'], {env: home})
    const cleared = await runGw(['sandbox', 'fault', 'clear', '--name', 'livey'], {env: home})
    expect(cleared).toMatchObject({code: 0, stdout: '', stderr: 'Cleared 2 faults that were waiting.\n'})
    expect((await runGw(['sandbox', 'fault', 'list', '--name', 'livey'], {env: home})).records).toEqual([])
  })

  it.each([
    [['--action', 'status'], '--action status needs --status'],
    [['--action', 'delay'], '--action delay needs --delay-ms'],
    [['--action', 'drop-after', '--status', '503'], '--status and --html go with --action status, not drop-after'],
    [['--action', 'status', '--status', '503', '--delay-ms', '5'], '--delay-ms goes with --action delay, not status'],
  ])('gw sandbox fault add %j is refused, exit 2, before anything is sent', async (flags, message) => {
    const result = await runGw(['sandbox', 'fault', 'add', '--method', 'GET', '--path', '/v1.0/plans', ...flags], {env: home})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`Error: ${message}`)
  })

  it('--profile still picks the gateway where it did', async () => {
    // The same gateway's clock both ways (its now read a moment apart: left out).
    const clockOf = async (...how: string[]) => ({...((await runGw(['sandbox', 'clock', ...how, '--json'], {env: home})).json as object), now: undefined})
    expect(await clockOf('--profile', 'livey')).toEqual(await clockOf('--name', 'livey'))
  })

  it('a name no local gateway runs under, or --name with --profile, is refused before anything is sent', async () => {
    const missing = await runGw(['sandbox', 'logs', '--name', 'nosuch'], {env: home})
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('Error: The local gateway nosuch is not running (gw sandbox status lists those that are)')
    expect(missing.stderr).toContain('Hint: Start it with: gw sandbox start --detach --name nosuch')
    const both = await runGw(['sandbox', 'deliveries', '--name', 'livey', '--profile', 'local'], {env: home})
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('--profile')
  })
})
