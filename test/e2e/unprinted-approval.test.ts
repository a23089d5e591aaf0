import {spawn} from 'node:child_process'
import {expect, it} from 'vitest'
import {baseEnv, CARD_JSON, cardArgs, describeOnce, GW, ref, runProgram, type Sandbox, sharedSandbox} from './helpers.js'

// An approved purchase or refund whose record cannot be printed (stdout full, or
// its reader gone) is said to be approved on stderr, with its id and reference, so that no script
// resends it; the exit code stays design.md §4's (1 for a write that failed, 141 for a reader gone).
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

/** gw run by bash with stdout sent where `redirect` says. */
const gwInto = (args: string[], redirect: string) =>
  runProgram('bash', ['-c', `node ${GW} ${args.map((arg) => `'${arg}'`).join(' ')} ${redirect}`], {env: sandbox.env()})

const purchaseArgs = (reference: string, extra: string[] = []) => ['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), ...extra]

async function idOf(noun: 'purchase' | 'refund', reference: string): Promise<string> {
  const found = await sandbox.gw([noun, 'get', reference, '--json'])
  expect(found.code, found.stderr).toBe(0)
  return (found.json as {id: string}).id
}

// What gw says when stdout fails it: no dialect changes a purchase's or refund's id, reference or approval.
describeOnce('an approval whose record cannot be printed', () => {
  it('purchase create > /dev/full: exit 1, and one line says it was approved, its id and reference, and not to resend it', async () => {
    const reference = ref('full')
    const run = await gwInto(purchaseArgs(reference), '> /dev/full')
    expect(run.code).toBe(1)
    const id = await idOf('purchase', reference)
    expect(run.stderr).toBe(
      `The purchase was approved (id ${id}, reference ${reference}), but its record could not be printed: do not resend it; gw purchase get ${reference} shows it.\n` +
        'Error: stdout could not be written (ENOSPC): what was printed there is incomplete\n',
    )
  })

  it('purchase create --json with its reader gone: exit 141, the same line before the error object', async () => {
    const reference = ref('gone')
    const child = spawn(process.execPath, [GW, 'purchase', 'create', '--amount', '1000', '--reference', reference, '--card', '-', '--json'], {env: baseEnv(sandbox.env()), stdio: ['pipe', 'pipe', 'pipe']})
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    // The reader is gone before gw has the card it waits for on stdin, so before the purchase is sent.
    await new Promise((resolve) => child.stdout.once('close', resolve).destroy())
    child.stdin.end(CARD_JSON)
    expect(await exited).toBe(141)
    const id = await idOf('purchase', reference)
    const lines = stderr.split('\n')
    expect(lines[0]).toBe(`The purchase was approved (id ${id}, reference ${reference}), but its record could not be printed: do not resend it; gw purchase get ${reference} shows it.`)
    // The closed pipe itself is silent: exit 141 says it.
    expect(lines.slice(1)).toEqual([''])
  })

  it('refund create > /dev/full: exit 1, the same line for the refund', async () => {
    const purchase = ref('order')
    expect((await sandbox.gw(purchaseArgs(purchase))).code).toBe(0)
    const reference = ref('refund')
    const run = await gwInto(['refund', 'create', '--transaction-id', purchase, '--amount', '400', '--reference', reference], '> /dev/full')
    expect(run.code).toBe(1)
    const id = await idOf('refund', reference)
    expect(run.stderr.split('\n')[0]).toBe(`The refund was approved (id ${id}, reference ${reference}), but its record could not be printed: do not resend it; gw refund get ${reference} shows it.`)
  })

  it('printed whole, nothing more is said', async () => {
    const run = await gwInto(purchaseArgs(ref('printed')), '> /dev/null')
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
  })
})
