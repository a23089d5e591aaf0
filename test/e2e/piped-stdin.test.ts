import {expect, it} from 'vitest'
import {writeTemp} from './batch-helpers.js'
import {ANSWERS, apiRequestsSince, describeInBothDialects, describeOnce, GW, purchasedAtGateway, ref, requestLogCursor, runProgram, type Sandbox, sharedSandbox} from './helpers.js'

// stdin is read only where a flag says `-` (--input -, --data -): never as an id left out, nor as
// gw api's PATH. A script's piped lines stay for the script (a `while read` loop's), and a missing
// id without a terminal is a usage error naming it, with nothing sent (design.md §1).
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

/** `script` run by sh with `gw` as a shell function running the built gw against this file's gateway. */
const shell = (script: string, stdin: string) => runProgram('/bin/sh', ['-c', `gw() { "$GW_NODE" "$GW_JS" "$@"; }\n${script}`], {env: sandbox.env({GW_NODE: process.execPath, GW_JS: GW}), stdin})

const authorization = async () => purchasedAtGateway(sandbox, {amount: 1000, reference: ref('loop'), capture: false})
const purchase = async (key: string) => (await sandbox.gw(['purchase', 'get', key, '--json'])).json as {amount: number; captured: boolean; captured_amount: number}

// Refused by gw itself, nothing sent: no answer of a gateway's decides it.
describeOnce('an id left out, with stdin piped: refused naming it (exit 2), stdin left unread, nothing sent', () => {
  it.each([
    [['purchase', 'capture', '--amount', '500'], 'give the id or reference of the authorization to capture, or --input FILE'],
    [['purchase', 'increment', '--amount', '1500'], 'Missing 1 required arg:\nid  id or reference of the authorization to raise'],
  ])('gw %j', async (args, named) => {
    const auth = await authorization()
    const result = await shell(`gw ${args.join(' ')}; echo "exit $?"; cat`, `${auth.reference}\nnext line\n`)
    expect(result.stderr).toContain(named)
    expect(result.stdout).toBe(`exit 2\n${auth.reference}\nnext line\n`)
    expect(await purchase(auth.id)).toMatchObject({amount: 1000, captured: false, captured_amount: 0})
  })

  it('gw customer delete --yes', async () => {
    const created = await sandbox.gw(['customer', 'create', '--first-name', 'Jo', '--last-name', 'Piped', '--email', 'jo@example.com', '--reference', ref('cust'), '--card-holder', 'Jo Piped', '--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123', '--json'])
    expect(created.code, created.stderr).toBe(0)
    const {id} = created.json as {id: string}
    const result = await shell('gw customer delete --yes; echo "exit $?"; cat', `${id}\n`)
    expect(result.stderr).toContain('Missing 1 required arg:\nid  id or reference of the customer')
    expect(result.stdout).toBe(`exit 2\n${id}\n`)
    expect((await sandbox.gw(['customer', 'get', id])).code).toBe(0)
  })

  it('in a while-read loop, an empty $id captures nothing and eats no line of the loop', async () => {
    const [a, b] = [await authorization(), await authorization()]
    const ids = writeTemp('ids.txt', `${a.reference}\n${b.reference}\n`)
    const result = await shell(`while read id; do gw purchase capture $EMPTY --amount 500; echo "$id: exit $?"; done < '${ids}'`, '')
    expect(result.stdout).toBe(`${a.reference}: exit 2\n${b.reference}: exit 2\n`)
    expect(await purchase(a.id)).toMatchObject({captured: false})
    expect(await purchase(b.id)).toMatchObject({captured: false})
  })
})

describeInBothDialects('a - that says so reads stdin', () => {
  it('gw purchase capture --input - reads the batch from stdin (its help: "- reads stdin")', async () => {
    const auth = await authorization()
    const result = await sandbox.gw(['purchase', 'capture', '--input', '-'], {stdin: `id,amount\n${auth.reference},\n`})
    expect(result.code, result.stderr).toBe(0)
    expect(result.records).toMatchObject([{row: 1, reference: auth.reference, status: 'approved', record: {id: auth.id, captured_amount: 1000}}])
  })

  it('gw api -X POST /v1.0/refunds --data - sends the body piped in', async () => {
    const bought = await purchasedAtGateway(sandbox, {amount: 3000})
    const reference = ref('api-r')
    const result = await sandbox.gw(['api', '-X', 'POST', '/v1.0/refunds', '--data', '-'], {stdin: JSON.stringify({transaction_id: bought.id, amount: 1000, reference})})
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({successful: true, response: {reference}})
  })

  it('gw api -X POST /v1.0/refunds --data @FILE sends the file as the body', async () => {
    const bought = await purchasedAtGateway(sandbox, {amount: 3000})
    const reference = ref('api-f')
    const body = writeTemp('refund.json', JSON.stringify({transaction_id: bought.id, amount: 1200, reference}))
    const result = await sandbox.gw(['api', '-X', 'POST', '/v1.0/refunds', '--data', `@${body}`])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({successful: true, response: {reference, amount: ANSWERS.refundAmount(1200)}})
  })

  it('gw api -F amount=N PATH: a field takes one value, and the PATH after it is the PATH (as gh api)', async () => {
    const bought = await purchasedAtGateway(sandbox, {amount: 3000})
    const reference = ref('api-F')
    const result = await sandbox.gw(['api', '-f', `transaction_id=${bought.id}`, '-F', 'amount=700', '-f', `reference=${reference}`, '/v1.0/refunds'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({successful: true, response: {reference, amount: ANSWERS.refundAmount(700)}})
  })

  it('gw api -X GET PATH in a while-read loop answers each line, and reads none of them', async () => {
    const [a, b] = [await purchasedAtGateway(sandbox), await purchasedAtGateway(sandbox)]
    const ids = writeTemp('ids.txt', `${a.id}\n${b.id}\n`)
    const result = await shell(`while read id; do gw api -X GET /v1.0/purchases/$id; echo "exit $?"; done < '${ids}'`, '')
    const lines = result.stdout.trim().split('\n')
    expect(lines.filter((line) => line.startsWith('exit'))).toEqual(['exit 0', 'exit 0'])
    expect(lines.filter((line) => line.startsWith('{')).map((line) => (JSON.parse(line) as {response: {id: string}}).response.id)).toEqual([a.id, b.id])
  })
})

// Refused by gw itself, nothing sent: no answer of a gateway's decides it.
describeOnce('gw api --data with no body', () => {
  it.each([
    [['--data', '-'], '--data - read nothing from stdin: the request body is missing, and nothing was sent'],
    [['--data', '@EMPTY'], '--data @EMPTY: EMPTY is empty: the request body is missing, and nothing was sent'],
    [['--data', '@/no/such/refund.json'], '--data @/no/such/refund.json: /no/such/refund.json cannot be read: no such file'],
  ])('gw api -X POST /v1.0/refunds %j with no body is refused (exit 2), nothing sent', async (flags, message) => {
    const empty = writeTemp('empty.json', '')
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(['api', '-X', 'POST', '/v1.0/refunds', ...flags.map((flag) => flag.replace('EMPTY', empty))], {stdin: ''})
    expect(result.code).toBe(2)
    expect(result.stderr.split('\n')[0]).toBe(`Error: ${message.replaceAll('EMPTY', empty)}`)
    expect(result.stdout).toBe('')
    expect(await apiRequestsSince(sandbox, cursor)).toEqual([])
  })
})
