import {expect, it} from 'vitest'
import {writeTemp} from './batch-helpers.js'
import {ANSWERS, cardArgs, describeInBothDialects, errorJson, ref, type Sandbox, sharedSandbox} from './helpers.js'

// Words that match what happened, against each dialect of the local gateway: a batch row's miss
// says what the command with one key says, and a reference refused as taken, looked up
// and found as another record's id, is said as found by that id.
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

type Purchase = {id: string; reference: string; card_token: string}

async function made(args: string[], reference = ref('miss')): Promise<Purchase> {
  const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), ...args, '--json'])
  expect(result.code, result.stderr).toBe(0)
  return result.json as Purchase
}

const UNKNOWN = '071-P-ZZZZZZZ9'

describeInBothDialects("a batch row's miss says what the command with one key says", () => {
  it('gw refund create: a purchase that is not there, given alone or as a row, is said as tried by id and reference', async () => {
    const nosuch = ref('nosuch')
    const said = (key: string) => `No purchase has the id or reference ${key}: ${ANSWERS.purchaseNotFound}`
    for (const args of [['--transaction-id', nosuch], ['--transaction-id', nosuch, '--amount', '100']]) {
      const one = await sandbox.gw(['refund', 'create', ...args])
      expect(one.code, one.stderr).toBe(5)
      expect(one.stderr).toMatch(new RegExp(`^Error: ${said(nosuch)} \\(HTTP 404, request-id [^)]+\\)\nHint: gw purchase list finds purchases, newest first, by --reference, --status, --card, --amount, --holder, --from and --to\\.\n$`))
    }
    // In full, the row's purchase is looked up first: the same words, the gateway's kept after them, and nothing sent.
    const batch = await sandbox.gw(['refund', 'create', '--input', writeTemp('refunds.csv', `transaction_id,amount\n${nosuch},\n`)])
    expect(batch.code, batch.stderr).toBe(5)
    expect(batch.records).toEqual([
      {row: 1, line: 2, reference: null, status: 'rejected', exit_code: 5, error: {kind: 'not_found', status: 404, messages: [said(nosuch), ANSWERS.purchaseNotFound], request_id: expect.any(String)}},
    ])
  })

  it('gw purchase capture --input: the good row captured, the unknown one exit 5 in gw\'s words, the gateway\'s kept after them', async () => {
    const good = await made(['--no-capture'])
    const nosuch = ref('nosuch')
    const file = writeTemp('captures.csv', `id,amount\n${good.id},\n${UNKNOWN},100\n${nosuch},\n`)
    const batch = await sandbox.gw(['purchase', 'capture', '--input', file])
    expect(batch.code, batch.stderr).toBe(5)
    const rows = (batch.records as {row: number}[]).sort((a, b) => a.row - b.row)
    expect(rows[0]).toMatchObject({row: 1, line: 2, reference: good.id, status: 'approved', exit_code: 0, record: {id: good.id, captured_amount: 1000}})
    const said = (key: string) => `No purchase has the id or reference ${key}: ${ANSWERS.purchaseNotFound}`
    for (const [row, key] of [[rows[1], UNKNOWN], [rows[2], nosuch]] as const) {
      expect(row).toEqual({
        row: key === UNKNOWN ? 2 : 3,
        line: key === UNKNOWN ? 3 : 4,
        reference: key,
        status: 'rejected',
        exit_code: 5,
        error: {kind: 'not_found', status: 404, messages: [said(key), ANSWERS.purchaseNotFound], request_id: expect.any(String)},
      })
    }
    // The command with one key says the same words.
    const one = await sandbox.gw(['purchase', 'capture', UNKNOWN, '--amount', '100'])
    expect(one.code).toBe(5)
    expect(one.stderr).toMatch(new RegExp(`^Error: ${said(UNKNOWN)} \\(HTTP 404, request-id [^)]+\\)\n`))
  })

  it('gw purchase void --input: the good id voided, the unknown one exit 5 in the same words, its JSON the gateway\'s messages as for one key', async () => {
    const good = await made(['--no-capture'])
    const file = writeTemp('voids.csv', `id\n${good.id}\n${UNKNOWN}\n`)
    const voided = await sandbox.gw(['purchase', 'void', '--input', file, '--json'])
    expect(voided.code).toBe(5)
    expect(voided.records).toMatchObject([{id: good.id, message: 'Voided'}])
    const lines = voided.stderr.split('\n')
    expect(lines[0]).toMatch(new RegExp(`^Error: No purchase has the id or reference ${UNKNOWN}: ${ANSWERS.purchaseNotFound} \\(HTTP 404, request-id [^)]+\\)$`))
    expect(JSON.parse(lines[2]!)).toEqual({
      error: {kind: 'not_found', id: UNKNOWN, status: 404, messages: [ANSWERS.purchaseNotFound], request_id: expect.any(String), exit_code: 5, hint: 'gw purchase list finds purchases, newest first, by --reference, --status, --card, --amount, --holder, --from and --to.'},
    })
    expect(voided.stderr).toContain('Error: 1 of 2 failed\n')
    const one = await sandbox.gw(['purchase', 'void', UNKNOWN, '--json'])
    expect(one.code).toBe(5)
    expect(one.stderr.split('\n')[0]).toBe(lines[0]!.replace(/request-id [^)]+/, one.stderr.match(/request-id [^)]+/)![0]))
    expect(errorJson(one)).toMatchObject({error: {kind: 'not_found', status: 404, messages: [ANSWERS.purchaseNotFound], exit_code: 5}})
  })
})

describeInBothDialects("a reference that is another record's id", () => {
  it('gw purchase create --reference ID: refused as taken, the purchase found by its id named so, nothing made (exit 7)', async () => {
    const other = await made([], ref('held'))
    const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', other.id, ...cardArgs()])
    expect(result.code).toBe(7)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      `Error: The gateway refused reference ${other.id} as already taken, and nothing was made. Looking ${other.id} up found purchase ${other.id} by its id (its reference is "${other.reference}"), not by reference.\n` +
        'Hint: Give this purchase a reference of its own.\n',
    )
  })

  it('gw refund create --reference ID: the same for a refund', async () => {
    const purchase = await made([])
    const first = await sandbox.gw(['refund', 'create', '--transaction-id', purchase.id, '--amount', '100', '--reference', ref('rf'), '--json'])
    expect(first.code, first.stderr).toBe(0)
    const refund = first.json as {id: string; reference: string}
    const result = await sandbox.gw(['refund', 'create', '--transaction-id', purchase.id, '--amount', '100', '--reference', refund.id])
    expect(result.code).toBe(7)
    expect(result.stderr).toBe(
      `Error: The gateway refused reference ${refund.id} as already taken, and nothing was made. Looking ${refund.id} up found refund ${refund.id} by its id (its reference is "${refund.reference}"), not by reference.\n` +
        'Hint: Give this refund a reference of its own.\n',
    )
  })

  it('a batch row: looked up before sending, found by its id, and nothing sent (exit 7)', async () => {
    const other = await made([])
    const file = writeTemp('purchases.csv', `card_token,amount,reference\n${other.card_token},1000,${other.id}\n`)
    const batch = await sandbox.gw(['purchase', 'create', '--input', file])
    expect(batch.code).toBe(7)
    expect(batch.records).toEqual([
      {
        row: 1,
        line: 2,
        reference: other.id,
        status: 'rejected',
        exit_code: 7,
        error: {
          kind: 'rejected',
          status: null,
          messages: [`Reference ${other.id} is the id of another purchase: looking it up found purchase ${other.id} by its id (its reference is "${other.reference}"), not by reference. Nothing was sent.`],
          request_id: null,
          hint: 'Give this purchase a reference of its own.',
        },
      },
    ])
  })
})
