import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, expect, it} from 'vitest'
import {envelope, forward, type MisbehavingGateway, misbehavingGateway, purchaseRecord, type Received, type Reply} from '../misbehaving-gateway.js'
import {baseEnv, CARDS, cardArgs, describeInBothDialects, describeOnce, GW, isolatedHome, ref, runGw, type RunOptions, type Sandbox, sharedSandbox} from './helpers.js'
import {terminal} from './auth-helpers.js'
import {until} from '../until.js'

// Each hole found with a misbehaving gateway, as an end-to-end test of the built gw.
// A gateway of the test's own stands in front of the local one (or alone), to misbehave and to
// count the POSTs of each reference: a purchase is never sent twice.
let sandbox: Sandbox
let liveSandbox: Sandbox
let gateway: MisbehavingGateway | undefined

sharedSandbox((started) => void (sandbox = started))
sharedSandbox((started) => void (liveSandbox = started), ['--mode', 'live'])
afterEach(async () => {
  await gateway?.close()
  gateway = undefined
})

/** A gateway in front of the local one: `reply` answers what it wants to, and forwards the rest. */
async function inFront(reply: (request: Received) => Reply | undefined | Promise<Reply | undefined> = () => undefined): Promise<MisbehavingGateway> {
  gateway = await misbehavingGateway(async (request) => (await reply(request)) ?? forward(sandbox.url, request))
  return gateway
}

/** gw with credentials from the environment, pointed at a gateway of the test's own. */
const gwAt = (url: string, args: string[], options: RunOptions = {}) =>
  runGw(args, {...options, env: {...sandbox.home, GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', ...options.env}})

const purchaseArgs = (reference: string, card: string = CARDS.visa, amount = '1000') => ['purchase', 'create', '--amount', amount, '--reference', reference, ...cardArgs(card)]

const isPurchasePost = (request: Received) => request.method === 'POST' && request.path === '/v1.0/purchases'

describeInBothDialects('1. a reference holding .json, /, ?, #, % or non-ASCII reaches the gateway whole', () => {
  it.each(['.json', '.json.json', '/b', '50%', 'ü', '?b', '#b'])('a reference ending in %s is created and found again', async (tail) => {
    const {url, posts} = await inFront()
    const reference = ref('key') + tail
    const created = await gwAt(url, [...purchaseArgs(reference), '--json'])
    expect(created.code, created.stderr).toBe(0)
    expect(created.json).toMatchObject({reference, successful: true})
    const found = await gwAt(url, ['purchase', 'get', reference, '--json'])
    expect(found.code, found.stderr).toBe(0)
    expect(found.json).toMatchObject({id: (created.json as {id: string}).id, reference})
    expect(posts('/v1.0/purchases', reference)).toBe(1)
  })

  it('the lost answer of inv-b.json is recovered as inv-b.json, never as the purchase inv-b', async () => {
    const plain = ref('inv')
    const other = await sandbox.gw([...purchaseArgs(plain, CARDS.visa, '5000'), '--json'])
    expect(other.code).toBe(0)
    const {url, posts} = await inFront(async (request) => (isPurchasePost(request) ? (await forward(sandbox.url, request), 'drop') : undefined))
    const result = await gwAt(url, [...purchaseArgs(`${plain}.json`), '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({reference: `${plain}.json`, amount: 1000})
    expect((result.json as {id: string}).id).not.toBe((other.json as {id: string}).id)
    expect(posts('/v1.0/purchases', `${plain}.json`)).toBe(1)
  })

  it('and when it never arrived, the outcome is unknown (exit 8): inv-b is not reported', async () => {
    const plain = ref('inv')
    expect((await sandbox.gw(purchaseArgs(plain))).code).toBe(0)
    const {url, posts} = await inFront((request) => (isPurchasePost(request) ? 'drop' : undefined))
    // The local gateway's processing window (2 s), which the proxy in front passes on to gw with its proof.
    const result = await gwAt(url, purchaseArgs(`${plain}.json`))
    expect(result.code).toBe(8)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(new RegExp(`\nThe gateway has no purchase with reference ${plain}\\.json yet, and may still be processing it: looking again for up to [12] s\\.\n`))
    expect(result.stderr).toContain(`, and the gateway has no purchase with reference ${plain}.json, even 2 s after it was sent (the most it takes to process one).`)
    expect(posts('/v1.0/purchases', `${plain}.json`)).toBe(1)
  })
})

describeInBothDialects('2. recovery checks what it finds', () => {
  it('a record under the reference with another amount is unknown (exit 8), both records shown', async () => {
    const reference = ref()
    const {url, posts} = await inFront((request) => {
      if (isPurchasePost(request)) return 'drop'
      return {body: envelope(purchaseRecord({...request.body, reference, amount: 2000, card_number: CARDS.visa}))}
    })
    const result = await gwAt(url, purchaseArgs(reference))
    expect(result.code).toBe(8)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`The gateway has a purchase under reference ${reference}, but not the one sent (amount: sent 1000, found 2000)`)
    expect(result.stderr).toMatch(/ {2}sent: {2}\{"amount":1000,.*"card_number":"424242XXXXXX4242"/)
    expect(result.stderr).toMatch(/ {2}found: \{"id":"071-P-ABCDEFGH".*"amount":2000/)
    expect(result.stderr).toContain(`Do not resend it until you have checked what the gateway has: gw purchase get ${reference}`)
    expect(result.stderr).not.toContain(CARDS.visa)
    expect(result.stderr).not.toContain('"cvv"')
    expect(posts('/v1.0/purchases', reference)).toBe(1)
  })

  it('a lost answer whose look-up finds a declined purchase exits 3 with the record', async () => {
    const reference = ref()
    const {url, posts} = await inFront(async (request) => (isPurchasePost(request) ? (await forward(sandbox.url, request), 'drop') : undefined))
    const result = await gwAt(url, [...purchaseArgs(reference, CARDS.declined), '--json'])
    expect(result.code).toBe(3)
    expect(result.json).toMatchObject({reference, successful: false, message: 'Declined'})
    expect(result.stderr).toContain('Found the purchase by its reference: the gateway processed it once.')
    expect(result.stderr).toContain('Error: Purchase declined: Declined')
    expect(posts('/v1.0/purchases', reference)).toBe(1)
  })
})

describeOnce('3. a record without successful is unknown, never declined', () => {
  it('exits 8, not 3, when neither the answer nor the look-up says approved or declined', async () => {
    const reference = ref()
    const {url, posts} = await inFront((request) => ({body: envelope({...purchaseRecord({...(request.body ?? {}), reference, amount: 1000, card_number: CARDS.visa}), successful: undefined})}))
    const result = await gwAt(url, purchaseArgs(reference))
    expect(result.code).toBe(8)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('does not say whether it was approved (no successful or authorized field)')
    expect(posts('/v1.0/purchases', reference)).toBe(1)
  })
})

describeInBothDialects('4. a money POST answered with what cannot be read is reconciled like a lost answer', () => {
  it.each<[string, Reply]>([
    ['HTTP 200 with malformed JSON', {body: '{"successful":true,"response":{'}],
    ['HTTP 200 with an empty body', {body: ''}],
    ['a null response', {body: envelope(null)}],
    ['an array response', {body: envelope([])}],
    ['a body without the envelope', {body: {id: '071-P-ABCDEFGH'}}],
    ['HTTP 500 after processing', {status: 500, body: envelope(null, {successful: false, errors: ['Internal Server Error']})}],
  ])('%s: looked up, found, exit 0, sent once', async (_, reply) => {
    const reference = ref()
    const {url, posts} = await inFront(async (request) => (isPurchasePost(request) ? (await forward(sandbox.url, request), reply) : undefined))
    const result = await gwAt(url, [...purchaseArgs(reference), '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({reference, successful: true, amount: 1000})
    expect(result.stderr).toContain(`looking reference ${reference} up at the gateway`)
    expect(posts('/v1.0/purchases', reference)).toBe(1)
  })

  it('a refund answered with malformed JSON is looked up too', async () => {
    const purchase = (await sandbox.gw([...purchaseArgs(ref()), '--json'])).json as {id: string}
    const reference = ref('refund')
    const {url, posts} = await inFront(async (request) => (request.method === 'POST' ? (await forward(sandbox.url, request), {body: '{'}) : undefined))
    const result = await gwAt(url, ['refund', 'create', '--transaction-id', purchase.id, '--amount', '300', '--reference', reference, '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({reference, successful: true})
    expect(posts('/v1.0/refunds', reference)).toBe(1)
  })

  // The contract's refund record has no reference (and the live gateway sends the amount positive).
  const refundLookedUpAs = (change: (record: Record<string, unknown>) => Record<string, unknown>) => async (request: Received) => {
    if (request.method === 'POST') return (await forward(sandbox.url, request), 'drop' as const)
    if (request.method !== 'GET' || !request.path.startsWith('/v1.0/refunds/')) return undefined
    const answer = await forward(sandbox.url, request)
    const body = JSON.parse(answer.body) as {response: Record<string, unknown>}
    return {status: answer.status, body: {...body, response: change(body.response)}}
  }

  it("a lost refund found as the contract's record, without a reference and with its amount positive, is believed: exit 0, sent once", async () => {
    const purchase = (await sandbox.gw([...purchaseArgs(ref()), '--json'])).json as {id: string}
    const reference = ref('refund')
    const {url, posts} = await inFront(refundLookedUpAs(({reference: _, transaction_id: __, amount, ...record}) => ({...record, amount: Math.abs(amount as number)})))
    const result = await gwAt(url, ['refund', 'create', '--transaction-id', purchase.id, '--amount', '300', '--reference', reference, '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({amount: 300, successful: true})
    expect(result.json).not.toHaveProperty('reference')
    expect(posts('/v1.0/refunds', reference)).toBe(1)
  })

  it('a lost refund whose look-up names another reference is unknown: exit 8, do not resend', async () => {
    const purchase = (await sandbox.gw([...purchaseArgs(ref()), '--json'])).json as {id: string}
    const reference = ref('refund')
    const {url, posts} = await inFront(refundLookedUpAs((record) => ({...record, reference: 'someone-else'})))
    const result = await gwAt(url, ['refund', 'create', '--transaction-id', purchase.id, '--amount', '300', '--reference', reference])
    expect(result.code, result.stderr).toBe(8)
    expect(result.stderr).toContain(`reference: sent "${reference}", found "someone-else"`)
    expect(result.stderr).toMatch(/[Dd]o not resend/)
    expect(posts('/v1.0/refunds', reference)).toBe(1)
  })
})

describeInBothDialects('6. a live gateway behind a sandbox profile', () => {
  const loginArgs = (url: string, extra: string[] = []) => ['login', '--profile', 'shop', '--base-url', url, '--username', 'TEST', '--token-stdin', '--insecure-storage', ...extra]

  it('gw login --environment sandbox against a gateway reporting live mode saves nothing: exit 6', async () => {
    const home = isolatedHome()
    const result = await runGw(loginArgs(liveSandbox.url, ['--environment', 'sandbox']), {env: home, stdin: 'TEST'})
    expect(result.code).toBe(6)
    expect(result.stderr).toContain(`Error: The gateway at ${liveSandbox.url} reports live mode, not sandbox: nothing was saved`)
    expect(result.stderr).toContain('Hint: Run gw login again with --environment live, or check --base-url.')
    expect((await runGw(['profile', 'list', '--json'], {env: home})).stdout).toBe('')
  })

  it('gw login without --environment saves it as live, saying so; live protections then hold', async () => {
    const home = isolatedHome()
    const result = await runGw(loginArgs(liveSandbox.url, ['--json']), {env: home, stdin: 'TEST'})
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({name: 'shop', environment: 'live'})
    expect(result.stderr).toContain(`The gateway at ${liveSandbox.url} reports live mode: profile shop is saved as a live profile`)
    // Saved, not made active without a terminal: used by name.
    const purchase = await runGw([...purchaseArgs(ref()), '--profile', 'shop'], {env: home})
    expect(purchase.code).toBe(2)
    expect(purchase.stderr).toContain('cannot be given on the command line with a live profile')
  })

  it('a sandbox profile whose gateway starts answering as live stops at the first answer: exit 6, nothing more sent', async () => {
    let mode = 'Sandbox'
    const {url, received} = await inFront(async (request) => {
      const answer = await forward(sandbox.url, request)
      return {...answer, headers: {'x-service-mode': mode}, body: answer.body.replace('"test":true', `"test":${mode === 'Sandbox'}`)}
    })
    const home = isolatedHome()
    expect((await runGw(loginArgs(url, ['--environment', 'sandbox']), {env: home, stdin: 'TEST'})).code).toBe(0)
    mode = 'Live'
    received.length = 0
    const result = await runGw(['purchase', 'get', 'one', 'two', 'three'], {env: home})
    expect(result.code).toBe(6)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`Error: The gateway at ${url} answered in live mode, but gw takes it for the sandbox: nothing more is sent`)
    expect(received.map((request) => request.path)).toEqual(['/v1.0/purchases/one'])
  })

  it('credentials from the environment for a gateway elsewhere count as live: card data in argv refused, nothing sent', async () => {
    const result = await runGw(purchaseArgs(ref()), {env: {...isolatedHome(), GW_BASE_URL: 'http://gateway.invalid', GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('cannot be given on the command line with a live profile')
  })
})

describeOnce('7. SIGTERM and SIGHUP during a purchase behave as Ctrl-C', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGINT', 130],
  ] as const)('%s twice: the first waits for the answer, the second stops at once, exit %i, saying what to check and not to resend', async (signal, code) => {
    let arrived: () => void = () => {}
    const posted = new Promise<void>((resolve) => (arrived = resolve))
    const {url, posts} = await inFront((request) => {
      if (!isPurchasePost(request)) return undefined
      arrived()
      // Never answered: the purchase is in flight when the signal comes.
      return new Promise<Reply>(() => {})
    })
    const reference = ref()
    const child = spawn(process.execPath, [GW, ...purchaseArgs(reference)], {env: baseEnv({...sandbox.home, GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}), stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)))
    await posted
    child.kill(signal)
    await expect.poll(() => stderr).toContain(`the purchase with reference ${reference} has been sent; waiting for its answer`)
    expect(child.exitCode).toBeNull()
    child.kill(signal)
    expect(await exited).toBe(code)
    expect(stdout).toBe('')
    expect(stderr).toContain(`The purchase with reference ${reference} may have reached the gateway. Do not resend it until you have checked: gw purchase get ${reference}`)
    expect(posts('/v1.0/purchases', reference)).toBe(1)
  })

  it('a terminal that goes away during a purchase: its hangup is a SIGHUP, writes to it fail (EIO), and gw still exits 129, sent once', async () => {
    let arrived: () => void = () => {}
    const posted = new Promise<void>((resolve) => (arrived = resolve))
    let answer: () => void = () => {}
    const answered = new Promise<void>((resolve) => (answer = resolve))
    const {url, posts} = await inFront(async (request) => {
      if (!isPurchasePost(request)) return undefined
      arrived()
      await answered
      return forward(sandbox.url, request)
    })
    const reference = ref('hangup')
    const ended = join(mkdtempSync(join(tmpdir(), 'gw-hangup-')), 'ended.json')
    // gw runs on the terminal under a program that outlives it and writes down how gw ended.
    const outlive = join(import.meta.dirname, '..', 'fixtures', 'outlive-terminal.cjs')
    const t = terminal([...purchaseArgs(reference), '--yes'], {...sandbox.home, GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}, {program: [process.execPath, outlive, ended, process.execPath, GW]})
    try {
      await posted
    } finally {
      t.close()
    }
    // gw shares its supervisor's process group, and so its hangup: the answer comes after it.
    await until("the terminal's hangup", () => existsSync(`${ended}.hangup`))
    answer()
    // Before, the first write after the hangup (saying what gw waits for) failed, and gw ended there: exit 1.
    expect(JSON.parse(await until('gw to end', () => existsSync(ended) && readFileSync(ended, 'utf8')))).toEqual({code: 129, signal: null})
    expect(posts('/v1.0/purchases', reference)).toBe(1)
  })

  it.each([
    ['SIGINT', 130, 'Ctrl-C'],
    ['SIGTERM', 143, 'SIGTERM'],
  ] as const)('%s once, during a slow purchase: the outcome is printed, sent once, then exit %i', async (signal, code, name) => {
    let arrived: () => void = () => {}
    const posted = new Promise<void>((resolve) => (arrived = resolve))
    const {url, posts} = await inFront(async (request) => {
      if (!isPurchasePost(request)) return undefined
      arrived()
      await new Promise((resolve) => setTimeout(resolve, 800))
      return forward(sandbox.url, request)
    })
    const reference = ref()
    const child = spawn(process.execPath, [GW, ...purchaseArgs(reference)], {env: baseEnv({...sandbox.home, GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}), stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)))
    await posted
    child.kill(signal)
    expect(await exited).toBe(code)
    expect(JSON.parse(stdout)).toMatchObject({reference, successful: true, amount: 1000})
    expect(stderr).toBe(`\n${name}: the purchase with reference ${reference} has been sent; waiting for its answer to show what became of it (${name} again to stop at once, leaving it unknown).\n`)
    expect(posts('/v1.0/purchases', reference)).toBe(1)
  })
})

describeOnce('8. errors about flags never repeat card data', () => {
  it('--card - with --cvv names the flag, not the CVV', async () => {
    const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card', '-', '--cvv', '987'], {stdin: '{}'})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--cvv cannot also be provided when using --card')
    expect(result.stderr).not.toContain('987')
  })

  it('--card-token with --card-number never shows the number', async () => {
    const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card-token', 'abcdefghij0123456789', '--card-number', CARDS.mastercard])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('cannot also be provided when using')
    expect(result.stderr).not.toContain(CARDS.mastercard)
    expect(result.stderr).not.toContain('abcdefghij0123456789')
  })

  it('an unexpected argument that is a card number is masked', async () => {
    const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card-token', 'abcdefghij0123456789', CARDS.visa])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: gw purchase create takes no argument "424242XXXXXX4242"')
    expect(result.stderr).not.toContain(CARDS.visa)
  })
})

describeOnce('9. a card number typed as --card-token, and --verbose', () => {
  it('is refused locally (exit 2), masked in the error and in the --verbose log, and nothing is sent', async () => {
    const {url, received} = await inFront()
    const result = await gwAt(url, ['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card-token', CARDS.visa, '--verbose'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: --card-token 424242XXXXXX4242 is a card number, not a token or alias: nothing was sent')
    expect(result.stderr).not.toContain(CARDS.visa)
    expect(received).toHaveLength(0)
  })

  it("--verbose shows the gateway's masked card_number as it came, not masked again", async () => {
    const created = (await sandbox.gw([...purchaseArgs(ref()), '--json'])).json as {id: string}
    const result = await sandbox.gw(['purchase', 'get', created.id, '--verbose', '--json'])
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('"card_number":"424242XXXXXX4242"')
    expect(result.stderr).not.toContain('"card_number":"XXXXXXXXXX"')
  })
})
