import {readdirSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, expect, it} from 'vitest'
import {countingProxy, type CountingProxy} from '../counting-proxy.js'
import {rowsOf, spawnGw, writeTemp} from './batch-helpers.js'
import {freshCardNumber, grouped, wholeCardNumbersIn} from './card-number-helpers.js'
import {cardArgs, describeInBothDialects, errorJson, purchasedAtGateway, ref, type Sandbox, sharedSandbox} from './helpers.js'
import {journalText} from '../journal-text.js'

// A card number inside a reference (`ord-4929123456789015`), which the gateway keeps masked:
// gw's own messages and hints, a batch's lines and its journal show it masked too,
// and a batch finds its rows again by the references its input gives.

let sandbox: Sandbox
let proxy: CountingProxy | undefined
let token: string

sharedSandbox(async (started) => {
  sandbox = started
  const card = await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])
  token = (card.json as {token: string}).token
})
afterEach(async () => {
  await proxy?.close()
  proxy = undefined
})

/** A reference no other test uses, a fresh card number inside it, written with `separator` between its groups; and how gw shows it. */
// The base ends in a letter: digits at its end would run on into the card number's, and the whole run be hidden (ambiguous), not masked as one.
function cardReference(prefix: string, separator = '', number = freshCardNumber(), base = `${ref(prefix)}z`): {reference: string; masked: string; number: string; base: string} {
  return {reference: `${base}-${grouped(number, separator)}`, masked: `${base}-${number.slice(0, 6)}XXXXXX${number.slice(-4)}`, number, base}
}

/** Another card number that masks alike: its middle six digits others, the Luhn check passed again by the 12th. */
function twinOf(number: string): string {
  const middle = String(Number(number.slice(6, 11)) + 1).padStart(5, '0').slice(-5)
  for (let digit = 0; digit < 10; digit++) {
    const twin = `${number.slice(0, 6)}${middle}${digit}${number.slice(12)}`
    if (twin !== number && wholeCardNumbersIn(twin).length > 0) return twin
  }
  throw new Error(`no twin of ${number}`)
}

/** Whatever a gw run printed, held to the rule: no card number whole. */
function expectMasked(result: {stdout: string; stderr: string}): void {
  expect(wholeCardNumbersIn(result.stdout + result.stderr)).toEqual([])
}

/** The text of the journal a batch ran under (the one its stderr names). */
function journalOf(stderr: string): string {
  const path = /^Journal: (\S+)/m.exec(stderr)?.[1]
  expect(path, stderr).toBeDefined()
  return journalText(path!)
}

describeInBothDialects("gw's own messages and hints name a reference with a card number in it masked", () => {
  it('a reference taken by the same purchase, made earlier', async () => {
    const {reference, masked} = cardReference('taken')
    const create = () => sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--json'])
    const made = await create()
    expect(made.code, made.stderr).toBe(0)
    expect(made.json).toMatchObject({reference: masked})
    const again = await create()
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain(`Reference ${masked} was taken by this same purchase`)
    expectMasked(again)
  })

  it('the exit-8 notice, its hint and the --json error, when the gateway never got the purchase', async () => {
    const {reference, masked} = cardReference('unknown', '.')
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/purchases', action: 'drop-before', times: 1})
    const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--json'], {env: {GW_TEST_WINDOW_MS: '2000'}})
    expect(result.code, result.stderr).toBe(8)
    expect(result.stderr).toContain(`the gateway has no purchase with reference ${masked}`)
    expect(result.stderr).toContain(`gw purchase get ${masked}`)
    expect(JSON.stringify(errorJson(result))).toContain(masked)
    expectMasked(result)
  })
})

describeInBothDialects('a batch whose references hold card numbers', () => {
  it('prints its lines and keeps its journal with them masked; run again, reports every row from the journal and sends none twice', async () => {
    const purchases = await Promise.all([0, 1, 2].map(() => purchasedAtGateway(sandbox, {card_token: token})))
    // Dashes, dots and underscores between the groups; and two references that mask alike, each its own row.
    const first3 = [cardReference('rf', '-'), cardReference('rf', '.'), cardReference('rf', '_')]
    const rows = [...first3, cardReference('rf', '-', twinOf(first3[0]!.number), first3[0]!.base)]
    expect(rows[3]!.masked).toBe(rows[0]!.masked)
    const references = rows.map((row) => row.reference)
    const csv = ['transaction_id,amount,reference', ...references.map((reference, i) => `${purchases[i % 3]!.id},100,${reference}`)].join('\n') + '\n'
    const file = writeTemp('refunds.csv', csv)
    proxy = await countingProxy(sandbox.url)
    const first = await sandbox.gw(['refund', 'create', '--input', file], {env: {GW_BASE_URL: proxy.url}})
    expect(first.code, first.stderr).toBe(0)
    expect([...proxy.references().keys()].sort()).toEqual([...references].sort())
    const lines = rowsOf(first.stdout)
    expect(lines.map((line) => line.status)).toEqual(references.map(() => 'approved'))
    // Lines come as rows finish: each is found by its row.
    for (const [i, row] of rows.entries()) expect(lines.find((line) => line.row === i + 1)).toMatchObject({reference: row.masked, record: {reference: row.masked}})
    expectMasked(first)
    const journal = journalOf(first.stderr)
    expect(wholeCardNumbersIn(journal)).toEqual([])
    expect(journal).toContain(`"intent":"${rows[1]!.masked}"`)
    expect(proxy.postCount()).toBe(references.length)

    const again = await sandbox.gw(['refund', 'create', '--input', file], {env: {GW_BASE_URL: proxy.url}})
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain(`resuming: ${references.length} rows answered`)
    expect(rowsOf(again.stdout).map((line) => [line.status, line.resumed])).toEqual(references.map(() => ['approved', true]))
    expectMasked(again)
    expect(proxy.postCount()).toBe(references.length)
  })

  it('a row left in doubt (gw killed while it was sent) is looked up by its reference as the input gives it, and found: sent once', async () => {
    // The purchase is named by its reference, which holds a card number too: what the journal masks of the row is taken from the input again.
    const purchase = cardReference('order', ' ')
    await purchasedAtGateway(sandbox, {card_token: token, reference: purchase.reference})
    const refund = cardReference('doubt', '/')
    const file = writeTemp('refunds.csv', `transaction_id,amount,reference\n${purchase.reference},100,${refund.reference}\n`)
    proxy = await countingProxy(sandbox.url)
    const first = spawnGw(sandbox, ['refund', 'create', '--input', file], {GW_BASE_URL: proxy.url})
    // Killed while its refund is on its way: the gateway makes it, gw never hears of it.
    void proxy.post(1).then(() => first.child.kill('SIGKILL'))
    expect((await first.done).signal).toBe('SIGKILL')
    expect(wholeCardNumbersIn(journalOf((await first.done).stderr))).toEqual([])

    const again = await sandbox.gw(['refund', 'create', '--input', file], {env: {GW_BASE_URL: proxy.url, GW_TEST_WINDOW_MS: '2000'}})
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('resuming: 0 rows answered, 1 in doubt, 0 not started')
    expect(rowsOf(again.stdout)).toMatchObject([{reference: refund.masked, status: 'approved', record: {reference: refund.masked}}])
    expectMasked(again)
    expect(proxy.postCount()).toBe(1)
  })

  it('a purchase batch: its lines, its --dry-run after it and its journal show them masked', async () => {
    const rows = [cardReference('pb', ' '), cardReference('pb', '/')]
    const file = writeTemp('purchases.csv', ['card_token,amount,reference', ...rows.map((row) => `${token},1000,${row.reference}`)].join('\n') + '\n')
    const made = await sandbox.gw(['purchase', 'create', '--input', file])
    expect(made.code, made.stderr).toBe(0)
    expect(rowsOf(made.stdout).sort((a, b) => a.row - b.row).map((line) => line.reference)).toEqual(rows.map((row) => row.masked))
    expectMasked(made)
    expect(wholeCardNumbersIn(journalOf(made.stderr))).toEqual([])
    const dry = await sandbox.gw(['purchase', 'create', '--input', file, '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as {reference: string; journal: string})).toMatchObject(rows.map((row) => ({reference: row.masked, journal: expect.stringMatching(/^answered/)})))
    expectMasked(dry)
    // The journals in gw's data folder hold none either.
    const folder = join(sandbox.home.XDG_DATA_HOME!, 'gw', 'journals')
    for (const name of readdirSync(folder).filter((name) => !name.endsWith('.ndjson'))) expect(wholeCardNumbersIn(journalText(join(folder, name))), name).toEqual([])
  })
})
