import {describe, expect, it} from 'vitest'
import {cardArgs, CARDS, ref, type Sandbox, sharedSandbox} from './helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

describe('gw card', () => {
  it('tokenizes a card: token, masked number, end-of-month expiry, no CVV', async () => {
    const result = await sandbox.gw(['card', 'tokenize', ...cardArgs(CARDS.mastercard, '02/2032'), '--json'])
    expect(result.code).toBe(0)
    const card = result.json as Record<string, unknown>
    expect(card).toMatchObject({card_holder: 'Jane Citizen', card_number: '512345XXXXXX2346', card_expiry: '2032-02-29', transaction_count: 0, alias: null})
    expect(card.token).toMatch(/^[a-z0-9]{20}$/)
    expect(card).not.toHaveProperty('cvv')
    expect(result.stdout).not.toContain('5123456789012346')
  })

  it('looks a card up by token, assigns an alias, updates the expiry and keeps the token', async () => {
    const token = ((await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])).json as {token: string}).token
    const alias = ref('customer')
    const aliased = await sandbox.gw(['card', 'update', token, '--alias', alias, '--json'])
    expect(aliased.code).toBe(0)
    expect(aliased.json).toMatchObject({token, alias})
    const renewed = await sandbox.gw(['card', 'update', alias, '--card-expiry', '09/2033', '--json'])
    expect(renewed.json).toMatchObject({token, alias, card_expiry: '2033-09-30'})
    const fetched = await sandbox.gw(['card', 'get', alias, '--json'])
    expect(fetched.json).toEqual(renewed.json)
  })

  it('prints a card as a table on a plain stdout', async () => {
    const token = ((await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])).json as {token: string}).token
    const result = await sandbox.gw(['card', 'get', token])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('424242XXXXXX4242')
    expect(result.stdout).toContain('2030-12-31')
  })

  it('exits 5 for an unknown token and 2 for an update with nothing to change', async () => {
    const missing = await sandbox.gw(['card', 'get', 'nosuchtoken'])
    expect(missing.code).toBe(5)
    expect(missing.stderr).toContain('Error: No card has the token or alias *******oken: Record not found (HTTP 404')
    expect(missing.stderr).toContain('Hint: gw card list finds cards, newest first, by --card and --holder.')
    const nothing = await sandbox.gw(['card', 'update', 'sometoken'])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('--alias')
  })
})
