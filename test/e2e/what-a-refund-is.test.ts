import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {ANSWERS, apiRequestsSince, CARDS, describeInBothDialects, isolatedHome, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'

// What a refund is and whose it is, against a real local
// gateway in both dialects: a voided refund gave nothing back, so it is shown voided and not counted;
// a voided purchase has nothing left to refund; an unmatched refund (a card alone, no purchase) is
// of none; and a refund gw sends any way (`gw api`, `gw sandbox seed`) is recorded as its own, so
// the one matcher (design.md §3) calls it certain.
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

type Record_ = Record<string, unknown> & {id: string; reference: string}
type Refunded = {gw_refunded: {at_least: number; at_most: number; says: string}; gw_left_to_refund: {at_least: number; at_most: number}}

const gwOk = async (args: string[], env?: NodeJS.ProcessEnv) => {
  const result = await sandbox.gw(args, env ? {env} : {})
  expect(result.code, result.stderr).toBe(0)
  return result
}

/** A card of the test's own (its holder): every refund on it is one the test made. */
const cardOf = (holder: string) => ['--card-holder', holder, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123']

async function purchase(holder: string, amount = 1000): Promise<Record_> {
  return (await gwOk(['purchase', 'create', '--amount', String(amount), '--reference', ref('order'), ...cardOf(holder)])).json as Record_
}

const refunded = async (reference: string) => {
  const {gw_refunded, gw_left_to_refund} = (await gwOk(['purchase', 'get', reference, '--refunds', '--json'])).json as Refunded
  return {says: gw_refunded.says, refunded: [gw_refunded.at_least, gw_refunded.at_most], left: [gw_left_to_refund.at_least, gw_left_to_refund.at_most]}
}

const listed = async (reference: string) => {
  const result = await gwOk(['refund', 'list', '--purchase', reference])
  return {note: result.stderr.trim().split('\n').at(-1), matches: (result.records as (Record_ & {gw_match: Record<string, unknown>})[]).map((record) => [record.reference, record.gw_match])}
}

describeInBothDialects('a voided refund', () => {
  it('is shown voided and not counted, and the purchase can then be refunded in full', async () => {
    const bought = await purchase(`Vera ${ref('void')}`)
    const made = (await gwOk(['refund', 'create', '--transaction-id', bought.reference, '--amount', '400'])).json as Record_
    const voided = (await gwOk(['refund', 'void', made.id, '--yes'])).json as Record_
    expect(voided).toMatchObject({refunded: 'Voided', message: 'Voided'})
    expect(await refunded(bought.reference)).toEqual({says: 'nothing: 1 voided refund on its card since it, not counted', refunded: [0, 0], left: [1000, 1000]})
    const list = await listed(bought.reference)
    expect(list.matches).toEqual([[made.reference, {purchase: bought.id, match: 'certain', by: 'refund_create', fits: ['made_after', 'names_purchase'], against: [], voided: true}]])
    expect(list.note).toBe('1 certain (gw recorded making it for this purchase); 1 voided (not counted): it has not been refunded.')
    // In full: the whole purchase, sent and approved (it was refused unsent, exit 7, "4.00 AUD of 10.00 AUD refunded").
    const full = await gwOk(['refund', 'create', '--transaction-id', bought.reference])
    expect(full.json).toMatchObject({amount: ANSWERS.refundAmount(1000), reference: `${bought.reference}-R2`, message: 'Approved'})
    expect(full.stderr).toContain(`Refunding purchase ${bought.id} in full: 10.00 AUD.`)
    expect(await refunded(bought.reference)).toMatchObject({says: '10.00 AUD for certain (1 refund gw made for it); 1 voided refund on its card since it, not counted', left: [0, 0]})
  })
})

describeInBothDialects('a voided purchase', () => {
  it('has nothing left to refund: purchase get says so, and a refund in full is refused before anything is sent', async () => {
    const bought = await purchase(`Val ${ref('void')}`)
    expect((await gwOk(['purchase', 'void', bought.id, '--yes'])).json).toMatchObject({message: 'Voided'})
    expect(await refunded(bought.reference)).toEqual({says: 'nothing: it was voided, so it took nothing and nothing of it can be refunded', refunded: [0, 0], left: [0, 0]})
    const cursor = await requestLogCursor(sandbox)
    const refused = await sandbox.gw(['refund', 'create', '--transaction-id', bought.reference])
    expect(refused.code).toBe(7)
    expect(refused.stderr).toBe(`Error: Purchase ${bought.reference} was voided, so nothing of it is left to refund: nothing was sent\nHint: gw purchase get ${bought.reference} shows it.\n`)
    expect((await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')).toEqual([])
  })
})

describeInBothDialects('an unmatched refund', () => {
  it('belongs to no purchase: neither gw\'s own (recorded so) nor one made elsewhere (the gateway\'s standalone) counts for the purchases on its card', async () => {
    const holder = `Una ${ref('unmatched')}`
    const [first, second] = [await purchase(holder), await purchase(holder, 2000)]
    const own = (await gwOk(['refund', 'create', ...cardOf(holder), '--amount', '300', '--reference', ref('credit')])).json as Record_
    // Made past this gw's records: another data directory's gw.
    const other = (await gwOk(['refund', 'create', ...cardOf(holder), '--amount', '500', '--reference', ref('credit')], isolatedHome())).json as Record_
    expect([own.standalone, other.standalone]).toEqual([true, true])
    for (const bought of [first, second]) {
      expect(await refunded(bought.reference)).toEqual({says: 'nothing: 2 unmatched refunds (of no purchase) on its card since it, not counted', refunded: [0, 0], left: [bought.amount, bought.amount]})
    }
    const list = await listed(first.reference)
    expect(list.matches.map(([reference, match]) => [reference, (match as Record<string, unknown>).match, (match as Record<string, unknown>).by]).sort()).toEqual(
      [[own.reference, 'unmatched', 'refund_create'], [other.reference, 'unmatched', 'standalone']].sort(),
    )
    expect(list.note).toBe('2 of no purchase (unmatched, sent with a card alone): it has not been refunded.')
  })
})

describeInBothDialects('a refund gw sends any way is its own: certain', () => {
  it('gw api -X POST /v1.0/refunds: certain for the purchase its transaction_id names, by id or reference; with a card alone, of no purchase', async () => {
    const holder = `Abe ${ref('api')}`
    const bought = await purchase(holder)
    const own = ref('by-hand')
    const sent = await gwOk(['api', '-X', 'POST', '/v1.0/refunds', '-f', `transaction_id=${bought.reference}`, '-F', 'amount=300', '-f', `reference=${own}`])
    expect((sent.json as {response: Record_}).response).toMatchObject({reference: own, amount: ANSWERS.refundAmount(300)})
    expect(sent.stderr).toBe('')
    expect(await refunded(bought.reference)).toEqual({says: '3.00 AUD for certain (1 refund gw made for it)', refunded: [300, 300], left: [700, 700]})
    const byId = ref('by-id')
    await gwOk(['api', 'POST', '/v1.0/refunds', '--data', JSON.stringify({transaction_id: bought.id, amount: 200, reference: byId})])
    const credit = ref('credit')
    await gwOk(['api', 'POST', '/v1.0/refunds', '--data', JSON.stringify({card_holder: holder, card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', amount: 100, reference: credit})])
    const list = await listed(bought.reference)
    expect(list.matches.map(([reference, match]) => [reference, (match as Record<string, unknown>).match, (match as Record<string, unknown>).by])).toEqual([
      [byId, 'certain', 'refund_create'],
      [own, 'certain', 'refund_create'],
      [credit, 'unmatched', 'refund_create'],
    ])
    expect(await refunded(bought.reference)).toMatchObject({says: '5.00 AUD for certain (2 refunds gw made for it); 1 unmatched refund (of no purchase) on its card since it, not counted', left: [500, 500]})
  })

  it('gw sandbox seed: a refund step is certain for the purchase it names', async () => {
    const tag = ref('seeded')
    const file = join(mkdtempSync(join(tmpdir(), 'gw-e2e-refund-is-')), 'fixtures.json')
    writeFileSync(file, JSON.stringify({steps: [
      {name: 'order', create: 'purchase', fields: {card_holder: `Sid ${tag}`, card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', amount: 1000, reference: `${tag}-order`}},
      {name: 'part', create: 'refund', fields: {transaction_id: '{{order.id}}', amount: 400, reference: `${tag}-goodwill`}},
    ]}))
    await gwOk(['sandbox', 'seed', file])
    expect(await refunded(`${tag}-order`)).toEqual({says: '4.00 AUD for certain (1 refund gw made for it)', refunded: [400, 400], left: [600, 600]})
  })
})

describeInBothDialects('what gw report and --status count: money that moved', () => {
  it('a voided refund and a voided purchase move nothing, an authorization counts what was captured of it, one not captured yet holds and takes nothing; --status approved lists no voided record, --status voided lists them', async () => {
    // Singapore dollars and a holder of its own: no other test of this file's gateway makes either.
    const holder = `Rhea ${ref('report')}`
    const make = async (amount: number, ...more: string[]) => (await gwOk(['purchase', 'create', '--amount', String(amount), '--reference', ref('order'), '--currency', 'SGD', ...cardOf(holder), ...more])).json as Record_
    const kept = await make(10000)
    const refund = (await gwOk(['refund', 'create', '--transaction-id', kept.reference, '--amount', '4000'])).json as Record_
    await gwOk(['refund', 'void', refund.id, '--yes'])
    const voided = await make(5000)
    await gwOk(['purchase', 'void', voided.id, '--yes'])
    const part = await make(2000, '--no-capture')
    await gwOk(['purchase', 'capture', part.id, '--amount', '1500'])
    const open = await make(900, '--no-capture')

    const day = new Date(String(kept.transaction_date)).toLocaleDateString('sv')
    const rows = ((await gwOk(['report', '--json'])).records as Record<string, unknown>[]).filter((row) => row.currency === 'SGD')
    expect(rows).toEqual([
      {
        day, currency: 'SGD', purchases_approved: 2, purchases_approved_amount: 10000 + 1500, purchases_uncaptured: 1, purchases_uncaptured_amount: 900, purchases_voided: 1, purchases_declined: 0,
        refunds: 0, refunds_amount: 0, refunds_voided: 1, plan_payments: 0, plan_payments_amount: 0, direct_debits: 0, direct_debits_amount: 0, net: 11500,
      },
    ])

    const statuses = async (noun: string, status: string) => ((await gwOk([noun, 'list', '--holder', holder, '--status', status])).records as Record_[]).map((record) => record.id).sort()
    expect(await statuses('purchase', 'approved')).toEqual([kept.id, part.id, open.id].sort())
    expect(await statuses('purchase', 'voided')).toEqual([voided.id])
    expect(await statuses('purchase', 'declined')).toEqual([])
    expect(await statuses('refund', 'approved')).toEqual([])
    expect(await statuses('refund', 'voided')).toEqual([refund.id])

    // The settlement look-up lists the voided purchase, settling nothing; the open authorization not at all.
    const settling = ((await gwOk(['report', '--on', String(kept.settlement_date), '--settlement', '--json'])).records as Record<string, unknown>[]).find((row) => row.currency === 'SGD')
    expect(settling).toMatchObject({settling: 2, settling_amount: 10000 + 1500, settling_voided: 1})
    const settled = (await gwOk(['purchase', 'settlement', '--on', String(kept.settlement_date)])).records as Record_[]
    expect(settled.filter((record) => record.currency === 'SGD').map((record) => [record.id, record.message, record.captured_amount]).sort()).toEqual(
      [[kept.id, 'Approved', 10000], [voided.id, 'Voided', 0], [part.id, 'Approved', 1500]].sort(),
    )
  })
})
