import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {forward, type MisbehavingGateway, misbehavingGateway} from '../misbehaving-gateway.js'
import {rowsOf, writeTemp} from './batch-helpers.js'
import {cardArgs, CARDS, errorJson, isolatedHome, purchasedAtGateway, ref, runGw, type RunOptions, type Sandbox, sharedSandbox, startSandbox} from './helpers.js'
import {wholeCardNumbersIn} from './card-number-helpers.js'
import {chargeSuccessful, startListen} from './listen-helpers.js'
import {journalText} from '../journal-text.js'

// Card data gw shows however a gateway types it, and card tokens gw never repeats.
let sandbox: Sandbox
let gateway: MisbehavingGateway | undefined

sharedSandbox((started) => void (sandbox = started))
afterEach(async () => {
  await gateway?.close()
  gateway = undefined
})

/** The local gateway behind one of the test's own that sends each masked card number as `whole` has it. */
async function sendingCardNumbersAs(whole: (head: string, tail: string) => string): Promise<string> {
  gateway = await misbehavingGateway(async (request) => {
    const answer = await forward(sandbox.url, request)
    return {...answer, body: answer.body.replace(/"card_number":"(\d{6})X+(\d{4})"/g, (_, head: string, tail: string) => `"card_number":${whole(head, tail)}`)}
  })
  return gateway.url
}

const gwAt = (url: string, args: string[], options: RunOptions = {}) => runGw(args, {...options, env: {...sandbox.home, GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}})

/** A purchase made at the gateway: what is tested is how gw prints it and what it sends after. */
const purchased = () => purchasedAtGateway(sandbox)

describe('a gateway that sends the card number as a JSON number', () => {
  const WHOLE = /4242424242424242/

  it('prints it masked, as a string, in records, lists, --json, gw api and the --verbose lines', async () => {
    const purchase = await purchased()
    const url = await sendingCardNumbersAs((head, tail) => `${head}424242${tail}`)
    expect((await fetch(`${url}/v1.0/purchases/${purchase.id}`, {headers: {authorization: 'Basic VEVTVDpURVNU'}}).then((r) => r.text()))).toContain('"card_number":4242424242424242,')

    for (const args of [['purchase', 'get', purchase.id], ['purchase', 'get', purchase.id, '--json', '--verbose'], ['purchase', 'list', '--limit', '2'], ['card', 'list', '--limit', '2']]) {
      const result = await gwAt(url, args)
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0)
      expect(result.records.length).toBeGreaterThan(0)
      for (const record of result.records) expect((record as {card_number: unknown}).card_number).toBe('424242XXXXXX4242')
      expect(result.stdout + result.stderr).not.toMatch(WHOLE)
    }
    const verbose = await gwAt(url, ['purchase', 'get', purchase.id, '--verbose'])
    expect(verbose.stderr).toMatch(/^< 200 GET \S+ \d+ ms request-id - \{"successful":true,"response":\{.*"card_number":"424242XXXXXX4242",/m)

    const raw = await gwAt(url, ['api', `/v1.0/purchases/${purchase.id}`, '--verbose'])
    expect(raw.code, raw.stderr).toBe(0)
    expect(raw.json).toMatchObject({response: {id: purchase.id, card_number: '424242XXXXXX4242'}})
    expect(raw.stdout + raw.stderr).not.toMatch(WHOLE)
  })

  it('a purchase it answers so is approved (exit 0), not an answer gw cannot read; batch rows and the journal hold it masked', async () => {
    const url = await sendingCardNumbersAs((head, tail) => `${head}424242${tail}`)
    const made = await gwAt(url, ['purchase', 'create', '--amount', '1000', '--reference', ref('order'), ...cardArgs()])
    expect(made.code, made.stderr).toBe(0)
    expect(made.records).toMatchObject([{successful: true, card_number: '424242XXXXXX4242'}])
    expect(made.stdout + made.stderr).not.toMatch(WHOLE)

    const purchase = await purchased()
    const prefix = ref('numbered')
    const file = writeTemp('refunds.csv', `transaction_id,amount,reference\n${purchase.id},100,${prefix}-0\n${purchase.id},100,${prefix}-1\n`)
    const batch = await gwAt(url, ['refund', 'create', '--input', file])
    expect(batch.code, batch.stderr).toBe(0)
    expect(rowsOf(batch.stdout).map((row) => row.record?.card_number)).toEqual(['424242XXXXXX4242', '424242XXXXXX4242'])
    expect(batch.stdout + batch.stderr).not.toMatch(WHOLE)
    const journals = join(sandbox.home.XDG_DATA_HOME!, 'gw', 'journals')
    const journal = readdirSync(journals).map((name) => journalText(join(journals, name))).find((text) => text.includes(`${prefix}-0`))
    expect(journal).toContain('"card_number":"424242XXXXXX4242"')
    expect(journal).not.toMatch(WHOLE)
  })

  it('gw listen prints and saves a delivery with one masked', async () => {
    const home = isolatedHome()
    const file = join(home.HOME!, 'events.ndjson')
    const listener = await startListen(['--json', '--save', file], {env: home})
    try {
      const delivery = chargeSuccessful()
      ;(delivery.payload[0]!.response.response as Record<string, unknown>).card_number = 4242424242424242
      expect(await listener.post(delivery)).toBe(200)
      const [line] = await listener.waitForLines(1)
      expect(JSON.parse(line!).payload[0].response.response.card_number).toBe('424242XXXXXX4242')
    } finally {
      await listener.stop('SIGINT')
    }
    expect(readFileSync(file, 'utf8')).toContain('"card_number":"424242XXXXXX4242"')
    expect(readFileSync(file, 'utf8')).not.toMatch(WHOLE)
  })
})

describe('a gateway that sends a card number with letters in it', () => {
  it('shows none of its digits', async () => {
    const purchase = await purchased()
    const url = await sendingCardNumbersAs((head, tail) => `"${head.slice(0, 4)} ${head.slice(4)}42 4242 ${tail} VISA"`)
    for (const args of [['purchase', 'get', purchase.id], ['api', `/v1.0/purchases/${purchase.id}`]]) {
      const result = await gwAt(url, args)
      expect(result.stdout).toContain('"card_number":"XXXX XXXX XXXX XXXX VISA"')
      expect(result.stdout).not.toMatch(/\d{4} \d{4}/)
    }
  })
})

describe('a stored card token is never repeated by gw', () => {
  const UNKNOWN = 'zzzzzzzzzzzzzzzz6789'
  const MASKED = '****************6789'

  it("the gateway's Card <token> could not be found: exit 7, the token masked on stderr and in the --json error", async () => {
    const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref('order'), '--card-token', UNKNOWN, '--json'])
    expect(result.code).toBe(7)
    expect(result.stderr.split('\n')[0]).toMatch(new RegExp(`^Error: Card \\*{16}6789 could not be found \\(HTTP 400, request-id [0-9a-f-]{36}\\)$`))
    expect(errorJson(result)).toMatchObject({error: {kind: 'rejected', status: 400, messages: [`Card ${MASKED} could not be found`], exit_code: 7}})
    expect(result.stderr).not.toContain(UNKNOWN)
  })

  it('a failed look-up among several names the card by its last four; --verbose lines too', async () => {
    const card = await sandbox.gw(['card', 'tokenize', ...cardArgs(CARDS.mastercard), '--json'])
    const token = (card.json as {token: string}).token
    const result = await sandbox.gw(['card', 'get', UNKNOWN, token, '--verbose'])
    expect(result.code).toBe(5)
    expect(result.records).toMatchObject([{token, card_number: '512345XXXXXX2346'}])
    expect(result.stderr).toMatch(new RegExp(`^Error: No card has the token or alias \\*{16}6789: Record not found \\(HTTP 404, request-id [0-9a-f-]{36}\\)$`, 'm'))
    expect(result.stderr).toContain(`> GET ${sandbox.url}/v1.0/credit_cards/${MASKED}\n`)
    expect(result.stderr).toContain(`> GET ${sandbox.url}/v1.0/credit_cards/${'*'.repeat(16)}${token.slice(-4)}\n`)
    expect(result.stderr).not.toContain(UNKNOWN)
    // The record is the gateway's, token and all (stdout, and the answer's body in --verbose); no URL or error repeats it.
    expect(result.stderr.split('\n').filter((line) => line.includes(token))).toEqual([expect.stringMatching(/^< 200 GET \S+ \d+ ms request-id \S+ \{"successful":true,"response":\{"token":/)])
  })

  it('an argument gw did not expect, shaped as a card token, is repeated masked', async () => {
    for (const args of [['card', 'update', 'jane-visa', UNKNOWN, '--alias', 'x'], ['purchase', 'create', UNKNOWN]]) {
      const result = await sandbox.gw(args)
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(MASKED)
      expect(result.stderr).not.toContain(UNKNOWN)
    }
  })
})

describe('a card number inside a text', () => {
  const inside = {reference: 'x4111111111111111y', holder: '4111 1111 1111 1111'}
  const shown = {reference: 'x411111XXXXXX1111y', holder: '411111XXXXXX1111'}

  it('is shown masked by gw in a record, a table, a list, --jq and gw api, and by gw sandbox logs', async () => {
    const reference = `${ref('in-text')}-${inside.reference}`
    const made = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, '--card-holder', inside.holder, '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123', '--json'])
    expect(made.code, made.stderr).toBe(0)
    expect(made.json).toMatchObject({reference: reference.replace(inside.reference, shown.reference), card_holder: shown.holder})
    const outputs = [
      made,
      await sandbox.gw(['purchase', 'get', made.json ? (made.json as {id: string}).id : reference], {env: {GW_FORCE_TTY: '200', NO_COLOR: '1'}}),
      await sandbox.gw(['purchase', 'list', '--limit', '5', '--json']),
      await sandbox.gw(['purchase', 'list', '--limit', '5', '--jq', '.reference + " " + .card_holder']),
      await sandbox.gw(['api', '/v1.0/purchases', '--query', 'limit=5']),
      await sandbox.gw(['sandbox', 'logs', '--json', '--limit', '5']),
    ]
    for (const output of outputs) {
      expect(output.code, output.stderr).toBe(0)
      for (const text of [output.stdout, output.stderr]) {
        expect(text).not.toContain('4111111111111111')
        expect(text).not.toContain(inside.holder)
      }
    }
    expect(outputs[3]!.stdout).toContain(`${shown.reference} ${shown.holder}`)
    // What the local gateway keeps on disk of it: its request log.
    const requestLog = readFileSync(join(sandbox.home.XDG_DATA_HOME!, 'gw', 'sandbox-requests.ndjson'), 'utf8')
    expect(requestLog).toContain(shown.reference)
    expect(requestLog).not.toMatch(/4111[ -]?1111[ -]?1111[ -]?1111/)
  })
})

describe('the local gateway keeps no card number whole, inside a text either (design.md §3)', () => {
  const AUTH = {authorization: 'Basic ' + Buffer.from('TEST:TEST').toString('base64'), 'content-type': 'application/json'}

  it('its request log, gw sandbox logs and its state file hold them masked; it answers with the text as sent until a restart, and finds the record by it after one', async () => {
    const home = isolatedHome()
    const state = join(home.HOME!, 'gateway.json')
    let gateway = await startSandbox(['--state', state], home)
    const reference = `${ref('kept')}-x4111111111111111y`
    const masked = reference.replace('x4111111111111111y', 'x411111XXXXXX1111y')
    try {
      const made = await gateway.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, '--card-holder', '4111 1111 1111 1111', '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123', '--json'])
      expect(made.code, made.stderr).toBe(0)
      const plan = await gateway.gw(['plan', 'create', '--name', 'Gold', '--amount', '2500', '--reference', ref('plan'), '--description', 'card 4242-4242-4242-4242 declined'])
      expect(plan.code, plan.stderr).toBe(0)
      // What a merchant's app gets back while the gateway runs: the text as sent, as the live gateway answers.
      const answered = (await fetch(`${gateway.url}/v1.0/purchases/${reference}`, {headers: AUTH}).then((r) => r.json())) as {response: Record<string, unknown>}
      expect(answered.response).toMatchObject({id: (made.json as {id: string}).id, reference, card_holder: '4111 1111 1111 1111'})

      const logs = await gateway.gw(['sandbox', 'logs', '--json', '--limit', '10'])
      expect(logs.code, logs.stderr).toBe(0)
      expect(logs.records).toContainEqual(expect.objectContaining({method: 'POST', path: '/v1.0/purchases', reference: masked, card_number: '424242XXXXXX4242'}))
      expect(logs.records).toContainEqual(expect.objectContaining({method: 'GET', path: `/v1.0/purchases/${masked}`}))
      expect(wholeCardNumbersIn(logs.stdout + logs.stderr)).toEqual([])

      // Each change is on disk before its answer, in the file or in SQLite's write-ahead log beside it: both hold the texts masked.
      const journal = [state, `${state}-wal`].map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : '')).join('')
      for (const text of [`"reference":"${masked}"`, '"card_holder":"411111XXXXXX1111"', '"description":"card 424242XXXXXX4242 declined"']) expect(journal).toContain(text)
      expect(wholeCardNumbersIn(journal)).toEqual([])
    } finally {
      await gateway.stop()
    }
    const snapshot = readFileSync(state, 'utf8')
    expect(snapshot).toContain(`"reference":"${masked}"`)
    expect(wholeCardNumbersIn(snapshot)).toEqual([])
    const requestLog = readFileSync(join(home.HOME!, 'gateway.requests.ndjson'), 'utf8')
    expect(requestLog).toContain(`"reference":"${masked}"`)
    expect(wholeCardNumbersIn(requestLog)).toEqual([])

    gateway = await startSandbox(['--state', state], home)
    try {
      // After a restart the record answers as the file keeps it, and the reference as sent still finds it and is still taken.
      const found = (await fetch(`${gateway.url}/v1.0/purchases/${reference}`, {headers: AUTH}).then((r) => r.json())) as {response: Record<string, unknown>}
      expect(found.response).toMatchObject({reference: masked, card_holder: '411111XXXXXX1111'})
      const again = {amount: 1000, reference, card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123'}
      const taken = (await fetch(`${gateway.url}/v1.0/purchases`, {method: 'POST', headers: AUTH, body: JSON.stringify(again)}).then((r) => r.json())) as {errors: string[]}
      expect(taken.errors).toEqual(['Reference is already taken'])
    } finally {
      await gateway.stop()
    }
  })
})
