import {expect, it} from 'vitest'
import {apiRequestsSince, cardArgs, describeInBothDialects, describeOnce, errorJson, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

type Purchase = {id: string; amount: number; captured: boolean; captured_amount: number; message: string; settlement_date: string | null; metadata?: Record<string, string>}

/** An authorization of `amount`, approved: its record. */
async function authorize(amount = '10000', extra: string[] = []): Promise<Purchase> {
  const result = await sandbox.gw(['purchase', 'create', '--amount', amount, '--reference', ref('auth'), ...cardArgs(), '--no-capture', ...extra, '--json'])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return result.json as Purchase
}

const get = async (id: string) => (await sandbox.gw(['purchase', 'get', id, '--json'])).json as Purchase

describeInBothDialects('gw purchase create --no-capture, and --metadata', () => {
  it('authorizes only: nothing captured, no settlement date; the merchant\'s keys come back', async () => {
    const record = await authorize('10000', ['--metadata', 'order=2001', '--metadata', 'note=a=b'])
    expect(record).toMatchObject({amount: 10000, captured: false, captured_amount: 0, settlement_date: null, message: 'Approved', metadata: {order: '2001', note: 'a=b'}})
  })
})

describeOnce('a --metadata without KEY=, refused before anything is sent', () => {
  it('refuses a --metadata without KEY= before sending anything (exit 2)', async () => {
    const result = await sandbox.gw(['purchase', 'create', '--amount', '100', '--reference', ref(), ...cardArgs(), '--metadata', 'order'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--metadata "order" is not KEY=VALUE')
  })
})

describeInBothDialects('gw purchase capture', () => {
  it('captures all that was authorized without --amount, and part of it with one', async () => {
    const whole = await authorize('5000')
    const full = await sandbox.gw(['purchase', 'capture', whole.id, '--json'])
    expect(full.code).toBe(0)
    expect(full.json).toMatchObject({id: whole.id, amount: 5000, captured: true, captured_amount: 5000})
    expect((full.json as Purchase).settlement_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    const part = await authorize('5000')
    const partial = await sandbox.gw(['purchase', 'capture', part.id, '--amount', '3000', '--json'])
    expect(partial.code).toBe(0)
    expect(partial.json).toMatchObject({id: part.id, amount: 5000, captured: true, captured_amount: 3000})
  })

  it('refuses more than was authorized with exit 7 in the gateway\'s words, nothing captured', async () => {
    const auth = await authorize('10000')
    const result = await sandbox.gw(['purchase', 'capture', auth.id, '--amount', '1000000000', '--json'])
    expect(result.code).toBe(7)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('Capture amount cannot be greater then the original authorised amount')
    expect(errorJson(result)).toMatchObject({error: {kind: 'rejected', messages: ['Capture amount cannot be greater then the original authorised amount']}})
    expect(await get(auth.id)).toMatchObject({captured: false, captured_amount: 0})
  })

  it('run again, reports the capture done before (exit 0) and never captures twice', async () => {
    const auth = await authorize('4000')
    expect((await sandbox.gw(['purchase', 'capture', auth.id, '--amount', '4000'])).code).toBe(0)
    const again = await sandbox.gw(['purchase', 'capture', auth.id, '--amount', '4000', '--json'])
    expect(again.code).toBe(0)
    expect(again.stderr).toContain(`Capture of ${auth.id} was done before: nothing changed now.`)
    expect(again.json).toMatchObject({captured_amount: 4000})
    const other = await sandbox.gw(['purchase', 'capture', auth.id, '--amount', '100'])
    expect(other.code).toBe(7)
    expect((await get(auth.id)).captured_amount).toBe(4000)
  })

  it('a capture whose answer is lost is looked up by its id: captured once, exit 0, one POST', async () => {
    const auth = await authorize('2500')
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: `/v1.0/purchases/${auth.id}/capture`, action: 'drop-after'})
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(['purchase', 'capture', auth.id, '--json'])
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({id: auth.id, captured: true, captured_amount: 2500})
    expect(result.stderr).toContain(`No answer came back, but ${auth.id} shows the capture done.`)
    const posts = (await apiRequestsSince(sandbox, cursor)).filter((request) => request.method === 'POST')
    expect(posts.map((request) => request.path)).toEqual([`/v1.0/purchases/${auth.id}/capture`])
  })

  it('a capture lost before it arrived is exit 8 once the window is over, with what to check and not to resend', async () => {
    const auth = await authorize('2500')
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: `/v1.0/purchases/${auth.id}/capture`, action: 'drop-before'})
    const result = await sandbox.gw(['purchase', 'capture', auth.id])
    expect(result.code).toBe(8)
    expect(result.stdout).toBe('')
    // Said once when the wait begins: the authorization is there, named by its id; the capture is what is not yet.
    // What is left of the window (2 s) at the first look-up depends on the machine's load.
    expect(result.stderr).toMatch(new RegExp(`Purchase ${auth.id} shows no capture yet, and the gateway may still be processing it: looking again for up to [1-2] s\\.\\n`))
    expect(result.stderr).not.toContain('reference')
    expect(result.stderr).toContain(`The capture of ${auth.id} was sent but no answer came back that could be read`)
    expect(result.stderr).toContain(`and ${auth.id} does not show it, even 2 s after it was sent`)
    expect(result.stderr).toContain(`gw purchase get ${auth.id}`)
    expect(await get(auth.id)).toMatchObject({captured: false})
  })
})

describeInBothDialects('gw purchase void and gw refund void', () => {
  it('voids a purchase, and run again reports it voided before (exit 0)', async () => {
    const made = await sandbox.gw(['purchase', 'create', '--amount', '1500', '--reference', ref('v'), ...cardArgs(), '--json'])
    const {id} = made.json as Purchase
    const voided = await sandbox.gw(['purchase', 'void', id, '--json'])
    expect(voided.code).toBe(0)
    expect(voided.json).toMatchObject({id, message: 'Voided', captured_amount: 0})
    const again = await sandbox.gw(['purchase', 'void', id, '--json'])
    expect(again.code).toBe(0)
    expect(again.stderr).toContain(`Void of ${id} was done before: nothing changed now.`)
  })

  it('voids several ids read from stdin, a record each, and exits with the worst', async () => {
    const ids = [(await authorize('700')).id, (await authorize('700')).id]
    const result = await sandbox.gw(['purchase', 'void', '-'], {stdin: [...ids, '071-P-NOSUCH00'].join('\n') + '\n'})
    expect(result.code).toBe(5)
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Purchase)
    expect(lines.map((line) => [line.id, line.message])).toEqual(ids.map((id) => [id, 'Voided']))
    expect(result.stderr).toContain('071-P-NOSUCH00: ')
    expect(result.stderr).toContain('1 of 3 failed')
  })

  it('voids a refund, and its purchase may be refunded that much again', async () => {
    const made = await sandbox.gw(['purchase', 'create', '--amount', '1200', '--reference', ref('rv'), ...cardArgs(), '--json'])
    const {id} = made.json as Purchase
    const refund = await sandbox.gw(['refund', 'create', '--transaction-id', id, '--amount', '1200', '--reference', ref('r'), '--json'])
    expect(refund.code).toBe(0)
    const refundId = (refund.json as {id: string}).id
    const voided = await sandbox.gw(['refund', 'void', refundId, '--json'])
    expect(voided.code).toBe(0)
    expect(voided.json).toMatchObject({id: refundId, message: 'Voided', refunded: 'Voided'})
    const again = await sandbox.gw(['refund', 'create', '--transaction-id', id, '--amount', '1200', '--reference', ref('r'), '--json'])
    expect(again.code).toBe(0)
  })
})

describeInBothDialects('gw purchase increment and extend', () => {
  it('raises an authorization to a new total, keeping the first amount in metadata, then captures it', async () => {
    const auth = await authorize('10000')
    const raised = await sandbox.gw(['purchase', 'increment', auth.id, '--amount', '10200', '--json'])
    expect(raised.code).toBe(0)
    expect(raised.json).toMatchObject({id: auth.id, amount: 10200, captured: false, metadata: {original_amount: '10000'}})
    const again = await sandbox.gw(['purchase', 'increment', auth.id, '--amount', '10200'])
    expect(again.code).toBe(0)
    expect(again.stderr).toContain(`Increment of ${auth.id} was done before: nothing changed now.`)
    expect((await sandbox.gw(['purchase', 'capture', auth.id, '--json'])).json).toMatchObject({captured_amount: 10200})
  })

  it('extends an authorization (the record as it was), and refuses to extend a captured one (exit 7)', async () => {
    const auth = await authorize('900')
    const extended = await sandbox.gw(['purchase', 'extend', auth.id, '--json'])
    expect(extended.code).toBe(0)
    expect(extended.json).toMatchObject({id: auth.id, amount: 900, captured: false})
    await sandbox.gw(['purchase', 'capture', auth.id])
    const refused = await sandbox.gw(['purchase', 'extend', auth.id])
    expect(refused.code).toBe(7)
  })
})
