import {spawn} from 'node:child_process'
import {expect, it} from 'vitest'
import {baseEnv, CARD_JSON, cardArgs, CARDS, describeOnce, GW, ref, runProgram, type Sandbox, sharedSandbox} from './helpers.js'
import {DEV_FULL} from '../only-on.js'
import {writeTemp} from './batch-helpers.js'

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

// stderr is for people: when it cannot be written (`2>> gw.log` on a full disk, a logger gone), gw
// has no one to tell, goes on, and exits with the outcome, which is what a script reads.
describeOnce('stderr that cannot be written', () => {
  it.skipIf(DEV_FULL.skip)(`purchase create 2> /dev/full: the approval printed, exit 0${DEV_FULL.note}`, async () => {
    const reference = ref('err-full')
    const run = await gwInto(purchaseArgs(reference, ['--json']), '2> /dev/full')
    expect(run.code).toBe(0)
    expect(run.json).toMatchObject({reference, successful: true, message: 'Approved', id: await idOf('purchase', reference)})
  })

  it.skipIf(DEV_FULL.skip)(`a failure's exit code is still its own: not found 5, a decline 3, a usage error 2${DEV_FULL.note}`, async () => {
    expect((await gwInto(['purchase', 'get', ref('missing')], '2> /dev/full')).code).toBe(5)
    const declined = await gwInto(['purchase', 'create', '--amount', '1000', '--reference', ref('declined'), ...cardArgs(CARDS.declined), '--json'], '2> /dev/full')
    expect(declined.code).toBe(3)
    expect(declined.json).toMatchObject({successful: false})
    expect((await gwInto(['purchase', 'create', '--amount', 'ten'], '2> /dev/full')).code).toBe(2)
  })

  it("a batch whose stderr's reader is gone: every row sent once and printed, exit 0", async () => {
    const purchase = ref('order')
    expect((await sandbox.gw(purchaseArgs(purchase))).code).toBe(0)
    const prefix = ref('err-gone')
    const rows = Array.from({length: 20}, (_, i) => `${purchase},10,${prefix}-${i}`)
    const input = writeTemp('refunds.csv', ['transaction_id,amount,reference', ...rows].join('\n') + '\n')
    const child = spawn(process.execPath, [GW, 'refund', 'create', '--input', input], {env: baseEnv(sandbox.env()), stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    // Gone before gw writes anything there: its first words (the journal's place) meet a closed pipe.
    child.stderr.destroy()
    expect(await exited).toBe(0)
    const printed = stdout.trim().split('\n').map((line) => JSON.parse(line) as {reference: string; status: string})
    expect(printed.map((row) => row.status)).toEqual(rows.map(() => 'approved'))
    expect(printed.map((row) => row.reference).sort()).toEqual(rows.map((_, i) => `${prefix}-${i}`).sort())
  })
})
