import {afterEach, describe, expect, it} from 'vitest'
import {terminal, type Terminal} from './auth-helpers.js'
import {writeTemp} from './batch-helpers.js'
import {CARDS, ref, type Sandbox, sandboxForFile} from './helpers.js'

// Issue 28: the terminal habits gh users expect of a list, against a real local gateway holding
// 40 purchases made in a known order (every fifth declined).
let sandbox: Sandbox
const references: string[] = []
const open: Terminal[] = []

afterEach(() => {
  for (const t of open.splice(0)) t.close()
})

sandboxForFile(async (started) => {
  sandbox = started
  const card = await sandbox.gw(['card', 'tokenize', '--card-holder', 'Jane Citizen', '--card-number', CARDS.visa, '--card-expiry', '12/2030', '--cvv', '123', '--json'])
  expect(card.code, card.stderr).toBe(0)
  const token = (card.json as {token: string}).token
  const prefix = ref('habit')
  const rows = Array.from({length: 40}, (_, i) => {
    references.push(`${prefix}-${String(i).padStart(2, '0')}`)
    return `${token},${i % 5 === 4 ? 1051 : 1000 + i},${references[i]}`
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

  it('a list keeps the id at 100 columns, leaving the card holder out first', async () => {
    const list = await sandbox.gw(['purchase', 'list', '-L', '2'], {env: {GW_FORCE_TTY: '100', NO_COLOR: '1'}})
    expect(list.code, list.stderr).toBe(0)
    expect(header(list.stdout)).toEqual(['Date', 'Reference', 'Amount', 'Outcome', 'Card', 'Id'])
    expect(list.stderr.replaceAll('\n', ' ')).toContain('Settlement date, Card holder. Choose columns with --fields')
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
