import {beforeAll, expect, it} from 'vitest'
import {terminalGateways} from './auth-helpers.js'
import {randomBytes} from 'node:crypto'
import {CARD_ANSWERS, describeInBothDialects, describeOnce, purchasedAtGateway, ref, type Sandbox} from './helpers.js'

// The live type-back at a real pseudo-terminal (tmux), against each dialect of the local gateway:
// the amount is typed as shown, and a number that reads as the other unit (cents for dollars, or
// dollars for cents) confirms nothing, however the amount was given.
let liveSandbox: Sandbox
const {gateways, run} = terminalGateways()

beforeAll(() => {
  ;({live: liveSandbox} = gateways())
})

describeInBothDialects('a live purchase is confirmed by its amount as shown, never by a number in the other unit', () => {
  it.each([
    // --amount 50000 is 500.00 AUD: `500` (dollars without cents) and `50000` (cents) are refused.
    [50000, '500.00 AUD', ['500', '50000'], '500.00'],
    // --amount 500 is 5.00 AUD: `500` (its cents) and `5` are refused, `5.00 AUD` goes ahead.
    [500, '5.00 AUD', ['500', '5'], '5.00 AUD'],
  ])('--amount %d shows %s, refuses %j, and charges once %j is typed', async (amount, shown, wrong, right) => {
    const reference = ref('typeback')
    const t = run(['purchase', 'create', '--amount', String(amount), '--reference', reference, '--json'], liveSandbox.home)
    await t.answer(CARD_ANSWERS)
    const question = `LIVE: type the amount (${shown}) to confirm gw purchase create`
    await t.waitFor(question)
    for (const typed of wrong) {
      t.type(typed)
      await t.waitFor(`"${typed}" does not match ${shown}; type it as shown, ${shown.replace(' AUD', '')} (Ctrl-C to stop).`)
      // Refused, the question stays to be answered: never marked answered (✔) first.
      expect(t.screen()).not.toContain(`✔ ${question}`)
    }
    t.type(right)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen.match(/Card number/g)).toHaveLength(1)
    expect(screen.match(/LIVE: type the amount/g)).toHaveLength(1)
    expect(screen).toContain(`✔ ${question} ${right}`)
    expect((await liveSandbox.gw(['purchase', 'get', reference, '--json'])).json).toMatchObject({reference, amount, currency: 'AUD', successful: true})
  })
})

// The question alone, nothing sent: no answer of a gateway's is read.
describeOnce('a live type-back refused three times', () => {
  it('sends nothing after three numbers in the other unit (exit 2), and says how to type it', async () => {
    const reference = ref('typeback')
    const t = run(['purchase', 'create', '--amount', '50000', '--reference', reference, '--card-token', 'tok_unused'], liveSandbox.home)
    await t.waitFor('LIVE: type the amount (500.00 AUD)')
    for (const typed of ['500', '50000']) {
      t.type(typed)
      await t.waitFor(`"${typed}" does not match 500.00 AUD; type it as shown, 500.00 (Ctrl-C to stop).`)
    }
    t.type('500')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 2]')
    expect(screen).not.toContain('✔')
    expect(screen).toContain('"500" does not match 500.00 AUD: nothing was sent')
    expect(screen).toContain('Run it again and type the amount as shown, 500.00, or add --yes.')
    expect((await liveSandbox.gw(['purchase', 'get', reference])).code).toBe(5)
  })
})

/** A reference written as a purchase's id would be (`071-P-` and 8 letters and digits), which the purchase made with it does not have. */
const idShapedReference = () => `071-P-${randomBytes(8).toString('hex').toUpperCase().slice(0, 8)}`

describeInBothDialects('a purchase named by its reference, on a live profile', () => {
  it('gw purchase void REFERENCE takes the reference typed back, as well as the id', async () => {
    const made = await purchasedAtGateway(liveSandbox, {amount: 1500, reference: ref('tb')})
    const t = run(['purchase', 'void', made.reference, '--json'], liveSandbox.home)
    const question = `LIVE: type the id or reference (${made.id} or ${made.reference}) to confirm gw purchase void`
    await t.waitFor(question)
    t.type(made.reference)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect((await liveSandbox.gw(['purchase', 'get', made.id, '--json'])).json).toMatchObject({message: 'Voided'})
  })

  it('a reference written as an id is looked up before the confirmation, asked once, and the purchase it names captured', async () => {
    const reference = idShapedReference()
    const made = await purchasedAtGateway(liveSandbox, {amount: 2000, reference, capture: false})
    expect(made.id).not.toBe(reference)
    const t = run(['purchase', 'capture', reference, '--amount', '500', '--json'], liveSandbox.home)
    await t.waitFor('LIVE: type the amount (5.00 AUD) to confirm gw purchase capture')
    t.type('5.00')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen.match(/LIVE: type the amount/g)).toHaveLength(1)
    expect((await liveSandbox.gw(['purchase', 'get', made.id, '--json'])).json).toMatchObject({captured: true, captured_amount: 500})
  })
})
