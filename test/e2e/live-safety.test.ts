import {describe, expect, it} from 'vitest'
import {armTrap, CARD_JSON, cardArgs, CARDS, isolatedHome, ref, runGw, type Sandbox, sharedSandbox, startSandbox} from './helpers.js'

let sandbox: Sandbox
// gw sandbox start --mode live registers profile local as a live profile in this home.
let live: NodeJS.ProcessEnv

sharedSandbox(
  (started) => {
    sandbox = started
    live = started.home
  },
  ['--mode', 'live'],
)

describe('a live profile', () => {
  it('refuses --card-number and --cvv on the command line, exit 2, before any request', async () => {
    const armed = await armTrap(sandbox, ['GET', 'POST'])
    const result = await runGw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs(), '--yes'], {env: live})
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      'Error: --card-number and --cvv cannot be given on the command line with a live profile: arguments stay in shell history and show in ps\n' +
        'Hint: Leave them out and gw asks on a terminal, masked; or give the card as JSON on stdin, from a file or another program (not echo, which is history too): gw purchase create ... --card - < card.json, shaped {"card_holder":"NAME","card_number":"NUMBER","card_expiry":"MM/YYYY","cvv":"CVV"}\n',
    )
    const tokenize = await runGw(['card', 'tokenize', ...cardArgs()], {env: live})
    expect(tokenize.code).toBe(2)
    expect(tokenize.stderr).toContain('--card-number and --cvv cannot be given on the command line with a live profile')
    expect(await armed()).toBe(2)
  })

  it('refuses them too when GW_ENVIRONMENT=live marks environment credentials as live', async () => {
    const result = await runGw(['card', 'tokenize', ...cardArgs()], {env: {...isolatedHome(), GW_BASE_URL: sandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'live'}})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--card-number and --cvv cannot be given on the command line with a live profile')
  })

  it('takes the card as JSON on stdin with --card -', async () => {
    const reference = ref()
    const result = await runGw(['purchase', 'create', '--amount', '1000', '--reference', reference, '--card', '-', '--yes', '--json'], {env: live, stdin: CARD_JSON})
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({successful: true, amount: 1000, reference, card_number: '424242XXXXXX4242', card_holder: 'Jane Citizen'})
    const tokenized = await runGw(['card', 'tokenize', '--card', '-', '--json'], {env: live, stdin: CARD_JSON})
    expect(tokenized.code, tokenized.stderr).toBe(0)
    expect(tokenized.json).toMatchObject({card_holder: 'Jane Citizen', card_number: '424242XXXXXX4242'})
  })

  it('needs --yes to move money without a terminal: exit 2 and nothing sent', async () => {
    const armed = await armTrap(sandbox, ['GET', 'POST'])
    const reference = ref()
    const purchase = await runGw(['purchase', 'create', '--amount', '1000', '--reference', reference, '--card', '-'], {env: live, stdin: CARD_JSON})
    expect(purchase.code).toBe(2)
    expect(purchase.stderr).toBe('Error: gw purchase create on a live profile must be confirmed, and there is no terminal to ask on: nothing was sent\nHint: Add --yes to confirm it.\n')
    const refund = await runGw(['refund', 'create', '--transaction-id', 'any', '--amount', '100', '--reference', ref()], {env: live})
    expect(refund.code).toBe(2)
    expect(refund.stderr).toContain('Error: gw refund create on a live profile must be confirmed')
    expect(await armed()).toBe(2)
  })

  it('keeps card data out of argv for customers too, and takes their card from stdin', async () => {
    const customer = ['customer', 'create', '--first-name', 'Jane', '--last-name', 'Citizen', '--reference', ref('cust'), '--email', 'jane@example.com']
    const refused = await runGw([...customer, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123'], {env: live})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--card-number and --cvv cannot be given on the command line with a live profile')
    const created = await runGw([...customer, '--card', '-', '--json'], {env: live, stdin: CARD_JSON})
    expect(created.code, created.stderr).toBe(0)
    expect(created.json).toMatchObject({first_name: 'Jane'})
    const update = await runGw(['customer', 'update', (created.json as {id: string}).id, '--cvv', '123', '--card-number', CARDS.mastercard, '--card-expiry', '05/2031'], {env: live})
    expect(update.code).toBe(2)
    expect(update.stderr).toContain('cannot be given on the command line with a live profile')
  })

  it('needs --yes to delete a customer or change a subscription without a terminal', async () => {
    const created = await runGw(['customer', 'create', '--first-name', 'Jane', '--last-name', 'Citizen', '--reference', ref('cust'), '--email', 'jane@example.com', '--card', '-', '--json'], {env: live, stdin: CARD_JSON})
    const id = (created.json as {id: string}).id
    for (const args of [['customer', 'delete', id], ['subscription', 'update', '071-S-ZZZZZZZZ', '--inactive']]) {
      const result = await runGw(args, {env: live})
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toContain(`Error: gw ${args[0]} ${args[1]} on a live profile must be confirmed, and there is no terminal to ask on: nothing was sent`)
    }
    expect((await runGw(['customer', 'get', id], {env: live})).code).toBe(0)
    const deleted = await runGw(['customer', 'delete', id, '--yes', '--json'], {env: live})
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.json).toMatchObject({id})
  })

  it('a sandbox profile asks for no confirmation and takes card flags as before', async () => {
    const local = await startSandbox()
    try {
      const result = await local.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs(), '--json'])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stderr).toBe('')
    } finally {
      await local.stop()
    }
  })

  it('credentials from the environment at this machine are taken for the sandbox, and the live answer stops gw (exit 6)', async () => {
    const result = await sandbox.gw(['purchase', 'get', 'any-1', 'any-2', 'any-3'], {env: {GW_ENVIRONMENT: undefined}})
    expect(result.code).toBe(6)
    expect(result.stderr).toContain(`Error: The gateway at ${sandbox.url} answered in live mode, but gw takes it for the sandbox: nothing more is sent`)
    expect(result.stderr).toContain('Hint: Check the base URL of the profile in force (gw status). If it is meant to be the live gateway, log in again with gw login --environment live')
  })
})

describe('a read-only profile', () => {
  it('refuses every command that writes with exit 6 before any request, and still reads', async () => {
    const home = isolatedHome()
    const login = await runGw(['login', '--profile', 'support', '--base-url', sandbox.url, '--username', 'TEST', '--token-stdin', '--read-only', '--insecure-storage', '--environment', 'live', '--activate'], {env: home, stdin: 'TEST'})
    expect(login.code, login.stderr).toBe(0)
    const created = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card', '-', '--yes', '--json'], {stdin: CARD_JSON})
    const purchaseId = (created.json as {id: string}).id

    const armed = await armTrap(sandbox, ['GET', 'POST'])
    const writes: string[][] = [
      ['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card', '-', '--yes'],
      ['refund', 'create', '--transaction-id', purchaseId, '--amount', '100', '--reference', ref(), '--yes'],
      ['card', 'tokenize', '--card', '-'],
      ['card', 'update', 'tok_any', '--alias', 'x'],
      ['plan', 'create', '--name', 'Gold', '--amount', '1000', '--reference', ref('plan'), '--description', 'Gold'],
      ['customer', 'delete', '071-C-ZZZZZZZZ', '--yes'],
      ['subscription', 'update', '071-S-ZZZZZZZZ', '--active', '--yes'],
    ]
    for (const args of writes) {
      const result = await runGw(args, {env: home, stdin: CARD_JSON})
      expect(result.code, args.join(' ')).toBe(6)
      expect(result.stderr).toContain(`Error: Profile support is read-only and gw ${args[0]} ${args[1]} changes something at the gateway: nothing was sent\n`)
    }
    expect(await armed()).toBe(2)
    await sandbox.control('DELETE', '/_sandbox/faults')
    const read = await runGw(['purchase', 'get', purchaseId, '--json'], {env: home})
    expect(read.code, read.stderr).toBe(0)
    expect(read.json).toMatchObject({id: purchaseId})
  })
})

describe('a batch on a live profile', () => {
  it('is confirmed once for all its rows: without a terminal only --yes sends it, and then no row asks again', async () => {
    const tokenized = await runGw(['card', 'tokenize', '--card', '-', '--json'], {env: live, stdin: CARD_JSON})
    const token = (tokenized.json as {token: string}).token
    const prefix = ref('live-batch')
    const csv = `card_token,amount,reference\n${token},1000,${prefix}-1\n${token},2500,${prefix}-2\n`

    const armed = await armTrap(sandbox, ['GET', 'POST'])
    const refused = await runGw(['purchase', 'create', '--input', '-'], {env: live, stdin: csv})
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain('Error: gw purchase create --input on a live profile must be confirmed, and there is no terminal to ask on: nothing was sent\n')
    expect(refused.stderr).toContain('Hint: Check the batch with --dry-run, then add --yes to send 2 purchases (35.00 AUD).\n')
    expect(await armed()).toBe(2)
    await sandbox.control('DELETE', '/_sandbox/faults')

    const sent = await runGw(['purchase', 'create', '--input', '-', '--yes'], {env: live, stdin: csv})
    expect(sent.code, sent.stderr).toBe(0)
    expect(sent.stdout.trim().split('\n').map((line) => (JSON.parse(line) as {status: string}).status)).toEqual(['approved', 'approved'])
  })
})
