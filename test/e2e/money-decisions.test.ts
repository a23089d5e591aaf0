import {readdirSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, expect, it} from 'vitest'
import {envelope, forward, type MisbehavingGateway, misbehavingGateway, type Received, type Reply} from '../misbehaving-gateway.js'
import {rowsOf, spawnGw, writeTemp} from './batch-helpers.js'
import {cardArgs, describeInBothDialects, isolatedHome, purchasedAtGateway, ref, runGw, type RunOptions, type Sandbox, sharedSandbox} from './helpers.js'
import {journalText} from '../journal-text.js'

// What gw decides about money, against answers shaped as the live gateway's (gateway-notes.md):
// a refund record names itself in transaction_id (never its purchase) and carries its amount positive.
let sandbox: Sandbox
let liveSandbox: Sandbox
let gateway: MisbehavingGateway | undefined

sharedSandbox((started) => void (sandbox = started))
sharedSandbox((started) => void (liveSandbox = started), ['--mode', 'live'])
afterEach(async () => {
  await gateway?.close()
  gateway = undefined
})

/** The local gateway's answer made live-shaped: refund amounts positive, as the live gateway sends them. */
async function liveShaped(request: Received): Promise<Reply> {
  const answer = await forward(sandbox.url, request)
  if (!request.path.startsWith('/v1.0/refunds')) return answer
  const body = JSON.parse(answer.body) as {response?: unknown}
  const positive = (record: unknown) => (record && typeof record === 'object' && typeof (record as {amount?: unknown}).amount === 'number' ? {...record, amount: Math.abs((record as {amount: number}).amount), rrn: 'R1'} : record)
  return {...answer, body: {...body, response: Array.isArray(body.response) ? body.response.map(positive) : positive(body.response)}}
}

/** A gateway of the test's own in front of the local one: `reply` answers what it wants to, the rest is forwarded live-shaped. */
async function inFront(reply: (request: Received, index: number) => Reply | undefined | Promise<Reply | undefined> = () => undefined): Promise<MisbehavingGateway> {
  gateway = await misbehavingGateway(async (request, index) => (await reply(request, index)) ?? liveShaped(request))
  return gateway
}

const gwAt = (url: string, args: string[], options: RunOptions = {}) =>
  runGw(args, {...options, env: {...sandbox.home, GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', ...options.env}})

/** What is tested here is what gw decides about the refunds of a purchase: made at the gateway (a test makes up to 24 at once). */
const purchased = (amount = 10000) => purchasedAtGateway(sandbox, {amount})

describeInBothDialects('a refund against a gateway that answers live-shaped refund records', () => {
  it('a reference taken by this very refund is done earlier (exit 0); by another refund, exit 7 naming it', async () => {
    const purchase = await purchased()
    const {url, posts} = await inFront()
    const reference = ref('refund')
    const args = ['refund', 'create', '--transaction-id', purchase.reference, '--amount', '2500', '--reference', reference, '--json']
    const first = await gwAt(url, args)
    expect(first.code, first.stderr).toBe(0)
    const record = first.json as {id: string; transaction_id: string; amount: number}
    expect(record).toMatchObject({amount: 2500, transaction_id: record.id})

    const again = await gwAt(url, args)
    expect(again.code, again.stderr).toBe(0)
    expect(again.json).toEqual(first.json)
    expect(again.stderr).toBe(`Reference ${reference} was taken by this same refund (${record.id}), made earlier: the gateway refused this request for it, and nothing more was made.\n`)

    const other = await gwAt(url, ['refund', 'create', '--transaction-id', purchase.reference, '--amount', '3000', '--reference', reference])
    expect(other.code).toBe(7)
    expect(other.stdout).toBe('')
    expect(other.stderr).toBe(
      `Error: Reference ${reference} is already taken by another refund ${record.id}: amount: sent 3000, found 2500. The gateway refused this request under it: nothing was made.\n` +
        `Hint: Give this refund a reference of its own, or check the earlier one: gw refund get ${reference}\n`,
    )
    expect(posts('/v1.0/refunds', reference)).toBe(3)
  })

  it("the same amount refunded from another purchase's card under the reference is another refund", async () => {
    const [mine, theirs] = await Promise.all([purchased(), sandbox.gw(['purchase', 'create', '--amount', '10000', '--reference', ref('order'), '--card-holder', 'John Smith', '--card-number', '5123456789012346', '--card-expiry', '12/2030', '--cvv', '123', '--json'])])
    const reference = ref('refund')
    const {url} = await inFront()
    expect((await gwAt(url, ['refund', 'create', '--transaction-id', (theirs.json as {id: string}).id, '--amount', '500', '--reference', reference])).code).toBe(0)
    const result = await gwAt(url, ['refund', 'create', '--transaction-id', mine.id, '--amount', '500', '--reference', reference])
    expect(result.code).toBe(7)
    expect(result.stderr).toContain(`card_number: the purchase's "424242XXXXXX4242", found "512345XXXXXX2346"; card_holder: the purchase's "Jane Citizen", found "John Smith". The gateway refused this request under it: nothing was made.`)
  })

  it("the same holder's refund of another of her cards under the reference is another refund: exit 7 alone and in a batch, exit 8 after a lost answer", async () => {
    const [visa, mastercard] = await Promise.all([purchased(), sandbox.gw(['purchase', 'create', '--amount', '10000', '--reference', ref('order'), ...cardArgs('5123456789012346'), '--json'])])
    expect(mastercard.code, mastercard.stderr).toBe(0)
    const reference = ref('refund')
    const {url, posts} = await inFront()
    const theirs = await gwAt(url, ['refund', 'create', '--transaction-id', (mastercard.json as {id: string}).id, '--amount', '500', '--reference', reference, '--json'])
    expect(theirs.code, theirs.stderr).toBe(0)
    const id = (theirs.json as {id: string}).id
    const differs = `card_number: the purchase's "424242XXXXXX4242", found "512345XXXXXX2346"`

    const alone = await gwAt(url, ['refund', 'create', '--transaction-id', visa.id, '--amount', '500', '--reference', reference])
    expect(alone.code).toBe(7)
    expect(alone.stderr).toBe(
      `Error: Reference ${reference} is already taken by another refund ${id}: ${differs}. The gateway refused this request under it: nothing was made.\n` +
        `Hint: Give this refund a reference of its own, or check the earlier one: gw refund get ${reference}\n`,
    )

    const batch = await gwAt(url, ['refund', 'create', '--input', writeTemp('refunds.csv', `transaction_id,amount,reference\n${visa.id},500,${reference}\n`)])
    expect(batch.code).toBe(7)
    expect(rowsOf(batch.stdout)).toEqual([
      {row: 1, line: 2, reference, status: 'rejected', exit_code: 7, error: expect.objectContaining({kind: 'rejected', messages: [`Reference ${reference} is already taken by another refund ${id}: ${differs}. Nothing was sent.`]})},
    ])

    // The answer to this refund lost, and never made: what is under the reference is the other card's.
    await gateway!.close()
    const lost = await inFront((request) => (request.method === 'POST' ? 'drop' : undefined))
    const result = await gwAt(lost.url, ['refund', 'create', '--transaction-id', visa.id, '--amount', '500', '--reference', reference])
    expect(result.code).toBe(8)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(
      new RegExp(`^No answer to the refund that could be read \\(.+\\); looking reference ${reference} up at the gateway\\.\nError: The refund was sent but no answer came back that could be read \\(.+\\)\\. The gateway has a refund under reference ${reference}, but not the one sent \\(card_number: the purchase's "424242XXXXXX4242", found "512345XXXXXX2346"\\):\n`),
    )
    expect(result.stderr).toContain(`Hint: Do not resend it until you have checked what the gateway has: gw refund get ${reference}\n`)
    // Theirs, and the single refund the gateway refused; the batch's row was looked up first, and never sent.
    expect(posts('/v1.0/refunds', reference)).toBe(2)
  })

  it('a refund whose answer is lost is found under its reference and held against its purchase: approved, sent once', async () => {
    const purchase = await purchased()
    const reference = ref('refund')
    const {url, posts, received} = await inFront(async (request) => (request.method === 'POST' ? (await forward(sandbox.url, request), 'drop') : undefined))
    // A home of its own: gw's index of refunds is kept by gateway address, and an earlier test's gateway on this port would have left one to top up.
    const result = await gwAt(url, ['refund', 'create', '--transaction-id', purchase.id, '--amount', '1000', '--reference', reference, '--json'], {env: isolatedHome()})
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({reference, amount: 1000, successful: true})
    expect(result.stderr).toContain('Found the refund by its reference: the gateway processed it once.')
    // What is left of the purchase is learned before sending (its record, and the refunds on its card since), then the refund once.
    const asked = received.map((request) => `${request.method} ${request.path}`)
    expect(asked.slice(0, 2)).toEqual([`GET /v1.0/purchases/${purchase.id}`, expect.stringMatching(/^GET \/v1\.0\/refunds\?offset=0&limit=50&from=/)])
    expect(asked.slice(2)).toEqual(['POST /v1.0/refunds', `GET /v1.0/refunds/${reference}`, `GET /v1.0/purchases/${purchase.id}`])
    expect(posts('/v1.0/refunds', reference)).toBe(1)
  })
})

describeInBothDialects('a batch resumed after kill -9, its rows in doubt found as live-shaped records', () => {
  it('reports them approved, done earlier, and sends none twice', async () => {
    const ids = await Promise.all(Array.from({length: 24}, () => purchased(5000).then((purchase) => purchase.id)))
    const prefix = ref('resume')
    const file = writeTemp('refunds.csv', ['transaction_id,amount,reference', ...ids.map((id, i) => `${id},1500,${prefix}-${i}`)].join('\n') + '\n')
    const running: {gw?: ReturnType<typeof spawnGw>} = {}
    let refundPosts = 0
    const {url, posts} = await inFront((request) => {
      // Killed while the 12th refund is on its way: the gateway makes it, gw never hears of it.
      if (request.method === 'POST' && ++refundPosts === 12) running.gw?.child.kill('SIGKILL')
      return undefined
    })
    running.gw = spawnGw(sandbox, ['refund', 'create', '--input', file, '--concurrency', '4'], {GW_BASE_URL: url})
    const killed = await running.gw.done
    expect(killed.signal).toBe('SIGKILL')

    // Rows journaled ahead and never sent wait out the local gateway's processing window (2 s).
    const again = await gwAt(url, ['refund', 'create', '--input', file, '--concurrency', '4'], {timeoutMs: 60_000})
    expect(again.stderr).toMatch(/resuming: \d+ rows? answered, [1-9]\d* in doubt, \d+ not started/)
    expect(again.code, again.stderr).toBe(0)
    const rows = rowsOf(again.stdout)
    expect(rows).toHaveLength(24)
    expect(rows.every((row) => row.status === 'approved' && row.exit_code === 0)).toBe(true)
    expect(rows.filter((row) => row.resumed).length).toBeGreaterThanOrEqual(12)
    for (let i = 0; i < 24; i++) expect(posts('/v1.0/refunds', `${prefix}-${i}`)).toBe(1)
  })
})

describeInBothDialects('a purchase batch run with a sandbox profile against a live gateway', () => {
  it('stops at its first look-up, answered in live mode, before anything is charged: exit 6, and prints only rows', async () => {
    // A card stored at the live gateway, asked for directly: gw itself would refuse to go on.
    const stored = await fetch(`${liveSandbox.url}/v1.0/credit_cards`, {
      method: 'POST',
      headers: {'content-type': 'application/json', authorization: `Basic ${Buffer.from('TEST:TEST').toString('base64')}`},
      body: JSON.stringify({card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'}),
    })
    const token = ((await stored.json()) as {response: {token: string}}).response.token
    const prefix = ref('wrong')
    const file = writeTemp('purchases.csv', ['card_token,amount,reference', ...Array.from({length: 5}, (_, i) => `${token},1000,${prefix}-${i}`)].join('\n') + '\n')
    const home = isolatedHome()
    const result = await runGw(['purchase', 'create', '--input', file], {env: {...home, GW_BASE_URL: liveSandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'sandbox'}})
    expect(result.code).toBe(6)
    const lines = result.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({row: 1, reference: `${prefix}-0`, status: 'rejected', exit_code: 6, error: {kind: 'permission'}})
    expect(lines[0]).not.toHaveProperty('record')
    expect(result.stderr).toContain('5 purchases: 1 rejected, 4 not started')
    expect(result.stderr).toContain(`answered in live mode, but gw takes it for the sandbox: nothing more is sent`)
    // No row reached the gateway: its look-up came first.
    for (const i of [0, 1]) expect((await liveSandbox.gw(['purchase', 'get', `${prefix}-${i}`])).code).toBe(5)

    // Its journal took the row back: run with the right environment, every row is sent, at once.
    const rerun = await runGw(['purchase', 'create', '--input', file, '--yes'], {env: {...home, GW_BASE_URL: liveSandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'live'}})
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(rerun.stderr).toContain('(resuming: 0 rows answered, 0 in doubt, 5 not started)')
    expect(rowsOf(rerun.stdout).find((row) => row.reference === `${prefix}-0`)).toMatchObject({status: 'approved', exit_code: 0})
  })
})

describeInBothDialects('a purchase command run with a sandbox profile against a live gateway', () => {
  it('prints the record of the money moved there as its result, exits 6, and says to check the profile', async () => {
    const reference = ref('wrong')
    const result = await runGw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs()], {
      env: {...isolatedHome(), GW_BASE_URL: liveSandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'sandbox'},
    })
    expect(result.code).toBe(6)
    const lines = result.stdout.split('\n').filter(Boolean)
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({reference, amount: 1000, successful: true, card_number: '424242XXXXXX4242'})
    expect(result.stderr).toContain(`Error: The gateway at ${liveSandbox.url} answered in live mode, but gw takes it for the sandbox: nothing more is sent`)
    expect(result.stderr).toContain('Hint: Check the base URL of the profile in force (gw status).')
    expect((await liveSandbox.gw(['purchase', 'get', reference, '--json'])).json).toMatchObject({reference, successful: true})
  })
})

describeInBothDialects('a gateway that sends card numbers whole and echoes the CVV', () => {
  const whole = (text: string) => text.replace(/"card_number":"(\d{6})X+(\d{4})"/g, (_, head: string, tail: string) => `"card_number":"${head}424242${tail}","cvv":"987"`)

  it('never gets them printed or journaled: records piped, with --json, in batch rows and in the journal', async () => {
    const purchase = await purchased()
    const {url} = await inFront(async (request) => {
      const answer = (await liveShaped(request)) as {status: number; headers: Record<string, string>; body: string | object}
      return {...answer, body: whole(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body))}
    })
    for (const args of [['purchase', 'get', purchase.id], ['purchase', 'get', purchase.id, '--json'], ['purchase', 'get', purchase.id, purchase.reference]]) {
      const result = await gwAt(url, args)
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toContain('"card_number":"424242XXXXXX4242"')
      expect(result.stdout).not.toMatch(/4242424242424242|"cvv"|"987"/)
    }
    const raw = await gwAt(url, ['api', 'GET', `/v1.0/purchases/${purchase.id}`])
    expect(raw.stdout).toContain('"card_number":"424242XXXXXX4242"')
    expect(raw.stdout).not.toMatch(/4242424242424242|"cvv"/)

    const prefix = ref('whole')
    const file = writeTemp('refunds.csv', `transaction_id,amount,reference\n${purchase.id},100,${prefix}-0\n${purchase.id},100,${prefix}-1\n`)
    const batch = await gwAt(url, ['refund', 'create', '--input', file])
    expect(batch.code, batch.stderr).toBe(0)
    expect(rowsOf(batch.stdout).map((row) => row.record?.card_number)).toEqual(['424242XXXXXX4242', '424242XXXXXX4242'])
    expect(batch.stdout).not.toMatch(/4242424242424242|"cvv"/)
    const journals = join(sandbox.home.XDG_DATA_HOME!, 'gw', 'journals')
    const journal = readdirSync(journals).map((name) => journalText(join(journals, name))).find((text) => text.includes(`${prefix}-0`))
    expect(journal).toContain('"card_number":"424242XXXXXX4242"')
    expect(journal).not.toMatch(/4242424242424242|"cvv"|"987"/)
  })
})

describeInBothDialects('a lost answer to a purchase by alias, when the alias cannot be looked up', () => {
  it('is unknown (exit 8): the record found is not believed, and the purchase is sent once', async () => {
    const card = await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])
    const token = (card.json as {token: string}).token
    const alias = ref('alias')
    expect((await sandbox.gw(['card', 'update', token, '--alias', alias])).code).toBe(0)
    const reference = ref('order')
    const {url, posts} = await inFront(async (request) => {
      if (request.method === 'POST') return (await forward(sandbox.url, request), 'drop')
      if (request.path.startsWith('/v1.0/credit_cards/')) return {status: 503, body: envelope(null, {successful: false, errors: ['Service Unavailable']})}
      return undefined
    })
    const result = await gwAt(url, ['purchase', 'create', '--amount', '1000', '--reference', reference, '--card-token', alias])
    expect(result.code).toBe(8)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`whether it is the one sent could not be checked (card_token (what alias "${alias}" stands for) not known)`)
    expect(result.stderr).toContain(`Hint: Do not resend it until you have checked what the gateway has: gw purchase get ${reference}`)
    expect(posts('/v1.0/purchases', reference)).toBe(1)
  })
})
