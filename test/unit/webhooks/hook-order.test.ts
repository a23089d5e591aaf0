import {existsSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {forgetRemoved, hookOrderReader, makeRecorded, orderShown} from '../../../src/webhooks/hook-order.js'
import {hooksMadeFile} from '../../../src/webhooks/hooks-made.js'
import {testIo} from '../../test-io.js'

// Web hooks carry no dates: where two hooks gw made stand on a list tells the gateway's order,
// kept once per gateway and merchant, and nothing at all is taken on trust here.
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

/** A command's data directory and target, as the Factory hands them in, and its Io. */
function place(baseUrl = 'http://127.0.0.1:8787/', username = 'TEST') {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-hooks-made-'))
  dirs.push(dataDir)
  return {dataDir, io: testIo(), target: async () => ({baseUrl, username})}
}

/** A gateway's client as the record sees it: the run of its data that answered last, if it names one. */
const gateway = (gatewayInstance?: string) => ({gatewayInstance})

/** Makes hooks one after another through makeRecorded, each answered before the next is asked for. */
async function made(where: ReturnType<typeof place>, ids: string[], client = gateway()): Promise<void> {
  for (const id of ids) {
    const before = Date.now()
    await makeRecorded(where, client, async () => {
      // The clock moves on between the asking and the answer, and again before the next is asked.
      while (Date.now() === before) await new Promise((resolve) => setImmediate(resolve))
      return {id, name: id}
    })
    const after = Date.now()
    while (Date.now() === after) await new Promise((resolve) => setImmediate(resolve))
  }
}

const hooks = (...ids: string[]) => ids.map((id) => ({id, address: `http://127.0.0.1:9/${id}`}))

describe('orderShown', () => {
  const at = (sentAt: number, answeredAt: number) => ({sentAt, answeredAt})
  const making = new Map([
    ['a', at(10, 20)],
    ['b', at(30, 40)],
    ['c', at(50, 60)],
    // Made while c was: which came first, no one can say.
    ['c2', at(55, 65)],
  ])

  it.each<[string, string[], 'oldest' | 'newest' | undefined]>([
    ['two made one after the other, listed in that order: oldest first', ['a', 'x', 'b'], 'oldest'],
    ['listed the other way round: newest first', ['c', 'y', 'b', 'a'], 'newest'],
    ['one alone tells nothing', ['x', 'b', 'y'], undefined],
    ['none gw made', ['x', 'y'], undefined],
    ['two made at once tell nothing', ['c2', 'c'], undefined],
    ['pairs that disagree: the gateway lists by something else', ['b', 'a', 'c'], undefined],
  ])('%s', (_, listed, order) => {
    expect(orderShown(listed, making)).toBe(order)
  })
})

describe('hookOrderReader: the order a list of web hooks comes in, from gw record of the hooks it made', () => {
  it('nothing made: tells nothing, and makes no file', async () => {
    const where = place()
    expect(await hookOrderReader(where, gateway())(hooks('x', 'y'))).toBeUndefined()
    expect(existsSync(hooksMadeFile(where.dataDir))).toBe(false)
  })

  it.each([
    ['oldest', ['h1', 'h2', 'h3']],
    ['newest', ['h3', 'h2', 'h1']],
  ] as const)('two it made on the page tell %s first, kept for a later page that shows none, at that gateway and merchant only', async (order, listed) => {
    const where = place()
    await made(where, ['h1', 'h2', 'h3'])
    expect(await hookOrderReader(where, gateway())(hooks(...listed))).toBe(order)
    // Kept: a list of hooks made elsewhere is read in it; the same gateway however its address is spelled.
    expect(await hookOrderReader({...where, target: async () => ({baseUrl: 'http://localhost:8787', username: 'TEST'})}, gateway())(hooks('x', 'y'))).toBe(order)
    expect(await hookOrderReader({...where, target: async () => ({baseUrl: 'http://127.0.0.1:8787', username: 'OTHER'})}, gateway())(hooks('h1', 'h2'))).toBeUndefined()
    expect(await hookOrderReader({...where, target: async () => ({baseUrl: 'http://127.0.0.1:9999', username: 'TEST'})}, gateway())(hooks('h1', 'h2'))).toBeUndefined()
  })

  it('what the page shows wins over what was kept, and is kept in its place', async () => {
    const where = place()
    await made(where, ['h1', 'h2'])
    expect(await hookOrderReader(where, gateway())(hooks('h1', 'h2'))).toBe('oldest')
    // The gateway lists the other way now (restarted with --web-hook-order newest, say).
    expect(await hookOrderReader(where, gateway())(hooks('h2', 'h1'))).toBe('newest')
    expect(await hookOrderReader(where, gateway())(hooks('x'))).toBe('newest')
  })

  it("a local gateway's hooks count only against the run of its data that made them: a reset one gives their ids again", async () => {
    const where = place()
    await made(where, ['h1', 'h2'], gateway('run-a.3'))
    expect(await hookOrderReader(where, gateway('run-b.1'))(hooks('h2', 'h1'))).toBeUndefined()
    // The same run, however many changes on.
    expect(await hookOrderReader(where, gateway('run-a.9'))(hooks('h2', 'h1'))).toBe('newest')
  })

  it('a hook gw removed is forgotten: its id tells nothing afterwards', async () => {
    const where = place()
    await made(where, ['h1', 'h2', 'h3'])
    await forgetRemoved(where, 'h1')
    await forgetRemoved(where, 'h2')
    expect(await hookOrderReader(where, gateway())(hooks('h1', 'h2', 'h3'))).toBeUndefined()
  })

  it('a record that cannot be read tells nothing, and the list goes on', async () => {
    const where = place()
    mkdirSync(hooksMadeFile(where.dataDir))
    expect(await hookOrderReader(where, gateway())(hooks('h1', 'h2'))).toBeUndefined()
  })
})

describe('makeRecorded', () => {
  it('a hook made when the record cannot be written: made all the same, and a warning says what is lost', async () => {
    const where = place()
    mkdirSync(hooksMadeFile(where.dataDir))
    const hook = await makeRecorded(where, gateway(), async () => ({id: '071-WH-AAAA0001'}))
    expect(hook).toEqual({id: '071-WH-AAAA0001'})
    expect(where.io.stderr()).toMatch(/^Warning: gw could not record making web hook 071-WH-AAAA0001 \(.*web-hooks-made\.sqlite cannot be written \(.+\)\): gw webhook list cannot tell the gateway's order by it\.\n$/)
  })

  it('a hook the gateway made but named no id for: nothing to know it by, nothing recorded', async () => {
    const where = place()
    expect(await makeRecorded(where, gateway(), async () => ({name: 'x'}))).toEqual({name: 'x'})
    expect(existsSync(hooksMadeFile(where.dataDir))).toBe(false)
    expect(where.io.stderr()).toBe('')
  })
})
