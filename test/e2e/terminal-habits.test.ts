import {chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {terminal, type Terminal} from './auth-helpers.js'
import {writeTemp} from './batch-helpers.js'
import {armTrap, CARDS, cardArgs, ref, type Sandbox, sharedSandbox} from './helpers.js'
import {startListen} from './listen-helpers.js'

// The terminal habits gh users expect of a list, against a real local gateway holding
// 40 purchases made in a known order: the i-th of (10 + i) * 100, every fifth declined (10.51).
let sandbox: Sandbox
const references: string[] = []
const open: Terminal[] = []

afterEach(() => {
  for (const t of open.splice(0)) t.close()
})

sharedSandbox(async (started) => {
  sandbox = started
  const card = await sandbox.gw(['card', 'tokenize', '--card-holder', 'Jane Citizen', '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123', '--json'])
  expect(card.code, card.stderr).toBe(0)
  const token = (card.json as {token: string}).token
  const prefix = ref('habit')
  const rows = Array.from({length: 40}, (_, i) => {
    // A letter before the row's number: no reference's digits run on into the amount after it in
    // --jq's @tsv, as a card number's would, which gw masks in every output (ref's random part may end in digits).
    references.push(`${prefix}r${String(i).padStart(2, '0')}`)
    return `${token},${i % 5 === 4 ? 1051 : (10 + i) * 100},${references[i]}`
  })
  const csv = writeTemp('habits.csv', ['card_token,amount,reference', ...rows].join('\n') + '\n')
  // One at a time, so the gateway keeps them in this order.
  const made = await sandbox.gw(['purchase', 'create', '--input', csv, '--concurrency', '1'], {timeoutMs: 60_000})
  expect(made.code, made.stderr).toBe(3)
})

function run(args: string[], {width, height, env}: {width?: number; height?: number; env?: NodeJS.ProcessEnv} = {}): Terminal {
  const t = terminal(args, sandbox.env(env), {width, height})
  open.push(t)
  return t
}

const ESC = '\u001B'
const referencesOf = (records: unknown[]) => records.map((record) => (record as {reference: string}).reference)

describe('-L is --limit', () => {
  it('on every list, as -L N and -LN', async () => {
    const five = await sandbox.gw(['purchase', 'list', '-L', '5'])
    expect(five.code, five.stderr).toBe(0)
    expect(referencesOf(five.records)).toEqual(references.slice(-5).reverse())
    const two = await sandbox.gw(['purchase', 'list', '-L2', '--oldest-first'])
    expect(referencesOf(two.records)).toEqual(references.slice(0, 2))
    for (const noun of ['refund', 'customer', 'subscription', 'plan', 'card', 'webhook']) {
      const listed = await sandbox.gw([noun, 'list', '-L', '1'])
      expect(listed.code, `${noun} list -L 1: ${listed.stderr}`).toBe(0)
    }
    const clash = await sandbox.gw(['purchase', 'list', '-L', '3', '--all'])
    expect(clash.code).toBe(2)
    expect(clash.stderr).toContain('Error: --all cannot also be provided when using --limit')
  })

  it('on gw sandbox logs', async () => {
    const logs = await sandbox.gw(['sandbox', 'logs', '-L', '3'])
    expect(logs.code, logs.stderr).toBe(0)
    expect(logs.records).toHaveLength(3)
  })
})

describe('gw version', () => {
  it('prints what --version prints, answered early or by the command itself', async () => {
    const flag = await sandbox.gw(['--version'])
    expect(flag.stdout).toMatch(/^gw\/\d+\.\d+\.\d+\S* [\w]+-[\w]+ node-v\d+\.\d+\.\d+\n$/)
    const word = await sandbox.gw(['version'])
    expect(word).toMatchObject({code: 0, stdout: flag.stdout, stderr: ''})
    // With a flag it is not answered before oclif loads: the command prints the same line.
    const command = await sandbox.gw(['version', '--no-input'])
    expect(command).toMatchObject({code: 0, stdout: flag.stdout, stderr: ''})
    const extra = await sandbox.gw(['version', 'now'])
    expect(extra.code).toBe(2)
    expect(extra.stderr).toContain('Error: gw version takes no argument "now"')
  })
})

describe('the columns a table keeps on a narrow terminal', () => {
  const header = (text: string) => text.split('\n')[1]!.split('│').map((cell) => cell.trim()).filter(Boolean)
  const at80 = {GW_FORCE_TTY: '80', NO_COLOR: '1'}

  it('gw report keeps Net and Refunded at 80 columns', async () => {
    const report = await sandbox.gw(['report'], {env: at80})
    expect(report.code, report.stderr).toBe(0)
    expect(header(report.stdout)).toEqual(['Day', 'Currency', 'Approved amount', 'Declined', 'Refunded', 'Net'])
  })

  it('a list keeps the id at 100 columns, leaving the card holder out first, without a word', async () => {
    const list = await sandbox.gw(['purchase', 'list', '-L', '2'], {env: {GW_FORCE_TTY: '100', NO_COLOR: '1'}})
    expect(list.code, list.stderr).toBe(0)
    expect(header(list.stdout)).toEqual(['Date', 'Reference', 'Amount', 'Outcome', 'Card', 'Id'])
    expect(list.stderr).not.toMatch(/left out/i)
  })

  it.each([
    ['purchase', /^071-P-[A-Z0-9]{8}$/],
    ['refund', /^071-R-[A-Z0-9]{8}$/],
  ])('a %s list keeps the outcome and the id, whole, the last column to go: at 60 columns and at 40', async (noun, id) => {
    if (noun === 'refund') {
      const refunded = await sandbox.gw(['refund', 'create', '--transaction-id', references[0]!, '--amount', '100', '--reference', ref('narrow'), '--no-input'])
      expect(refunded.code, refunded.stderr).toBe(0)
    }
    for (const width of ['60', '40']) {
      const list = await sandbox.gw([noun, 'list', '-L', '2'], {env: {GW_FORCE_TTY: width, NO_COLOR: '1'}})
      expect(list.code, list.stderr).toBe(0)
      expect(header(list.stdout).slice(-2), `at ${width} columns`).toEqual(['Outcome', 'Id'])
      expect(list.stdout.split('\n')[3]!.split('│').at(-2)!.trim()).toMatch(id)
      expect(list.stderr).toMatch(new RegExp(`^(Reference, )?(Amount, )?Card[^\\n]* left out to fit ${width} columns \\(--fields picks columns\\)\\.\n`, 'm'))
      expect(list.stderr).not.toMatch(/\bId\b/)
    }
  })

  it('gw sandbox deliveries keeps the address at 80 columns', async () => {
    const hook = await sandbox.gw(['webhook', 'create', '--url', 'http://127.0.0.1:9/hooks/habits', '--event', 'card:expiring'])
    expect(hook.code, hook.stderr).toBe(0)
    const triggered = await sandbox.gw(['sandbox', 'trigger', 'card:expiring'])
    expect(triggered.code, triggered.stderr).toBe(0)
    const deliveries = await sandbox.gw(['sandbox', 'deliveries'], {env: at80})
    expect(deliveries.code, deliveries.stderr).toBe(0)
    expect(header(deliveries.stdout)).toEqual(['Event', 'Status', 'Address', 'Last answer'])
    expect(deliveries.stdout).toContain('│ http://127.0.0.1:9/hooks/habits │')
  })
})

describe('a list at a terminal of 60 and of 120 columns (tmux)', () => {
  const rows = (screen: string) => screen.split('\n').filter((line) => line.startsWith('│'))
  const cells = (line: string) => line.split('│').map((cell) => cell.trim()).filter(Boolean)

  it('at 60 columns keeps the outcome, the reference, the amount and the id; one short line says the card was left out', async () => {
    const t = run(['purchase', 'list', '-L', '5'], {width: 60, env: {NO_COLOR: '1'}})
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    for (const line of rows(screen)) expect([...line].length, line).toBeLessThanOrEqual(60)
    const [head, ...body] = rows(screen)
    expect(cells(head!)).toEqual(['Reference', 'Amount', 'Outcome', 'Id'])
    // Approved and declined read apart: the fifth of every five was declined, the latest of them first.
    expect(body.map((line) => cells(line)[2])).toEqual(['Insufficien…', 'Approved', 'Approved', 'Approved', 'Approved'])
    expect(body.map((line) => cells(line)[1])).toEqual(['10.51 AUD', '48.00 AUD', '47.00 AUD', '46.00 AUD', '45.00 AUD'])
    expect(screen).toContain('\nCard left out to fit 60 columns (--fields picks columns).\n')
    expect(screen).not.toContain('Left out to fit')
  })

  it('at 120 columns shows the date whole and says nothing of the columns nobody asked for', async () => {
    const t = run(['purchase', 'list', '-L', '5'], {width: 120, env: {NO_COLOR: '1'}})
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    const [head, first] = rows(screen)
    expect(cells(head!)).toEqual(['Date', 'Reference', 'Amount', 'Outcome', 'Card', 'Id', 'Card holder'])
    expect(cells(first!)).toEqual([expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/), references[39], '10.51 AUD', 'Insufficient Funds', '…4242', expect.stringMatching(/^071-P-/), 'Jane Citizen'])
    expect(screen).not.toMatch(/left out/i)
    // Under the table, only the summary line.
    expect(screen.slice(screen.lastIndexOf('┘') + 1).trim().split('\n')).toEqual([expect.stringMatching(/^Showing 5 of \d+ purchases, newest first; --limit N or --all shows more\.$/), '[exit 0]'])
  })
})

describe('--jq EXPR (gh\'s): each record through a jq expression', () => {
  const declined = () => references.filter((_, i) => i % 5 === 4)

  it('prints what the expression makes, one record at a time, strings raw, anything else as one JSON line', async () => {
    const refs = await sandbox.gw(['purchase', 'list', '-L', '3', '--jq', '.reference'])
    expect(refs).toMatchObject({code: 0, stderr: ''})
    expect(refs.stdout).toBe(references.slice(-3).reverse().join('\n') + '\n')
    const tsv = await sandbox.gw(['purchase', 'list', '-L', '2', '--oldest-first', '--jq', '[.reference, .amount, .successful] | @tsv'])
    expect(tsv.stdout).toBe(`${references[0]}\t1000\ttrue\n${references[1]}\t1100\ttrue\n`)
    const objects = await sandbox.gw(['purchase', 'list', '-L', '2', '--jq', '{reference, amount, card: .card_number}'])
    expect(objects.stdout).toBe(`{"reference":"${references[39]}","amount":1051,"card":"424242XXXXXX4242"}\n{"reference":"${references[38]}","amount":4800,"card":"424242XXXXXX4242"}\n`)
    // Before the command words, as every global flag may be.
    const before = await sandbox.gw(['--jq', '.amount', 'purchase', 'list', '-L', '1'])
    expect(before.stdout).toBe('1051\n')
  })

  it('filters a whole walk of pages: select keeps the declines of --all', async () => {
    const found = await sandbox.gw(['purchase', 'list', '--all', '--oldest-first', '--jq', 'select(.successful | not) | .reference'])
    expect(found.code, found.stderr).toBe(0)
    expect(found.stdout).toBe(declined().join('\n') + '\n')
    const none = await sandbox.gw(['purchase', 'list', '--all', '--jq', 'select(.amount > 100000)'])
    expect(none).toMatchObject({code: 0, stdout: '', stderr: ''})
  })

  it('works on a look-up, a decline (still exit 3), gw api and its pages, a batch\'s rows and gw sandbox logs', async () => {
    const one = await sandbox.gw(['purchase', 'get', references[0]!, '--jq', '.amount'])
    expect(one).toMatchObject({code: 0, stdout: '1000\n'})
    const reference = ref('jq-declined')
    const decline = await sandbox.gw(['purchase', 'create', '--amount', '10051', '--reference', reference, ...cardArgs(), '--jq', '[.reference, .message] | join(": ")'])
    expect(decline.code).toBe(3)
    expect(decline.stdout).toBe(`${reference}: Insufficient Funds\n`)
    const api = await sandbox.gw(['api', '/v1.0/purchases', '--query', 'limit=4', '--jq', '.response | length'])
    expect(api).toMatchObject({code: 0, stdout: '4\n'})
    const paged = await sandbox.gw(['api', '/v1.0/purchases', '--paginate', '--jq', 'select(.amount == 1051) | .reference'])
    // gw api --paginate keeps the gateway's order: newest first, as the local gateway lists like the live one.
    expect(paged.stdout.split('\n').filter(Boolean)).toEqual(declined().toReversed())
    const rows = await sandbox.gw(['purchase', 'get', '--input', writeTemp('refs.txt', `${references[0]}\nno-such-order\n${references[4]}\n`), '--concurrency', '1', '--jq', '.amount'])
    expect(rows.code).toBe(5)
    expect(rows.stdout).toBe('1000\n1051\n')
    const logs = await sandbox.gw(['sandbox', 'logs', '-L', '2', '--jq', '.method'])
    expect(logs).toMatchObject({code: 0, stdout: 'GET\nGET\n'})
  })

  it('refuses an expression jq cannot compile before anything is sent (exit 2), naming the flag and jq\'s error', async () => {
    const armed = await armTrap(sandbox, ['GET', 'POST'])
    const bad = await sandbox.gw(['purchase', 'list', '--jq', '.['])
    expect(bad.code).toBe(2)
    expect(bad.stdout).toBe('')
    expect(bad.stderr).toMatch(/^Error: --jq: syntax error, unexpected end of file at <top-level>, line 1, column 2:\n {4}\.\[\n {5}\^\nHint: The expression is jq's/)
    const unknown = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs(), '--jq', 'nosuchfn'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Error: --jq: nosuchfn/0 is not defined at <top-level>, line 1, column 1:')
    // --jq implies --json: the error object follows on stderr.
    expect(JSON.parse(unknown.stderr.trim().split('\n').at(-1)!)).toMatchObject({error: {kind: 'usage', exit_code: 2}})
    expect(await armed()).toBe(2)
  })

  it('stops at the first record the expression fails on (exit 2), after printing those before it', async () => {
    const failed = await sandbox.gw(['purchase', 'list', '--all', '--oldest-first', '--jq', 'if .successful then .reference else error("declined: \\(.reference)") end'])
    expect(failed.code).toBe(2)
    expect(failed.stdout).toBe(references.slice(0, 4).join('\n') + '\n')
    expect(failed.stderr).toContain(`Error: --jq: declined: ${references[4]} (record 5 of the output; nothing after it was printed)`)
    const typed = await sandbox.gw(['purchase', 'list', '-L', '1', '--oldest-first', '--jq', '.amount | test("1")'])
    expect(typed).toMatchObject({code: 2, stdout: ''})
    expect(typed.stderr).toContain('Error: --jq: number (1000) cannot be matched, as it is not a string (record 1 of the output')
  })

  it('is refused on a command that prints no JSON', async () => {
    const refused = await sandbox.gw(['logout', '--jq', '.'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('Error: --jq filters the JSON a command prints, and gw logout prints none\nHint: Leave --jq out.')
  })

  it('on a terminal: JSON pretty-printed, strings raw, the gateway\'s control characters made visible', async () => {
    const holder = 'Jane\u001B[2J Citizen'
    const bought = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref('jq-tty'), '--card-holder', holder, ...cardArgs().slice(2), '--json'])
    expect(bought.code, bought.stderr).toBe(0)
    const t = run(['purchase', 'get', String((bought.json as {id: string}).id), '--jq', '{amount, currency}, .card_holder'])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('{\n  "amount": 1000,\n  "currency": "AUD"\n}\nJane\\x1B[2J Citizen\n[exit 0]')
  })
})

describe('long tables at a terminal go through the pager', () => {
  /** A pager that keeps what it is given in a file and says how many lines it read. */
  function stubPager(): {command: string; got: () => string | undefined} {
    const dir = mkdtempSync(join(tmpdir(), 'gw-pager-'))
    const command = join(dir, 'stub pager')
    writeFileSync(command, `#!/bin/sh\ncat > "${dir}/got"\necho "stub pager read $(wc -l < "${dir}/got") lines, args: $*"\n`)
    chmodSync(command, 0o755)
    return {command: `'${command}' --stub`, got: () => (existsSync(join(dir, 'got')) ? readFileSync(join(dir, 'got'), 'utf8') : undefined)}
  }

  it('less -FRX by default: the first screen, and q ends it early with exit 0, nothing said of a broken pipe', async () => {
    const t = run(['purchase', 'list', '--all'], {width: 120, height: 12})
    const screen = await t.waitFor(/^:$/m)
    expect(screen).toMatch(/│ Date +│ Reference +│ Amount +│/)
    expect(screen).not.toContain('[exit')
    t.press('q')
    const after = await t.waitFor(/\[exit \d+\]/)
    expect(after).toContain('[exit 0]')
    expect(after).not.toContain('Error')
  })

  it('$PAGER (or GW_PAGER, first) gets the table, and what is said on stderr after it, in order', async () => {
    const pager = stubPager()
    const t = run(['purchase', 'list', '-L', '20'], {width: 120, height: 12, env: {PAGER: pager.command}})
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('stub pager read 25 lines, args: --stub\n[exit 0]')
    expect(screen).not.toContain('│ Date')
    // Coloured, as on the terminal itself (less -R shows colour).
    const got = pager.got()!.replaceAll(new RegExp(`${ESC}\\[\\d+m`, 'g'), '').split('\n')
    expect(got[1]).toMatch(/│ Date +│ Reference +│ Amount +│/)
    expect(got.at(-2)).toMatch(/^Showing 20 of \d+ purchases, newest first; --limit N or --all shows more\.$/)
    const first = stubPager()
    const gwPager = run(['purchase', 'list', '-L', '20'], {width: 120, height: 12, env: {PAGER: pager.command, GW_PAGER: first.command}})
    expect(await gwPager.waitFor(/\[exit \d+\]/)).toContain('stub pager read 25 lines')
    expect(first.got()).toBeDefined()
  })

  it('not for a table that fits the screen, nor with GW_PAGER or PAGER set to cat or empty', async () => {
    const pager = stubPager()
    const short = run(['purchase', 'list', '-L', '3'], {width: 120, height: 12, env: {PAGER: pager.command}})
    expect(await short.waitFor(/\[exit \d+\]/)).toMatch(/│ Date +│ Reference +│ Amount +│[\s\S]*\[exit 0\]/)
    for (const env of [{GW_PAGER: 'cat', PAGER: pager.command}, {GW_PAGER: '', PAGER: pager.command}, {PAGER: 'cat'}, {PAGER: ''}]) {
      const t = run(['purchase', 'list', '-L', '20'], {width: 120, height: 12, env})
      const screen = await t.waitFor(/\[exit \d+\]/)
      expect(screen, JSON.stringify(env)).toMatch(/Showing 20 of \d+ purchases, newest first; --limit N or --all shows more\.\n\[exit 0\]/)
    }
    expect(pager.got()).toBeUndefined()
  })

  it('never in a pipe, even with GW_FORCE_TTY printing the table', async () => {
    const pager = stubPager()
    const piped = await sandbox.gw(['purchase', 'list', '--all'], {env: {GW_PAGER: pager.command, GW_FORCE_TTY: '120', NO_COLOR: '1'}})
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stdout).toMatch(/│ Date +│ Reference +│ Amount +│/)
    expect(pager.got()).toBeUndefined()
  })

  it('gw help environment names GW_PAGER and PAGER', async () => {
    const help = await sandbox.gw(['help', 'environment'])
    expect(help.stdout).toMatch(/^ {2}GW_PAGER, PAGER +the pager a table longer than the terminal goes through, GW_PAGER first; default less -FRX/m)
  })

  it('a pager that fails (exits 3) is not taken for a reader quitting it: gw says so and exits 1', async () => {
    // It closes its input before it exits, as a pager that fails may: gw meets a broken pipe first, then the failing status.
    const t = run(['purchase', 'list', '-L', '20'], {width: 120, height: 12, env: {GW_PAGER: 'sh -c "exec 0<&-; sleep 1; exit 3"'}})
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('Error: the pager sh -c exec 0<&-; sleep 1; exit 3 failed (exit 3): what gw printed may not have been shown')
    expect(screen).toContain('[exit 1]')
  })

  it('a pager that cannot start: said once, and the table printed instead', async () => {
    const t = run(['purchase', 'list', '-L', '20'], {width: 120, height: 12, env: {GW_PAGER: '/no/such/pager -R'}})
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('Warning: the pager /no/such/pager -R could not be started; printing instead.')
    expect(screen).toMatch(/Showing 20 of \d+ purchases, newest first; --limit N or --all shows more\.\n\[exit 0\]/)
  })
})

describe('--jq on gw listen', () => {
  it('filters each event as it arrives, and stops at the first it fails on, saying why (exit 2)', async () => {
    const listener = await startListen(['--no-register', '--jq', 'if .event == "card:expired" then error("no expired cards here") else .event end'], {env: sandbox.home})
    try {
      expect(await listener.post({event: 'card:expiring', payload: []})).toBe(200)
      await listener.waitForStdout(/^card:expiring$/m)
      // Not acknowledged, as an event nobody read is not: the gateway delivers it again.
      expect(await listener.post({event: 'card:expired', payload: []})).toBe(503)
      expect(await listener.exited()).toBe(2)
      expect(listener.stderr()).toContain('Error: --jq: no expired cards here (record 2 of the output; nothing after it was printed)\n')
      expect(listener.stdout()).toBe('card:expiring\n')
    } finally {
      await listener.stop('SIGKILL')
    }
  })
})
