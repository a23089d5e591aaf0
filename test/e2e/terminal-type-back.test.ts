import {beforeAll, describe, expect, it} from 'vitest'
import {terminalGateways} from './auth-helpers.js'
import {CARD_ANSWERS, ref, type Sandbox} from './helpers.js'

// The live type-back at a real pseudo-terminal (tmux), against each dialect of the local gateway:
// the amount is typed as shown, and a number that reads as the other unit (cents for dollars, or
// dollars for cents) confirms nothing, however the amount was given.
let liveSandbox: Sandbox
const {gateways, run} = terminalGateways()

beforeAll(() => {
  ;({live: liveSandbox} = gateways())
})

describe('a live purchase is confirmed by its amount as shown, never by a number in the other unit', () => {
  it.each([
    // --amount 50000 is 500.00 AUD: `500` (dollars without cents) and `50000` (cents) are refused.
    [50000, '500.00 AUD', ['500', '50000'], '500.00'],
    // --amount 500 is 5.00 AUD: `500` (its cents) and `5` are refused, `5.00 AUD` goes ahead.
    [500, '5.00 AUD', ['500', '5'], '5.00 AUD'],
  ])('--amount %d shows %s, refuses %j, and charges once %j is typed', async (amount, shown, wrong, right) => {
    const reference = ref('typeback')
    const t = run(['purchase', 'create', '--amount', String(amount), '--reference', reference, '--json'], liveSandbox.home)
    await t.answer(CARD_ANSWERS)
    for (const [asked, typed] of [...wrong, right].entries()) {
      await t.waitFor(new RegExp(`(?:LIVE: type the amount \\(${shown.replace('.', '\\.')}\\) to confirm gw purchase create[\\s\\S]*){${asked + 1}}`))
      t.type(typed)
      if (typed !== right) await t.waitFor(`"${typed}" does not match ${shown}; type it as shown, ${shown.replace(' AUD', '')} (Ctrl-C to stop).`)
    }
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen.match(/Card number/g)).toHaveLength(1)
    expect((await liveSandbox.gw(['purchase', 'get', reference, '--json'])).json).toMatchObject({reference, amount, currency: 'AUD', successful: true})
  })

  it('sends nothing after three numbers in the other unit (exit 2), and says how to type it', async () => {
    const reference = ref('typeback')
    const t = run(['purchase', 'create', '--amount', '50000', '--reference', reference, '--card-token', 'tok_unused'], liveSandbox.home)
    for (const [asked, typed] of ['500', '50000', '500'].entries()) {
      await t.waitFor(new RegExp(`(?:LIVE: type the amount \\(500\\.00 AUD\\)[\\s\\S]*){${asked + 1}}`))
      t.type(typed)
    }
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 2]')
    expect(screen).toContain('"500" does not match 500.00 AUD: nothing was sent')
    expect(screen).toContain('Run it again and type the amount as shown, 500.00, or add --yes.')
    expect((await liveSandbox.gw(['purchase', 'get', reference])).code).toBe(5)
  })
})
