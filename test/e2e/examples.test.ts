import {chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {CARD_JSON, CARDS, GW, runGw, runProgram, type Sandbox, sharedSandbox} from './helpers.js'

// Every command's --help examples, run as shown against a freshly started local gateway, in an
// order where each finds what earlier ones created (cust-42, order-1001, gold-monthly...).
const RUN_ORDER = [
  'help',
  'status',
  'profile:list',
  'profile:show',
  'profile:use',
  'card:tokenize',
  'card:update',
  'card:get',
  'card:list',
  'purchase:create',
  'purchase:get',
  'purchase:list',
  'purchase:increment',
  'purchase:extend',
  'purchase:capture',
  'purchase:void',
  'purchase:settlement',
  'refund:create',
  'refund:get',
  'refund:list',
  'refund:void',
  'report',
  'plan:create',
  'plan:get',
  'plan:list',
  'plan:update',
  'customer:create',
  'customer:get',
  'customer:update',
  'customer:list',
  'payment-plan:create',
  'payment-plan:get',
  'payment-plan:list',
  'payment-plan:suspend',
  'payment-plan:activate',
  'payment-plan:cancel',
  'direct-debit:create',
  'direct-debit:get',
  'direct-debit:list',
  'direct-debit:delete',
  'subscription:create',
  'subscription:get',
  'subscription:update',
  'subscription:list',
  'webhook:create',
  'webhook:list',
  'webhook:update',
  'webhook:delete',
  'sandbox:trigger',
  'sandbox:deliveries',
  'api',
  'sandbox:seed',
  'customer:delete',
  'sandbox:clock',
  'sandbox:clock:advance',
  'sandbox:logs',
  'sandbox:fault:add',
  'sandbox:fault:list',
  'sandbox:fault:clear',
  'version',
]

// Not run here, and why: each has tests of its own.
const NOT_RUN: Record<string, string> = {
  completion: "writes into the shell's own completion folders; completion.test.ts sources the script",
  listen: 'a service that runs until stopped',
  'listen:replay': 'needs a saved events file and an app to forward to',
  login: 'talks to a real gateway by its URL, or asks on a terminal',
  logout: 'removes credentials the other examples use',
  'profile:remove': 'removes the profile the other examples use',
  'sandbox:start': 'starts a gateway on the fixed port 8787, which a test must not take',
  'sandbox:stop': 'stops the gateway on port 8787',
  'sandbox:status': 'reports the detached gateway on port 8787',
  'sandbox:redeliver': 'needs the id of a delivery; sandbox-deliveries.test.ts redelivers one to gw listen',
}

// Examples of commands run here that are left out themselves, and why.
const EXAMPLES_NOT_RUN: Record<string, string> = {
  'gw sandbox logs --follow': 'runs until Ctrl-C; sandbox-logs.test.ts follows the log',
}

interface Manifest {
  commands: Record<string, {examples?: (string | {command: string})[]}>
}

let sandbox: Sandbox
let dir: string
sharedSandbox((started) => {
  sandbox = started
  dir = join(sandbox.home.HOME!, 'work')
  mkdirSync(join(dir, 'bin'), {recursive: true})
  // `gw` on PATH, as an installed gw is: the examples are run exactly as --help shows them.
  writeFileSync(join(dir, 'bin', 'gw'), `#!/bin/sh\nexec "${process.execPath}" "${GW}" "$@"\n`)
  chmodSync(join(dir, 'bin', 'gw'), 0o755)
  // The file the card examples read; a public test card.
  writeFileSync(join(dir, 'card.json'), CARD_JSON)
  // The purchase gw api's example sends from a file.
  writeFileSync(join(dir, 'purchase.json'), JSON.stringify({card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', amount: 1000, reference: 'api-order-1'}))
  // The files the batch examples read: stored cards to charge, purchases to refund, references to look up.
  writeFileSync(join(dir, 'invoices.csv'), 'card_token,amount,reference\ncustomer-42,1500,inv-2001\ncustomer-42,2500,inv-2002\n')
  writeFileSync(join(dir, 'refunds.csv'), 'transaction_id,amount,reference\norder-1003,250,refund-2001\norder-1003,500,refund-2002\n')
  // The day's shipments gw purchase capture's example checks with --dry-run.
  writeFileSync(join(dir, 'shipped.csv'), 'id,amount\n071-P-SHIPPED1,1000\n071-P-SHIPPED2,\n')
  // The plans and debits the recurring batch examples check with --dry-run.
  writeFileSync(join(dir, 'plans.csv'), 'customer,amount,frequency,anniversary,start_date,total_count,reference\ncust-42,1000,weekly,5,2030-01-01,5,plan-2001\n')
  writeFileSync(join(dir, 'debits.csv'), 'amount,description,bsb,account_name,account_number,reference\n4242,November rent,123-456,Jane Citizen,012345678,dd-2001\n1999,Parking,123-456,Sam Lee,87654321,\n')
  writeFileSync(join(dir, 'complaints.csv'), 'reference,complaint\norder-1001,charged twice\norder-1003,never arrived\n')
  // The fixtures gw sandbox seed's examples create (then find present).
  writeFileSync(join(dir, 'fixtures.json'), JSON.stringify({steps: [
    {name: 'visa', create: 'card', fields: {card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', alias: 'seed-visa'}},
    {name: 'order', create: 'purchase', fields: {card_token: '{{visa.token}}', amount: 1000, reference: 'seed-order-1'}},
  ]}))
})

const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'oclif.manifest.json'), 'utf8')) as Manifest

/**
 * The words of an example the shell would pass gw as they are written (bare words, and quoted ones
 * that expand nothing), or undefined where the shell does more (a pipe, a redirection, a variable).
 */
function plainWords(example: string): string[] | undefined {
  if (!new RegExp(`^gw( (?:${PLAIN_WORD.source}))+$`).test(example)) return undefined
  return [...example.matchAll(new RegExp(PLAIN_WORD.source, 'g'))].slice(1).map((match) => match[1] ?? match[2] ?? match[0])
}

/** A word bash passes on as written: bare, single-quoted, or double-quoted with nothing to expand (its text in the groups). */
const PLAIN_WORD = /[\w.,:=@/+%-]+|'([^']*)'|"([^"$`\\]*)"/

/** Whether gw would read or write a file of the working folder: a word naming one there, or a file's name. */
const namesAFile = (words: string[]) => words.some((word) => {
  const value = word.replace(/^(--[\w-]+=|@)/, '')
  return existsSync(join(dir, value)) || /\.(csv|json|ndjson|txt|pem|db)$/.test(value)
})

const examplesOf = (id: string) =>
  (manifest.commands[id]?.examples ?? []).map((example) =>
    (typeof example === 'string' ? example : example.command).replaceAll('<%= config.bin %>', 'gw').replaceAll('<%= command.id %>', id.replaceAll(':', ' ')),
  )

describe('the examples in --help', () => {
  it('cover every command: each is run here or says why not', () => {
    expect([...RUN_ORDER, ...Object.keys(NOT_RUN)].sort()).toEqual(Object.keys(manifest.commands).sort())
    for (const id of Object.keys(manifest.commands)) expect(examplesOf(id).length, id).toBeGreaterThanOrEqual(1)
  })

  // One test a command, in RUN_ORDER (each may use what an earlier one made): a bound each, not one for all.
  const outputs: Record<string, string> = {}
  // A command family's first example is run by bash, gw a process on PATH: a smoke test of the
  // installed command. The others too where the shell does more than split words, or gw reads or
  // writes a file of the working folder (a thread has the test's). The rest run gw in a thread with the words bash would pass.
  const spawnedFamilies = new Set<string>()
  it.each(RUN_ORDER)('%s: its examples run as shown against the local gateway, each exiting 0', async (id) => {
    for (const example of examplesOf(id)) {
      if (example in EXAMPLES_NOT_RUN) continue
      // As after `gw sandbox start`: its profile local is the active one, no GW_* variables.
      const env = {...sandbox.home, PATH: `${join(dir, 'bin')}:${process.env.PATH}`}
      const words = plainWords(example)
      const family = id.split(':')[0]!
      const inThread = words !== undefined && !namesAFile(words) && spawnedFamilies.has(family)
      spawnedFamilies.add(family)
      const result = inThread ? await runGw(words, {env}) : await runProgram('bash', ['-o', 'pipefail', '-c', example], {cwd: dir, env})
      expect(result.code, `${example}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0)
      expect(result.stderr, example).not.toContain('Error:')
      outputs[example] = result.stdout
    }
  })

  it('ran in a thread only words bash splits the same, and ran each family once through bash', async () => {
    const plain = Object.keys(manifest.commands).flatMap(examplesOf).filter((example) => plainWords(example) !== undefined)
    expect(plain.length).toBeGreaterThan(100)
    // bash prints each example's words, NUL after each, a line after each example.
    const printed = await runProgram('bash', ['-c', plain.map((example) => `${example.replace(/^gw/, "printf '%s\\0'")}; echo`).join('\n')])
    expect(printed.stdout.split('\n').slice(0, -1).map((line) => line.split('\0').slice(0, -1))).toEqual(plain.map(plainWords))
    expect(plainWords('gw purchase get - | jq .message')).toBeUndefined()
    expect(plainWords('gw purchase list --from "$DAY"')).toBeUndefined()
    expect([...spawnedFamilies].sort()).toEqual([...new Set(RUN_ORDER.map((id) => id.split(':')[0]))].sort())
  })

  it('print what their help texts promise', () => {
    expect(outputs['gw purchase get order-1001 order-1002 --json']!.trim().split('\n').map((line) => JSON.parse(line).reference)).toEqual(['order-1001', 'order-1002'])
    expect(outputs['printf "order-1001\\norder-1003\\n" | gw purchase get - | jq -r .message']).toBe('Approved\nApproved\n')
    expect(outputs['gw card get customer-42 --json | jq -r .card_expiry']).toMatch(/^2032-09-30/)
    expect(outputs['gw subscription get sub-42 sub-43 --json | jq -r .last_status']).toBe('Scheduled\nScheduled\n')
    expect(outputs['gw api GET /v1.0/purchases/api-order-1 | jq .response.message']).toBe('"Approved"\n')
  })
})
