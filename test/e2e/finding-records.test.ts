import {join} from 'node:path'
import {afterEach, expect, it} from 'vitest'
import {terminal, type Terminal} from './auth-helpers.js'
import {rowsOf, writeTemp} from './batch-helpers.js'
import {CARD_JSON, CARDS, describeInBothDialects, describeOnce, isolatedHome, ref, runGw, type Sandbox, sharedSandbox} from './helpers.js'

// Support staff find any record with gw alone. The local gateway holds 120 purchases
// (100 approved; 20 declined, each 10.51 on the MasterCard ending 4444, which the cents decide), 10 refunds and 3
// customers, made in a known order, so that newest first can be checked record by record.
let sandbox: Sandbox
const references: string[] = []
const approvedSum = {amount: 0}
type Row = {reference: string; amount: number; successful: boolean; card_number: string; message: string; id: string}
const open: Terminal[] = []

afterEach(() => {
  for (const t of open.splice(0)) t.close()
})

sharedSandbox(async (started) => {
  sandbox = started
  const token = async (number: string, holder: string) => {
    const card = await sandbox.gw(['card', 'tokenize', '--card-holder', holder, '--card-number', number, '--card-expiry', '12/2030', '--cvv', '123', '--json'])
    expect(card.code, card.stderr).toBe(0)
    return (card.json as {token: string}).token
  }
  const [visa, mastercard] = [await token(CARDS.visa, 'Jane Citizen'), await token('5555555555554444', 'John Smith')]
  const prefix = ref('find')
  const rows = Array.from({length: 120}, (_, i) => {
    references.push(`${prefix}-${String(i).padStart(3, '0')}`)
    if (i % 6 === 5) return `${mastercard},1051,${references[i]}`
    approvedSum.amount += (10 + i) * 100
    return `${i % 2 ? mastercard : visa},${(10 + i) * 100},${references[i]}`
  })
  // One at a time, so the gateway keeps them in this order.
  const made = await sandbox.gw(['purchase', 'create', '--input', writeTemp('purchases.csv', ['card_token,amount,reference', ...rows].join('\n') + '\n'), '--concurrency', '1'], {timeoutMs: 60_000})
  expect(made.code, made.stderr).toBe(3)
  const byReference = new Map(rowsOf(made.stdout).map((row) => [row.reference, row.record as unknown as Row]))
  const refunds = [0, 1, 2, 3, 4, 6, 7, 8, 9, 10].map((i, n) => `${byReference.get(references[i]!)!.id},500,${prefix}-refund-${n}`)
  const refunded = await sandbox.gw(['refund', 'create', '--input', writeTemp('refunds.csv', ['transaction_id,amount,reference', ...refunds].join('\n') + '\n'), '--concurrency', '1'])
  expect(refunded.code, refunded.stderr).toBe(0)
  for (const n of [1, 2, 3]) {
    const customer = await sandbox.gw(['customer', 'create', '--first-name', 'Jane', '--last-name', `Citizen ${n}`, '--reference', `${prefix}-cust-${n}`, '--email', `jane${n}@example.com`, '--card', '-'], {stdin: CARD_JSON})
    expect(customer.code, customer.stderr).toBe(0)
  }
})

const listed = async (args: string[], code = 0) => {
  const result = await sandbox.gw(args)
  expect(result.code, result.stderr).toBe(code)
  return result.records as Row[]
}

describeInBothDialects('gw purchase list', () => {
  it('--all prints every purchase exactly once, newest first, one JSON line each', async () => {
    const all = await listed(['purchase', 'list', '--all'])
    expect(all.map((purchase) => purchase.reference)).toEqual([...references].reverse())
  })

  it('--limit 5 prints the 5 newest; the default is 30; --oldest-first turns the order', async () => {
    expect((await listed(['purchase', 'list', '--limit', '5'])).map((purchase) => purchase.reference)).toEqual(references.slice(-5).reverse())
    expect(await listed(['purchase', 'list'])).toHaveLength(30)
    expect((await listed(['purchase', 'list', '--oldest-first', '--limit', '2'])).map((purchase) => purchase.reference)).toEqual(references.slice(0, 2))
  })

  it('--status declined finds the 20 declines, --status approved the other 100', async () => {
    const declined = await listed(['purchase', 'list', '--status', 'declined', '--all'])
    expect(declined).toHaveLength(20)
    expect(declined.every((purchase) => purchase.successful === false && purchase.message === 'Insufficient Funds')).toBe(true)
    expect(await listed(['purchase', 'list', '--status', 'approved', '--all'])).toHaveLength(100)
  })

  it('--reference finds the one purchase; a filter that matches nothing prints nothing and exits 0', async () => {
    expect((await listed(['purchase', 'list', '--reference', references[42]!])).map((purchase) => purchase.reference)).toEqual([references[42]])
    const none = await sandbox.gw(['purchase', 'list', '--reference', 'no-such-order'])
    expect(none).toMatchObject({code: 0, stdout: '', stderr: ''})
  })

  it('--card 4444 --amount 1051 finds the 20 declines: "I was charged twice"', async () => {
    const found = await listed(['purchase', 'list', '--card', '4444', '--amount', '1051', '--all'])
    expect(found.map((purchase) => purchase.reference)).toEqual(references.filter((_, i) => i % 6 === 5).reverse())
    expect(found.every((purchase) => purchase.card_number === '555555XXXXXX4444')).toBe(true)
    // The masked number and the holder find the same card's purchases.
    expect(await listed(['purchase', 'list', '--card', '555555XXXXXX4444', '--holder', 'smith', '--all'])).toHaveLength(60)
  })

  it('--from and --to: all were made today; none yesterday; a date not on the calendar is refused, exit 2', async () => {
    expect(await listed(['purchase', 'list', '--from', 'today', '--to', 'today', '--all'])).toHaveLength(120)
    expect(await listed(['purchase', 'list', '--from', '24h', '--limit', '3'])).toHaveLength(3)
    expect(await listed(['purchase', 'list', '--to', 'yesterday'])).toEqual([])
    const refused = await sandbox.gw(['purchase', 'list', '--from', '2026-02-30'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toBe(
      'Error: --from must be a date (2026-11-17), a date-time (2026-11-17T09:30, or with an offset, +11:00 or Z), today, yesterday, a weekday (monday: the latest, today if it is one), this-week, last-week, this-month, last-month, or an age such as 7d, 24h or 2w; got "2026-02-30"\nHint: For example --from 7d.\n',
    )
  })

  it('a page that cannot be read stops the list with exit 1 naming the page, after printing every record before it', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'GET', path: '/v1.0/purchases?offset=50&', action: 'status', status: 503, times: 10})
    const result = await sandbox.gw(['purchase', 'list', '--all'])
    expect(result.code).toBe(1)
    // The local gateway lists newest first, as the live one does: page 1 holds the 50 newest.
    expect((result.records as Row[]).map((purchase) => purchase.reference)).toEqual(references.slice(70).reverse())
    expect(result.stderr).toContain('Error: Page 2 of the list (records 51-100 of 120) could not be read: ')
  })

  it('on a terminal: a table of date, reference, amount, outcome and card by its last four, and how to see more', async () => {
    const t = terminal(['purchase', 'list', '--limit', '3'], sandbox.env(), {width: 120})
    open.push(t)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toMatch(/│ Date +│ Reference +│ Amount +│ Outcome +│ Card +│ Id +│ Card holder +│/)
    expect(screen).toMatch(new RegExp(`│ \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} │ ${references[119]} │ 10\\.51 AUD +│ Insufficient Funds │ …4444 │ 071-P-\\w{8} │ John Smith +│`))
    expect(screen).toContain('Showing 3 of 120 purchases, newest first; --limit N or --all shows more.')
  })
})

describeInBothDialects('gw refund list, customer list', () => {
  it('refund list --all prints the 10 refunds; --purchase those on its card since it', async () => {
    const refunds = await listed(['refund', 'list', '--all'])
    expect(refunds).toHaveLength(10)
    const ofFirst = await listed(['refund', 'list', '--purchase', references[0]!])
    // A refund record names no purchase (gateway-notes.md): these are the refunds on its card since it.
    expect(ofFirst).toHaveLength(6)
    expect(ofFirst.every((refund) => refund.card_number === '424242XXXXXX4242')).toBe(true)
  })

  it('customer list --email finds the customer, in any case', async () => {
    const found = await listed(['customer', 'list', '--email', 'JANE2@example.com'])
    expect(found.map((customer) => (customer as unknown as {email: string}).email)).toEqual(['jane2@example.com'])
    expect(await listed(['customer', 'list', '--all'])).toHaveLength(3)
  })
})

describeInBothDialects('gw api --paginate', () => {
  it("follows every page of a list path and prints its 120 records, one line each, in the gateway's order (newest first); a PATH alone is a GET", async () => {
    for (const args of [['api', 'GET', '/v1.0/purchases', '--paginate'], ['api', '/v1.0/purchases', '--paginate', '--verbose']]) {
      const result = await sandbox.gw(args)
      expect(result.code, result.stderr).toBe(0)
      expect((result.records as Row[]).map((purchase) => purchase.reference)).toEqual(references.toReversed())
    }
  })
})

describeOnce("the lists' flags, refused before anything is sent", () => {
  it('a whole card number given to --card is refused, masked (it would stay in shell history)', async () => {
    const refused = await sandbox.gw(['purchase', 'list', '--card', CARDS.visa])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--card 424242XXXXXX4242 is a whole card number')
    expect(refused.stderr).not.toContain(CARDS.visa)
  })

  it('refuses paging parameters of its own and a method other than GET (exit 2)', async () => {
    const clash = await sandbox.gw(['api', '/v1.0/purchases', '--paginate', '--query', 'limit=5'])
    expect(clash.code).toBe(2)
    expect(clash.stderr).toContain('Error: --paginate asks for each page itself: leave out --query limit=5')
    const post = await sandbox.gw(['api', 'POST', '/v1.0/purchases', '--paginate'])
    expect(post.code).toBe(2)
    expect(post.stderr).toContain('Error: --paginate follows the pages of a list, which is read with GET, not POST')
  })
})

describeInBothDialects('gw report', () => {
  const dayOf = (shift: number) => {
    const now = new Date()
    now.setDate(now.getDate() + shift)
    return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
  }
  const today = () => dayOf(0)
  const yesterday = () => dayOf(-1)

  it("adds up the day: purchases approved and declined, refunds, net, per currency", async () => {
    const result = await sandbox.gw(['report'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.records).toEqual([
      {
        day: today(), currency: 'AUD', purchases_approved: 100, purchases_approved_amount: approvedSum.amount, purchases_uncaptured: 0, purchases_uncaptured_amount: 0, purchases_voided: 0, purchases_declined: 20,
        refunds: 10, refunds_amount: 5000, refunds_voided: 0, plan_payments: 0, plan_payments_amount: 0, direct_debits: 0, direct_debits_amount: 0, net: approvedSum.amount - 5000,
      },
    ])
    // A day with nothing gets a row of zeros: in no currency where the window saw none.
    const nothing = {purchases_approved: 0, purchases_approved_amount: 0, purchases_uncaptured: 0, purchases_uncaptured_amount: 0, purchases_voided: 0, purchases_declined: 0, refunds: 0, refunds_amount: 0, refunds_voided: 0, plan_payments: 0, plan_payments_amount: 0, direct_debits: 0, direct_debits_amount: 0, net: 0}
    expect((await sandbox.gw(['report', '--from', 'yesterday', '--to', 'yesterday'])).records).toEqual([{day: yesterday(), currency: '', ...nothing}])
    // One day in one word: --on DAY is that day alone, where --from DAY runs until now.
    expect((await sandbox.gw(['report', '--on', 'yesterday'])).records).toEqual([{day: yesterday(), currency: '', ...nothing}])
    expect((await sandbox.gw(['report', '--on', 'today'])).records).toEqual(result.records)
    expect((await sandbox.gw(['report', '--from', 'yesterday'])).records).toEqual([{day: yesterday(), currency: 'AUD', ...nothing}, ...result.records])
  })

  it('runs on a read-only profile', async () => {
    const home = isolatedHome()
    const login = await runGw(['login', '--profile', 'support', '--base-url', sandbox.url, '--username', 'TEST', '--token-stdin', '--read-only', '--insecure-storage'], {env: home, stdin: 'TEST'})
    expect(login.code, login.stderr).toBe(0)
    const result = await runGw(['report', '--profile', 'support'], {env: home})
    expect(result.code, result.stderr).toBe(0)
    expect(result.records).toMatchObject([{purchases_approved: 100, refunds: 10}])
  })
})

describeOnce('looking for records by another name', () => {
  it.each([
    [['purchases'], 'purchase', '--reference, --status, --card, --amount, --holder, --from and --to'],
    [['purchase', 'search', 'order-1'], 'purchase', '--reference, --status, --card, --amount, --holder, --from and --to'],
    [['customers'], 'customer', '--email, --reference, --from and --to'],
  ])('gw %j points at the list command and the README (exit 2)', async (args, noun, filters) => {
    const result = await sandbox.gw(args)
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`Error: unknown command: gw ${args.slice(0, 2).join(' ')}\nHint: gw ${noun} list finds ${noun}s, newest first, by ${filters}; ${join(import.meta.dirname, '..', '..', 'docs', 'finding-records.md')} shows how.\n`)
  })
})
