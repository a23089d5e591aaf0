import {readdirSync, readFileSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {cardArgs, isolatedHome, ref, runGw, type Sandbox, sharedSandbox} from './helpers.js'

let sandbox: Sandbox
let purchaseId: string
const home = isolatedHome()

sharedSandbox(async (started) => {
  sandbox = started
  const created = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs(), '--json'])
  expect(created.code, created.stderr).toBe(0)
  purchaseId = (created.json as {id: string}).id
})

describe('unknown commands and flags (exit 2, with a suggestion)', () => {
  it.each([
    [['purchse', 'get', '071-P-AAAA1111'], 'Error: unknown command: gw purchse get\nHint: Did you mean gw purchase get? gw help lists every command.\n'],
    [['purchase', 'gte', '071-P-AAAA1111'], 'Error: unknown command: gw purchase gte\nHint: Did you mean gw purchase get? gw help lists every command.\n'],
    [['refnd'], 'Error: unknown command: gw refnd\nHint: Did you mean gw refund? gw help lists every command.\n'],
    [['frobnicate'], 'Error: unknown command: gw frobnicate\nHint: gw help lists every command.\n'],
    // An argument holding a colon (a URL) is joined into the command id by oclif: it is named as an argument, a card number masked.
    [['webhook', 'create', 'http://127.0.0.1:9/x'], 'Error: gw webhook create takes no argument "http://127.0.0.1:9/x"\nHint: Did you mean --url http://127.0.0.1:9/x? See gw webhook create --help for its flags and examples.\n'],
    [['sandbox', 'start', 'a:4242424242424242'], 'Error: gw sandbox start takes no argument "a:424242XXXXXX4242"\nHint: See gw sandbox start --help for its flags and examples.\n'],
    // A word that fits a required flag left out is suggested as that flag, whether oclif took it into the id or the parse found it.
    [['purchase', 'create', 'order-1', '1000', '--no-input'], 'Error: gw purchase create takes no argument "order-1 1000"\nHint: Did you mean --reference order-1 --amount 1000? See gw purchase create --help for its flags and examples.\n'],
    // refund create takes one purchase, as purchase capture does: a second word is named, a card number masked.
    [['refund', 'create', 'order-2003', '4242424242424242'], 'Error: gw refund create: unexpected argument "424242XXXXXX4242"\nHint: See gw refund create --help for its flags and examples.\n'],
  ])('gw %j', async (args, stderr) => {
    const result = await runGw(args, {env: home})
    expect(result.stderr).toBe(stderr)
    expect(result.stdout).toBe('')
    expect(result.code).toBe(2)
  })

  // Habits from gh and the Stripe CLI are answered with the gw command that does the work, still a usage error.
  it.each([
    [['logs'], 'Error: unknown command: gw logs\nHint: Did you mean gw sandbox logs? It shows the local gateway\'s requests, and follows them with -f. gw help lists every command.\n'],
    [['logs', 'tail'], 'Error: unknown command: gw logs tail\nHint: Did you mean gw sandbox logs -f? It follows the local gateway\'s requests. gw help lists every command.\n'],
    [['trigger', 'charge.succeeded'], 'Error: unknown command: gw trigger\nHint: Did you mean gw sandbox trigger? It sends a sample web hook event from the local gateway. gw help lists every command.\n'],
    [['fixtures', 'seed.json'], 'Error: unknown command: gw fixtures\nHint: Did you mean gw sandbox seed? It makes records in the local gateway from a fixtures file. gw help lists every command.\n'],
    [['purchase', 'view', '071-P-AAAA1111'], 'Error: unknown command: gw purchase view\nHint: Did you mean gw purchase get? gw help lists every command.\n'],
    [['open'], "Error: unknown command: gw open\nHint: gw opens no browser: its guides are gw help's topics and the docs folder. gw help lists every command.\n"],
    [['config', 'list'], "Error: unknown command: gw config\nHint: Did you mean gw profile? gw's settings are its profiles: gw profile list, show and use. gw help lists every command.\n"],
    [['auth', 'login'], 'Error: unknown command: gw auth login\nHint: Did you mean gw login? It saves a profile and its token. gw help lists every command.\n'],
    [['auth', 'status'], 'Error: unknown command: gw auth status\nHint: Did you mean gw status? It shows the profile in use and where its token is kept. gw help lists every command.\n'],
    [['auth', 'switch'], 'Error: unknown command: gw auth switch\nHint: Did you mean gw profile use? It makes another profile the active one. gw help lists every command.\n'],
    [['get', '/v1.0/purchases'], 'Error: unknown command: gw get\nHint: Did you mean gw api? It sends a request of your own to the gateway: gw api GET /v1.0/purchases. gw help lists every command.\n'],
    [['charges', 'list'], 'Error: unknown command: gw charges list\nHint: Did you mean gw purchase list? gw help lists every command.\n'],
  ])('gw %j, a habit from gh or the Stripe CLI, names the gw command that does it (exit 2)', async (args, stderr) => {
    const result = await runGw(args, {env: home})
    expect(result.stderr).toBe(stderr)
    expect(result.stdout).toBe('')
    expect(result.code).toBe(2)
  })

  it.each([
    [['card', 'create', '--help']],
    [['card', 'create', '-h']],
    [['purchse', 'get', '--help']],
    [['refnd', '-h']],
    [['purchase', 'gte', '071-P-AAAA1111', '--help']],
  ])('gw %j, help for a command that does not exist, is the same usage error as the command without --help', async (args) => {
    const withHelp = await runGw(args, {env: home})
    const without = await runGw(args.filter((arg) => arg !== '--help' && arg !== '-h'), {env: home})
    expect(withHelp.stderr).toMatch(/^Error: unknown command: gw .+\nHint: .*gw help lists every command\.\n$/)
    expect(withHelp.stderr).toBe(without.stderr)
    expect(withHelp.stdout).toBe('')
    expect(withHelp.code).toBe(2)
  })

  it('writes the JSON error object too under --json', async () => {
    const result = await runGw(['--json', 'purchse', 'get', 'X'], {env: home})
    expect(result.code).toBe(2)
    const [text, json] = result.stderr.split('\n').filter(Boolean).reduce<[string[], string[]]>((acc, line) => (line.startsWith('{') ? acc[1].push(line) : acc[0].push(line), acc), [[], []])
    expect(text).toEqual(['Error: unknown command: gw purchse get', 'Hint: Did you mean gw purchase get? gw help lists every command.'])
    expect(JSON.parse(json.join(''))).toMatchObject({error: {kind: 'usage'}})
  })

  it('names an unknown flag without its value, the closest flag and the command', async () => {
    const result = await runGw(['purchase', 'create', '--card-numbr=4242424242424242', '--amount', '1000'], {env: home})
    expect(result.stderr).toBe('Error: unknown flag: --card-numbr\nHint: Did you mean --card-number? See gw purchase create --help for the flags and examples.\n')
    expect(result.code).toBe(2)
  })

  it.each([
    [['--jsn', 'purchase', 'get', 'X'], 'Error: unknown flag: --jsn\nHint: Did you mean --json? Global flags (--json, --verbose, --yes, --no-input, --profile, --fields, --jq) go before or after the command words; gw help lists every command.\n'],
    [['purchase', 'get', 'X', '--verbos'], 'Error: unknown flag: --verbos\nHint: Did you mean --verbose? See gw purchase get --help for the flags and examples.\n'],
    [['--no-inptu=4242424242424242', 'status'], 'Error: unknown flag: --no-inptu\nHint: Did you mean --no-input? Global flags (--json, --verbose, --yes, --no-input, --profile, --fields, --jq) go before or after the command words; gw help lists every command.\n'],
  ])('a mistyped global flag before or after the command, gw %j, is named with the flag meant', async (args, stderr) => {
    const result = await runGw(args, {env: home})
    expect(result.stderr).toBe(stderr)
    expect(result.code).toBe(2)
  })

  it('names the real command in the hint of any other usage error', async () => {
    const result = await runGw(['refund', 'get'], {env: home})
    expect(result.stderr).toMatch(/\nHint: See gw refund get --help for the flags and examples\.\n$/)
    expect(result.stderr).not.toContain('COMMAND')
    expect(result.code).toBe(2)
  })
})

describe('global flags before or after the command words', () => {
  it('gw --json purchase get ID is gw purchase get ID --json', async () => {
    const before = await sandbox.gw(['--json', 'purchase', 'get', purchaseId])
    const after = await sandbox.gw(['purchase', 'get', purchaseId, '--json'])
    expect(before.stderr).toBe('')
    expect(before.code).toBe(0)
    expect(before.json).toMatchObject({id: purchaseId, amount: 1000, successful: true})
    expect(before.stdout).toBe(after.stdout)
  })

  it('takes --profile with its value before the command', async () => {
    const result = await runGw(['--profile', 'nosuch', '--json', 'status'], {env: home})
    expect(result.stderr.split('\n')[0]).toBe('Error: No profile named nosuch')
    expect(result.code).toBe(2)
  })

  it('takes flags between the command words', async () => {
    const result = await sandbox.gw(['purchase', '--json', 'get', purchaseId])
    expect(result.code).toBe(0)
    expect(result.json).toMatchObject({id: purchaseId})
  })
})

describe('gw help', () => {
  it('gw help, gw --help and gw -h print the same root help', async () => {
    const [help, long, short] = await Promise.all([runGw(['help'], {env: home}), runGw(['--help'], {env: home}), runGw(['-h'], {env: home})])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('\nTOPICS\n  card ')
    expect(help.stdout).toMatch(/\n {2}completion +Print a shell completion script for bash, zsh, fish or PowerShell\n/)
    expect(long.stdout).toBe(help.stdout)
    expect(short.stdout).toBe(help.stdout)
  })

  it('the root help oclif renders once is printed as it was, per terminal width', async () => {
    const dist = join(import.meta.dirname, '..', '..', 'dist')
    for (const file of readdirSync(dist).filter((name) => name.startsWith('root-help-'))) rmSync(join(dist, file))
    const rendered = await runGw(['--help'], {env: home})
    expect(readdirSync(dist).filter((name) => name.startsWith('root-help-'))).toEqual([`root-help-node${process.version}-80.txt`])
    const saved = await runGw(['--help'], {env: home})
    expect(saved.code).toBe(0)
    expect(saved.stdout).toBe(rendered.stdout)
    const narrow = await runGw(['--help'], {env: {...home, OCLIF_COLUMNS: '50'}})
    expect(narrow.stdout).not.toBe(rendered.stdout)
    expect(Math.max(...narrow.stdout.split('\n').slice(1).map((line) => line.length)), 'below the description oclif leaves whole').toBeLessThanOrEqual(50)
    expect((await runGw(['-h'], {env: {...home, OCLIF_COLUMNS: '50'}})).stdout).toBe(narrow.stdout)
  })

  it('gw help purchase get and gw purchase get -h print the command help', async () => {
    const [help, short] = await Promise.all([runGw(['help', 'purchase', 'get'], {env: home}), runGw(['purchase', 'get', '-h'], {env: home})])
    expect(help.code).toBe(0)
    // gh's order: the summary, the description, then USAGE.
    expect(help.stdout.split('\n').slice(0, 3)).toEqual(['Look purchases up by id or reference', '', 'Takes one or more purchase ids or your references, or - to read them from stdin,'])
    expect(help.stdout).toContain('\n\nUSAGE\n  $ gw purchase get [ID...] [--profile <value>] [--json] [--verbose]')
    expect(short.stdout).toBe(help.stdout)
  })

  it('an unknown help subject exits 2 with a suggestion', async () => {
    const result = await runGw(['help', 'purchse'], {env: home})
    expect(result.stderr).toBe('Error: no help for purchse: it is not a command, a topic, or one of exit-codes, environment, test-cards, formatting\nHint: Did you mean gw help purchase? gw help lists every command.\n')
    expect(result.code).toBe(2)
  })

  it('gw help exit-codes lists every code of design.md §4', async () => {
    const result = await runGw(['help', 'exit-codes'], {env: home})
    expect(result.code).toBe(0)
    for (const code of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '130', '141']) expect(result.stdout).toMatch(new RegExp(`\\n {2}${code} +\\S`))
    expect(result.stdout).toContain('  3    declined by the card issuer (the request itself was processed)\n')
  })

  it('gw help environment names every variable a user sets', async () => {
    const result = await runGw(['help', 'environment'], {env: home})
    expect(result.code).toBe(0)
    const source = ['resolve.ts', 'profiles.ts'].map((file) => readFileSync(join(import.meta.dirname, '..', '..', 'src', 'auth', file), 'utf8')).join('\n')
    const read = new Set([...source.matchAll(/\b(GW_[A-Z_]+)\b/g)].map((match) => match[1]!))
    expect(read.size).toBeGreaterThanOrEqual(7)
    for (const name of [...read, 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'NO_COLOR', 'CI', 'NODE_EXTRA_CA_CERTS', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'GW_CACHE_DIR']) expect(result.stdout, name).toContain(name)
  })

  it('gw help test-cards gives outcomes the local gateway really produces', async () => {
    const result = await runGw(['help', 'test-cards'], {env: home})
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('  4557012345678902  Visa, always declined: 05 Declined (exit 3)\n')
    expect(result.stdout).toContain('  5123456789012346  MasterCard, always approved: 00 Approved, whatever the amount\n')
    expect(result.stdout).toContain('  4242424242424242  Visa, by the amount rule below\n')
    const line = result.stdout.split('\n').find((row) => row.startsWith('  51 '))
    expect(line).toBe('  51  e.g. --amount 10051  Insufficient Funds (declined, exit 3)')
    // docs/test-cards.md shows it, and readme.test.ts checks it is this.
    const declined = await sandbox.gw(['purchase', 'create', '--amount', '10051', '--reference', ref(), ...cardArgs(), '--json'])
    expect(declined.code).toBe(3)
    expect(declined.json).toMatchObject({successful: false, message: 'Insufficient Funds'})
  })
})
