import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeAll, describe, expect, it} from 'vitest'
import {terminal, type Terminal} from './auth-helpers.js'
import {rowsOf, writeTemp} from './batch-helpers.js'
import {ANSWERS, CARDS, isolatedHome, ref, type Sandbox, sandboxForFile} from './helpers.js'

// Issue 29, "was my order refunded?": a refund's record does not name its purchase
// (gateway-notes.md), so `refund list --purchase` lists the refunds on its card since it, marks each
// certain or possible (gw_match), best fit first; a refund's default reference derives from its
// purchase's, which makes it certain. Against a real local gateway, over HTTP.
let sandbox: Sandbox
const open: Terminal[] = []
const prefix = ref('was-it')
// Both purchases on one card and holder, which no other test uses: every refund on it is one of these.
const holder = `Kim ${prefix}`
const card = ['--card-holder', holder, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123']
const A = `${prefix}-A`
const B = `${prefix}-B`
type Record_ = Record<string, unknown> & {id: string; reference: string; gw_match?: Record<string, unknown>}
const ids: Record<string, string> = {}

sandboxForFile((started) => void (sandbox = started))

afterEach(() => {
  for (const t of open.splice(0)) t.close()
})

const gwOk = async (args: string[]) => {
  const result = await sandbox.gw(args)
  expect(result.code, result.stderr).toBe(0)
  return result
}

beforeAll(async () => {
  for (const [reference, amount] of [[A, '10000'], [B, '5000']] as const) {
    ids[reference] = ((await gwOk(['purchase', 'create', '--amount', amount, '--reference', reference, ...card])).json as Record_).id
  }
  // A's, its reference derived: A-R1. B's, derived: B-R1. One under a reference of the user's, one naming A.
  await gwOk(['refund', 'create', '--transaction-id', A, '--amount', '1000'])
  await gwOk(['refund', 'create', '--transaction-id', ids[B]!, '--amount', '500'])
  await gwOk(['refund', 'create', '--transaction-id', B, '--amount', '700', '--reference', `${prefix}-manual`])
  await gwOk(['refund', 'create', '--transaction-id', A, '--amount', '100', '--reference', `refund-for-${A}`])
  // A batch of gw's refunds A under a reference of the user's: its journal makes the refund certain.
  await gwOk(['refund', 'create', '--input', writeTemp('event.csv', `transaction_id,amount,reference\n${A},2000,${prefix}-evt-1\n`)])
  // Another card's refund is never listed.
  const other = (await gwOk(['purchase', 'create', '--amount', '3000', '--reference', `${prefix}-other`, '--card-holder', 'Someone Else', '--card-number', CARDS.mastercard, '--card-expiry', '12/2030', '--cvv', '123'])).json as Record_
  await gwOk(['refund', 'create', '--transaction-id', other.id, '--amount', '100'])
}, 60_000)

describe('a refund without a reference of the user\'s', () => {
  it('gets <purchase-ref>-R<n>, the first free one, single or in a batch, each row its own; a rerun of the batch sends nothing again', async () => {
    expect(((await gwOk(['refund', 'get', `${A}-R1`, '--json'])).json as Record_).amount).toBe(ANSWERS.refundAmount(1000))
    expect(((await gwOk(['refund', 'get', `${B}-R1`, '--json'])).json as Record_).amount).toBe(ANSWERS.refundAmount(500))
    // Two rows of B in one batch, their reference column blank and left out.
    const file = writeTemp('blank-references.csv', `transaction_id,amount,reference\n${B},200,\n${B},300,\n`)
    const first = await sandbox.gw(['refund', 'create', '--input', file, '--concurrency', '1'])
    expect(first.code, first.stderr).toBe(0)
    expect(rowsOf(first.stdout).map((row) => [row.line, row.reference, row.status, row.record?.reference, row.record?.amount])).toEqual([
      [2, `${B}-R2`, 'approved', `${B}-R2`, ANSWERS.refundAmount(200)],
      [3, `${B}-R3`, 'approved', `${B}-R3`, ANSWERS.refundAmount(300)],
    ])
    const again = await sandbox.gw(['refund', 'create', '--input', file, '--concurrency', '1'])
    expect(again.code, again.stderr).toBe(0)
    expect(rowsOf(again.stdout).map((row) => [row.reference, row.status, row.resumed])).toEqual([
      [`${B}-R2`, 'approved', true],
      [`${B}-R3`, 'approved', true],
    ])
    const ndjson = writeTemp('no-reference-column.ndjson', `{"transaction_id":"${B}","amount":100}\n`)
    const dry = await sandbox.gw(['refund', 'create', '--input', ndjson, '--dry-run'])
    expect(dry.records).toEqual([{row: 1, line: 1, reference: null, request: {transaction_id: B, amount: 100}}])
  })

  it('a batch row in doubt keeps the reference journaled for it: looked up there, found, not sent again', async () => {
    const file = writeTemp('in-doubt.csv', `transaction_id,amount,reference\n${B},50,\n`)
    const journal = writeTemp('in-doubt-journal.ndjson', '')
    const first = await sandbox.gw(['refund', 'create', '--input', file, '--journal', journal])
    expect(first.code, first.stderr).toBe(0)
    const reference = rowsOf(first.stdout)[0]!.reference
    expect(reference).toBe(`${B}-R4`)
    // As if gw died after sending, before the answer was journaled: the intent stands alone.
    writeFileSync(journal, readFileSync(journal, 'utf8').split('\n').filter((line) => !line.startsWith('{"result"')).join('\n'))
    const rerun = await sandbox.gw(['refund', 'create', '--input', file, '--journal', journal])
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(rowsOf(rerun.stdout).map((row) => [row.reference, row.status, row.resumed])).toEqual([[reference, 'approved', true]])
    expect(rerun.stderr).toContain('1 in doubt')
    expect(((await gwOk(['refund', 'list', '--reference', `${B}-R5`])).records)).toEqual([])
  })

  it('keeps within the 255 characters the gateway takes, cutting the purchase part: --purchase still finds it for certain', async () => {
    const long = `${prefix}-${'x'.repeat(300)}`.slice(0, 255)
    await gwOk(['purchase', 'create', '--amount', '1000', '--reference', long, '--card-holder', `Long ${prefix}`, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])
    const refund = (await gwOk(['refund', 'create', '--transaction-id', long, '--amount', '100'])).json as Record_
    expect(refund.reference).toBe(long.slice(0, 252) + '-R1')
    const listed = (await gwOk(['refund', 'list', '--purchase', long])).records as Record_[]
    expect(listed.map((record) => [record.reference, (record.gw_match as {certain: boolean}).certain])).toEqual([[refund.reference, true]])
  })
})

describe('a refund batch given a journal of its own (--journal FILE)', () => {
  it("its refunds are certain too: the journal's place is noted in gw's data directory, and read as the directory's own are", async () => {
    const C = `${prefix}-C`
    const purchase = (await gwOk(['purchase', 'create', '--amount', '4000', '--reference', C, '--card-holder', `Lee ${prefix}`, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])).json as Record_
    const journal = writeTemp('a-place-of-its-own.ndjson', '')
    const input = writeTemp('own-journal.csv', `transaction_id,amount,reference\n${C},1500,${prefix}-own-1\n`)
    for (let run = 0; run < 2; run++) await gwOk(['refund', 'create', '--input', input, '--journal', journal])
    const records = (await gwOk(['refund', 'list', '--purchase', C])).records as Record_[]
    expect(records.map((record) => [record.reference, record.gw_match])).toEqual([[`${prefix}-own-1`, {purchase: purchase.id, certain: true, by: 'journal', fits: ['made_after'], against: []}]])
  })

  it('a place that cannot be noted is said on stderr, and the batch goes on: its refund sent once, exit 0', async () => {
    const home = isolatedHome()
    // Where the note goes is a folder: it can be neither read nor appended to.
    mkdirSync(join(home.XDG_DATA_HOME!, 'gw', 'journals', 'elsewhere.ndjson'), {recursive: true})
    const D = `${prefix}-D`
    await gwOk(['purchase', 'create', '--amount', '900', '--reference', D, '--card-holder', `Ash ${prefix}`, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])
    const input = writeTemp('unnoted.csv', `transaction_id,amount,reference\n${D},100,${prefix}-unnoted\n`)
    const result = await sandbox.gw(['refund', 'create', '--input', input, '--journal', writeTemp('unnoted.ndjson', '')], {env: home})
    expect(result.code, result.stderr).toBe(0)
    expect(rowsOf(result.stdout).map((row) => [row.reference, row.status])).toEqual([[`${prefix}-unnoted`, 'approved']])
    expect(result.stderr).toContain(`Warning: where this journal is could not be noted in ${join(home.XDG_DATA_HOME!, 'gw')} (EISDIR): refund list --purchase will show this batch's refunds as possible ones, not certain.\n`)
  })
})

describe('refund list --purchase', () => {
  it('says on stderr that these are possible refunds and why, lists them best fit first, each marked in gw_match after the gateway\'s fields', async () => {
    const listed = await gwOk(['refund', 'list', '--purchase', A])
    const records = listed.records as Record_[]
    expect(records.map((record) => record.reference)).toEqual([`${A}-R1`, `${prefix}-evt-1`, `refund-for-${A}`, `${prefix}-manual`, `${B}-R4`, `${B}-R3`, `${B}-R2`, `${B}-R1`])
    const match = (reference: string) => records.find((record) => record.reference === reference)!.gw_match
    const purchase = ids[A]
    expect(match(`${A}-R1`)).toEqual({purchase, certain: true, by: 'derived_reference', fits: ['made_after', 'names_purchase'], against: []})
    expect(match(`${prefix}-evt-1`)).toEqual({purchase, certain: true, by: 'journal', fits: ['made_after'], against: []})
    expect(match(`refund-for-${A}`)).toEqual({purchase, certain: false, fits: ['made_after', 'within_balance', 'names_purchase'], against: []})
    expect(match(`${prefix}-manual`)).toEqual({purchase, certain: false, fits: ['made_after', 'within_balance'], against: []})
    // Its reference derives from B's, a purchase on the same card: B's, though it may not be said for certain.
    expect(match(`${B}-R1`)).toEqual({purchase, certain: false, fits: ['made_after', 'within_balance'], against: ['names_other_purchase']})
    expect(listed.stderr).toBe(
      `Refunds that may be of purchase ${A} (${purchase}): a refund's record does not name its purchase, so these are the refunds on its card since it was made, best fit first (gw_match says why).\n` +
        `2 certain (gw made them for this purchase: a reference derived from its own, or a batch journal of gw's); 6 only possible.\n`,
    )
    // The gateway's record itself is untouched: every field as refund get has it, in its order, gw_match after them.
    const gateway = (await gwOk(['refund', 'get', `${A}-R1`])).json as Record_
    const {gw_match: _, ...rest} = records[0]!
    expect(Object.keys(records[0]!)).toEqual([...Object.keys(gateway), 'gw_match'])
    expect(rest).toEqual(gateway)
  })

  it("B's: its four derived refunds certain, the others possible; --limit caps what is shown, not what is matched", async () => {
    const records = (await gwOk(['refund', 'list', '--purchase', B])).records as Record_[]
    expect(records.filter((record) => (record.gw_match as {certain: boolean}).certain).map((record) => record.reference)).toEqual([`${B}-R4`, `${B}-R3`, `${B}-R2`, `${B}-R1`])
    expect(records.at(-1)!.reference).toBe(`${A}-R1`)
    expect(((await gwOk(['refund', 'list', '--purchase', B, '--limit', '2'])).records as Record_[]).map((record) => record.reference)).toEqual([`${B}-R4`, `${B}-R3`])
  })

  it('a purchase never refunded: nothing listed, and stderr says so plainly', async () => {
    const never = `${prefix}-never`
    await gwOk(['purchase', 'create', '--amount', '1000', '--reference', never, '--card-holder', `Never ${prefix}`, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])
    const listed = await gwOk(['refund', 'list', '--purchase', never])
    expect(listed.stdout).toBe('')
    expect(listed.stderr).toMatch(new RegExp(`^No refund on the card of purchase ${never} \\(071-P-\\w+\\) since it was made: it has not been refunded\\.\\n$`))
  })

  it('at a terminal: a Match column first, certain or possible, the note above; --json the same records as a pipe gets', async () => {
    const t = terminal(['refund', 'list', '--purchase', A], sandbox.env({NO_COLOR: '1'}), {width: 200})
    open.push(t)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toContain(`Refunds that may be of purchase ${A}`)
    expect(screen).toMatch(/│ Match +│ Date +│ Reference +│ Amount +│/)
    expect(screen).toMatch(new RegExp(`│ certain +│ [\\d-]+ [\\d:]+ +│ ${A}-R1 +│ ${ANSWERS.refundShown('10\\.00')} AUD │`))
    expect(screen).toMatch(new RegExp(`│ possible +│ [\\d-]+ [\\d:]+ +│ ${prefix}-manual +│ ${ANSWERS.refundShown('7\\.00')} AUD +│`))
    const json = terminal(['refund', 'list', '--purchase', A, '--json'], sandbox.env({NO_COLOR: '1'}), {width: 200, height: 400})
    open.push(json)
    const pretty = await json.waitFor(/\[exit \d+\]/)
    expect(pretty).toContain('[exit 0]')
    expect(pretty).toMatch(/^ {2}"gw_match": \{\n {4}"purchase": "071-P-\w+",\n {4}"certain": true,\n {4}"by": "derived_reference",/m)
  })
})

describe('purchase get', () => {
  it("at a terminal shows what has been refunded of it and what is left; its JSON stays the gateway's record", async () => {
    const t = terminal(['purchase', 'get', A], sandbox.env({NO_COLOR: '1'}), {width: 220})
    open.push(t)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    // Certain: A-R1 (10.00) and the batch's 20.00; possible: 1.00 naming A and the 7.00 under a reference of the user's.
    expect(screen).toMatch(new RegExp(`^Refunded +30\\.00 AUD for certain \\(2 refunds gw made for it\\), and 2 refunds on its card that may be of it, up to 8\\.00 AUD more: gw refund list --purchase ${A}$`, 'm'))
    expect(screen).toMatch(/^Left to refund +62\.00 AUD to 70\.00 AUD$/m)
    const piped = await gwOk(['purchase', 'get', A])
    expect(Object.keys(piped.json as object).filter((key) => key.startsWith('gw_'))).toEqual([])
  })
})
