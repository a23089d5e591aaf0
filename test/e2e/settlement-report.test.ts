import {expect, it} from 'vitest'
import {apiRequestsSince, cardArgs, describeInBothDialects, describeOnce, ref, requestLogCursor, type Sandbox, sharedSandbox} from './helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

type Row = Record<string, unknown> & {day: string; currency: string}

/** A purchase made in Swiss francs, the currency no other row of this file's gateway uses. */
async function purchase(amount: number, ...more: string[]): Promise<{id: string; settlement_date: string | null}> {
  const made = await sandbox.gw(['purchase', 'create', '--amount', String(amount), '--currency', 'CHF', '--reference', ref('settle'), ...cardArgs(), ...more, '--json'])
  expect([0, 3], made.stderr).toContain(made.code)
  return made.json as {id: string; settlement_date: string | null}
}

const chf = (rows: Row[]) => rows.filter((row) => row.currency === 'CHF')

describeInBothDialects('gw report --settlement: what settles on a day', () => {
  it('adds to the day what its settlement holds: captured, captured in part, voided; never a decline nor an open authorization', async () => {
    const captured = await purchase(2500)
    const authorized = await purchase(1000, '--no-capture')
    expect((await sandbox.gw(['purchase', 'capture', authorized.id, '--amount', '600'])).code).toBe(0)
    const voided = await purchase(700)
    expect((await sandbox.gw(['purchase', 'void', voided.id])).code).toBe(0)
    await purchase(10051) // declined by the test rule of the cents
    await purchase(900, '--no-capture') // never captured: not in the look-up
    const day = captured.settlement_date!

    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(['report', '--on', day, '--settlement', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe('')
    // It adds one request: the look-up.
    const lookUps = (await apiRequestsSince(sandbox, cursor)).filter((request) => request.path.startsWith('/v1.0/purchases/settlement'))
    expect(lookUps.map((request) => [request.method, request.path, request.status])).toEqual([['GET', '/v1.0/purchases/settlement', 200]])
    expect(chf(result.records as Row[])).toEqual([
      {
        // Money that moved: what was captured (not what was authorized), no void, no authorization left uncaptured (counted apart).
        day, currency: 'CHF', purchases_approved: 2, purchases_approved_amount: 2500 + 600, purchases_uncaptured: 1, purchases_uncaptured_amount: 900, purchases_voided: 1, purchases_declined: 1,
        refunds: 0, refunds_amount: 0, refunds_voided: 0, plan_payments: 0, plan_payments_amount: 0, direct_debits: 0, direct_debits_amount: 0, net: 2500 + 600,
        settling: 2, settling_amount: 2500 + 600, settling_voided: 1,
      },
    ])
    // Every row says it, none settling included; without the flag no row has the fields (scripts see the shape they knew).
    for (const row of result.records as Row[]) expect(row).toHaveProperty('settling_amount')
    const plain = await sandbox.gw(['report', '--on', day, '--json'])
    expect(plain.code).toBe(0)
    for (const row of plain.records as Row[]) expect(Object.keys(row)).not.toContain('settling')
  })

  it('shows the settlement columns in the table on a terminal width, and not without the flag', async () => {
    const captured = await purchase(1200)
    const day = captured.settlement_date!
    const table = await sandbox.gw(['report', '--on', day, '--settlement'], {env: {GW_FORCE_TTY: '200'}})
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain('Settling amount')
    const plain = await sandbox.gw(['report', '--on', day], {env: {GW_FORCE_TTY: '200'}})
    expect(plain.stdout).not.toContain('Settling')
  })

  // Last: the gateway's clock moves on for the rest of the file.
  it('a day ahead with nothing made but a capture settling gets a row of its own', async () => {
    const authorized = await purchase(4200, '--no-capture')
    const advanced = await sandbox.gw(['sandbox', 'clock', 'advance', '--days', '1', '--json'])
    expect(advanced.code, advanced.stderr).toBe(0)
    const capture = await sandbox.gw(['purchase', 'capture', authorized.id, '--json'])
    expect(capture.code, capture.stderr).toBe(0)
    const day = (capture.json as {settlement_date: string}).settlement_date
    const result = await sandbox.gw(['report', '--on', day, '--settlement', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(chf(result.records as Row[])).toEqual([
      {
        day, currency: 'CHF', purchases_approved: 0, purchases_approved_amount: 0, purchases_uncaptured: 0, purchases_uncaptured_amount: 0, purchases_voided: 0, purchases_declined: 0, refunds: 0, refunds_amount: 0, refunds_voided: 0,
        plan_payments: 0, plan_payments_amount: 0, direct_debits: 0, direct_debits_amount: 0, net: 0, settling: 1, settling_amount: 4200, settling_voided: 0,
      },
    ])
  })
})

// Refused by gw itself, nothing asked: no answer of a gateway's decides it.
describeOnce('gw report --settlement: what it refuses before asking the gateway', () => {
  it('needs a first day (exit 2, nothing asked of the gateway)', async () => {
    const cursor = await requestLogCursor(sandbox)
    const result = await sandbox.gw(['report', '--to', 'today', '--settlement'])
    expect(result.code).toBe(2)
    expect(await apiRequestsSince(sandbox, cursor)).toEqual([])
    expect(result.stderr).toBe("Error: --settlement needs the window's first day: the gateway's settlement look-up takes both ends\nHint: Give --from or --on too, e.g. --on friday --settlement.\n")
    expect(result.stdout).toBe('')
  })
})

describeInBothDialects('gw purchase settlement: the same days as lists and the report, and what reaches the bank', () => {
  it('takes a named day (--on today, a weekday, --from 7d) where it refused one (exit 2)', async () => {
    const captured = await purchase(1200)
    const today = new Date().toLocaleDateString('sv')
    const weekday = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'][new Date().getDay()]!
    for (const days of [['--on', 'today'], ['--on', weekday], ['--from', '7d'], ['--from', 'yesterday', '--to', 'today']]) {
      const result = await sandbox.gw(['purchase', 'settlement', ...days])
      expect(result.code, `${days.join(' ')}: ${result.stderr}`).toBe(0)
      // The day the local gateway settles a capture on is this machine's when it runs here.
      if (captured.settlement_date === today) expect(result.records.map((record) => (record as {id: string}).id)).toContain(captured.id)
    }
    const refused = await sandbox.gw(['purchase', 'settlement', '--on', '7d'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--on must be a day')
  })

  it('leaves out a declined purchase, which settles nothing, saying so; --include-declined lists it', async () => {
    const captured = await purchase(1300)
    const declined = await purchase(10051)
    const day = captured.settlement_date!
    const result = await sandbox.gw(['purchase', 'settlement', '--on', day])
    expect(result.code, result.stderr).toBe(0)
    const ids = result.records.map((record) => (record as {id: string}).id)
    expect(ids).toContain(captured.id)
    expect(ids).not.toContain(declined.id)
    expect(result.stderr).toMatch(/^Left out \d+ declined purchases? the look-up lists, which settle nothing; --include-declined lists them\.\n$/)
    const all = await sandbox.gw(['purchase', 'settlement', '--on', day, '--include-declined'])
    expect(all.code, all.stderr).toBe(0)
    expect(all.records.map((record) => (record as {id: string}).id)).toContain(declined.id)
    expect(all.stderr).toBe('')
  })
})
