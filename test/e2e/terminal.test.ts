import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {terminalGateways} from './auth-helpers.js'
import {CARD_ANSWERS, CARD_JSON, CARDS, isolatedHome, ref, runGw, type Sandbox} from './helpers.js'

// Prompts are typed into a real pseudo-terminal (tmux), as a person would answer them.
let sandbox: Sandbox
let liveSandbox: Sandbox
const {gateways, run} = terminalGateways(['--merchant', 'ACME:acme-token-123'])

beforeAll(() => {
  ;({sandbox, live: liveSandbox} = gateways())
})

/** gw login's questions, answered as merchant ACME of the local gateway; the gateway's mode is never asked. */
const acmeAnswers = (): [string, string][] => [
  ['Profile name', 'acme'],
  ['Gateway base URL', sandbox.url],
  ['Username', 'ACME'],
  ['API token', 'acme-token-123'],
]

describe('gw login on a terminal', () => {
  it('asks for what the flags leave out, the token masked, then saves and activates the profile', async () => {
    const home = isolatedHome()
    const t = run(['login', '--insecure-storage'], home)
    await t.answer(acmeAnswers())
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toContain('Logged in: profile acme is active')
    // The gateway says which it is: nobody is asked, and nobody can get it wrong.
    expect(screen).toContain(`The gateway at ${sandbox.url} reports sandbox mode: profile acme is saved as a sandbox profile.`)
    expect(screen).not.toContain('✔ Environment')
    expect(screen).not.toContain('acme-token-123')
    expect(screen).toContain('**************')

    const status = await runGw(['status', '--json'], {env: home})
    expect(status.json).toMatchObject({profile: 'acme', chosen_by: 'the active profile', environment: 'sandbox', base_url: sandbox.url, username: 'ACME'})
    expect(JSON.parse(readFileSync(join(home.XDG_CONFIG_HOME!, 'gw', 'insecure-credentials.json'), 'utf8'))).toEqual({acme: 'acme-token-123'})
  })

  // A live profile is made active only when the person at the terminal says so.
  it('asks before making a live profile the active one: No, the default, keeps the active one; Yes switches', async () => {
    const home = isolatedHome()
    const first = run(['login', '--insecure-storage'], home)
    await first.answer(acmeAnswers())
    expect(await first.waitFor(/\[exit \d+\]/)).toContain('[exit 0]')

    const live = ['login', '--profile', 'shop-live', '--base-url', liveSandbox.url, '--username', 'TEST', '--insecure-storage']
    const declined = run(live, home)
    await declined.answer([['API token', 'TEST']])
    const question = await declined.waitFor('Make the live profile shop-live the active one?')
    expect(question).toContain('No: keep acme active; give --profile shop-live for live work')
    expect(question).toContain('Yes: make shop-live active (commands without --profile then work on real money)')
    declined.press('Enter')
    const screen = await declined.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toContain('Profile shop-live was not made active: commands without --profile still use profile acme.')
    expect((await runGw(['status', '--json', '--no-check'], {env: home})).json).toMatchObject({profile: 'acme'})

    const accepted = run(live, home)
    await accepted.answer([['API token', 'TEST']])
    await accepted.waitFor('Make the live profile shop-live the active one?')
    accepted.press('Down', 'Enter')
    expect(await accepted.waitFor(/\[exit \d+\]/)).toContain('Logged in: profile shop-live is active')
    expect((await runGw(['status', '--json', '--no-check'], {env: home})).json).toMatchObject({profile: 'shop-live', environment: 'live'})
  })

  it('asks again for a blank answer, and a wrong token saves nothing (exit 4)', async () => {
    const home = isolatedHome()
    const t = run(['login', '--profile', 'acme', '--environment', 'sandbox', '--base-url', sandbox.url, '--insecure-storage'], home)
    await t.waitFor('Username')
    t.type('')
    await t.waitFor('must not be blank')
    t.type('ACME')
    await t.waitFor('API token')
    t.type('not-the-token')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 4]')
    expect(screen).toContain('refused username ACME with that token: nothing was saved')
    expect((await runGw(['profile', 'list', '--json'], {env: home})).stdout).toBe('')
  })

  // A session bus that is not there: the keychain cannot be reached, whether or not keytar is installed.
  const noKeychain = (): NodeJS.ProcessEnv => ({...isolatedHome(), DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/gw-test-bus'})

  it('with no keychain, says so before asking anything and offers a plain file, then logs in with it', async () => {
    const home = noKeychain()
    const t = run(['login'], home)
    const offer = await t.waitFor('Where should gw keep the token instead?')
    expect(offer).toContain('The OS keychain is not available: ')
    expect(offer).not.toContain('Profile name')
    expect(offer).toContain('Keep the token in a file only I can read (--insecure-storage)')
    expect(offer).toContain('Give the credentials in environment variables instead (nothing is saved)')
    t.press('Enter')
    await t.answer(acmeAnswers())
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toContain('Logged in: profile acme is active; its token is in a plain file')
    expect(JSON.parse(readFileSync(join(home.XDG_CONFIG_HOME!, 'gw', 'insecure-credentials.json'), 'utf8'))).toEqual({acme: 'acme-token-123'})
  })

  it('with no keychain, choosing the environment variables saves nothing and says what to set', async () => {
    const home = noKeychain()
    const t = run(['login'], home)
    await t.waitFor('Where should gw keep the token instead?')
    t.press('Down', 'Enter')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toContain('Nothing was saved. Set these in the environment gw runs in')
    expect(screen).toContain('GW_USERNAME=your-username  GW_TOKEN=your-api-token  GW_BASE_URL=https://gateway.example.com')
    expect(screen).not.toContain('Profile name')
    expect((await runGw(['profile', 'list', '--json'], {env: home})).stdout).toBe('')
  })
})

// The expiry is asked for as a card form asks it, MM/YY, and sent as MM/YYYY.
describe('a card asked for on a terminal', () => {
  it('takes the expiry as MM/YY, asking again for what is not one', async () => {
    const reference = ref()
    const t = run(['purchase', 'create', '--amount', '1000', '--reference', reference, '--json'], sandbox.home)
    await t.answer(CARD_ANSWERS.slice(0, 2))
    await t.waitFor('Expiry (MM/YY)')
    t.type('12/3')
    await t.waitFor('--card-expiry must be MM/YY or MM/YYYY, got "12/3"')
    // The refused answer stays in the field, as inquirer leaves it: cleared, then typed again.
    t.press('C-u')
    t.type('12/30')
    await t.answer([['CVV', '123']])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect((await sandbox.gw(['purchase', 'get', reference, '--json'])).json).toMatchObject({reference, card_expiry: '2030-12-31', successful: true})
  })
})

describe('a live profile on a terminal', () => {
  it('says LIVE, asks for the card masked, and charges once the amount is typed back', async () => {
    const reference = ref()
    const t = run(['purchase', 'create', '--amount', '1000', '--reference', reference, '--json'], liveSandbox.home)
    await t.waitFor(`LIVE  profile local at ${liveSandbox.url}: real money, real cards`)
    await t.answer(CARD_ANSWERS)
    await t.waitFor('LIVE: type the amount (10.00 AUD) to confirm gw purchase create')
    t.type('10.00')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).not.toContain(CARDS.visa)
    expect(screen).toContain('"card_number": "424242XXXXXX4242"')
    const found = await liveSandbox.gw(['purchase', 'get', reference, '--json'])
    expect(found.json).toMatchObject({reference, amount: 1000, successful: true})
  })

  it('a mismatched confirmation asks the confirmation alone again, empty, and takes the amount as shown', async () => {
    const reference = ref()
    const t = run(['purchase', 'create', '--amount', '1000', '--reference', reference, '--json'], liveSandbox.home)
    await t.answer(CARD_ANSWERS)
    await t.waitFor('LIVE: type the amount (10.00 AUD) to confirm gw purchase create')
    t.type('100.00')
    await t.waitFor('"100.00" does not match 10.00 AUD; type it as shown, 10.00 (Ctrl-C to stop).')
    // Asked again with nothing left in the field: typing the amount alone answers it.
    t.type('10.00')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen.match(/Card number/g)).toHaveLength(1)
    expect((await liveSandbox.gw(['purchase', 'get', reference, '--json'], {env: {GW_ENVIRONMENT: 'live'}})).json).toMatchObject({reference, amount: 1000})
  })

  it("has a refund's amount typed back in its purchase's currency, never in minor units", async () => {
    const purchase = await liveSandbox.gw(['purchase', 'create', '--amount', '10000', '--reference', ref(), '--card', '-', '--yes', '--json'], {stdin: CARD_JSON})
    expect(purchase.code, purchase.stderr).toBe(0)
    const reference = ref()
    const t = run(['refund', 'create', '--transaction-id', (purchase.json as {id: string}).id, '--amount', '8045', '--reference', reference], liveSandbox.home)
    await t.waitFor('LIVE: type the amount (80.45 AUD) to confirm gw refund create')
    t.type('80.45')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).not.toContain('minor units')
    expect((await liveSandbox.gw(['refund', 'get', reference, '--json'])).json).toMatchObject({reference, amount: -8045})
  })

  it('sends nothing when the amount typed back does not match three times (exit 2)', async () => {
    const reference = ref()
    const t = run(['purchase', 'create', '--amount', '1000', '--reference', reference, '--card-token', 'tok_unused'], liveSandbox.home)
    // Each refusal is said under the question, which stays to be answered again.
    await t.waitFor('LIVE: type the amount (10.00 AUD)')
    for (const typed of ['100.00', '1']) {
      t.type(typed)
      await t.waitFor(`"${typed}" does not match 10.00 AUD; type it as shown, 10.00 (Ctrl-C to stop).`)
    }
    t.type('100.00')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 2]')
    expect(screen).toContain('"100.00" does not match 10.00 AUD: nothing was sent')
    expect((await liveSandbox.gw(['purchase', 'get', reference], {env: {GW_ENVIRONMENT: 'live'}})).code).toBe(5)
  })
})
