import {rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {apiRequestsSince, CARDS, describeInBothDialects, type GwResult, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'

// What gw sends for a refund, and for purchase get's and refund list --purchase's refunded state,
// does not grow with the merchant's history (design.md §5): once gw has seen the refunds since a
// purchase (its index, refund-index.sqlite), each costs a handful of requests, counted at the local
// gateway's request log, whichever dialect it answers in.

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started), ['--processing-window-ms', '0'])

const DAY = 86_400_000
/** The most any of these may send once the history was seen: the purchase, a page of newer refunds, the refund, and a reference or two asked. */
const BOUND = 5

async function gwOk(args: string[], stdin?: string): Promise<GwResult> {
  const result = await sandbox.gw(args, {stdin, timeoutMs: 120_000})
  if (result.code !== 0) throw new Error(`gw ${args.join(' ')} exited ${result.code}: ${result.stderr}`)
  return result
}

/** What `args` sent to the gateway (its API, not its controls), and what it printed. */
async function counted(args: string[]): Promise<{result: GwResult; sent: string[]}> {
  const cursor = await requestLogCursor(sandbox)
  const result = await gwOk(args)
  return {result, sent: (await apiRequestsSince(sandbox, cursor)).map((request) => `${request.method} ${request.path}`)}
}

describeInBothDialects('a purchase with 10,000 refunds made after it', () => {
  it('a refund, purchase get and refund list --purchase each cost a handful of requests once gw has seen the history', async () => {
    const prefix = ref('hist')
    const old = `${prefix}-old`
    // The purchase, 61 days back; then 10,000 refunds over the 60 days since, on its card and three others.
    const day = new Date(Date.now() - 61 * DAY).toISOString().slice(0, 10)
    const steps = [{name: 'old', create: 'purchase', at: day, fields: {card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', amount: 100_000, reference: old}}]
    const file = join(sandbox.home.HOME!, 'old.json')
    writeFileSync(file, JSON.stringify({steps}))
    await gwOk(['sandbox', 'seed', file])
    await gwOk(['sandbox', 'seed', '--purchases', '2000', '--refunds', '10000', '--days', '60', '--reference-prefix', prefix])

    // The first look walks the history once (200 pages); gw keeps what it read.
    const first = await counted(['purchase', 'get', old, '--refunds'])
    expect(first.sent.filter((request) => request.startsWith('GET /v1.0/refunds')).length).toBeGreaterThanOrEqual(200)
    const state = (first.result.records[0] as {gw_refunded: unknown}).gw_refunded

    const refund = await counted(['refund', 'create', '--transaction-id', old, '--amount', '100', '--reference', `${old}-r`])
    expect(refund.result.records[0]).toMatchObject({reference: `${old}-r`, amount: expect.any(Number)})
    expect(refund.sent.length).toBeLessThanOrEqual(BOUND)
    expect(refund.sent.filter((request) => request === 'POST /v1.0/refunds')).toHaveLength(1)

    const derived = await counted(['refund', 'create', '--transaction-id', old, '--amount', '100'])
    expect(derived.result.records[0]).toMatchObject({reference: `${old}-R1`})
    expect(derived.sent.length).toBeLessThanOrEqual(BOUND)

    const get = await counted(['purchase', 'get', old, '--refunds'])
    expect(get.sent.length).toBeLessThanOrEqual(BOUND)
    // Both refunds gw made are certain; what the history may be of it is as the first look found it, less them.
    expect(get.result.records[0]).toMatchObject({gw_refunded: {at_least: 200}})

    const listed = await counted(['refund', 'list', '--purchase', old, '--limit', '5'])
    expect(listed.sent.length).toBeLessThanOrEqual(BOUND)
    expect((listed.result.records as {reference: string; gw_match: {match: string}}[]).filter((record) => record.gw_match.match === 'certain').map((record) => record.reference).sort()).toEqual([`${old}-R1`, `${old}-r`])

    // Lost, the index costs one walk, and says the same.
    rmSync(join(sandbox.home.XDG_DATA_HOME!, 'gw', 'refund-index.sqlite'))
    const again = await counted(['purchase', 'get', old, '--refunds'])
    expect(again.sent.length).toBeGreaterThan(200)
    expect((again.result.records[0] as {gw_refunded: unknown}).gw_refunded).toEqual((get.result.records[0] as {gw_refunded: unknown}).gw_refunded)
    expect(state).toMatchObject({at_least: 0})
  }, 240_000)
})
