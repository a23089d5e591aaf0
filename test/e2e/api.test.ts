import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {terminal} from './auth-helpers.js'
import {armTrap, CARD_JSON, CARDS, errorJson, isolatedHome, ref, runGw, type Sandbox, sharedSandbox} from './helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

const purchaseBody = (reference: string, number: string = CARDS.visa) =>
  JSON.stringify({card_holder: 'Jane Citizen', card_number: number, card_expiry: '12/2030', cvv: '123', amount: 1000, reference})

describe('gw api', () => {
  it("prints a GET's whole envelope exactly as the gateway sent it, query included", async () => {
    const plan = ref('plan')
    await sandbox.gw(['plan', 'create', '--name', 'Gold', '--amount', '2500', '--reference', plan, '--description', 'Gold tier'])
    const direct = await fetch(`${sandbox.url}/v1.0/plans.json?limit=1&page=1`, {headers: {authorization: 'Basic ' + Buffer.from('TEST:TEST').toString('base64')}})
    const expected = await direct.text()

    const result = await sandbox.gw(['api', 'GET', '/v1.0/plans.json', '--query', 'limit=1', '--query', 'page=1'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe(expected + '\n')
    expect(result.json).toMatchObject({successful: true, errors: [], test: true, records: 1, response: [{name: expect.any(String)}]})
  })

  it('a path without its leading slash and a method in lower case are the same request', async () => {
    const result = await sandbox.gw(['api', 'get', 'v1.0/plans.json', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({successful: true, test: true})
  })

  it("exits 5 on a 404 and still prints the gateway's error envelope", async () => {
    const result = await sandbox.gw(['api', 'GET', '/v1.0/purchases/no-such-purchase', '--json'])
    expect(result.code).toBe(5)
    expect(result.stdout).toBe('{"successful":false,"response":null,"errors":["Purchase not found"],"test":true}\n')
    const error = errorJson(result)
    expect(error).toMatchObject({error: {kind: 'not_found', status: 404, messages: ['Purchase not found'], exit_code: 5}})
  })

  it('sends a body from a file, and exits 7 on a rejection with the envelope on stdout', async () => {
    const file = join(sandbox.home.HOME!, 'plan.json')
    writeFileSync(file, JSON.stringify({name: 'No description', amount: 100, reference: ref('plan')}))
    const result = await sandbox.gw(['api', 'POST', '/v1.0/plans', '--data', `@${file}`])
    expect(result.code).toBe(7)
    expect(result.json).toMatchObject({successful: false, errors: ["Description can't be blank"]})
    expect(result.stderr).toContain("Error: Description can't be blank (HTTP 400")
  })

  it('exits 3 for a declined purchase, printing the record once, as sent', async () => {
    const reference = ref()
    const result = await sandbox.gw(['api', 'POST', '/v1.0/purchases', '--data', '-'], {stdin: purchaseBody(reference, CARDS.declined)})
    expect(result.code).toBe(3)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    expect(result.json).toMatchObject({successful: true, response: {reference, successful: false, message: 'Declined'}})
    expect(result.stderr).toContain('Error: Purchase declined: Declined')
  })

  it('refuses bad input with exit 2 before sending: no JSON, a body on a GET, a full URL, an unknown method', async () => {
    const cases: [string[], string][] = [
      [['api', 'POST', '/v1.0/plans', '--data', '{"name":'], 'Error: --data is not JSON'],
      [['api', 'GET', '/v1.0/plans.json', '--data', '{}'], 'Error: --data is a request body, and a GET has none'],
      [['api', 'GET', 'https://elsewhere.example/v1.0/plans.json'], 'Error: PATH must be a path such as /v1.0/plans.json, not a URL'],
      [['api', 'PATCH', '/v1.0/plans/1'], 'Error: METHOD must be one of GET, POST, PUT, DELETE, got "PATCH"'],
      [['api', 'GET', '/v1.0/plans.json', '--query', 'limit'], 'Error: --query must be KEY=VALUE, got "limit"'],
    ]
    for (const [args, message] of cases) {
      const result = await sandbox.gw(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toContain(message)
    }
  })

  it('never repeats a card number from a --data that is not JSON', async () => {
    const result = await sandbox.gw(['api', 'POST', '/v1.0/purchases', '--data', `{"card_number":"${CARDS.visa}",`])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('Error: --data is not JSON\n')
    expect(result.stderr).not.toContain(CARDS.visa)
  })

  it('reconciles a purchase whose answer was dropped by looking its reference up, and sends it once', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/purchases', action: 'drop-after'})
    const reference = ref()
    const result = await sandbox.gw(['api', 'POST', '/v1.0/purchases', '--data', purchaseBody(reference)])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain(`looking reference ${reference} up at the gateway`)
    expect(result.stderr).toContain('Found the purchase by its reference: the gateway processed it once.')
    // What is printed is the look-up's answer, the envelope around the one purchase.
    expect(result.json).toMatchObject({successful: true, test: true, response: {reference, successful: true, message: 'Approved', amount: 1000}})
  })

  it('exits 8 with the command to check when a dropped purchase cannot be found', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/purchases', action: 'drop-before'})
    const reference = ref()
    // The local gateway's processing window: 2 s.
    const result = await sandbox.gw(['api', 'POST', '/v1.0/purchases', '--data', purchaseBody(reference)])
    expect(result.code).toBe(8)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(new RegExp(`\nThe gateway has no purchase with reference ${reference} yet, and may still be processing it: looking again for up to [12] s\\.\n`))
    expect(result.stderr).toContain(`Do not resend it until you have checked what the gateway has: gw purchase get ${reference}`)
  })

  it('does not retry a write to a path gw does not know when its answer is lost: exit 1, check first', async () => {
    await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: '/v1.0/unknown_things', action: 'drop-after'})
    const result = await sandbox.gw(['api', 'POST', '/v1.0/unknown_things', '--data', '{}', '--verbose'])
    expect(result.code).toBe(1)
    expect(result.stderr.match(/^> POST /gm)).toHaveLength(1)
    expect(result.stderr).toContain('Hint: The request may have reached the gateway; check before repeating it.')
  })

  it('--verbose leaves out every key holding cvv or cvc, as gw api -f writes one, and masks a card number under any key', async () => {
    const result = await sandbox.gw(['api', 'POST', '/v1.0/credit_cards', '-f', 'card_holder=Jane', '-f', `Card_Number=${CARDS.visa}`, '-f', 'card_expiry=12/2030', '-f', 'card[cvv]=731', '-f', 'Card_CVC2=842', '-f', 'note=4242_4242_4242_4242', '--verbose'])
    const sent = result.stderr.split('\n').find((line) => line.startsWith('> POST '))
    expect(sent).toBe(`> POST ${sandbox.url}/v1.0/credit_cards {"card_holder":"Jane","Card_Number":"424242XXXXXX4242","card_expiry":"12/2030","note":"424242XXXXXX4242"}`)
    // The CVVs as values of their own: ids and tokens the gateway makes may hold the same digits among others.
    expect(result.stdout + result.stderr).not.toMatch(/\b(731|842)\b|4242424242424242/)
  })

  it('a read-only profile refuses a write with exit 6, a path gw does not know included, and still reads', async () => {
    const home = isolatedHome()
    const login = await runGw(['login', '--profile', 'support', '--base-url', sandbox.url, '--username', 'TEST', '--token-stdin', '--read-only', '--insecure-storage', '--environment', 'sandbox'], {env: home, stdin: 'TEST'})
    expect(login.code, login.stderr).toBe(0)
    const armed = await armTrap(sandbox, ['POST', 'PUT', 'DELETE'])
    const writes: [string, string, string[]][] = [
      ['POST', '/v1.0/purchases', ['--data', purchaseBody(ref())]],
      ['DELETE', '/v1.0/customers/071-C-ZZZZZZZZ.json', []],
      ['PUT', '/v1.0/whatever', ['--data', '{}']],
    ]
    for (const [method, path, extra] of writes) {
      const result = await runGw(['api', method, path, ...extra], {env: home})
      expect(result.code, `${method} ${path}`).toBe(6)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain(`Error: Profile support is read-only and gw api ${method} ${path} changes something at the gateway: nothing was sent\n`)
    }
    expect(await armed()).toBe(3)
    await sandbox.control('DELETE', '/_sandbox/faults')
    const read = await runGw(['api', 'GET', '/v1.0/plans.json'], {env: home})
    expect(read.code, read.stderr).toBe(0)
  })
})

describe('gw api on a live profile', () => {
  let live: Sandbox
  sharedSandbox((started) => void (live = started), ['--mode', 'live'])

  it('needs --yes for a purchase or a delete without a terminal, and sends nothing', async () => {
    for (const args of [
      ['api', 'POST', '/v1.0/purchases', '--data', '-'],
      ['api', 'DELETE', '/v1.0/customers/071-C-ZZZZZZZZ.json'],
    ]) {
      const result = await runGw(args, {env: {...live.home, GW_PROFILE: 'local'}, stdin: purchaseBody(ref())})
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toContain(`gw api ${args[1]} ${args[2]} on a live profile must be confirmed, and there is no terminal to ask on: nothing was sent`)
    }
  })

  it('refuses a card number in an inline --data', async () => {
    const result = await runGw(['api', 'POST', '/v1.0/purchases', '--data', purchaseBody(ref()), '--yes'], {env: {...live.home, GW_PROFILE: 'local'}})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('On a live profile a card number or CVV is never taken from the command line')
    expect(result.stderr).not.toContain(CARDS.visa)
  })

  it('refuses a card number in -f or -F whatever its key, in any text, however grouped, or a CVV under any key holding cvv; nothing sent', async () => {
    const env = {...live.home, GW_PROFILE: 'local'}
    for (const fields of [
      ['-f', `Card_Number=${CARDS.visa}`],
      ['-f', `note=order 4242.4242.4242.4242`],
      ['-f', `reference=ord-${CARDS.visa}`],
      ['-F', `whatever=${CARDS.visa}`],
      ['-f', 'card[cvv]=731'],
      ['-f', 'PAN=1'],
    ]) {
      const result = await runGw(['api', 'POST', '/v1.0/purchases', '-F', 'amount=1000', ...fields, '--yes'], {env})
      expect(result.code, fields.join(' ')).toBe(2)
      expect(result.stderr).toContain('On a live profile a card number or CVV is never taken from the command line (it lands in shell history and ps): nothing was sent')
      expect(result.stderr).not.toMatch(/4242424242424242|4242\.4242|731/)
    }
    // A GET's fields are its query string, from the command line all the same.
    const query = await runGw(['api', 'GET', '/v1.0/purchases', '-f', `Reference=${CARDS.visa}`], {env})
    expect(query.code).toBe(2)
    expect(query.stderr).toContain('never taken from the command line')
  })

  it('asks on a terminal for the id of what a DELETE removes, and deletes once it is typed', async () => {
    const env = {...live.home, GW_PROFILE: 'local'}
    const created = await runGw(['customer', 'create', '--first-name', 'Jane', '--last-name', 'Citizen', '--reference', ref('cust'), '--email', 'jane@example.com', '--card', '-', '--json'], {env, stdin: CARD_JSON})
    const id = (created.json as {id: string}).id
    const t = terminal(['api', 'DELETE', `/v1.0/customers/${id}.json`], env)
    try {
      await t.waitFor(`LIVE: type the id (${id}) to confirm gw api DELETE /v1.0/customers/${id}.json`)
      t.type(id)
      const screen = await t.waitFor('[exit 0]')
      // At a terminal, pretty-printed as gh api prints it.
      expect(screen).toContain(`"id": "${id}"`)
    } finally {
      t.close()
    }
    expect((await runGw(['customer', 'get', id], {env})).code).toBe(5)
  })

  it('tells an extension from an increment by its body: PUT {"extend":true} needs no confirmation, PUT {"amount":N} does', async () => {
    const env = {...live.home, GW_PROFILE: 'local'}
    const body = JSON.stringify({...JSON.parse(purchaseBody(ref())), capture: false})
    const authorized = await runGw(['api', 'POST', '/v1.0/purchases', '--data', '-', '--yes'], {env, stdin: body})
    expect(authorized.code, authorized.stderr).toBe(0)
    const id = (authorized.json as {response: {id: string}}).response.id
    const extended = await runGw(['api', 'PUT', `/v1.0/purchases/${id}`, '--data', '{"extend":true}'], {env})
    expect(extended.code, extended.stderr).toBe(0)
    expect(extended.json).toMatchObject({successful: true, response: {id, amount: 1000}})
    const incremented = await runGw(['api', 'PUT', `/v1.0/purchases/${id}`, '--data', '{"amount":1500}'], {env})
    expect(incremented.code).toBe(2)
    expect(incremented.stderr).toContain(`gw api PUT /v1.0/purchases/${id} on a live profile must be confirmed, and there is no terminal to ask on: nothing was sent`)
  })

  it('sends a purchase from stdin with --yes', async () => {
    const reference = ref()
    const result = await runGw(['api', 'POST', '/v1.0/purchases', '--data', '-', '--yes'], {env: {...live.home, GW_PROFILE: 'local'}, stdin: purchaseBody(reference)})
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({successful: true, test: false, response: {reference, message: 'Approved'}})
  })
})
