import {expect, it} from 'vitest'
import {writeTemp} from './batch-helpers.js'
import {CARDS, describeInBothDialects, ref, type Sandbox, sharedSandbox} from './helpers.js'

// Money printed one way: a batch's summary, a report's table and a record's field/value
// list write 22295.00 CHF alike, never with thousands apart. Against each dialect of the local
// gateway; Swiss francs, which nothing else this file makes uses.
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

describeInBothDialects('money, one way everywhere', () => {
  it('a batch summary, gw report and a purchase at a terminal: 22295.00 CHF', async () => {
    const card = await sandbox.gw(['card', 'tokenize', '--card-holder', 'Jane Citizen', '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123', '--json'])
    expect(card.code, card.stderr).toBe(0)
    const token = (card.json as {token: string}).token
    const [a, b] = [ref('big'), ref('big')]
    const file = writeTemp('big.csv', `card_token,amount,reference,currency\n${token},1500000,${a},CHF\n${token},729500,${b},CHF\n`)
    const batch = await sandbox.gw(['purchase', 'create', '--input', file])
    expect(batch.code, batch.stderr).toBe(0)
    expect(batch.stderr).toMatch(/\n {2}approved 22295\.00 CHF\n/)
    const atTerminal = {env: {GW_FORCE_TTY: '200', NO_COLOR: '1'}}
    const report = await sandbox.gw(['report', '--on', 'today'], atTerminal)
    expect(report.code, report.stderr).toBe(0)
    expect(report.stdout).toMatch(/│ CHF +│.*22295\.00 CHF/)
    const one = await sandbox.gw(['purchase', 'get', a], atTerminal)
    expect(one.stdout).toMatch(/^Amount +15000\.00 CHF$/m)
    for (const text of [batch.stderr, report.stdout, one.stdout]) expect(text).not.toMatch(/\d,\d{3}\.\d\d/)
  })
})
