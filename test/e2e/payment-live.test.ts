import {describe, expect, it} from 'vitest'
import {ref, runGw, sharedSandbox} from './helpers.js'

// gw sandbox start --mode live registers profile local as a live profile in this home.
let live: NodeJS.ProcessEnv

sharedSandbox(
  (started) => {
    live = started.home
  },
  ['--mode', 'live'],
)

const debitArgs = () => ['direct-debit', 'create', '--amount', '4242', '--description', 'Rent', '--bsb', '123-456', '--account-name', 'Jane Citizen', '--account-number', '012345678', '--reference', ref('dd')]

describe('payment plans and direct debits on a live profile', () => {
  it('a debit needs --yes without a terminal (exit 2, nothing sent), and is sent with it', async () => {
    const refused = await runGw(debitArgs(), {env: live})
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toBe('Error: gw direct-debit create on a live profile must be confirmed, and there is no terminal to ask on: nothing was sent\nHint: Add --yes to confirm it.\n')
    const sent = await runGw([...debitArgs(), '--yes'], {env: live})
    expect(sent.code).toBe(0)
    expect(sent.json).toMatchObject({amount: 42.42, status: 'New'})
  })

  it('deleting a debit and stopping a plan need --yes without a terminal', async () => {
    for (const args of [['direct-debit', 'delete', '071-DD-ZZZZZZZZ'], ['payment-plan', 'suspend', '071-PP-ZZZZZZZZ'], ['payment-plan', 'cancel', '071-PP-ZZZZZZZZ']]) {
      const result = await runGw(args, {env: live})
      expect(result.code).toBe(2)
      expect(result.stderr).toBe(`Error: gw ${args[0]} ${args[1]} on a live profile must be confirmed, and there is no terminal to ask on: nothing was sent\nHint: Add --yes to confirm it.\n`)
    }
    const unknown = await runGw(['direct-debit', 'delete', '071-DD-ZZZZZZZZ', '--yes'], {env: live})
    expect(unknown.code).toBe(5)
  })

})
