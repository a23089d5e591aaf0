import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, expect, it} from 'vitest'
import {countingProxy} from '../counting-proxy.js'
import {terminal, type Terminal} from './auth-helpers.js'
import {apiRequestsSince, cardArgs, CARDS, describeInBothDialects, describeOnce, purchasedAtGateway, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'

// What operators and support take in at a glance: a report's every day with its total
// and chart, settlement's total, and charges made twice found in groups.
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

const open: Terminal[] = []
afterEach(() => {
  for (const t of open.splice(0)) t.close()
})

/** gw in a real terminal (tmux), pointed at this file's gateway. */
function atTerminal(args: string[], env: NodeJS.ProcessEnv = {}): Terminal {
  const t = terminal(args, sandbox.env(env), {width: 160})
  open.push(t)
  return t
}

const dir = mkdtempSync(join(tmpdir(), 'gw-e2e-glance-'))

/** Seeds purchases and refunds dated in the past (gw sandbox seed, steps with `at`). */
async function seed(steps: unknown[]): Promise<Record<string, {id: string}>> {
  const file = join(dir, `${ref('fixtures')}.json`)
  writeFileSync(file, JSON.stringify({steps}))
  // A step a request, one after another: on a busy machine a long file takes a while.
  const result = await sandbox.gw(['sandbox', 'seed', file], {timeoutMs: 60_000})
  expect(result.code, result.stderr).toBe(0)
  return Object.fromEntries((result.records as {name: string; record: {id: string}}[]).map((line) => [line.name, line.record]))
}

/** A purchase step on a card, at a time of 2024 (noon UTC and around it: the same day from UTC-11 to UTC+11). */
const charge = (name: string, at: string, amount: number, {card = CARDS.visa, currency}: {card?: string; currency?: string} = {}) => ({
  name,
  create: 'purchase',
  at,
  fields: {card_holder: 'Jane Citizen', card_number: card, card_expiry: '12/2030', cvv: '123', amount, reference: ref(name), ...(currency ? {currency} : {})},
})

const nothing = {purchases_approved: 0, purchases_approved_amount: 0, purchases_uncaptured: 0, purchases_uncaptured_amount: 0, purchases_voided: 0, purchases_declined: 0, refunds: 0, refunds_amount: 0, refunds_voided: 0, plan_payments: 0, plan_payments_amount: 0, direct_debits: 0, direct_debits_amount: 0, net: 0}

// Several gw runs a test, each about a second of CPU on a busy machine.
describeInBothDialects("gw report over a week: every day, the total, each day's net at a glance", {timeout: 90_000}, () => {
  const week = ['--from', '2024-03-11', '--to', '2024-03-17']
  let seeded: Promise<unknown> | undefined
  // Monday 42.00 AUD; Wednesday 120.00 AUD and 25.00 USD; Friday 90.00 AUD refunded; the other days nothing.
  const seedWeek = () =>
    (seeded ??= seed([
      charge('monday', '2024-03-11T12:00:00+00:00', 4200),
      charge('wednesday', '2024-03-13T12:00:00+00:00', 12000),
      charge('dollars', '2024-03-13T12:30:00+00:00', 2500, {currency: 'USD'}),
      {name: 'back', create: 'refund', at: '2024-03-15T12:00:00+00:00', fields: {transaction_id: '{{wednesday.id}}', amount: 9000, reference: ref('back')}},
    ]))

  it('lists every day of the window, the empty ones as rows of zeros, in each currency it saw; piped, no total row', async () => {
    await seedWeek()
    const result = await sandbox.gw(['report', ...week])
    expect(result.code, result.stderr).toBe(0)
    const day = (date: string, currency: string, moved: Record<string, number> = {}) => ({day: date, currency, ...nothing, ...moved})
    expect(result.records).toEqual([
      day('2024-03-11', 'AUD', {purchases_approved: 1, purchases_approved_amount: 4200, net: 4200}),
      day('2024-03-11', 'USD'),
      day('2024-03-12', 'AUD'),
      day('2024-03-12', 'USD'),
      day('2024-03-13', 'AUD', {purchases_approved: 1, purchases_approved_amount: 12000, net: 12000}),
      day('2024-03-13', 'USD', {purchases_approved: 1, purchases_approved_amount: 2500, net: 2500}),
      day('2024-03-14', 'AUD'),
      day('2024-03-14', 'USD'),
      day('2024-03-15', 'AUD', {refunds: 1, refunds_amount: 9000, net: -9000}),
      day('2024-03-15', 'USD'),
      day('2024-03-16', 'AUD'),
      day('2024-03-16', 'USD'),
      day('2024-03-17', 'AUD'),
      day('2024-03-17', 'USD'),
    ])
    expect(result.stdout).not.toMatch(/Total|█/)
  })

  it('adds a total row per currency and a bar of each day\'s net on a terminal, never adding two currencies', async () => {
    await seedWeek()
    const table = await sandbox.gw(['report', ...week], {env: {GW_FORCE_TTY: '200', NO_COLOR: '1'}})
    expect(table.code, table.stderr).toBe(0)
    const rows = table.stdout.split('\n').filter((line) => line.startsWith('│ 20') || line.startsWith('│ Total'))
    const cells = rows.map((line) => line.split('│').slice(1, -1).map((cell) => cell.trim()))
    const header = table.stdout.split('\n')[1]!.split('│').slice(1, -1).map((cell) => cell.trim())
    const column = (label: string) => cells.map((row) => row[header.indexOf(label)])
    expect(header.at(-1)).toBe('Net by day')
    expect(cells.map((row) => `${row[0]} ${row[1]}`)).toEqual([
      ...['11', '12', '13', '14', '15', '16', '17'].flatMap((date) => [`2024-03-${date} AUD`, `2024-03-${date} USD`]),
      'Total AUD',
      'Total USD',
    ])
    expect(column('Net').slice(-2)).toEqual(['72.00 AUD', '25.00 USD'])
    expect(column('Approved amount').slice(-2)).toEqual(['162.00 AUD', '25.00 USD'])
    // Each bar scaled to its currency's largest day: Wednesday's 120.00 AUD and 25.00 USD both fill the twelve cells.
    expect(column('Net by day')).toEqual(['████▎', '', '', '', '████████████', '████████████', '', '', '-█████████', '', '', '', '', '', '', ''])
  })

  it('shows one day as before: no total row, no chart', async () => {
    await seedWeek()
    const table = await sandbox.gw(['report', '--on', '2024-03-13'], {env: {GW_FORCE_TTY: '200', NO_COLOR: '1'}})
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/│ 2024-03-13 │ AUD/)
    expect(table.stdout).not.toMatch(/Total|█|Net by day/)
  })

  it('draws the chart in a real terminal, green and red, and without colour under NO_COLOR', async () => {
    await seedWeek()
    const t = atTerminal(['report', ...week])
    await t.waitFor(/\[exit \d+\]/)
    const screen = t.screen(true)
    expect(screen).toContain('[exit 0]')
    expect(screen).toContain('\u001B[32m████████████')
    expect(screen).toContain('\u001B[31m-█████████')
    expect(t.screen()).toMatch(/│ Total {6}│ AUD/)
    const plain = atTerminal(['report', ...week], {NO_COLOR: '1'})
    await plain.waitFor(/\[exit \d+\]/)
    const shown = plain.screen(true)
    expect(shown).toContain('-█████████')
    expect(shown).not.toContain('\u001B[3')
  })
})

describeInBothDialects('gw purchase settlement: a total line under the list', {timeout: 90_000}, () => {
  it('says at a terminal what settles in each currency, never added across, and what settles nothing; not in a pipe', async () => {
    // Made through the API (a gw costs a second of CPU on a busy machine), captured, voided and declined through gw.
    const first = await purchasedAtGateway(sandbox, {amount: 2500, currency: 'CHF'})
    const part = await purchasedAtGateway(sandbox, {amount: 1000, currency: 'CHF', capture: false})
    await purchasedAtGateway(sandbox, {amount: 1200, currency: 'USD'})
    const voided = await purchasedAtGateway(sandbox, {amount: 700, currency: 'CHF'})
    expect((await sandbox.gw(['purchase', 'capture', part.id, '--amount', '600'])).code).toBe(0)
    expect((await sandbox.gw(['purchase', 'void', voided.id])).code).toBe(0)
    expect((await sandbox.gw(['purchase', 'create', '--amount', '10051', '--currency', 'CHF', '--reference', ref('declined'), ...cardArgs()])).code).toBe(3)
    const day = String(first.settlement_date)

    const t = atTerminal(['purchase', 'settlement', '--on', day])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toContain('Total settling: 31.00 CHF (2 purchases), 12.00 USD (1 purchase); 1 voided settles nothing.\n')
    const all = atTerminal(['purchase', 'settlement', '--on', day, '--include-declined'])
    expect(await all.waitFor(/\[exit \d+\]/)).toContain('Total settling: 31.00 CHF (2 purchases), 12.00 USD (1 purchase); 1 voided and 1 declined settle nothing.\n')

    const piped = await sandbox.gw(['purchase', 'settlement', '--on', day])
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stderr).toBe('Left out 1 declined purchase the look-up lists, which settle nothing; --include-declined lists them.\n')
  })
})

describeInBothDialects('gw purchase list --duplicates: "I was charged twice"', {timeout: 90_000}, () => {
  // 2024-03-20, on the test Visa: 42.00 AUD at 11:00 and 11:04 (a pair), again at 12:30 (86 minutes
  // on: not with them), in USD at 11:02 and on another card at 11:03 (neither the same charge), and
  // two declines of 100.51 AUD at 11:05 and 11:07 (no charge at all).
  let seeded: Promise<Record<string, {id: string}>> | undefined
  const seedDay = () =>
    (seeded ??= seed([
      charge('first', '2024-03-20T11:00:00+00:00', 4200),
      charge('again', '2024-03-20T11:04:00+00:00', 4200),
      charge('later', '2024-03-20T12:30:00+00:00', 4200),
      charge('dollars', '2024-03-20T11:02:00+00:00', 4200, {currency: 'USD'}),
      charge('other', '2024-03-20T11:03:00+00:00', 4200, {card: CARDS.mastercard}),
      charge('declined', '2024-03-20T11:05:00+00:00', 10051),
      charge('retried', '2024-03-20T11:07:00+00:00', 10051),
    ]))
  type Marked = {id: string; gw_duplicates: {group: string; charges: number; span_seconds: number}}
  const groups = (records: unknown[]) => (records as Marked[]).map(({id, gw_duplicates}) => [id, gw_duplicates])

  it('groups two charges minutes apart on one card, of one amount and currency; not one an hour on, another currency, another card, or declines', async () => {
    const s = await seedDay()
    const result = await sandbox.gw(['purchase', 'list', '--duplicates', '--on', '2024-03-20'])
    expect(result.code, result.stderr).toBe(0)
    const pair = {group: s.first!.id, charges: 2, span_seconds: 240}
    // Newest first, as a list is; piped, each line carries its group.
    expect(groups(result.records)).toEqual([[s.again!.id, pair], [s.first!.id, pair]])
    expect(result.stderr).toBe('')
    expect(groups((await sandbox.gw(['purchase', 'list', '--duplicates', '--on', '2024-03-20', '--oldest-first'])).records)).toEqual([[s.first!.id, pair], [s.again!.id, pair]])
  })

  it('works with the other filters and a window of dates; --within widens it; --status declined groups declines', async () => {
    const s = await seedDay()
    const pair = {group: s.first!.id, charges: 2, span_seconds: 240}
    const run = async (...args: string[]) => {
      const result = await sandbox.gw(['purchase', 'list', '--duplicates', ...args])
      expect(result.code, result.stderr).toBe(0)
      return groups(result.records)
    }
    expect(await run('--on', '2024-03-20', '--card', '4242')).toEqual([[s.again!.id, pair], [s.first!.id, pair]])
    expect(await run('--from', '2024-03-19', '--to', '2024-03-21', '--amount', '4200')).toEqual([[s.again!.id, pair], [s.first!.id, pair]])
    expect(await run('--on', '2024-03-20', '--card', '4444')).toEqual([])
    expect(await run('--on', '2024-03-20', '--currency', 'USD')).toEqual([])
    const three = {group: s.first!.id, charges: 3, span_seconds: 5400}
    expect(await run('--on', '2024-03-20', '--within', '2h')).toEqual([[s.later!.id, three], [s.again!.id, three], [s.first!.id, three]])
    expect(await run('--on', '2024-03-20', '--within', '3m')).toEqual([])
    const declines = {group: s.declined!.id, charges: 2, span_seconds: 120}
    expect(await run('--on', '2024-03-20', '--status', 'declined')).toEqual([[s.retried!.id, declines], [s.declined!.id, declines]])
    // --fields may name the group.
    const fields = await sandbox.gw(['purchase', 'list', '--duplicates', '--on', '2024-03-20', '--fields', 'id,gw_duplicates'])
    expect(fields.records).toEqual([{id: s.again!.id, gw_duplicates: pair}, {id: s.first!.id, gw_duplicates: pair}])
  })

  it('shows each group at a terminal under a line saying what its charges share, and how many groups', async () => {
    const s = await seedDay()
    const t = atTerminal(['purchase', 'list', '--duplicates', '--on', '2024-03-20'])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toContain('Group 1: 2 charges of 42.00 AUD on card …4242, 4m apart from first to last\n┌')
    expect(screen).toMatch(new RegExp(`│ 2024-03-20 \\d\\d:\\d\\d .*│ ${s.again!.id} .*\\n│ 2024-03-20 \\d\\d:\\d\\d .*│ ${s.first!.id} `))
    expect(screen).toContain('1 group of likely duplicates (2 approved purchases) on one card, of one amount and currency, each within 10m of the one before.\n')
    const none = atTerminal(['purchase', 'list', '--duplicates', '--on', '2024-03-20', '--within', '90s'])
    expect(await none.waitFor(/\[exit \d+\]/)).toContain('No likely duplicates: no two approved purchases on one card, of one amount and currency, each within 1m30s of the one before.\n')
  })

  it("asks only for the window's pages, as many with years of history as without", async ({onTestFinished}) => {
    await seedDay()
    const proxy = await countingProxy(sandbox.url)
    onTestFinished(() => proxy.close())
    const lists = async () => {
      const from = proxy.seen.length
      const result = await sandbox.gw(['purchase', 'list', '--duplicates', '--on', '2024-03-20'], {env: {GW_BASE_URL: proxy.url}})
      expect(result.code, result.stderr).toBe(0)
      expect(result.records).toHaveLength(2)
      return proxy.seen.slice(from).filter((request) => request.method === 'GET' && request.path.startsWith('/v1.0/purchases?'))
    }
    const before = await lists()
    // Each page asked for names the window's days: --within wider, and a day more each side, as every list sends them.
    for (const request of before) expect(request.path).toMatch(/&from=2024%2F03%2F1[89]&to=2024%2F03%2F2[12]$/)
    // History before the window: more than a page (50) of purchases, a day apart.
    await seed(Array.from({length: 60}, (_, i) => charge(`old-${i}`, `2024-01-${String(1 + (i % 31)).padStart(2, '0')}T12:00:00+0${i % 2}:00`, 4200)))
    expect((await lists()).length).toBe(before.length)
    // Which a read of every purchase would have paged through.
    const from = proxy.seen.length
    expect((await sandbox.gw(['purchase', 'list', '--all', '--status', 'approved'], {env: {GW_BASE_URL: proxy.url}})).code).toBe(0)
    expect(proxy.seen.slice(from).filter((request) => request.path.startsWith('/v1.0/purchases?')).length).toBeGreaterThan(before.length)
  })
})

describeOnce('gw purchase list --duplicates --within, refused before anything is sent', () => {
  it('refuses a --within it cannot read, or one without --duplicates, naming the flag and the fix (exit 2), asking nothing', async () => {
    const cursor = await requestLogCursor(sandbox)
    for (const within of ['ten minutes', '10', '0s', '25h', '-5m']) {
      const result = await sandbox.gw(['purchase', 'list', '--duplicates', '--within', within])
      expect(result.code, within).toBe(2)
      expect(result.stderr).toBe(`Error: --within must be a span of time from 1s to 24h, as 90s, 10m, 2h or 1h30m; got "${within}"\nHint: For example --duplicates --within 30m.\n`)
    }
    const alone = await sandbox.gw(['purchase', 'list', '--within', '10m'])
    expect(alone.code).toBe(2)
    expect(alone.stderr).toBe('Error: --within is how close together --duplicates groups charges: give --duplicates too\nHint: For example gw purchase list --duplicates --within 30m.\n')
    const endless = await sandbox.gw(['purchase', 'list', '--duplicates', '--to', '2024-03-20'])
    expect(endless.code).toBe(2)
    expect(endless.stderr).toBe("Error: --duplicates needs the window's first day: without one it would read every purchase ever made\nHint: Give --from or --on too, e.g. --duplicates --on 2024-03-20.\n")
    expect(await apiRequestsSince(sandbox, cursor)).toEqual([])
  })
})
