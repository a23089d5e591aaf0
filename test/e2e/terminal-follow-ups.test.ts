import {beforeAll, expect, it} from 'vitest'
import {terminalGateways} from './auth-helpers.js'
import {ANSWERS, CARD_ANSWERS, CARD_JSON, cardArgs, CARDS, describeInBothDialects, describeOnce, ref, type Sandbox} from './helpers.js'

// Money follow-ups and refunds at a real pseudo-terminal (tmux), against each dialect of the local
// gateway: a live profile's confirmation in the authorization's currency, and --metadata through
// the refund's questions.
let sandbox: Sandbox
let liveSandbox: Sandbox
const {gateways, run} = terminalGateways()

beforeAll(() => {
  ;({sandbox, live: liveSandbox} = gateways())
})

/** An authorization in US dollars at the live-mode gateway (--yes: no terminal to confirm it on). */
async function liveAuthorization(amount: number): Promise<string> {
  const made = await liveSandbox.gw(['purchase', 'create', '--amount', String(amount), '--currency', 'USD', '--reference', ref('auth'), '--card', '-', '--no-capture', '--yes', '--json'], {stdin: CARD_JSON})
  expect(made.code, made.stderr).toBe(0)
  return (made.json as {id: string}).id
}

describeInBothDialects("a live profile confirms a capture or an increment in the authorization's currency", () => {
  it('captures once 40.00 USD is typed back', async () => {
    const id = await liveAuthorization(10000)
    const t = run(['purchase', 'capture', id, '--amount', '4000', '--json'], liveSandbox.home)
    await t.waitFor('LIVE: type the amount (40.00 USD) to confirm gw purchase capture')
    t.type('40.00 usd')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).not.toContain('currency not known')
    expect((await liveSandbox.gw(['purchase', 'get', id, '--json'])).json).toMatchObject({id, currency: 'USD', captured: true, captured_amount: 4000})
  })

  it('captures in full, the amount looked up, and confirmed as money', async () => {
    const id = await liveAuthorization(2500)
    const t = run(['purchase', 'capture', id], liveSandbox.home)
    await t.waitFor('LIVE: type the amount (25.00 USD) to confirm gw purchase capture')
    t.type('25.00')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect((await liveSandbox.gw(['purchase', 'get', id, '--json'])).json).toMatchObject({captured_amount: 2500})
  })

  it('raises an authorization once its new total, 65.00 USD, is typed back; a mismatch sends nothing', async () => {
    const id = await liveAuthorization(5000)
    const wrong = run(['purchase', 'increment', id, '--amount', '6500'], liveSandbox.home)
    await wrong.waitFor('LIVE: type the amount (65.00 USD) to confirm gw purchase increment')
    // Each refusal is said under the question, which stays to be answered again.
    for (const typed of ['15.00', '6500']) {
      wrong.type(typed)
      await wrong.waitFor(`"${typed}" does not match 65.00 USD; type it as shown, 65.00 (Ctrl-C to stop).`)
    }
    wrong.type('6500.00')
    const refused = await wrong.waitFor(/\[exit \d+\]/)
    expect(refused).toContain('[exit 2]')
    expect(refused).toContain('"6500.00" does not match 65.00 USD: nothing was sent')
    expect((await liveSandbox.gw(['purchase', 'get', id, '--json'])).json).toMatchObject({amount: 5000})

    const t = run(['purchase', 'increment', id, '--amount', '6500', '--json'], liveSandbox.home)
    await t.waitFor('LIVE: type the amount (65.00 USD) to confirm gw purchase increment')
    t.type('65.00')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect((await liveSandbox.gw(['purchase', 'get', id, '--json'])).json).toMatchObject({amount: 6500, currency: 'USD', metadata: {original_amount: '5000'}})
  })

  it('an authorization that cannot be found is said before anything is asked (exit 5): its key is looked up first, whatever its shape', async () => {
    const t = run(['purchase', 'capture', '071-P-NOSUCH1', '--amount', '4000'], liveSandbox.home)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 5]')
    expect(screen).toContain(`No purchase has the id or reference 071-P-NOSUCH1: ${ANSWERS.purchaseNotFound}`)
    expect(screen).not.toContain('LIVE: type')
  })
})

describeInBothDialects('--metadata through the refund questions at a terminal', () => {
  it("keeps the merchant's keys with a refund whose amount and reference are asked, and shows them", async () => {
    const bought = await sandbox.gw(['purchase', 'create', '--amount', '2000', '--reference', ref('meta'), ...cardArgs(), '--json'])
    expect(bought.code, bought.stderr).toBe(0)
    const {id} = bought.json as {id: string}
    const reference = ref('meta-r')
    const t = run(['refund', 'create', '--transaction-id', id, '--metadata', 'reason=damaged', '--metadata', 'ticket=77'], sandbox.env())
    await t.answer([
      ['amount to refund in the minor currency unit (--amount)', '500'],
      ['your reference for the refund (--reference)', reference],
    ])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toMatch(/^Metadata$/m)
    expect(screen).toMatch(/^ {2}reason +damaged$/m)
    expect(screen).toMatch(/^ {2}ticket +77$/m)
    const found = await sandbox.gw(['refund', 'get', reference, '--json'])
    expect(found.json).toMatchObject({reference, amount: ANSWERS.refundAmount(500), metadata: {reason: 'damaged', ticket: '77'}})
  })

  it('keeps them with an unmatched refund on a live profile: the card named by its holder, the rest asked, the amount confirmed as unmatched', async () => {
    const reference = ref('meta-u')
    const t = run(['refund', 'create', '--amount', '700', '--reference', reference, '--card-holder', 'Jane Citizen', '--metadata', 'ticket=78'], liveSandbox.home)
    await t.answer(CARD_ANSWERS.slice(1))
    await t.waitFor('LIVE: type the amount (7.00 AUD) to confirm gw refund create, an unmatched refund to a card, which no purchase bounds')
    t.type('7.00')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).not.toContain(CARDS.visa)
    expect(screen).toMatch(/^ {2}ticket +78$/m)
    const found = await liveSandbox.gw(['refund', 'get', reference, '--json'])
    expect(found.json).toMatchObject({reference, standalone: true, metadata: {ticket: '78'}})
  })
})

// Refused by gw itself, nothing sent: no answer of a gateway's decides it.
describeOnce('an unmatched refund without a terminal', () => {
  it('without a terminal, a holder alone is not a card (exit 2, nothing sent)', async () => {
    const result = await sandbox.gw(['refund', 'create', '--amount', '700', '--reference', ref('meta-u'), '--card-holder', 'Jane Citizen'])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe('Error: give the card for the unmatched refund: --card-holder, --card-number, --card-expiry and --cvv, or --card -\nHint: See gw refund create --help for the flags and examples.\n')
  })
})
