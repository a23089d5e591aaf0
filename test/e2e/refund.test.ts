import {expect, it} from 'vitest'
import {ANSWERS, apiRequestsSince, describeInBothDialects, describeOnce, purchasedAtGateway, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

/** The purchase a test refunds, made at the gateway: what is tested is the refund. */
const purchaseOf = (amount: number) => purchasedAtGateway(sandbox, {amount, reference: ref()})

const refund = (transactionId: string, amount: number, reference = ref('refund')) =>
  sandbox.gw(['refund', 'create', '--transaction-id', transactionId, '--amount', String(amount), '--reference', reference, '--json'])

describeInBothDialects('gw refund create', () => {
  it('refunds a purchase in full', async () => {
    const purchase = await purchaseOf(10000)
    const reference = ref('refund')
    const result = await refund(purchase.id, 10000, reference)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({amount: ANSWERS.refundAmount(10000), successful: true, refunded: 'Approved', message: 'Approved', card_number: '424242XXXXXX4242', reference})
    expect((result.json as {transaction_id: string}).transaction_id).toBe((result.json as {id: string}).id)
    expect((result.json as {id: string}).id).toMatch(/^071-R-[A-Z0-9]{8}$/)
  })

  it('allows partial refunds up to the purchase amount, then refuses more before sending: exit 7, what is left and how gw knows it', async () => {
    const purchase = await purchaseOf(10000)
    expect((await refund(purchase.id, 1000)).code).toBe(0)
    expect((await refund(purchase.id, 1000)).code).toBe(0)
    const cursor = await requestLogCursor(sandbox)
    const tooMuch = await refund(purchase.id, 8001)
    expect(tooMuch.code).toBe(7)
    expect(tooMuch.stdout).toBe('')
    expect(tooMuch.stderr).toContain(
      `Error: A refund of purchase ${purchase.reference}: 80.01 AUD is more than is left of it, 80.00 AUD (20.00 AUD of 100.00 AUD refunded for certain: 2 refunds gw made for it): nothing was sent\nHint: Refund 80.00 AUD (8000 in the minor unit) or less.\n`,
    )
    expect((await apiRequestsSince(sandbox, cursor)).filter((request) => request.method !== 'GET')).toEqual([])
    expect((await refund(purchase.id, 8000)).code).toBe(0)
  })

  it('refuses a partial refund of a voided purchase before sending, as a refund in full is refused: exit 7', async () => {
    const purchase = await purchaseOf(2500)
    expect((await sandbox.gw(['purchase', 'void', purchase.id])).code).toBe(0)
    const cursor = await requestLogCursor(sandbox)
    const partial = await refund(purchase.id, 100)
    expect(partial.code).toBe(7)
    expect(partial.stderr).toContain(`Error: Purchase ${purchase.reference} was voided, so nothing of it is left to refund: nothing was sent\nHint: gw purchase get ${purchase.reference} shows it.\n`)
    expect((await apiRequestsSince(sandbox, cursor)).filter((request) => request.method !== 'GET')).toEqual([])
  })

  it('refuses more than the purchase before sending, though no refund of it is known: exit 7, on the purchase\'s own amount', async () => {
    const purchase = await purchaseOf(2000)
    const cursor = await requestLogCursor(sandbox)
    const tooMuch = await refund(purchase.reference, 2500)
    expect(tooMuch.code).toBe(7)
    expect(tooMuch.stderr).toContain(
      `Error: A refund of purchase ${purchase.reference}: 25.00 AUD is more than is left of it, 20.00 AUD (none of 20.00 AUD refunded for certain: gw made no refund for it): nothing was sent\nHint: Refund 20.00 AUD (2000 in the minor unit) or less.\n`,
    )
    expect((await apiRequestsSince(sandbox, cursor)).filter((request) => request.method !== 'GET')).toEqual([])
  })

  it('sends a refund of a purchase the gateway cannot find, since a purchase just made may not be found yet: the gateway refuses it', async () => {
    const cursor = await requestLogCursor(sandbox)
    const result = await refund('071-P-ZZZZZZZZ', 100)
    expect(result.code).toBe(7)
    expect(result.stderr).toContain('Error: Original transaction could not be found')
    expect((await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')).toHaveLength(1)
  })

  it('prints the refund as one JSON line on a plain stdout', async () => {
    const purchase = await purchaseOf(5000)
    const result = await sandbox.gw(['refund', 'create', '--transaction-id', purchase.id, '--amount', '1250', '--reference', ref('refund')])
    expect(result.code).toBe(0)
    expect(result.stdout.trimEnd()).not.toContain('\n')
    expect(result.json).toMatchObject({amount: ANSWERS.refundAmount(1250), successful: true, message: 'Approved', card_number: '424242XXXXXX4242'})
  })

  it('without a terminal, refuses to refund in full a purchase with nothing left, before sending anything: exit 7 with what was refunded', async () => {
    const purchase = await purchaseOf(2500)
    expect((await sandbox.gw(['refund', 'create', '--transaction-id', purchase.reference, '--json'])).code).toBe(0)
    const cursor = await requestLogCursor(sandbox)
    const again = await sandbox.gw(['refund', 'create', '--transaction-id', purchase.reference, '--reference', `${purchase.reference}-again`, '--json'])
    expect(again.code).toBe(7)
    expect(again.stdout).toBe('')
    expect(again.stderr).toContain(`Error: Nothing is left of purchase ${purchase.reference} to refund (25.00 AUD of 25.00 AUD refunded for certain: 1 refund gw made for it): nothing was sent\nHint: gw purchase get ${purchase.reference} shows what was refunded of it.\n`)
    // It looked the purchase and its card's refunds up, and sent no refund.
    const requests = await apiRequestsSince(sandbox, cursor)
    expect(requests.length).toBeGreaterThan(0)
    expect(requests.filter((request) => request.method !== 'GET')).toEqual([])
  })

  it('without a terminal, refuses to refund in full a purchase refunded in part, naming what is left; an amount of that is sent', async () => {
    const purchase = await purchaseOf(2500)
    expect((await refund(purchase.id, 1000)).code).toBe(0)
    const cursor = await requestLogCursor(sandbox)
    const inFull = await sandbox.gw(['refund', 'create', '--transaction-id', purchase.id, '--reference', ref('refund')])
    expect(inFull.code).toBe(7)
    expect(inFull.stderr).toContain(`Error: Refunding purchase ${purchase.reference} in full: 25.00 AUD is more than is left of it, 15.00 AUD (10.00 AUD of 25.00 AUD refunded for certain: 1 refund gw made for it): nothing was sent\nHint: Refund 15.00 AUD (1500 in the minor unit) or less.\n`)
    expect((await apiRequestsSince(sandbox, cursor)).filter((request) => request.method !== 'GET')).toEqual([])
    expect((await refund(purchase.id, 1500)).code).toBe(0)
  })
})

describeInBothDialects('gw refund create ID, the purchase as its argument (as purchase capture and void take it)', () => {
  it('refunds the purchase named by its reference or its id, --transaction-id the same purchase or left out', async () => {
    const purchase = await purchaseOf(3000)
    const byReference = await sandbox.gw(['refund', 'create', purchase.reference, '--amount', '1000', '--reference', ref('refund'), '--json'])
    expect(byReference.stderr).toBe('')
    expect(byReference.code).toBe(0)
    expect(byReference.json).toMatchObject({amount: ANSWERS.refundAmount(1000), successful: true, card_number: '424242XXXXXX4242'})
    const both = await sandbox.gw(['refund', 'create', purchase.id, '--transaction-id', purchase.id, '--amount', '500', '--reference', ref('refund'), '--json'])
    expect(both.code, both.stderr).toBe(0)
    const found = await sandbox.gw(['refund', 'list', '--purchase', purchase.id, '--json'])
    // Certain, as gw made both: other refunds on the card (this file's other tests) may be listed as likely or possible beside them.
    const certain = (found.records as {amount: number; gw_match?: {match?: string}}[]).filter((record) => record.gw_match?.match === 'certain')
    expect(certain.map((record) => Math.abs(record.amount)).sort((a, b) => a - b)).toEqual([500, 1000])
  })
})

// Refused by gw itself, nothing sent: no answer of a gateway's decides it.
describeOnce('gw refund create: what it refuses before sending anything', () => {
  it('refuses a blank reference before sending anything', async () => {
    const purchase = await purchaseOf(5000)
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(['refund', 'create', '--transaction-id', purchase.id, '--amount', '100', '--reference', ''])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: --reference must not be blank')
    // The gateway logs a request before gw can read its answer, so gw, gone, sent none: no look-up either.
    expect(await apiRequestsSince(sandbox, cursor)).toEqual([])
  })

  it.each([
    ['two different purchases, naming both', ['order-9001', '--transaction-id', 'order-9002'], 'Error: gw refund create was given two purchases: order-9001 (the argument) and --transaction-id order-9002\nHint: Name the purchase once: gw refund create order-9001 or gw refund create --transaction-id order-9001.\n'],
    ['a purchase and a card', ['order-9001', '--card-token', 'tok_1'], 'Error: --card-token cannot also be provided when using ID (order-9001)\nHint: See gw refund create --help for the flags and examples.\n'],
    ['a purchase and a file of rows', ['order-9001', '--input', 'rows.csv'], 'Error: --input cannot also be provided when using ID (order-9001)\nHint: See gw refund create --help for the flags and examples.\n'],
    ['two purchases as arguments', ['order-9001', 'order-9002'], 'Error: gw refund create: unexpected argument "order-9002"\nHint: See gw refund create --help for its flags and examples.\n'],
  ])('refuses %s (exit 2), sending nothing', async (_, args, stderr) => {
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(['refund', 'create', ...args, '--amount', '100', '--reference', ref('refund')])
    expect(result.stderr).toBe(stderr)
    expect(result.code).toBe(2)
    expect(await apiRequestsSince(sandbox, cursor)).toEqual([])
  })
})

describeInBothDialects('gw refund get', () => {
  it('finds a refund by id and by reference, and exits 5 for an unknown one', async () => {
    const purchase = await purchaseOf(3000)
    const reference = ref('refund')
    const created = (await refund(purchase.id, 3000, reference)).json as {id: string}
    expect((await sandbox.gw(['refund', 'get', created.id, '--json'])).json).toEqual(created)
    expect((await sandbox.gw(['refund', 'get', reference, '--json'])).json).toEqual(created)
    const missing = await sandbox.gw(['refund', 'get', 'no-such-refund'])
    expect(missing.code).toBe(5)
    expect(missing.stderr).toContain(`Error: No refund has the id or reference no-such-refund (the gateway answered: ${ANSWERS.purchaseNotFound}) (HTTP 404`)
    expect(missing.stderr).toContain('Hint: gw refund list finds refunds, newest first, by --purchase,')
  })
})

describeInBothDialects("a refund's amount as a person reads it", () => {
  it('has one sign at a terminal whichever gateway answered (the interface says -12.50, the live gateway 12.50), and the JSON keeps the gateway\'s own', async () => {
    const purchase = await purchaseOf(5000)
    const reference = ref('refund')
    const atTerminal = {env: {GW_FORCE_TTY: '120', NO_COLOR: '1'}}
    const made = await sandbox.gw(['refund', 'create', '--transaction-id', purchase.id, '--amount', '1250', '--reference', reference], atTerminal)
    expect(made.code, made.stderr).toBe(0)
    expect(made.stdout).toMatch(/^Amount +12\.50 AUD$/m)
    const listed = await sandbox.gw(['refund', 'list', '--purchase', purchase.id], atTerminal)
    expect(listed.stdout).toMatch(new RegExp(`│ ${reference} +│ 12\\.50 AUD +│ Approved +│`))
    expect(listed.stdout).not.toContain('-12.50')
    const json = await sandbox.gw(['refund', 'get', reference, '--json'])
    expect(json.json).toMatchObject({reference, amount: ANSWERS.refundAmount(1250)})
  })
})
