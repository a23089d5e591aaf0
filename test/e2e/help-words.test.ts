import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {isolatedHome, runGw, startSandbox} from './helpers.js'

// Each sentence a newcomer found wrong, read where it is shown
// (the help, the guides, the generated reference), with what it says checked against gw itself.
const ROOT = join(import.meta.dirname, '..', '..')
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')
const flat = (text: string) => text.replace(/\s+/g, ' ')
const home = isolatedHome()
const help = async (...words: string[]) => flat((await runGw([...words, '--help'], {env: home})).stdout)

interface Manifest {
  commands: Record<string, {flags: Record<string, {description?: string}>}>
}
const manifest = JSON.parse(read('oclif.manifest.json')) as Manifest

describe('the gateway pages newest first, and every word of gw says so', () => {
  it('every list command\'s --oldest-first, gw api --paginate, finding-records.md and the reference', async () => {
    const lists = Object.entries(manifest.commands).filter(([, command]) => command.flags['oldest-first'])
    expect(lists.length).toBeGreaterThanOrEqual(6)
    for (const [id, command] of lists) expect(command.flags['oldest-first']!.description, id).toBe('oldest first (newest first without it, as the gateway pages them)')
    expect(await help('api')).toContain('in the order the gateway pages them (newest first)')
    for (const file of ['docs/finding-records.md', 'docs/commands/api.md', ...lists.map(([id]) => `docs/commands/${id.split(':')[0]}.md`)]) {
      const text = flat(read(file))
      expect(text, file).not.toMatch(/pages oldest first|order \(oldest first\)|as the gateway keeps them/)
    }
    expect(flat(read('docs/finding-records.md'))).toContain('The gateway pages newest first')
  })

  it('and the local gateway does: a list\'s first page holds the newest record', async () => {
    const sandbox = await startSandbox([], isolatedHome())
    try {
      for (const name of ['first', 'second']) expect((await sandbox.gw(['api', '/v1.0/plans', '-f', `name=${name}`, '-F', 'amount=100', '-f', `reference=${name}`, '-f', 'description=x'])).code).toBe(0)
      const page = JSON.parse((await sandbox.gw(['api', '/v1.0/plans.json', '--query', 'limit=1'])).stdout) as {response: {name: string}[]}
      expect(page.response.map((plan) => plan.name)).toEqual(['second'])
    } finally {
      await sandbox.stop()
    }
  })
})

describe('docs/sandbox-dialects.md: card and customer validation errors, as each dialect answers them', () => {
  it('the row says HTTP 400 for the contract dialect (as gateway-interface.md does) and 422 for the live one, and each answers so', async () => {
    const row = read('docs/sandbox-dialects.md').split('\n').find((line) => line.startsWith('| Validation errors of cards'))!
    const [, , contract, live] = row.split('|').map((cell) => cell.trim())
    const said = {contract: Number(/HTTP (\d{3})/.exec(contract!)![1]), live: Number(/HTTP (\d{3})/.exec(live!)![1])}
    expect(said).toEqual({contract: 400, live: 422})
    for (const dialect of ['contract', 'live'] as const) {
      const sandbox = await startSandbox(['--dialect', dialect], isolatedHome())
      try {
        const card = await sandbox.gw(['api', '/v1.0/credit_cards', '-f', 'card_holder=Jane', '-f', 'card_number=4242424242424241', '-f', 'card_expiry=12/2030', '-f', 'cvv=123', '--verbose'])
        const customer = await sandbox.gw(['api', '/v1.0/customers', '-f', 'first_name=', '-f', 'last_name=x', '-f', 'reference=r-1', '-f', 'email=a@example.com', '--verbose'])
        for (const answer of [card, customer]) {
          expect(answer.code, dialect).toBe(7)
          expect(answer.stderr, dialect).toMatch(new RegExp(`\\b${said[dialect]}\\b`))
        }
      } finally {
        await sandbox.stop()
      }
    }
  })
})

describe('help that names what gw has', () => {
  it('gw profile --help says use, as the command is named, and gw profile switch suggests it', async () => {
    const profile = await help('profile')
    expect(profile).toContain('list, use, show and remove saved profiles')
    expect(profile).not.toContain('switch')
    const switched = await runGw(['profile', 'switch', 'local'], {env: home})
    expect(switched.code).toBe(2)
    expect(switched.stderr).toContain('Hint: Did you mean gw profile use?')
  })

  it('the USAGE of purchase create, card tokenize and customer create gives a card whole; gw api\'s reads [METHOD] PATH', async () => {
    for (const command of [['purchase', 'create'], ['card', 'tokenize'], ['customer', 'create']]) {
      const text = await help(...command)
      expect(text, command.join(' ')).toContain('--card-holder NAME --card-number NUMBER --card-expiry MM/YYYY --cvv CVV [flags]')
      expect(text, command.join(' ')).toContain('--card - [flags] < card.json')
      expect(text, command.join(' ')).not.toMatch(/--card-number <value> \| --card-holder/)
    }
    expect(await help('purchase', 'create')).toContain('$ gw purchase create --amount N --reference REF --card-token TOKEN_OR_ALIAS')
    const api = await help('api')
    expect(api).toContain('$ gw api [METHOD] PATH [-X METHOD] [-f KEY=VALUE]... [-F KEY=VALUE]...')
    expect(api).not.toContain('gw api METHOD [PATH]')
  })

  it('gw sandbox seed --help tells of at, which dates a record in the past', async () => {
    expect(await help('sandbox', 'seed')).toContain('A purchase, refund, customer, subscription, payment_plan or direct_debit step may carry "at", a day ("at": "2026-11-17", noon of it) or a date-time with its offset, to date its record in the past')
  })

  it('a guide names the real gateway\'s addresses for gw login', () => {
    const guide = read('docs/live-profiles.md')
    for (const host of ['https://gateway.sandbox.fatzebra.com.au', 'https://gateway.fatzebra.com.au', 'https://gateway.pmnts-sandbox.io', 'https://gateway.pmnts.io']) expect(guide).toContain(host)
    expect(flat(guide)).toContain('gw login --profile shop-test --base-url https://gateway.sandbox.fatzebra.com.au --username SHOP')
  })

  it('gw help formatting tells of fields, --fields, --jq, NDJSON in a pipe and tables at a terminal; the root help\'s last line points to the guides', async () => {
    const formatting = await runGw(['help', 'formatting'], {env: home})
    expect(formatting.code).toBe(0)
    for (const words of ['AT A TERMINAL', 'one table with a row each', 'IN A PIPE', 'one compact JSON line (NDJSON)', 'FIELDS', '--fields id,amount', '--jq EXPR', '--json']) expect(flat(formatting.stdout)).toContain(words)
    const root = await runGw(['--help'], {env: home})
    expect(flat(root.stdout)).toContain('gw help formatting what records look like')
    // This install's guides: a clone's docs/ (the npm package's and each archive's: test/e2e/install.test.ts, package.test.ts).
    expect(root.stdout.trimEnd().split('\n').slice(-2)).toEqual(['  Guides, one task a page:', `  ${join(import.meta.dirname, '..', '..', 'docs')}`])
    expect(formatting.stdout.split('\n')[0]).toBe(`FORMATTING: what gw prints, and where (${join(import.meta.dirname, '..', '..', 'docs', 'output.md')} has the whole of it)`)
    expect((await runGw(['help'], {env: home})).stdout).toBe(root.stdout)
  })
})
