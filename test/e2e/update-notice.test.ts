import {readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {terminal} from './auth-helpers.js'
import {isolatedHome, runGw} from './helpers.js'
import {RUN_BOUND_MS} from '../until.js'
import {registryStub} from '../registry-stub.js'

// gw's update notice, as gh gives it: at a terminal, at most once a day, on stderr, never in a
// pipe or CI; the check that finds a newer gw runs in the background, and the next run tells it. A
// local registry stands in for npm's (npm_config_registry); the test harness turns notices off
// (GW_NO_UPDATE_NOTIFIER) everywhere but here.
const {version} = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {version: string}
const DAY = 24 * 60 * 60 * 1000

describe('the update notice, against a registry whose gw is newer', () => {
  let registry: Awaited<ReturnType<typeof registryStub>>
  let answer: () => void
  const home = isolatedHome()
  const state = join(home.XDG_DATA_HOME!, 'gw', 'update-check.json')
  const env = (extra: NodeJS.ProcessEnv = {}) => ({...home, GW_NO_UPDATE_NOTIFIER: undefined, npm_config_registry: registry.url, ...extra})
  const NOTICE = `A new release of gw is available: ${version} -> 9.9.9`

  /** gw help exit-codes at a terminal, to its end: what the terminal shows. */
  async function atTerminal(extra: NodeJS.ProcessEnv = {}): Promise<string> {
    const t = terminal(['help', 'exit-codes'], env(extra))
    try {
      return await t.waitFor('[exit 0]')
    } finally {
      t.close()
    }
  }
  const readState = () => JSON.parse(readFileSync(state, 'utf8')) as {checkedAt?: string; latest?: string; notifiedAt?: string}
  /** The state as if its times were a day and a minute older. */
  function aDayLater(): void {
    const older = (when?: string) => when && new Date(Date.parse(when) - DAY - 60_000).toISOString()
    const now = readState()
    writeFileSync(state, JSON.stringify({...now, checkedAt: older(now.checkedAt), notifiedAt: older(now.notifiedAt)}))
  }

  beforeAll(async () => {
    registry = await registryStub({gw: {name: 'gw', 'dist-tags': {latest: '9.9.9'}}}, {hold: new Promise<void>((resolve) => (answer = resolve))})
  })
  afterAll(async () => {
    answer()
    await registry?.close()
  })

  it('first run: no notice, and the check it starts in the background never delays it', async () => {
    const screen = await atTerminal()
    expect(screen).not.toContain('A new release')
    // gw ended while the registry still held its answer: the check is a process of its own.
    await expect.poll(() => registry.requests, {timeout: RUN_BOUND_MS}).toEqual(['GET /gw'])
    expect(readState()).toEqual({checkedAt: expect.any(String)})
    answer()
    await expect.poll(() => readState().latest, {timeout: RUN_BOUND_MS}).toBe('9.9.9')
    if (process.platform !== 'win32') expect(statSync(state).mode & 0o777).toBe(0o600)
  })

  it('the next run at a terminal says so on stderr, naming the upgrade command; once a day', async () => {
    const screen = await atTerminal()
    expect(screen).toContain(`${NOTICE}\nTo upgrade, run: git pull && npm ci\nhttps://github.com/gw-cli/gw/releases/tag/v9.9.9\n`)
    // After the command's own output.
    expect(screen.indexOf('EXIT CODES')).toBeLessThan(screen.indexOf(NOTICE))
    expect(await atTerminal()).not.toContain('A new release')
    // Checked within the day: the registry is not asked again.
    expect(registry.requests).toEqual(['GET /gw'])
  })

  it('never in a pipe, in CI or with GW_NO_UPDATE_NOTIFIER, and nothing is asked or written there', async () => {
    aDayLater()
    const before = readFileSync(state, 'utf8')
    const piped = await runGw(['help', 'exit-codes'], {env: env()})
    expect(piped.code).toBe(0)
    expect(piped.stderr).toBe('')
    expect(await atTerminal({CI: 'true'})).not.toContain('A new release')
    expect(await atTerminal({GW_NO_UPDATE_NOTIFIER: '1'})).not.toContain('A new release')
    expect(readFileSync(state, 'utf8')).toBe(before)
    expect(registry.requests).toEqual(['GET /gw'])
  })

  it('a day later, says it again, and checks again', async () => {
    expect(await atTerminal()).toContain(NOTICE)
    await expect.poll(() => registry.requests, {timeout: RUN_BOUND_MS}).toEqual(['GET /gw', 'GET /gw'])
  })
})
