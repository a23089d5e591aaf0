import {randomBytes} from 'node:crypto'
import {afterEach, expect, it} from 'vitest'
import {terminal, type Terminal} from './auth-helpers.js'
import {inRowOrder, writeTemp} from './batch-helpers.js'
import {ANSWERS, apiRequestsSince, cardArgs, describeInBothDialects, describeOnce, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'

// One resolver for every command that acts on one record: an id, or a reference looked
// up once and its id sent, in arguments and --input files alike, against each dialect of the local
// gateway. The gateway's capture, void, increment and extension paths take the id alone.
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

const open: Terminal[] = []
afterEach(() => {
  for (const t of open.splice(0)) t.close()
})

type Purchase = {id: string; reference: string; amount: number; captured: boolean; captured_amount: number; message: string}

async function made(args: string[], reference: string): Promise<Purchase> {
  const result = await sandbox.gw(['purchase', 'create', '--reference', reference, ...cardArgs(), ...args, '--json'])
  expect(result.code, result.stderr).toBe(0)
  return result.json as Purchase
}

const authorized = (amount = '10000', reference = ref('ship')) => made(['--amount', amount, '--no-capture'], reference)
const get = async (key: string) => (await sandbox.gw(['purchase', 'get', key, '--json'])).json as Purchase

/** The requests a command sent, as `METHOD path`. */
async function sentBy(args: string[], options: {stdin?: string} = {}): Promise<{result: Awaited<ReturnType<Sandbox['gw']>>; sent: string[]}> {
  const cursor = await requestLogCursor(sandbox)
  const result = await sandbox.gw(args, options)
  return {result, sent: (await apiRequestsSince(sandbox, cursor)).map(({method, path}) => `${method} ${path.replace(/\?.*/, '')}`)}
}

describeInBothDialects('a reference where an id is asked: looked up once, the id sent', () => {
  it('gw purchase capture REFERENCE: in part, and in full with the amount from the one look-up', async () => {
    const part = await authorized('10000')
    const {result, sent} = await sentBy(['purchase', 'capture', part.reference, '--amount', '4000', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({id: part.id, captured: true, captured_amount: 4000})
    expect(sent).toEqual([`GET /v1.0/purchases/${part.reference}`, `POST /v1.0/purchases/${part.id}/capture`])
    const whole = await authorized('2500')
    const full = await sentBy(['purchase', 'capture', whole.reference, '--json'])
    expect(full.result.code, full.result.stderr).toBe(0)
    expect(full.result.json).toMatchObject({captured_amount: 2500})
    expect(full.sent).toEqual([`GET /v1.0/purchases/${whole.reference}`, `POST /v1.0/purchases/${whole.id}/capture`])
  })

  it('an id is sent as it is, with no look-up', async () => {
    const auth = await authorized('3000')
    const {result, sent} = await sentBy(['purchase', 'capture', auth.id, '--amount', '3000'])
    expect(result.code, result.stderr).toBe(0)
    expect(sent).toEqual([`POST /v1.0/purchases/${auth.id}/capture`])
  })

  it('gw purchase increment and extend REFERENCE', async () => {
    const auth = await authorized('5000')
    const raised = await sentBy(['purchase', 'increment', auth.reference, '--amount', '6500', '--json'])
    expect(raised.result.code, raised.result.stderr).toBe(0)
    expect(raised.result.json).toMatchObject({id: auth.id, amount: 6500})
    expect(raised.sent).toEqual([`GET /v1.0/purchases/${auth.reference}`, `PUT /v1.0/purchases/${auth.id}`])
    const extended = await sandbox.gw(['purchase', 'extend', auth.reference, '--json'])
    expect(extended.code, extended.stderr).toBe(0)
    expect(extended.json).toMatchObject({id: auth.id, captured: false})
  })

  it('gw purchase void REFERENCE... and gw refund void REFERENCE', async () => {
    const [a, b] = [await made(['--amount', '900'], ref('void')), await made(['--amount', '800'], ref('void'))]
    const voided = await sentBy(['purchase', 'void', a.reference, b.id, a.reference])
    expect(voided.result.code, voided.result.stderr).toBe(0)
    // a's reference looked up once, though given twice (the second void finds it voided before); b's id sent as it is.
    expect(voided.sent.filter((line) => line.includes(a.reference) || line === `GET /v1.0/purchases/${b.id}`)).toEqual([`GET /v1.0/purchases/${a.reference}`])
    expect(voided.result.stderr).toContain(`Void of ${a.id} was done before: nothing changed now.`)
    expect((await get(a.id)).message).toBe('Voided')
    expect((await get(b.id)).message).toBe('Voided')
    const bought = await made(['--amount', '2000'], ref('rv'))
    const refundReference = ref('rv-r')
    expect((await sandbox.gw(['refund', 'create', '--transaction-id', bought.reference, '--amount', '500', '--reference', refundReference])).code).toBe(0)
    const refundVoid = await sandbox.gw(['refund', 'void', refundReference, '--json'])
    expect(refundVoid.code, refundVoid.stderr).toBe(0)
    expect(refundVoid.json).toMatchObject({reference: refundReference, message: 'Voided'})
  })

  it('references in --input files alike: a void file of references, a capture batch whose id column holds them', async () => {
    const [a, b] = [await made(['--amount', '700'], ref('vf')), await made(['--amount', '600'], ref('vf'))]
    const voids = writeTemp('voids.csv', `reference\n${a.reference}\n${b.reference}\n`)
    const voided = await sandbox.gw(['purchase', 'void', '--input', voids])
    expect(voided.code, voided.stderr).toBe(0)
    expect(voided.records.map((record) => (record as Purchase).id)).toEqual([a.id, b.id])
    const [x, y] = [await authorized('4000'), await authorized('5000')]
    const captures = writeTemp('captures.csv', `id,amount\n${x.reference},1500\n${y.id},\n`)
    const captured = await sandbox.gw(['purchase', 'capture', '--input', captures])
    expect(captured.code, captured.stderr).toBe(0)
    expect(inRowOrder(captured.records)).toMatchObject([
      {row: 1, reference: x.reference, status: 'approved', record: {id: x.id, captured_amount: 1500}},
      {row: 2, reference: y.id, status: 'approved', record: {id: y.id, captured_amount: 5000}},
    ])
  })

  it('gw payment-plan suspend, gw customer update and delete take a reference too', async () => {
    const customerReference = ref('cust')
    const customer = await sandbox.gw(['customer', 'create', '--first-name', 'Jane', '--last-name', 'Citizen', '--reference', customerReference, '--email', 'jane@example.com', ...cardArgs(), '--json'])
    expect(customer.code, customer.stderr).toBe(0)
    const id = (customer.json as {id: string}).id
    const updated = await sentBy(['customer', 'update', customerReference, '--first-name', 'Janet', '--json'])
    expect(updated.result.code, updated.result.stderr).toBe(0)
    expect(updated.result.json).toMatchObject({id, first_name: 'Janet'})
    expect(updated.sent.map((line) => line.replace(/\.json$/, ''))).toEqual([`GET /v1.0/customers/${customerReference}`, `PUT /v1.0/customers/${id}`])
    const deleted = await sandbox.gw(['customer', 'delete', customerReference, '--json'])
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.json).toMatchObject({id})
  })
})

/** A reference written as a record's id would be (`071-P-` and 8 letters and digits, for `code` P), which the record made with it does not have. */
const idShaped = (code: string) => `071-${code}-${randomBytes(8).toString('hex').toUpperCase().slice(0, 8)}`

describeInBothDialects('a reference written as an id: its shape is evidence, not proof', () => {
  it('gw purchase capture REF --amount: sent as an id, answered 404, looked up, and the purchase it names captured once', async () => {
    const auth = await authorized('3000', idShaped('P'))
    expect(auth.id).not.toBe(auth.reference)
    const {result, sent} = await sentBy(['purchase', 'capture', auth.reference, '--amount', '1200', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({id: auth.id, captured_amount: 1200})
    expect(sent).toEqual([`POST /v1.0/purchases/${auth.reference}/capture`, `GET /v1.0/purchases/${auth.reference}`, `POST /v1.0/purchases/${auth.id}/capture`])
  })

  it('gw purchase capture REF in full: the GET made for its amount gives the id captured', async () => {
    const auth = await authorized('2200', idShaped('P'))
    const {result, sent} = await sentBy(['purchase', 'capture', auth.reference, '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({id: auth.id, captured_amount: 2200})
    expect(sent).toEqual([`GET /v1.0/purchases/${auth.reference}`, `POST /v1.0/purchases/${auth.id}/capture`])
  })

  it('gw purchase void REF and gw refund void REF (a refund reference written as a refund id)', async () => {
    const bought = await made(['--amount', '900'], idShaped('P'))
    const voided = await sandbox.gw(['purchase', 'void', bought.reference, '--json'])
    expect(voided.code, voided.stderr).toBe(0)
    expect(voided.json).toMatchObject({id: bought.id, message: 'Voided'})
    const paid = await made(['--amount', '2000'], ref('rv'))
    const refundReference = idShaped('R')
    const refunded = await sandbox.gw(['refund', 'create', '--transaction-id', paid.id, '--amount', '500', '--reference', refundReference, '--json'])
    expect(refunded.code, refunded.stderr).toBe(0)
    const refundId = (refunded.json as {id: string}).id
    expect(refundId).not.toBe(refundReference)
    const refundVoid = await sandbox.gw(['refund', 'void', refundReference, '--json'])
    expect(refundVoid.code, refundVoid.stderr).toBe(0)
    expect(refundVoid.json).toMatchObject({id: refundId, reference: refundReference, message: 'Voided'})
  })

  it('a capture batch whose id column holds such references, with an amount and in full', async () => {
    const [x, y] = [await authorized('4000', idShaped('P')), await authorized('5000', idShaped('P'))]
    const captures = writeTemp('captures.csv', `id,amount\n${x.reference},1500\n${y.reference},\n`)
    const captured = await sandbox.gw(['purchase', 'capture', '--input', captures])
    expect(captured.code, captured.stderr).toBe(0)
    expect(inRowOrder(captured.records)).toMatchObject([
      {row: 1, reference: x.reference, status: 'approved', record: {id: x.id, captured_amount: 1500}},
      {row: 2, reference: y.reference, status: 'approved', record: {id: y.id, captured_amount: 5000}},
    ])
  })

  it('an id no record has, nor as a reference: said as tried both (exit 5)', async () => {
    const {result, sent} = await sentBy(['purchase', 'capture', '071-P-ZZZZZZZ9', '--amount', '100'])
    expect(result.code).toBe(5)
    expect(result.stderr).toContain(`Error: No purchase has the id or reference 071-P-ZZZZZZZ9: ${ANSWERS.purchaseNotFound}`)
    expect(sent).toEqual(['POST /v1.0/purchases/071-P-ZZZZZZZ9/capture', 'GET /v1.0/purchases/071-P-ZZZZZZZ9'])
  })
})

describeInBothDialects('a miss says which it tried, and how to find the record', () => {
  it('a reference no purchase has: looked up as an id and a reference at once, nothing else sent (exit 5)', async () => {
    const key = ref('nosuch')
    const {result, sent} = await sentBy(['purchase', 'capture', key, '--amount', '100'])
    expect(result.code).toBe(5)
    expect(result.stderr).toContain(`Error: No purchase has the id or reference ${key}: ${ANSWERS.purchaseNotFound} (HTTP 404`)
    expect(result.stderr).toContain('Hint: gw purchase list finds purchases, newest first, by --reference, --status, --card, --amount, --holder, --from and --to.')
    expect(sent).toEqual([`GET /v1.0/purchases/${key}`])
  })

  it('an id no purchase has: looked up as an id and a reference too', async () => {
    const result = await sandbox.gw(['purchase', 'void', '071-P-ZZZZZZZZ'])
    expect(result.code).toBe(5)
    expect(result.stderr).toContain(`Error: No purchase has the id or reference 071-P-ZZZZZZZZ: ${ANSWERS.purchaseNotFound} (HTTP 404`)
    const refund = await sandbox.gw(['refund', 'void', 'no-such-refund-ref'])
    expect(refund.code).toBe(5)
    expect(refund.stderr).toContain(`Error: No refund has the id or reference no-such-refund-ref (the gateway answered: ${ANSWERS.purchaseNotFound}) (HTTP 404`)
    expect(refund.stderr).toContain('Hint: gw refund list finds refunds, newest first, by --purchase,')
  })
})

describeOnce('at a terminal (tmux), an id left out is asked for', () => {
  it.each([
    [['purchase', 'capture', '--amount', '1200'], 'id or reference of the authorization to capture (ID)', {captured: true, captured_amount: 1200}],
    [['purchase', 'void'], 'id or reference of the purchase to void (ID)', {message: 'Voided'}],
  ])('gw %j asks, and takes a reference', async (args, question, expected) => {
    const auth = await authorized('1200')
    const t = terminal(args, sandbox.env(), {width: 160})
    open.push(t)
    await t.answer([[question, auth.reference]])
    expect(await t.waitFor(/\[exit \d+\]/)).toContain('[exit 0]')
    expect(await get(auth.id)).toMatchObject(expected)
  })

  it('without a terminal, it is refused (exit 2), naming what to give', async () => {
    const result = await sandbox.gw(['purchase', 'capture', '--amount', '100'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('give the id or reference of the authorization to capture, or --input FILE')
  })
})
