import {chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterEach, beforeAll, expect, it} from 'vitest'
import {terminal, type Terminal} from './auth-helpers.js'
import {rowsOf, writeTemp} from './batch-helpers.js'
import {ANSWERS, CARDS, describeInBothDialects, isolatedHome, purchasedAtGateway, ref, type Sandbox, sharedSandbox} from './helpers.js'
import {journalText, writeJournal} from '../journal-text.js'
import {POSIX_MODES} from '../only-on.js'

// "Was my order refunded?": a refund's record does not name its purchase (gateway-notes.md), so
// `refund list --purchase` and `purchase get` hold the refunds on its card since it against it, one
// matcher (design.md §3): certain where gw recorded making the refund for it, likely where its
// reference derives from the purchase's, possible on the same card; another purchase's named as
// such. Against a real local gateway, over HTTP.
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

sharedSandbox((started) => void (sandbox = started))

afterEach(() => {
  for (const t of open.splice(0)) t.close()
})

const gwOk = async (args: string[]) => {
  const result = await sandbox.gw(args)
  expect(result.code, result.stderr).toBe(0)
  return result
}

/** A refund made past this gw's records (another machine's gw, with a data directory of its own, as a merchant's own system would): only its reference and card speak for it. */
const elsewhere = isolatedHome()
const refundElsewhere = async (transactionId: string, amount: number, reference: string) => {
  const result = await sandbox.gw(['api', 'POST', '/v1.0/refunds', '--data', JSON.stringify({transaction_id: transactionId, amount, reference})], {env: elsewhere})
  expect(result.code, result.stderr).toBe(0)
  return result
}

beforeAll(async () => {
  for (const [reference, amount] of [[A, '10000'], [B, '5000']] as const) {
    ids[reference] = ((await gwOk(['purchase', 'create', '--amount', amount, '--reference', reference, ...card])).json as Record_).id
  }
  // gw's refund create, recorded: A's, its reference derived, A-R1; B's, derived, B-R1; B's under a reference of the user's.
  await gwOk(['refund', 'create', '--transaction-id', A, '--amount', '1000'])
  await gwOk(['refund', 'create', '--transaction-id', ids[B]!, '--amount', '500'])
  await gwOk(['refund', 'create', '--transaction-id', B, '--amount', '700', '--reference', `${prefix}-manual`])
  // Past gw's records: one naming A, one of the shape gw derives from A's.
  await refundElsewhere(A, 100, `refund-for-${A}`)
  await refundElsewhere(A, 300, `${A}-R9`)
  // A batch of gw's refunds A under a reference of the user's: its journal makes the refund certain.
  await gwOk(['refund', 'create', '--input', writeTemp('event.csv', `transaction_id,amount,reference\n${A},2000,${prefix}-evt-1\n`)])
  // Another card's refund is never listed.
  const other = (await gwOk(['purchase', 'create', '--amount', '3000', '--reference', `${prefix}-other`, '--card-holder', 'Someone Else', '--card-number', CARDS.mastercard, '--card-expiry', '12/2030', '--cvv', '123'])).json as Record_
  await gwOk(['refund', 'create', '--transaction-id', other.id, '--amount', '100'])
}, 60_000)

describeInBothDialects('a refund without a reference of the user\'s', () => {
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
    // The reference the run will send, derived as the run derives it: the first free one.
    expect(dry.records).toEqual([{row: 1, line: 1, reference: `${B}-R4`, request: {transaction_id: B, amount: 100}}])
  })

  it('a batch row in doubt keeps the reference journaled for it: looked up there, found, not sent again', async () => {
    const file = writeTemp('in-doubt.csv', `transaction_id,amount,reference\n${B},50,\n`)
    const journal = writeTemp('in-doubt-journal.ndjson', '')
    const first = await sandbox.gw(['refund', 'create', '--input', file, '--journal', journal])
    expect(first.code, first.stderr).toBe(0)
    const reference = rowsOf(first.stdout)[0]!.reference
    expect(reference).toBe(`${B}-R4`)
    // As if gw died after sending, before the answer was journaled: the intent stands alone.
    const intents = journalText(journal).split('\n').filter((line) => !line.startsWith('{"result"')).join('\n')
    rmSync(journal)
    writeJournal(journal, intents)
    const rerun = await sandbox.gw(['refund', 'create', '--input', file, '--journal', journal])
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(rowsOf(rerun.stdout).map((row) => [row.reference, row.status, row.resumed])).toEqual([[reference, 'approved', true]])
    expect(rerun.stderr).toContain('1 in doubt')
    expect(((await gwOk(['refund', 'list', '--reference', `${B}-R5`])).records)).toEqual([])
  })

  it('keeps within the 255 characters the gateway takes, cutting the purchase part: gw recorded making it, so --purchase finds it for certain', async () => {
    const long = `${prefix}-${'x'.repeat(300)}`.slice(0, 255)
    await gwOk(['purchase', 'create', '--amount', '1000', '--reference', long, '--card-holder', `Long ${prefix}`, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])
    const refund = (await gwOk(['refund', 'create', '--transaction-id', long, '--amount', '100'])).json as Record_
    expect(refund.reference).toBe(long.slice(0, 252) + '-R1')
    const listed = (await gwOk(['refund', 'list', '--purchase', long])).records as Record_[]
    expect(listed.map((record) => [record.reference, record.gw_match?.match, record.gw_match?.by])).toEqual([[refund.reference, 'certain', 'refund_create']])
  })
})

describeInBothDialects('a single refund gw cannot record', () => {
  it('says one thing of how it will be found, and it is true: likely by its derived reference, else as its card, date and reference say; never "for certain"', async () => {
    const home = isolatedHome()
    // A folder where gw's record goes: nothing can be written there.
    const record = join(home.XDG_DATA_HOME!, 'gw', 'refunds-made.sqlite')
    mkdirSync(record, {recursive: true})
    const E = `${prefix}-E`
    await gwOk(['purchase', 'create', '--amount', '900', '--reference', E, '--card-holder', `Eve ${prefix}`, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])
    const derived = await sandbox.gw(['refund', 'create', '--transaction-id', E, '--amount', '100'], {env: home})
    expect(derived.code, derived.stderr).toBe(0)
    expect((derived.json as Record_).reference).toBe(`${E}-R1`)
    const cannot = `Warning: gw could not record making this refund (${record} cannot be written (unable to open database file)): gw refund list --purchase ${E} and purchase get`
    expect(derived.stderr).toBe(`${cannot} will show it as likely (its reference ${E}-R1 derives from the purchase's), not certain.\n`)
    const own = await sandbox.gw(['refund', 'create', '--transaction-id', E, '--amount', '200', '--reference', `${prefix}-eve-own`], {env: home})
    expect(own.code, own.stderr).toBe(0)
    expect(own.stderr).toBe(`${cannot} will not show it as certain, only as its card, date and reference suggest.\n`)
    // What the warnings said is what the list shows.
    const listed = (await sandbox.gw(['refund', 'list', '--purchase', E], {env: home})).records as Record_[]
    expect(listed.map((refund) => [refund.reference, refund.gw_match?.match, refund.gw_match?.by])).toEqual([
      [`${E}-R1`, 'likely', 'derived_reference'],
      [`${prefix}-eve-own`, 'possible', undefined],
    ])
  })
})

describeInBothDialects('a refund batch given a journal of its own (--journal FILE)', () => {
  it("its refunds are certain too: the journal's place is noted in gw's data directory, and read as the directory's own are", async () => {
    const C = `${prefix}-C`
    const purchase = (await gwOk(['purchase', 'create', '--amount', '4000', '--reference', C, '--card-holder', `Lee ${prefix}`, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])).json as Record_
    const journal = writeTemp('a-place-of-its-own.ndjson', '')
    const input = writeTemp('own-journal.csv', `transaction_id,amount,reference\n${C},1500,${prefix}-own-1\n`)
    for (let run = 0; run < 2; run++) await gwOk(['refund', 'create', '--input', input, '--journal', journal])
    const records = (await gwOk(['refund', 'list', '--purchase', C])).records as Record_[]
    expect(records.map((record) => [record.reference, record.gw_match])).toEqual([[`${prefix}-own-1`, {purchase: purchase.id, match: 'certain', by: 'journal', fits: ['made_after'], against: []}]])
  })

  /** A batch of one refund, of a purchase of its own, with --journal FILE, in `home`: it goes on whatever became of the note (exit 0). */
  async function refundWithItsOwnJournal(home: NodeJS.ProcessEnv, name: string) {
    const purchase = `${prefix}-${name}-p`
    await gwOk(['purchase', 'create', '--amount', '900', '--reference', purchase, '--card-holder', `Ash ${prefix}`, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])
    const input = writeTemp(`${name}.csv`, `transaction_id,amount,reference\n${purchase},100,${prefix}-${name}\n`)
    const result = await sandbox.gw(['refund', 'create', '--input', input, '--journal', writeTemp(`${name}.ndjson`, '')], {env: home})
    expect(result.code, result.stderr).toBe(0)
    expect(rowsOf(result.stdout).map((row) => [row.reference, row.status])).toEqual([[`${prefix}-${name}`, 'approved']])
    return result
  }

  it('a place that cannot be noted is said on stderr, and the batch goes on: its refund sent once, exit 0', async () => {
    const home = isolatedHome()
    // Where the note goes is a folder: it can be neither read nor appended to.
    mkdirSync(join(home.XDG_DATA_HOME!, 'gw', 'journals', 'elsewhere.ndjson'), {recursive: true})
    const result = await refundWithItsOwnJournal(home, 'unnoted')
    expect(result.stderr).toContain(`Warning: where this journal is could not be noted in ${join(home.XDG_DATA_HOME!, 'gw')} (EISDIR): refund list --purchase will show this batch's refunds as likely or possible ones, not certain.\n`)
  })

  it.skipIf(POSIX_MODES.skip)(`a note others may write is neither read nor added to: said with its fix, and the batch goes on${POSIX_MODES.note}`, async () => {
    const home = isolatedHome()
    const note = join(home.XDG_DATA_HOME!, 'gw', 'journals', 'elsewhere.ndjson')
    mkdirSync(dirname(note), {recursive: true, mode: 0o700})
    writeFileSync(note, `${JSON.stringify('/somewhere/else.ndjson')}\n`, {mode: 0o600})
    chmodSync(note, 0o666)
    const result = await refundWithItsOwnJournal(home, 'loose')
    expect(result.stderr).toContain(
      `Warning: where this journal is could not be noted: refund list --purchase will show this batch's refunds as likely or possible ones, not certain.\n${note} can be written by others than you (mode 0666): gw uses only what no one else can change, as ssh does.\nHint: Check what it holds, then take the others' write permission away (chmod go-w ${note}).\n`,
    )
    expect(readFileSync(note, 'utf8')).toBe(`${JSON.stringify('/somewhere/else.ndjson')}\n`)
  })
})

describeInBothDialects('refund list --purchase', () => {
  it('says on stderr what the refunds listed are, lists them best fit first, each marked in gw_match after the gateway\'s fields', async () => {
    const listed = await gwOk(['refund', 'list', '--purchase', A])
    const records = listed.records as Record_[]
    expect(records.map((record) => record.reference)).toEqual([`${A}-R1`, `${prefix}-evt-1`, `${A}-R9`, `refund-for-${A}`, `${B}-R4`, `${B}-R3`, `${B}-R2`, `${prefix}-manual`, `${B}-R1`])
    const match = (reference: string) => records.find((record) => record.reference === reference)!.gw_match
    const purchase = ids[A]
    expect(match(`${A}-R1`)).toEqual({purchase, match: 'certain', by: 'refund_create', fits: ['made_after', 'names_purchase'], against: []})
    expect(match(`${prefix}-evt-1`)).toEqual({purchase, match: 'certain', by: 'journal', fits: ['made_after'], against: []})
    // Its shape is gw's, but gw has no record of making it: likely, not certain.
    expect(match(`${A}-R9`)).toEqual({purchase, match: 'likely', by: 'derived_reference', fits: ['made_after', 'within_balance', 'names_purchase'], against: []})
    expect(match(`refund-for-${A}`)).toEqual({purchase, match: 'possible', fits: ['made_after', 'within_balance', 'names_purchase'], against: []})
    // gw made these for B, by a single refund create or a batch: B's, named, never possible for A.
    expect(match(`${prefix}-manual`)).toEqual({purchase, match: 'other_purchase', by: 'refund_create', other_purchase: B, other_match: 'certain', fits: ['made_after'], against: []})
    expect(match(`${B}-R1`)).toEqual({purchase, match: 'other_purchase', by: 'refund_create', other_purchase: B, other_match: 'certain', fits: ['made_after'], against: []})
    expect(match(`${B}-R2`)).toEqual({purchase, match: 'other_purchase', by: 'journal', other_purchase: B, other_match: 'certain', fits: ['made_after'], against: []})
    expect(listed.stderr).toBe(
      `Refunds that may be of purchase ${A} (${purchase}): a refund's record does not name its purchase, so these are the refunds on its card since it was made, best fit first (gw_match says why).\n` +
        `2 certain (gw recorded making them for this purchase); 1 likely (a reference derived from its own, after it); 1 possible (on its card, after it); 5 of another purchase (${B}).\n`,
    )
    // The gateway's record itself is untouched: every field as refund get has it, in its order, gw_match after them.
    const gateway = (await gwOk(['refund', 'get', `${A}-R1`])).json as Record_
    const {gw_match: _, ...rest} = records[0]!
    expect(Object.keys(records[0]!)).toEqual([...Object.keys(gateway), 'gw_match'])
    expect(rest).toEqual(gateway)
  })

  it("B's: the five gw made for it certain, A's named as A's; --limit caps what is shown, not what is matched", async () => {
    const records = (await gwOk(['refund', 'list', '--purchase', B])).records as Record_[]
    expect(records.filter((record) => record.gw_match?.match === 'certain').map((record) => record.reference)).toEqual([`${B}-R4`, `${B}-R3`, `${B}-R2`, `${B}-R1`, `${prefix}-manual`])
    expect(records.filter((record) => record.gw_match?.match === 'other_purchase').map((record) => [record.reference, record.gw_match?.other_purchase, record.gw_match?.other_match])).toEqual([
      [`${A}-R9`, A, 'likely'],
      [`${prefix}-evt-1`, A, 'certain'],
      [`${A}-R1`, A, 'certain'],
    ])
    expect(((await gwOk(['refund', 'list', '--purchase', B, '--limit', '2'])).records as Record_[]).map((record) => record.reference)).toEqual([`${B}-R4`, `${B}-R3`])
  })

  it('a purchase never refunded: nothing listed, and stderr says so plainly', async () => {
    const never = `${prefix}-never`
    await gwOk(['purchase', 'create', '--amount', '1000', '--reference', never, '--card-holder', `Never ${prefix}`, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])
    const listed = await gwOk(['refund', 'list', '--purchase', never])
    expect(listed.stdout).toBe('')
    expect(listed.stderr).toMatch(new RegExp(`^No refund on the card of purchase ${never} \\(071-P-\\w+\\) since it was made: it has not been refunded\\.\\n$`))
  })

  // A refund sent with gw api was labelled `certain (gw's refund create)`, naming a command not run.
  it('a refund made with gw api is labelled as made by gw at a terminal, naming no command it did not run', async () => {
    const own = ['--card-holder', `${prefix} api`, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123']
    const bought = (await gwOk(['purchase', 'create', '--amount', '2000', '--reference', `${prefix}-api`, ...own])).json as Record_
    await gwOk(['api', 'POST', '/v1.0/refunds', '--data', JSON.stringify({transaction_id: bought.id, amount: 400, reference: `${prefix}-api-R1`})])
    const t = terminal(['refund', 'list', '--purchase', `${prefix}-api`], sandbox.env({NO_COLOR: '1'}), {width: 200})
    open.push(t)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toMatch(new RegExp(`│ certain \\(made by gw\\) +│ [\\d-]+ [\\d:]+ +│ ${prefix}-api-R1 +│ 4\\.00 AUD │`))
    expect(screen).not.toContain('refund create')
  })

  it('at a terminal: a Match column first, the word and its reason, the note above; --json the same records as a pipe gets', async () => {
    const t = terminal(['refund', 'list', '--purchase', A], sandbox.env({NO_COLOR: '1'}), {width: 200})
    open.push(t)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toContain(`Refunds that may be of purchase ${A}`)
    expect(screen).toMatch(/│ Match +│ Date +│ Reference +│ Amount +│/)
    expect(screen).toMatch(new RegExp(`│ certain \\(made by gw\\) +│ [\\d-]+ [\\d:]+ +│ ${A}-R1 +│ 10\\.00 AUD │`))
    expect(screen).toMatch(new RegExp(`│ likely \\(derived reference\\) +│ [\\d-]+ [\\d:]+ +│ ${A}-R9 +│ 3\\.00 AUD +│`))
    expect(screen).toMatch(new RegExp(`│ possible \\(names it; same card, after it\\) +│ [\\d-]+ [\\d:]+ +│ refund-for-${A} +│`))
    expect(screen).toMatch(new RegExp(`│ of ${B} \\(certain: made by gw\\) +│ [\\d-]+ [\\d:]+ +│ ${prefix}-manual +│ 7\\.00 AUD +│`))
    const json = terminal(['refund', 'list', '--purchase', A, '--json'], sandbox.env({NO_COLOR: '1'}), {width: 200, height: 400})
    open.push(json)
    const pretty = await json.waitFor(/\[exit \d+\]/)
    expect(pretty).toContain('[exit 0]')
    expect(pretty).toMatch(/^ {2}"gw_match": \{\n {4}"purchase": "071-P-\w+",\n {4}"match": "certain",\n {4}"by": "refund_create",/m)
  })
})

describeInBothDialects('purchase get', () => {
  it("at a terminal shows what has been refunded of it and what is left, by the same matcher; its JSON stays the gateway's record unless asked", async () => {
    const t = terminal(['purchase', 'get', A], sandbox.env({NO_COLOR: '1'}), {width: 220})
    open.push(t)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    // Certain: A-R1 (10.00) and the batch's 20.00; likely A-R9 (3.00), possible 1.00 naming A.
    expect(screen).toMatch(/^Refunded +30\.00 AUD for certain \(2 refunds gw made for it\), and 2 refunds on its card since it that may be of it/m)
    expect(screen).toMatch(/^Left to refund +66\.00 AUD to 70\.00 AUD$/m)
    const piped = await gwOk(['purchase', 'get', A])
    expect(Object.keys(piped.json as object).filter((key) => key.startsWith('gw_'))).toEqual([])
    const asked = (await gwOk(['purchase', 'get', A, '--refunds'])).json as Record_
    expect(Object.keys(asked).slice(-2)).toEqual(['gw_refunded', 'gw_left_to_refund'])
    expect(asked.gw_refunded).toEqual({
      at_least: 3000,
      at_most: 3400,
      currency: 'AUD',
      says: `30.00 AUD for certain (2 refunds gw made for it), and 2 refunds on its card since it that may be of it (1 likely, its reference derived from this one's; 1 possible), up to 4.00 AUD more; gw made 5 other refunds on its card for another purchase (${B}): gw refund list --purchase ${A}`,
    })
    expect(asked.gw_left_to_refund).toEqual({at_least: 6600, at_most: 7000, currency: 'AUD'})
  })
})

describeInBothDialects('purchase get, read as support staff read it', () => {
  it('one record, one screen at 60x30: the refunds gw made for 40 other purchases on its card are counted, with the command that lists them', async () => {
    const holder = `Shared ${prefix}`
    const shared = await bought(`${prefix}-shared`, 1000, holder)
    const token = ((await gwOk(['card', 'tokenize', '--card-holder', holder, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])).json as {token: string}).token
    const others = Array.from({length: 40}, (_, i) => `${prefix}-s${i}`)
    await gwOk(['purchase', 'create', '--input', writeTemp('shared-card.csv', ['card_token,amount,reference', ...others.map((reference) => `${token},500,${reference}`)].join('\n') + '\n')])
    await gwOk(['refund', 'create', '--input', writeTemp('shared-card-refunds.csv', ['transaction_id,amount,reference', ...others.map((reference) => `${reference},500,`)].join('\n') + '\n')])
    const got = (await gwOk(['purchase', 'get', shared.reference, '--refunds'])).json as Record_
    expect(got.gw_refunded).toEqual({at_least: 0, at_most: 0, currency: 'AUD', says: `0.00 AUD: gw made all 40 refunds on its card since it for 40 other purchases: gw refund list --purchase ${shared.reference}`})
    // Through the pager only when it does not fit: the whole record on one screen, and gw done.
    const t = terminal(['purchase', 'get', shared.reference], sandbox.env({NO_COLOR: '1'}), {width: 60, height: 30})
    open.push(t)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen.replace(/\s+/g, ' ')).toContain(`Refunded 0.00 AUD: gw made all 40 refunds on its card since it for 40 other purchases: gw refund list --purchase ${shared.reference} Left to refund 10.00 AUD`)
    expect(screen).not.toContain(`${prefix}-s0`)
  })

  it('three purchases on one card, refunded in full, in part and never past gw: the refund of exactly what is left is listed first, and purchase get says so first', async () => {
    const holder = `Three ${prefix}`
    const full = await bought(`${prefix}-full`, 8000, holder)
    const part = await bought(`${prefix}-part`, 4000, holder)
    const never = await bought(`${prefix}-never-r`, 2000, holder)
    await refundElsewhere(full.reference, 8000, `${prefix}-ext-80`)
    // The partial one is newer: newest first, it came above the exact one.
    await refundElsewhere(part.reference, 2000, `${prefix}-ext-20`)
    const listed = (await gwOk(['refund', 'list', '--purchase', full.reference])).records as Record_[]
    expect(listed.map((record) => [record.reference, record.gw_match?.match, record.gw_match?.fits])).toEqual([
      [`${prefix}-ext-80`, 'possible', ['made_after', 'within_balance', 'whole_balance']],
      [`${prefix}-ext-20`, 'possible', ['made_after', 'within_balance']],
    ])
    const says = async (purchase: Record_) => ((((await gwOk(['purchase', 'get', purchase.reference, '--refunds'])).json as Record_).gw_refunded as {says: string}).says)
    expect(await says(full)).toBe(
      `one refund on its card since it, of exactly 80.00 AUD: possibly refunded in full; 0.00 AUD for certain, and 2 refunds on its card since it that may be of it (2 possible), up to 80.00 AUD more: gw refund list --purchase ${full.reference}`,
    )
    // The 80.00 is more than the others ever had: none of theirs. The 20.00 may be either's, and is exactly all of the third's.
    expect(await says(part)).toBe(`0.00 AUD for certain, and 1 refund on its card since it that may be of it (1 possible), up to 20.00 AUD more: gw refund list --purchase ${part.reference}`)
    expect(await says(never)).toBe(
      `one refund on its card since it, of exactly 20.00 AUD: possibly refunded in full; 0.00 AUD for certain, and 1 refund on its card since it that may be of it (1 possible), up to 20.00 AUD more: gw refund list --purchase ${never.reference}`,
    )
    const t = terminal(['purchase', 'get', full.reference], sandbox.env({NO_COLOR: '1'}), {width: 60, height: 30})
    open.push(t)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen.replace(/\s+/g, ' ')).toContain('Refunded one refund on its card since it, of exactly 80.00 AUD: possibly refunded in full; 0.00 AUD for certain')
  })
})

/** A purchase on the test card, under a holder of its own: no other test's refund is on its card. */
const bought = async (reference: string, amount: number, holder: string) => (await purchasedAtGateway(sandbox, {amount, reference, card_holder: holder})) as Record_

describeInBothDialects('"was order X refunded?": one answer from both commands', () => {
  it('two orders on one card, the first refunded in full by gw refund create: its refund is certain for it, and the second says it is the first\'s', async () => {
    const holder = `Ord ${prefix}`
    const first = await bought(`${prefix}-ord-7001`, 10000, holder)
    const second = await bought(`${prefix}-ord-7002`, 10000, holder)
    await gwOk(['refund', 'create', '--transaction-id', first.reference])
    const listed = await gwOk(['refund', 'list', '--purchase', second.reference])
    expect((listed.records as Record_[]).map((record) => [record.reference, record.gw_match])).toEqual([
      [`${first.reference}-R1`, {purchase: second.id, match: 'other_purchase', by: 'refund_create', other_purchase: first.reference, other_match: 'certain', fits: ['made_after'], against: []}],
    ])
    expect(listed.stderr).toBe(`The 1 refund on the card of purchase ${second.reference} (${second.id}) since it was made gw made for another purchase (${first.reference}): it has not been refunded.\n`)
    expect(((await gwOk(['refund', 'list', '--purchase', first.reference])).records as Record_[]).map((record) => record.gw_match?.match)).toEqual(['certain'])
    // Two ids, each with what is refunded of it and what is left.
    const got = await gwOk(['purchase', 'get', second.reference, first.reference, '--refunds'])
    expect((got.records as Record_[]).map((record) => [record.reference, record.gw_refunded, record.gw_left_to_refund])).toEqual([
      [second.reference, {at_least: 0, at_most: 0, currency: 'AUD', says: `0.00 AUD: gw made the one refund on its card since it for another purchase (${first.reference})`}, {at_least: 10000, at_most: 10000, currency: 'AUD'}],
      [first.reference, {at_least: 10000, at_most: 10000, currency: 'AUD', says: '100.00 AUD for certain (1 refund gw made for it)'}, {at_least: 0, at_most: 0, currency: 'AUD'}],
    ])
    // At a terminal, the table of two has both columns.
    const t = terminal(['purchase', 'get', second.reference, first.reference], sandbox.env({NO_COLOR: '1'}), {width: 250})
    open.push(t)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toMatch(/│ Refunded +│ Left to refund +│/)
    expect(screen).toMatch(new RegExp(`│ ${second.reference} +│ .*│ 0\\.00 AUD +│ 100\\.00 AUD +│`))
    expect(screen).toMatch(new RegExp(`│ ${first.reference} +│ .*│ 100\\.00 AUD +│ 0\\.00 AUD +│`))
  })

  it('the same refund made past gw\'s records (the derived reference, by another system): likely the first\'s, shown as the first\'s, never possible for the second; purchase get of the second does not say "nothing"', async () => {
    const holder = `Ord past ${prefix}`
    const first = await bought(`${prefix}-o-7001`, 10000, holder)
    const second = await bought(`${prefix}-o-7002`, 10000, holder)
    await refundElsewhere(first.reference, 10000, `${first.reference}-R1`)
    const listed = await gwOk(['refund', 'list', '--purchase', second.reference])
    expect((listed.records as Record_[]).map((record) => [record.reference, record.gw_match])).toEqual([
      [`${first.reference}-R1`, {purchase: second.id, match: 'other_purchase', by: 'derived_reference', other_purchase: first.reference, other_match: 'likely', fits: ['made_after', 'within_balance', 'whole_balance'], against: []}],
    ])
    expect(listed.stderr).toMatch(new RegExp(`\\n1 of another purchase \\(${first.reference}\\)\\.\\n$`))
    expect(listed.stderr).not.toContain('possible')
    const second_ = (await gwOk(['purchase', 'get', second.reference, '--refunds'])).json as Record_
    // Likely the first's is no proof: what is left of the second is a range, and says why.
    expect(second_.gw_refunded).toEqual({
      at_least: 0,
      at_most: 10000,
      currency: 'AUD',
      says: `0.00 AUD for certain, and 1 refund on its card since it that may be of it (1 likely of another purchase (${first.reference})), up to 100.00 AUD more: gw refund list --purchase ${second.reference}`,
    })
    expect(JSON.stringify(second_.gw_refunded)).not.toMatch(/nothing/)
    expect(second_.gw_left_to_refund).toEqual({at_least: 0, at_most: 10000, currency: 'AUD'})
    const first_ = (await gwOk(['purchase', 'get', first.reference, '--refunds'])).json as Record_
    // Its one refund is of exactly its amount, and its reference derives from this one's: said first.
    expect((first_.gw_refunded as Record<string, unknown>).says).toBe(`one refund on its card since it, of exactly 100.00 AUD: likely refunded in full; 0.00 AUD for certain, and 1 refund on its card since it that may be of it (1 likely, its reference derived from this one's), up to 100.00 AUD more: gw refund list --purchase ${first.reference}`)
  })

  it("a refund for pb made under pa-R1 (gw api): likely pa's, not certain; pb's left to refund holds the 7.00 really left; --fields picks gw's fields", async () => {
    const holder = `Probe ${prefix}`
    const pa = await bought(`${prefix}-pa`, 1000, holder)
    const pb = await bought(`${prefix}-pb`, 1000, holder)
    await refundElsewhere(pb.reference, 300, `${pa.reference}-R1`)
    const forPa = (await gwOk(['refund', 'list', '--purchase', pa.reference])).records as Record_[]
    expect(forPa.map((record) => [record.reference, record.gw_match?.match, record.gw_match?.by])).toEqual([[`${pa.reference}-R1`, 'likely', 'derived_reference']])
    const got = await gwOk(['purchase', 'get', pb.reference, '--fields', 'reference,gw_refunded,gw_left_to_refund'])
    expect(Object.keys(got.json as object)).toEqual(['reference', 'gw_refunded', 'gw_left_to_refund'])
    expect((got.json as Record_).gw_left_to_refund).toEqual({at_least: 700, at_most: 1000, currency: 'AUD'})
    expect((got.json as Record_).gw_refunded).toMatchObject({at_least: 0, at_most: 300})
    // A declined purchase took nothing: nothing refunded, nothing left, said so.
    const declined = await sandbox.gw(['purchase', 'create', '--amount', '1051', '--reference', `${prefix}-declined`, '--card-holder', holder, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'])
    expect(declined.code, declined.stderr).toBe(3)
    const none = {at_least: 0, at_most: 0, currency: 'AUD'}
    expect(((await gwOk(['purchase', 'get', `${prefix}-declined`, '--refunds'])).json as Record_).gw_refunded).toEqual({...none, says: 'nothing: it was declined, and took nothing'})
    // Only the fields a command can print are offered.
    const refused = await sandbox.gw(['purchase', 'list', '--fields', 'gw_refunded'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--json FIELDS or --fields: no such field gw_refunded')
    expect(refused.stderr).not.toMatch(/The fields of .*gw_refunded/)
  })
})
