import {beforeAll, describe, expect, it} from 'vitest'
import {terminal} from './auth-helpers.js'
import {apiRequestsSince, describeInBothDialects, isolatedHome, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'
import {startListen} from './listen-helpers.js'

// gw webhook list prints newest first, as its help says, whichever order the gateway lists web
// hooks in: they carry no dates, and the recordings list them oldest first in 2017 and 2019,
// newest first in 2018. gw reads the order from where the hooks it made stand on the list, and
// keeps it for the gateway; with nothing to read it by, it assumes oldest first and says so.
// Against local gateways of both orders (--web-hook-order), in each dialect of the local gateway.

const ORDERS = ['oldest', 'newest'] as const

const ASSUMED = "The order is assumed: web hooks carry no dates, and gw takes the gateway to list them oldest first, as most recorded gateways do. Two hooks made with gw webhook create or gw listen show the gateway's own order."

describeInBothDialects.each(ORDERS)('a gateway that lists web hooks %s first', (order) => {
  let sandbox: Sandbox
  /** The hooks on the gateway, by id, in the order they were made. */
  const hooks: string[] = []
  const newestFirst = () => [...hooks].reverse()

  sharedSandbox((started) => void (sandbox = started), ['--web-hook-order', order], {asProcess: true})

  /** gw with a data folder of `home`'s (the gateway's own by default): what gw recorded is that folder's. */
  const gw = (args: string[], home?: NodeJS.ProcessEnv) => sandbox.gw(args, home ? {env: home} : {})

  async function create(name: string, home?: NodeJS.ProcessEnv): Promise<string> {
    const result = await gw(['webhook', 'create', '--url', `http://127.0.0.1:9/${name}`, '--name', name, '--json'], home)
    expect(result.code, result.stderr).toBe(0)
    const {id} = result.records[0] as {id: string}
    hooks.push(id)
    return id
  }

  /** A hook made straight at the gateway, as another tool would make it: gw has no record of it. */
  async function madeElsewhere(name: string): Promise<string> {
    const response = await fetch(`${sandbox.url}/v1.0/web_hooks`, {
      method: 'POST',
      headers: {'content-type': 'application/json', authorization: `Basic ${Buffer.from('TEST:TEST').toString('base64')}`},
      body: JSON.stringify({name, address: `http://127.0.0.1:9/${name}`, events: '*', mode: 'Test'}),
    })
    expect(response.status).toBe(200)
    const {id} = ((await response.json()) as {response: {id: string}}).response
    hooks.push(id)
    return id
  }

  /** The ids gw lists, in its order, and the requests it sent for them. */
  async function listed(args: string[], home?: NodeJS.ProcessEnv): Promise<{ids: string[]; requests: number}> {
    const cursor = await requestLogCursor(sandbox)
    const result = await gw(['webhook', 'list', ...args, '--json'], home)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe('')
    return {ids: result.records.map((hook) => (hook as {id: string}).id), requests: (await apiRequestsSince(sandbox, cursor)).length}
  }

  /** What `gw webhook list` leaves on a terminal: the table, then what it says under it. */
  async function atTerminal(home: NodeJS.ProcessEnv): Promise<string> {
    const t = terminal(['webhook', 'list'], sandbox.env({...home, GW_PAGER: 'cat'}))
    try {
      return await t.waitFor(/\[exit \d+\]/)
    } finally {
      t.close()
    }
  }

  it('is a setting gw sandbox status shows', async () => {
    const status = await sandbox.gw(['sandbox', 'status', '--json'])
    expect(status.code, status.stderr).toBe(0)
    expect(status.json).toMatchObject({url: sandbox.url, webHookOrder: order})
  })

  describe('hooks made with gw webhook create', () => {
    beforeAll(async () => {
      for (const name of ['hook-1', 'hook-2', 'hook-3', 'hook-4']) await create(name)
    })

    it.each<[string, string[], (made: string[], newest: string[]) => string[]]>([
      ['newest first', [], (_, newest) => newest],
      ['-L 1: the newest', ['-L', '1'], (_, newest) => newest.slice(0, 1)],
      ['--limit 2: the two newest', ['--limit', '2'], (_, newest) => newest.slice(0, 2)],
      ['--all', ['--all'], (_, newest) => newest],
      ['--oldest-first', ['--oldest-first'], (made) => made],
      ['--oldest-first -L 1: the oldest', ['--oldest-first', '-L', '1'], (made) => made.slice(0, 1)],
    ])('%s, in one request', async (_, args, expected) => {
      expect(await listed(args)).toEqual({ids: expected([...hooks], newestFirst()), requests: 1})
    })
  })

  describe('a data folder whose gw made none of the hooks listed', () => {
    const home = isolatedHome()
    let own: string[] = []

    it('assumes oldest first, and says so at a terminal: right where the gateway lists oldest first, backwards where not', async () => {
      await madeElsewhere('elsewhere-5')
      const assumed = order === 'oldest' ? newestFirst() : [...hooks]
      expect(await listed([], home)).toEqual({ids: assumed, requests: 1})
      expect(await atTerminal(home)).toContain(`${hooks.length} web hooks, newest first.\n${ASSUMED}\n[exit 0]`)
    })

    it('two hooks it makes show the gateway its order: every hook newest first, nothing assumed', async () => {
      own = [await create('own-6', home), await create('own-7', home)]
      expect(await listed([], home)).toEqual({ids: newestFirst(), requests: 1})
      expect(await listed(['-L', '1'], home)).toEqual({ids: [own[1]], requests: 1})
      expect(await listed(['--oldest-first', '-L', '1'], home)).toEqual({ids: [hooks[0]], requests: 1})
      const screen = await atTerminal(home)
      expect(screen).toContain(`${hooks.length} web hooks, newest first.\n[exit 0]`)
      expect(screen).not.toContain('assumed')
    })

    it('the order is kept for the gateway: once its own hooks are removed, a list of hooks made elsewhere is still newest first', async () => {
      for (const id of own) {
        const removed = await gw(['webhook', 'delete', id, '--json'], home)
        expect(removed.code, removed.stderr).toBe(0)
        hooks.splice(hooks.indexOf(id), 1)
      }
      await madeElsewhere('elsewhere-8')
      expect(await listed([], home)).toEqual({ids: newestFirst(), requests: 1})
      expect(await listed(['--oldest-first'], home)).toEqual({ids: [...hooks], requests: 1})
      expect(await atTerminal(home)).not.toContain('assumed')
    })
  })

  it("gw listen's registration counts as a hook gw made", async () => {
    const home = isolatedHome()
    const listener = await startListen(['--register'], {env: sandbox.env(home)})
    try {
      const registered = /Registered as web hook (\S+)/.exec(listener.stderr())?.[1]
      expect(registered, listener.stderr()).toBeDefined()
      hooks.push(registered!)
      const created = await create('after-listen', home)
      expect(await listed([], home)).toEqual({ids: newestFirst(), requests: 1})
      expect((await listed(['-L', '2'], home)).ids).toEqual([created, registered])
    } finally {
      await listener.stop()
    }
  })
})
