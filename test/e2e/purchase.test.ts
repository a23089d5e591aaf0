import {expect, it} from 'vitest'
import {ANSWERS, cardArgs, CARDS, describeInBothDialects, describeOnce, errorJson, ref, type Sandbox, sharedSandbox} from './helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

const purchase = (reference: string, amount = '1000', extra: string[] = cardArgs()) =>
  sandbox.gw(['purchase', 'create', '--amount', amount, '--reference', reference, ...extra, '--json'])

describeInBothDialects('gw purchase create', () => {
  it('prints the approved purchase exactly as the gateway sent it and exits 0', async () => {
    const reference = ref()
    const result = await purchase(reference)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const record = result.json as Record<string, unknown>
    expect(record).toMatchObject({
      amount: 1000,
      decimal_amount: 10,
      currency: 'AUD',
      successful: true,
      message: 'Approved',
      reference,
      card_holder: 'Jane Citizen',
      card_number: '424242XXXXXX4242',
      card_expiry: '2030-12-31',
    })
    // No recorded purchase made through the API carries `source` (the contract: Recurring for subscriptions' charges).
    expect(record).not.toHaveProperty('source')
    expect(record.id).toMatch(/^071-P-[A-Z0-9]{8}$/)
    expect(record.card_token).toMatch(/^[a-z0-9]{20}$/)
    expect(record.transaction_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
    expect(result.stdout).not.toContain(CARDS.visa)
    expect(result.stdout).not.toContain('"cvv"')
  })

  it('prints the record as one JSON line to a pipe without --json, the number masked, no colour', async () => {
    const reference = ref()
    const result = await sandbox.gw(['purchase', 'create', '--amount', '2500', '--currency', 'nzd', '--reference', reference, ...cardArgs()])
    expect(result.code).toBe(0)
    expect(result.stdout.trimEnd()).not.toContain('\n')
    expect(result.json).toMatchObject({amount: 2500, currency: 'NZD', reference, successful: true, message: 'Approved', card_number: '424242XXXXXX4242'})
    expect(result.stdout).not.toContain(CARDS.visa)
    expect(result.stdout).not.toContain('\u001B[')
  })

  it('GW_FORCE_TTY prints for a terminal in a pipe, at the width it names', async () => {
    const reference = ref()
    const created = await sandbox.gw(['purchase', 'create', '--amount', '2500', '--reference', reference, ...cardArgs()])
    const forced = await sandbox.gw(['purchase', 'get', reference], {env: {GW_FORCE_TTY: '60', NO_COLOR: '1'}})
    expect(forced.code).toBe(0)
    expect(forced.stdout).toMatch(/^Date +\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/m)
    expect(forced.stdout).toMatch(/^Id +071-P-/m)
    expect(forced.stdout).toMatch(new RegExp(`^Reference +${reference}$`, 'm'))
    expect(Math.max(...forced.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(60)
    const several = await sandbox.gw(['purchase', 'get', reference, (created.json as {id: string}).id], {env: {GW_FORCE_TTY: 'yes', NO_COLOR: '1'}})
    expect(several.stdout).toContain('┌')
    // 1 is a switch, not a width: the table takes the terminal's (COLUMNS), as a table 20 wide would not.
    const switched = await sandbox.gw(['purchase', 'get', reference, (created.json as {id: string}).id], {env: {GW_FORCE_TTY: '1', COLUMNS: '100', NO_COLOR: '1'}})
    const widest = Math.max(...switched.stdout.split('\n').map((line) => line.length))
    expect(switched.stdout).toContain('┌')
    expect(widest).toBeGreaterThan(40)
    expect(widest).toBeLessThanOrEqual(100)
  })

  it('prints --json to a pipe as one compact line too, so >> log.ndjson stays NDJSON', async () => {
    const result = await sandbox.gw(['purchase', 'create', '--amount', '100', '--reference', ref(), ...cardArgs(), '--json'])
    expect(result.code).toBe(0)
    // One line; the gateway's numbers as it wrote them (decimal_amount 1.0 in the contract's answers).
    expect(result.stdout.indexOf('\n')).toBe(result.stdout.length - 1)
    expect(result.stdout).toContain(`"amount":100,`)
  })

  it('exits 3 on a decline by response code, printing the record and the reason', async () => {
    const result = await sandbox.gw(['purchase', 'create', '--amount', '10051', '--reference', ref(), ...cardArgs(), '--json'])
    expect(result.code).toBe(3)
    expect(result.json).toMatchObject({successful: false, message: 'Insufficient Funds', amount: 10051})
    expect((result.json as {id: string}).id).toMatch(/^071-P-/)
    const lines = result.stderr.trim().split('\n')
    expect(lines[0]).toMatch(/^Error: Purchase declined: Insufficient Funds \(HTTP 200, request-id [0-9a-f-]{36}\)$/)
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({error: {kind: 'declined', status: 200, messages: ['Insufficient Funds'], exit_code: 3}})
  })

  it.each([
    ['10005', 'Refer to Card Issuer'],
    ['10012', 'Invalid Transaction'],
    ['10054', 'Expired Card'],
    ['10090', 'Declined - Please Retry'],
    ['10077', 'Declined'],
  ])('declines amount %s with the response code message %j', async (amount, message) => {
    const result = await purchase(ref(), amount)
    expect(result.code).toBe(3)
    expect(result.json).toMatchObject({successful: false, message, amount: Number(amount)})
    expect(result.stderr).toContain(`Error: Purchase declined: ${message} (HTTP 200`)
  })

  it('approves the approving response codes', async () => {
    const result = await purchase(ref(), '10008')
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({successful: true, message: 'Approved'})
  })

  it('exits 3 for the declining test card', async () => {
    const result = await purchase(ref(), '1000', cardArgs(CARDS.declined))
    expect(result.code).toBe(3)
    expect(result.json).toMatchObject({successful: false, message: 'Declined', card_number: '455701XXXXXX8902'})
  })

  it('a reference used twice: the same purchase is reported as done earlier, another exits 7 naming both', async () => {
    const reference = ref()
    const first = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--json'])
    expect(first.code).toBe(0)
    const same = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--json'])
    expect(same.code).toBe(0)
    expect(same.json).toEqual(first.json)
    expect(same.stderr).toContain(`Reference ${reference} was taken by this same purchase (${(first.json as {id: string}).id}), made earlier: the gateway refused this request for it, and nothing more was made.`)
    const other = await sandbox.gw(['purchase', 'create', '--amount', '2000', '--reference', reference, ...cardArgs(CARDS.mastercard)])
    expect(other.code).toBe(7)
    expect(other.stdout).toBe('')
    expect(other.stderr).toContain(`Error: Reference ${reference} is already taken by another purchase ${(first.json as {id: string}).id}: amount: sent 2000, found 1000; card_number: sent "512345XXXXXX2346", found "424242XXXXXX4242". The gateway refused this request under it: nothing was made.`)
  })

  it('exits 7 for a currency the merchant cannot take', async () => {
    const result = await purchase(ref(), '1000', [...cardArgs(), '--currency', 'XYZ'])
    expect(result.code).toBe(7)
    expect(result.stderr).toContain('Currency XYZ is not valid for this merchant. Permitted currencies: ')
  })

  it('charges a stored card by token and by alias', async () => {
    const card = await sandbox.gw(['card', 'tokenize', ...cardArgs(CARDS.mastercard, '05/2031'), '--json'])
    expect(card.code).toBe(0)
    const token = (card.json as {token: string}).token
    const byToken = await purchase(ref(), '1500', ['--card-token', token])
    expect(byToken.code).toBe(0)
    expect(byToken.json).toMatchObject({card_token: token, card_number: '512345XXXXXX2346', amount: 1500})
    const alias = ref('alias')
    expect((await sandbox.gw(['card', 'update', token, '--alias', alias])).code).toBe(0)
    const byAlias = await purchase(ref(), '1600', ['--card-token', alias, '--cvv', '123'])
    expect(byAlias.code).toBe(0)
    expect(byAlias.json).toMatchObject({card_token: token, amount: 1600})
  })

  it('exits 7 for an unknown card token', async () => {
    const result = await purchase(ref(), '1000', ['--card-token', 'nosuchtoken'])
    expect(result.code).toBe(7)
    expect(result.stderr).toContain('Error: Card *******oken could not be found (HTTP 400')
    expect(result.stderr).not.toContain('nosuchtoken')
  })
})

// Refused by gw itself: no answer of a gateway's is read.
describeOnce('gw purchase create: what it refuses before sending anything', () => {
  it.each([
    [['--amount', '10.50'], '--amount must be a positive whole number'],
    [['--amount', '0'], '--amount must be greater than 0'],
    [['--reference', '  '], '--reference must not be blank'],
    [['--card-number', '4242424242424241'], '--card-number fails the Luhn check'],
    [['--card-expiry', '01/2020'], '--card-expiry 01/2020 is in the past'],
    [['--card-expiry', '2030-12'], '--card-expiry must be MM/YY or MM/YYYY'],
    [['--card-expiry', '12/3'], '--card-expiry must be MM/YY or MM/YYYY'],
    [['--cvv', '12'], '--cvv must be 3 or 4 digits'],
  ])('validates %j locally: exit 2, nothing sent', async (override, message) => {
    const reference = ref()
    const args: Record<string, string> = {'--amount': '1000', '--reference': reference, '--card-holder': 'Jane Citizen', '--card-number': CARDS.visa, '--card-expiry': '12/2030', '--cvv': '123'}
    args[override[0]!] = override[1]!
    const result = await sandbox.gw(['purchase', 'create', ...Object.entries(args).flat()])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`Error: ${message}`)
    expect(result.stderr).not.toContain('    at ')
    expect((await sandbox.gw(['purchase', 'get', reference])).code).toBe(5)
  })

  it('needs the card or a token', async () => {
    const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref()])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: give the card: --card-token, or --card-holder, --card-number and --card-expiry')
  })
})

// An expiry as card forms take it, MM/YY read as 20YY, wherever gw takes one; the gateway gets MM/YYYY.
describeOnce('an expiry typed MM/YY', () => {
  it('is taken by purchase create, card tokenize and update, customer create and update, and --card -', async () => {
    const bought = await purchase(ref(), '1000', cardArgs(CARDS.visa, '12/30'))
    expect(bought.code, bought.stderr).toBe(0)
    expect(bought.json).toMatchObject({card_expiry: '2030-12-31', successful: true})

    const piped = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card', '-', '--json'], {stdin: JSON.stringify({card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '1/31', cvv: '123'})})
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.json).toMatchObject({card_expiry: '2031-01-31'})

    const card = await sandbox.gw(['card', 'tokenize', ...cardArgs(CARDS.mastercard, '02/32'), '--json'])
    expect(card.code, card.stderr).toBe(0)
    expect(card.json).toMatchObject({card_expiry: '2032-02-29'})
    const updated = await sandbox.gw(['card', 'update', (card.json as {token: string}).token, '--card-expiry', '9/33', '--json'])
    expect(updated.code, updated.stderr).toBe(0)
    expect(updated.json).toMatchObject({card_expiry: '2033-09-30'})

    const reference = ref()
    const customerCard = ['--card-number', CARDS.visa, '--card-expiry', '12/30', '--cvv', '123']
    const customer = await sandbox.gw(['customer', 'create', '--first-name', 'Jane', '--last-name', 'Citizen', '--reference', reference, '--email', 'jane@example.com', ...customerCard, '--json'])
    expect(customer.code, customer.stderr).toBe(0)
    const id = (customer.json as {id: string}).id
    const moved = await sandbox.gw(['customer', 'update', id, '--card-number', CARDS.mastercard, '--card-expiry', '07/34', '--cvv', '123', '--json'])
    expect(moved.code, moved.stderr).toBe(0)
    const token = (moved.json as {card_token: string}).card_token
    expect((await sandbox.gw(['card', 'get', token, '--json'])).json).toMatchObject({card_expiry: '2034-07-31'})
  })
})

describeInBothDialects('gw purchase get', () => {
  it('finds a purchase by id and by reference', async () => {
    const reference = ref()
    const created = (await purchase(reference)).json as {id: string}
    const byId = await sandbox.gw(['purchase', 'get', created.id, '--json'])
    expect(byId.code).toBe(0)
    expect(byId.json).toEqual(created)
    const byReference = await sandbox.gw(['purchase', 'get', reference, '--json'])
    expect(byReference.json).toEqual(created)
  })

  it('prints one JSON object per line for several ids, reports a missing one and exits 5', async () => {
    const first = (await purchase(ref())).json as {id: string}
    const second = (await purchase(ref())).json as {id: string}
    const result = await sandbox.gw(['purchase', 'get', first.id, 'no-such-ref', second.id])
    expect(result.code).toBe(5)
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as {id: string})
    expect(lines.map((record) => record.id)).toEqual([first.id, second.id])
    expect(result.stderr).toContain(`Error: No purchase has the id or reference no-such-ref: ${ANSWERS.purchaseNotFound} (HTTP 404`)
    expect(result.stderr).toContain('1 of 3 look-ups failed')
  })

  it('reads ids from stdin with -', async () => {
    const first = (await purchase(ref())).json as {id: string}
    const second = (await purchase(ref())).json as {id: string}
    const result = await sandbox.gw(['purchase', 'get', '-'], {stdin: `${first.id}\n\n  ${second.id}  \n`})
    expect(result.code).toBe(0)
    expect(result.stdout.trim().split('\n').map((line) => (JSON.parse(line) as {id: string}).id)).toEqual([first.id, second.id])
  })

  it('exits 5 for an unknown purchase', async () => {
    const result = await sandbox.gw(['purchase', 'get', '071-P-ZZZZZZZZ', '--json'])
    expect(result.code).toBe(5)
    expect(result.stdout).toBe('')
    expect(errorJson(result)).toMatchObject({error: {kind: 'not_found', status: 404, messages: [ANSWERS.purchaseNotFound]}})
  })

  it('exits 4 with the gateway message for bad credentials', async () => {
    const result = await sandbox.gw(['purchase', 'get', 'anything'], {env: {GW_TOKEN: 'wrong'}})
    expect(result.code).toBe(4)
    expect(result.stderr).toContain('Error: Incorrect Username or Token (HTTP 401')
  })
})
