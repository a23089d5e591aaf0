import {afterEach, beforeAll, expect, it} from 'vitest'
import {terminal, type Terminal} from './auth-helpers.js'
import {apiRequestsSince, cardArgs, describeOnce, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'

// gh's habits in the built gw (bin/run.js's pre-parser, not only the in-process parse): --json
// FIELDS, -q for --jq, and JSON pretty and coloured at a terminal, gw api's included. Once: they
// read a purchase both dialects answer alike (finding-records.test.ts lists in both).
let sandbox: Sandbox
const open: Terminal[] = []
let purchase: {id: string; reference: string; amount: number}

sharedSandbox((started) => void (sandbox = started))

beforeAll(async () => {
  const reference = ref('habit')
  const made = await sandbox.gw(['purchase', 'create', '--amount', '1200', '--reference', reference, ...cardArgs(), '--json'])
  expect(made.code, made.stderr).toBe(0)
  purchase = {id: (made.json as {id: string}).id, reference, amount: 1200}
})

afterEach(() => {
  for (const t of open.splice(0)) t.close()
})

function run(args: string[], env: NodeJS.ProcessEnv = {}): Terminal {
  const t = terminal(args, sandbox.env(env), {width: 120})
  open.push(t)
  return t
}

describeOnce("--json FIELDS picks fields, as gh's does", () => {
  it.each([
    [['purchase', 'get', 'REF', '--json', 'id,amount']],
    [['purchase', 'get', '--json', 'id,amount', 'REF']],
    [['--json', 'id,amount', 'purchase', 'get', 'REF']],
    [['purchase', 'get', 'REF', '--json=id,amount']],
    [['purchase', '--json', 'id,amount', 'get', 'REF']],
  ])('%j prints the purchase with those fields alone, and asks the gateway for nothing else', async (typed) => {
    const argv = typed.map((arg) => (arg === 'REF' ? purchase.reference : arg))
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(argv)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe(`{"id":"${purchase.id}","amount":1200}\n`)
    // One look-up, of the purchase: `id,amount` was never taken for a second id.
    expect((await apiRequestsSince(sandbox, cursor)).map(({method, path}) => `${method} ${path}`)).toEqual([`GET /v1.0/purchases/${purchase.reference}`])
  })

  it('on a list, in the order named; a name its records lack is refused before anything is sent (exit 2)', async () => {
    const listed = await sandbox.gw(['purchase', 'list', '--reference', purchase.reference, '--json', 'reference,id'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toBe(`{"reference":"${purchase.reference}","id":"${purchase.id}"}\n`)
    const cursor = await requestLogCursor(sandbox)
    const typo = await sandbox.gw(['purchase', 'get', purchase.reference, '--json', 'id,amout'])
    expect(typo.code).toBe(2)
    expect(typo.stderr).toMatch(/^Error: --json FIELDS or --fields: no such field amout\nHint: The fields of gw purchase get's records: /)
    expect(await apiRequestsSince(sandbox, cursor)).toEqual([])
  })

  it.each([
    [['api', `/v1.0/purchases/${'ID'}`, '--json', 'id,amount'], "--json FIELDS and --fields pick the fields of a command's records, and gw api prints its JSON as it is", 'Pick from it with --jq: --jq .response.id from an answer, --jq .id from each record of --paginate.'],
    [['api', '/v1.0/purchases', '--paginate', '--fields', 'id'], "--json FIELDS and --fields pick the fields of a command's records, and gw api prints its JSON as it is", 'Pick from it with --jq: --jq .response.id from an answer, --jq .id from each record of --paginate.'],
    [['api', `/v1.0/purchases/${'ID'}`, '--json', 'amount'], '/v1.0/purchases/ID is the PATH, so amount is one word too many', '--json takes no fields with gw api, which prints its JSON as it is; pick from it with --jq: --jq .response.amount from an answer, --jq .amount from each record of --paginate.'],
  ])('gw api %j: refused (exit 2), pointing to --jq; nothing sent', async (args, message, hint) => {
    const cursor = await requestLogCursor(sandbox)
    const refused = await sandbox.gw(args.map((arg) => arg.replace('ID', purchase.id)))
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr.split('\n').slice(0, 2)).toEqual([`Error: ${message.replace('ID', purchase.id)}`, `Hint: ${hint}`])
    expect(await apiRequestsSince(sandbox, cursor)).toEqual([])
  })

  it('--json alone keeps its meaning, and a reference after it is still one', async () => {
    const whole = await sandbox.gw(['purchase', 'get', '--json', purchase.reference])
    expect(whole.code, whole.stderr).toBe(0)
    expect(whole.json).toMatchObject({id: purchase.id, reference: purchase.reference, amount: 1200, successful: true})
    expect(Object.keys(whole.json as object).length).toBeGreaterThan(5)
  })
})

describeOnce('-q is --jq', () => {
  it('before or after the command words', async () => {
    for (const argv of [['purchase', 'get', purchase.reference, '-q', '.amount'], ['-q', '.reference', 'purchase', 'get', purchase.id]]) {
      const result = await sandbox.gw(argv)
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toBe(argv.includes('.amount') ? '1200\n' : `${purchase.reference}\n`)
    }
  })
})

const ESC = '\u001B'
// A key, as the terminal shows it: blue, then the colour set back.
const blueKey = (key: string) => new RegExp(`${ESC}\\[34m"${key}"${ESC}\\[39m: `)

describeOnce('JSON at a terminal: pretty and coloured; NO_COLOR and a pipe turn the colour off', () => {
  it('--json at a terminal (tmux): keys blue, strings green, numbers cyan', async () => {
    const t = run(['purchase', 'get', purchase.reference, '--json', 'id,amount,successful'])
    expect(await t.waitFor(/\[exit \d+\]/)).toContain('[exit 0]')
    const screen = t.screen(true)
    expect(screen).toMatch(blueKey('id'))
    expect(screen).toContain(`${ESC}[32m"${purchase.id}"${ESC}[39m,`)
    expect(screen).toMatch(new RegExp(`^  ${ESC}\\[34m"amount"${ESC}\\[39m: ${ESC}\\[36m1200${ESC}\\[39m,$`, 'm'))
    expect(screen).toContain(`${ESC}[33mtrue`)
    expect(t.screen()).toContain(`{\n  "id": "${purchase.id}",\n  "amount": 1200,\n  "successful": true\n}\n[exit 0]`)
  })

  it('NO_COLOR: pretty, without colour', async () => {
    const t = run(['purchase', 'get', purchase.reference, '--json', 'id,amount'], {NO_COLOR: '1'})
    expect(await t.waitFor(/\[exit \d+\]/)).toContain(`{\n  "id": "${purchase.id}",\n  "amount": 1200\n}\n[exit 0]`)
    expect(t.screen(true)).not.toContain(`${ESC}[34m`)
  })

  it('gw api at a terminal: the answer pretty and coloured; piped, the bytes as they came, on one line', async () => {
    const t = run(['api', `/v1.0/purchases/${purchase.reference}`])
    expect(await t.waitFor(/\[exit \d+\]/)).toContain('[exit 0]')
    expect(t.screen()).toMatch(/^{\n {2}"successful": true,\n {2}"response": {\n {4}"/m)
    expect(t.screen(true)).toMatch(blueKey('successful'))
    const piped = await sandbox.gw(['api', `/v1.0/purchases/${purchase.reference}`])
    expect(piped.code).toBe(0)
    expect(piped.stdout.split('\n')).toHaveLength(2)
    expect(piped.stdout).not.toContain(ESC)
    expect(JSON.parse(piped.stdout)).toMatchObject({successful: true, response: {id: purchase.id}})
  })
})
