import {afterEach, describe, expect, it} from 'vitest'
import {terminal, type Terminal} from './auth-helpers.js'
import {armTrap, CARD_ANSWERS, cardArgs, CARDS, isolatedHome, ref, type Sandbox, sharedSandbox} from './helpers.js'
import {chargeSuccessful, type Listener, startListen} from './listen-helpers.js'

// What a person at a terminal sees: prompts for what is missing, records fitted to the width,
// and gateway text that cannot drive the terminal. Run in real pseudo-terminals (tmux).
let sandbox: Sandbox
const open: Terminal[] = []
const listeners: Listener[] = []

sharedSandbox((started) => void (sandbox = started))

afterEach(async () => {
  for (const t of open.splice(0)) t.close()
  await Promise.all(listeners.splice(0).map((listener) => listener.stop('SIGKILL')))
})

function run(args: string[], {width, env}: {width?: number; env?: NodeJS.ProcessEnv} = {}): Terminal {
  const t = terminal(args, sandbox.env(env), {width})
  open.push(t)
  return t
}

async function purchase({card = cardArgs(), reference = ref()} = {}): Promise<Record<string, unknown>> {
  const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...card, '--json'])
  expect(result.code, result.stderr).toBe(0)
  return result.json as Record<string, unknown>
}

/** The test Visa under a holder of its own: the refunds on it since a purchase are the test's alone, whatever else runs that second. */
const ownCard = (holder = ref('Holder')) => ['--card-holder', holder, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123']

const ESC = '\u001B'

describe('one JSON shape at a prompt and in a script', () => {
  it('--json with several ids prints the records one after another, pretty, as a pipe gets them, never an array', async () => {
    const [a, b] = [await purchase(), await purchase()]
    const t = run(['purchase', 'get', String(a.id), String(b.id), '--json'])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).not.toMatch(/^\[$/m)
    expect(screen).toMatch(new RegExp(`^{\\n  "id": "${a.id}",`, 'm'))
    expect(screen).toMatch(new RegExp(`^}\\n{\\n  "id": "${b.id}",`, 'm'))
    const piped = await sandbox.gw(['purchase', 'get', String(a.id), String(b.id), '--json'])
    expect(piped.records.map((record) => (record as {id: string}).id)).toEqual([a.id, b.id])
  })
})

describe('prompts for what is missing', () => {
  // A purchase's amount read back as 1250 where a refund's read back as 15.00 AUD.
  it.each([
    ['a purchase in its currency', ['purchase', 'create', '--currency', 'NZD'], '✔ amount (--amount) 12.50 NZD'],
    ['a purchase, AUD when no currency is given', ['purchase', 'create'], '✔ amount (--amount) 12.50 AUD'],
  ])("reads an amount asked for back as money, as a refund's is: %s", async (_, args, readBack) => {
    const token = await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])
    expect(token.code, token.stderr).toBe(0)
    const reference = ref('readback')
    const t = run([...args, '--reference', reference, '--card-token', (token.json as {token: string}).token])
    await t.answer([['(--amount)', '1250']])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain(`${readBack}\n`)
    expect(screen).not.toMatch(/^✔ amount.* 1250$/m)
    expect((await sandbox.gw(['purchase', 'get', reference, '--json'])).json).toMatchObject({reference, amount: 1250})
  })

  it('makes a purchase entirely through prompts, asking again for a bad amount, the card number and CVV masked', async () => {
    const reference = ref('prompted')
    const t = run(['purchase', 'create'])
    await t.waitFor('(--amount)')
    t.type('ten dollars')
    await t.waitFor('--amount must be')
    t.press('C-u')
    t.type('1000')
    await t.answer([['(--reference)', reference], ...CARD_ANSWERS])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toMatch(/^Outcome +Approved$/m)
    expect(screen).toMatch(/^Amount +10\.00 AUD$/m)
    expect(screen).toMatch(new RegExp(`^Reference +${reference}$`, 'm'))
    expect(screen).not.toContain(CARDS.visa)
    expect(screen).not.toMatch(/CVV.*123/)
    expect(screen).not.toContain('┌')
    const found = await sandbox.gw(['purchase', 'get', reference])
    expect(found.json).toMatchObject({reference, amount: 1000, successful: true, card_holder: 'Jane Citizen'})
  })

  it('asks a refund for its transaction id, and refunds that purchase', async () => {
    const bought = await purchase()
    const reference = ref('refund')
    const t = run(['refund', 'create', '--amount', '400', '--reference', reference])
    await t.waitFor('id or reference of the purchase to refund (--transaction-id)')
    t.type(String(bought.id))
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toMatch(/^Amount +4\.00 AUD$/m)
    expect(screen).toMatch(new RegExp(`^Card +${bought.card_number}$`, 'm'))
    const found = await sandbox.gw(['refund', 'get', reference])
    expect(found.json).toMatchObject({reference, amount: -400, card_number: bought.card_number, card_holder: bought.card_holder})
  })

  it("asks a refund's amount, offering the purchase in full: Enter takes it, a typed amount refunds part", async () => {
    const bought = await purchase({card: ownCard()})
    const full = run(['refund', 'create', '--transaction-id', String(bought.id), '--reference', ref('refund')])
    await full.waitFor('amount to refund in the minor currency unit (--amount); Enter for the purchase in full, 10.00 AUD (1000)')
    full.press('Enter')
    const fullScreen = await full.waitFor(/\[exit \d+\]/)
    expect(fullScreen).toContain('[exit 0]')
    expect(fullScreen).toMatch(/^Amount +10\.00 AUD$/m)

    const other = await purchase({card: ownCard()})
    const part = run(['refund', 'create', '--transaction-id', String(other.reference), '--reference', ref('refund')])
    await part.waitFor('(--amount); Enter for the purchase in full')
    part.type('0')
    await part.waitFor('--amount must be greater than 0')
    part.press('C-u')
    part.type('250')
    const partScreen = await part.waitFor(/\[exit \d+\]/)
    expect(partScreen).toContain('[exit 0]')
    expect(partScreen).toMatch(/^Amount +2\.50 AUD$/m)
  })

  it("at 60 columns breaks a refund's questions at spaces, and reads each answer back as what it means", async () => {
    const bought = await purchase({card: ownCard()})
    const reference = ref('refund')
    const t = run(['refund', 'create', '--transaction-id', String(bought.id)], {width: 60, env: {NO_COLOR: '1'}})
    const asked = await t.waitFor('(1000)')
    expect(asked).toContain('? amount to refund in the minor currency unit (--amount);\nEnter for the purchase in full, 10.00 AUD (1000)\n')
    t.type('250')
    await t.waitFor('(--reference)')
    t.type(reference)
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    // Read back without the offer, which no longer applies, and the minor units as money.
    expect(screen).toMatch(/^✔ amount to refund \(--amount\) 2\.50 AUD$/m)
    // Too long to fit beside the question at 60 columns, the answer takes a line of its own.
    expect(screen).toMatch(new RegExp(`^✔ your reference for the refund \\(--reference\\)\\n${reference}$`, 'm'))
    expect(screen).toMatch(/^Amount +2\.50 AUD$/m)
  })

  it('asks for the purchase, then the amount, then the reference, offering the one derived from the purchase\'s: Enter takes each offer', async () => {
    const bought = await purchase({card: ownCard(), reference: ref('order')})
    const t = run(['refund', 'create'])
    await t.answer([['(--transaction-id)', String(bought.reference)]])
    await t.waitFor('(--amount); Enter for the purchase in full, 10.00 AUD')
    t.press('Enter')
    // The derived reference is shown once, where the prompt shows what Enter takes.
    const offered = await t.waitFor(`(--reference); Enter for the one derived from the purchase's (${bought.reference}-R1)`)
    expect(offered.split(`${bought.reference}-R1`)).toHaveLength(2)
    t.press('Enter')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    const asked = ['(--transaction-id)', '(--amount)', '(--reference)'].map((question) => screen.indexOf(question))
    expect(asked.every((at) => at >= 0)).toBe(true)
    expect([...asked].sort((a, b) => a - b)).toEqual(asked)
    expect(screen).toMatch(new RegExp(`^Reference +${bought.reference}-R1$`, 'm'))
    expect(screen).toContain(`Reference ${bought.reference}-R1, derived from purchase ${bought.reference}'s: gw refund list --purchase ${bought.reference} finds it for certain.`)
  })

  it('after a partial refund, offers what is left of the purchase, and Enter refunds it (it offered the full amount, refused with exit 7)', async () => {
    // A refund made past gw's records (its own reference, by another system: a gw with a data directory of its own) only may be of it: what is surely left is offered.
    const other = await purchase({card: ownCard()})
    expect((await sandbox.gw(['api', 'POST', '/v1.0/refunds', '--data', JSON.stringify({transaction_id: other.id, amount: 400, reference: ref('mine')})], {env: isolatedHome()})).code).toBe(0)
    const maybe = run(['refund', 'create', '--transaction-id', String(other.id), '--reference', ref('refund')])
    await maybe.waitFor('(--amount); Enter for 6.00 AUD, what is surely left (1 refund on its card that may be of it comes to 4.00 AUD) (600)')
    maybe.press('Enter')
    const maybeScreen = await maybe.waitFor(/\[exit \d+\]/)
    expect(maybeScreen).toContain('[exit 0]')
    expect(maybeScreen).toMatch(/^Amount +6\.00 AUD$/m)

    // One gw's refund create made is certain, whatever its reference: what is left is exact.
    const bought = await purchase({card: ownCard()})
    expect((await sandbox.gw(['refund', 'create', '--transaction-id', String(bought.id), '--amount', '400', '--reference', ref('own')])).code).toBe(0)
    const t = run(['refund', 'create', '--transaction-id', String(bought.reference), '--reference', ref('refund')])
    await t.waitFor('(--amount); Enter for what is left of it, 6.00 AUD (4.00 AUD of 10.00 AUD refunded) (600)')
    t.press('Enter')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toMatch(/^Amount +6\.00 AUD$/m)
  })

  it('refuses at the prompt more than is left, saying what is left, before the reference is asked; nothing left is refused before asking, exit 7', async () => {
    const bought = await purchase({card: ownCard()})
    expect((await sandbox.gw(['refund', 'create', '--transaction-id', String(bought.id), '--amount', '400', '--reference', ref('own')])).code).toBe(0)
    const t = run(['refund', 'create', '--transaction-id', String(bought.reference)])
    await t.waitFor('(--amount); Enter for what is left of it, 6.00 AUD')
    t.type('2000')
    await t.waitFor('20.00 AUD is more than is left of it, 6.00 AUD (4.00 AUD of 10.00 AUD refunded for certain: 1 refund gw made for it)')
    expect(t.screen()).not.toContain('(--reference)')
    t.press('C-u')
    t.type('600')
    await t.waitFor('(--reference)')
    t.press('Enter')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).toMatch(/^Amount +-?6\.00 AUD$/m)

    const none = run(['refund', 'create', '--transaction-id', String(bought.reference), '--reference', ref('refund')])
    const refused = await none.waitFor(/\[exit \d+\]/)
    expect(refused).toContain('[exit 7]')
    expect(refused).toContain(`Error: Nothing is left of purchase ${bought.reference} to refund (10.00 AUD of 10.00 AUD refunded for certain: 2 refunds gw made for it): nothing was sent`)
    expect(refused).not.toContain('(--amount)')
  })

  it('refuses a mistyped flag before asking anything, suggesting the flag meant', async () => {
    const t = run(['purchase', 'create', '--ammount', '100'])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 2]')
    expect(screen).toContain('Error: unknown flag: --ammount')
    expect(screen).toContain('Hint: Did you mean --amount?')
    expect(screen).not.toContain('(--reference)')
    const badValue = run(['purchase', 'create', '--amount', 'ten'])
    const second = await badValue.waitFor(/\[exit \d+\]/)
    expect(second).toContain('[exit 2]')
    expect(second).toContain('--amount must be a positive whole number')
    expect(second).not.toContain('(--reference)')
  })

  it('offers a fixed set as a list: the event of gw sandbox trigger', async () => {
    const t = run(['sandbox', 'trigger'])
    await t.waitFor('card:expiring')
    t.press('Down')
    t.press('Enter')
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('✔ event to send (EVENT) charge:successful')
    // Chosen and sent: the local gateway answers that no web hook wants it (rejected, exit 7).
    expect(screen).toContain('[exit 7]')
    expect(screen).toContain('Merchant TEST has no web hook for charge:successful')
  })
})

describe('without a terminal to ask on', () => {
  it('fails naming every missing flag, as before, and help marks them asked if missing', async () => {
    const result = await sandbox.gw(['refund', 'create'])
    expect(result.code).toBe(2)
    // Without --amount a refund takes the purchase in full, without --reference one derived from the purchase's: neither is required.
    expect(result.stderr).toContain('Missing required flag transaction-id')
    for (const flag of ['amount', 'reference']) expect(result.stderr).not.toContain(`Missing required flag ${flag}`)
    const help = await sandbox.gw(['refund', 'create', '--help'])
    expect(help.stdout).toMatch(/--transaction-id=<value>\s+\(required; asked if missing\) id or reference of the\s+purchase to refund/)
  })

  it.each([
    ['with --no-input', ['--no-input'], {}],
    ['in CI', [], {CI: 'true'}],
  ])('does not ask %s, even on a terminal', async (_, extra, env) => {
    const t = run(['refund', 'create', '--amount', '100', '--reference', ref(), ...extra], {env})
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 2]')
    expect(screen).toContain('Missing required flag transaction-id')
    expect(screen).not.toContain('(--transaction-id)')
  })

  it('refuses --fields on a command that prints no records', async () => {
    const result = await sandbox.gw(['sandbox', 'stop', '--fields', 'id'])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe('Error: --json FIELDS and --fields pick the fields of records, and gw sandbox stop prints none\nHint: Leave the fields out.\n')
  })

  it('refuses a --fields name no record of the command has, listing those it has, before anything is sent', async () => {
    const armed = await armTrap(sandbox, ['GET', 'POST'])
    const typo = await sandbox.gw(['purchase', 'get', 'any', '--fields', 'id,Amount'])
    expect(typo.code).toBe(2)
    expect(typo.stdout).toBe('')
    expect(typo.stderr).toMatch(/^Error: --json FIELDS or --fields: no such field Amount\nHint: The fields of gw purchase get's records: transaction_date, reference, amount, message, card_number, id, card_holder, /)
    const money = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs(), '--fields', 'id,refrence'])
    expect(money.code).toBe(2)
    expect(await armed()).toBe(2)
    await sandbox.control('DELETE', '/_sandbox/faults')
    // Fields the live gateway adds beyond the interface may be picked.
    const bought = await purchase()
    const live = await sandbox.gw(['purchase', 'get', String(bought.id), '--fields', 'id,rrn,transaction_id'])
    expect(live.code, live.stderr).toBe(0)
    expect(live.json).toEqual({id: bought.id, rrn: String(bought.id).replaceAll('-', ''), transaction_id: bought.id})
  })
})

describe('records on a terminal', () => {
  it('shows several records as one table no wider than a 60-column terminal, the outcome kept, one short line for the card left out', async () => {
    const declined = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs(CARDS.declined), '--json'])
    expect(declined.code, declined.stderr).toBe(3)
    const records = [await purchase(), declined.json as Record<string, unknown>, await purchase({card: cardArgs(CARDS.mastercard)})]
    const ids = records.map((record) => String(record.id))
    const t = run(['purchase', 'get', ...ids], {width: 60, env: {NO_COLOR: '1'}})
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    const lines = screen.split('\n').filter((line) => line.trim() !== '')
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(60)
    expect(lines.filter((line) => line.startsWith('┌'))).toHaveLength(1)
    // What a person reads a purchase by stays whole: its reference, amount, outcome and the id the next command needs.
    expect(lines[1]).toMatch(/^│ Reference +│ Amount +│ Outcome +│ Id +│$/)
    for (const record of records) expect(screen).toContain(`│ ${record.reference} │ 10.00 AUD │ ${record.successful ? 'Approved' : record.message} `)
    expect(screen).toContain('\nCard left out to fit 60 columns (--fields picks columns).\n')
  })

  it('shows one record as a field/value list within 60 columns, and --json pretty-printed', async () => {
    const record = await purchase()
    const t = run(['purchase', 'get', String(record.id)], {width: 60})
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toMatch(/^Id +071-P-[A-Z0-9]{8}$/m)
    expect(screen).toMatch(/^Card +424242XXXXXX4242$/m)
    for (const line of screen.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(60)
    const json = run(['purchase', 'get', String(record.id), '--json', '--fields', 'id,amount'])
    expect(await json.waitFor(/\[exit \d+\]/)).toContain(`{\n  "id": "${record.id}",\n  "amount": 1000\n}`)
  })
})

describe('gateway text with terminal escapes', () => {
  const holder = `Jane${ESC}[2K\rApproved`
  const reference = () => `${ESC}]8;;https://evil.example${ESC}\\inv${ESC}]8;;${ESC}\\-${ref()}`

  it('is shown escaped in a record and a table, and exact in --json', async () => {
    const record = await purchase({card: ['--card-holder', holder, ...cardArgs().slice(2)]})
    expect(record.card_holder).toBe(holder)
    const t = run(['purchase', 'get', String(record.id)])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toMatch(/^Card holder +Jane\\x1B\[2K\\rApproved$/m)
    const other = await purchase({reference: reference()})
    const table = run(['purchase', 'get', String(record.id), String(other.id), '--fields', 'id,card_holder,reference'])
    const shown = await table.waitFor(/\[exit \d+\]/)
    expect(shown).toContain('Jane\\x1B[2K\\rApproved')
    expect(shown).toContain('\\x1B]8;;https://evil.example\\x1B\\inv\\x1B]8;;\\x1B\\-')
  })

  it('is shown escaped on stderr, and JSON on stdout keeps it exact', async () => {
    const hostile = reference()
    const result = await sandbox.gw(['purchase', 'get', hostile, `x${ESC}]0;pwned\u0007`])
    expect(result.code).toBe(5)
    expect(result.stderr).not.toContain(ESC)
    expect(result.stderr).toContain(`Error: No purchase has the id or reference \\x1B]8;;https://evil.example\\x1B\\inv\\x1B]8;;\\x1B\\-`)
    expect(result.stderr).toContain('Error: No purchase has the id or reference x\\x1B]0;pwned\\x07: ')
  })

  it('is shown escaped by gw listen, in its event lines and warnings', async () => {
    const listener = await startListen(['--no-register'], {env: sandbox.home})
    listeners.push(listener)
    expect(await listener.post(chargeSuccessful({purchase: `071-P-${ESC}[2K\rApproved`}))).toBe(200)
    expect(await listener.post({event: `card:${ESC}]0;pwned\u0007`, payload: []})).toBe(200)
    const lines = await listener.waitForLines(2)
    expect(listener.stdout()).not.toContain(ESC)
    expect(lines[0]).toContain('purchase 071-P-\\x1B[2K\\rApproved 10.00 AUD')
    expect(lines[1]).toContain('card:\\x1B]0;pwned\\x07  (unknown event)')
    await listener.waitForStderr('unknown event "card:\\x1B]0;pwned\\x07"')
    expect(listener.stderr()).not.toContain(ESC)
  })
})
