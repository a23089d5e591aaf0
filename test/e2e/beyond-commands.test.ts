import {expect, it} from 'vitest'
import {CARD_JSON, cardArgs, CARDS, describeInBothDialects, describeOnce, ref, type Sandbox, sharedSandbox} from './helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

describeInBothDialects('gw refund create without --transaction-id: an unmatched refund to a card', () => {
  it('refunds a card given in full, standalone, with the merchant\'s metadata; the number masked', async () => {
    const reference = ref('unmatched')
    const result = await sandbox.gw(['refund', 'create', '--amount', '1500', '--reference', reference, ...cardArgs(), '--metadata', 'ticket=77', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({reference, standalone: true, successful: true, metadata: {ticket: '77'}})
    expect(result.stdout).not.toContain(CARDS.visa)
  })

  it('refunds a stored card by its token, and takes the card as JSON on stdin', async () => {
    const token = (await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])).json as {token: string}
    const byToken = await sandbox.gw(['refund', 'create', '--card-token', token.token, '--amount', '300', '--reference', ref('u'), '--json'])
    expect(byToken.code, byToken.stderr).toBe(0)
    expect(byToken.json).toMatchObject({standalone: true})
    const onStdin = await sandbox.gw(['refund', 'create', '--card', '-', '--amount', '300', '--reference', ref('u'), '--json'], {stdin: CARD_JSON})
    expect(onStdin.code, onStdin.stderr).toBe(0)
  })

  // gw read a value whose second letter is a flag's (-q, --jq) as that flag, and took it for a purchase's ID: the reference sq-... here; a random token's second letter may be q too.
  it('takes a reference whose second letter is q as --reference\'s value, beside a token', async () => {
    const token = (await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])).json as {token: string}
    const reference = ref('sq')
    const result = await sandbox.gw(['refund', 'create', '--card-token', token.token, '--amount', '300', '--reference', reference, '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({standalone: true, successful: true, reference})
  })

  it('a refund of a purchase keeps --metadata too', async () => {
    const purchase = await sandbox.gw(['purchase', 'create', '--amount', '800', '--reference', ref('m'), ...cardArgs(), '--json'])
    const refund = await sandbox.gw(['refund', 'create', '--transaction-id', (purchase.json as {id: string}).id, '--amount', '800', '--reference', ref('mr'), '--metadata', 'reason=damaged', '--json'])
    expect(refund.code, refund.stderr).toBe(0)
    expect(refund.json).toMatchObject({metadata: {reason: 'damaged'}})
  })
})

describeInBothDialects('gw purchase settlement', () => {
  it('lists what settles today: captures and voids, never an authorization not captured', async () => {
    const captured = (await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref('s'), ...cardArgs(), '--json'])).json as {id: string; settlement_date: string}
    const open = (await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref('s'), ...cardArgs(), '--no-capture', '--json'])).json as {id: string}
    const day = captured.settlement_date
    const result = await sandbox.gw(['purchase', 'settlement', '--on', day])
    expect(result.code, result.stderr).toBe(0)
    const ids = result.stdout.trim().split('\n').map((line) => (JSON.parse(line) as {id: string}).id)
    expect(ids).toContain(captured.id)
    expect(ids).not.toContain(open.id)
    const empty = await sandbox.gw(['purchase', 'settlement', '--from', '2001-01-01', '--to', '2001-01-02'])
    expect(empty.code).toBe(0)
    expect(empty.stdout).toBe('')
  })
})

describeOnce("gw refund create's and gw purchase settlement's flags, refused before anything is sent", () => {
  it('needs --amount and --reference, and a card or a purchase (exit 2, nothing sent)', async () => {
    const noAmount = await sandbox.gw(['refund', 'create', ...cardArgs(), '--reference', ref()])
    expect(noAmount.code).toBe(2)
    expect(noAmount.stderr).toContain('an unmatched refund needs --amount: no purchase gives it')
    const nothing = await sandbox.gw(['refund', 'create', '--amount', '100', '--reference', ref()])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('Error: Missing required flag transaction-id\nOr, for an unmatched refund, give a card instead: --card-token, --card-number, or --card -.\n')
  })

  it('refuses --from after --to (exit 2)', async () => {
    const result = await sandbox.gw(['purchase', 'settlement', '--from', '2026-11-05', '--to', '2026-11-01'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('comes after --to')
  })
})

describeOnce('gw webhook update', () => {
  it('changes the name and keeps the rest', async () => {
    const hook = (await sandbox.gw(['webhook', 'create', '--url', 'http://127.0.0.1:4242/', '--json'])).json as {id: string; address: string}
    const updated = await sandbox.gw(['webhook', 'update', hook.id, '--name', 'all events', '--json'])
    expect(updated.code, updated.stderr).toBe(0)
    expect(updated.json).toMatchObject({id: hook.id, name: 'all events', address: hook.address})
  })

  it('refuses an update that changes nothing (exit 2)', async () => {
    const result = await sandbox.gw(['webhook', 'update', '071-WH-NOSUCH'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('give something to change')
  })
})
