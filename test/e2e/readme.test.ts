import {mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync, chmodSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {GW, isolatedHome, runGw, runProgram} from './helpers.js'
import {type Listener, startListen} from './listen-helpers.js'

// Every code block of the README and of the guides it links (docs/, CONTRIBUTING.md), in the order
// a reader meets them (the README, then the guides in the order of the sections they grew from),
// run as a newcomer runs them:
// in one shell session's worth of state (a home of its own, one working directory), `gw` on PATH
// as `npm link` puts it, against the local gateway the quick start leaves running. A block that
// cannot run as shown is marked just above it in the README, `<!-- readme-test: not run: WHY -->`,
// and shows here as a skipped test saying why. The only changes made to what the reader sees are
// these, each for a reason of the test's own:
const CHANGES: [string, string | (() => string), string][] = [
  ['npm ci && ', '', 'this tree is installed already; install.test.ts runs the quick start whole on a fresh clone (CI)'],
  ['sandbox start --detach', 'sandbox start --detach --port 0', "the reader's gateway takes port 8787; a test takes a free one"],
]

// What the README says some commands print (in its comments), checked in the output of their block.
const SHOWN: [string, string][] = [
  ['purchase create --amount 1000 --reference demo-', '"message":"Approved"'],
  ["jq -s 'map(.amount)'", 'Approved\nApproved\n[\n  2500,\n  4000\n]\n'],
  ['jq -r .message order-1003.json', 'exit 3\nInsufficient Funds\n'],
  ['jq -r .error.kind', 'exit 5\nnot_found\n'],
  ['--cvv 123 || echo "exit $?"   # exit 2: no card numbers', 'exit 2\nexit 2\nApproved\n'],
  ["jq -r '[.name, .mode, .url] | @tsv'", 'local\tsandbox\thttp://127.0.0.1:'],
  ["gw refund list --purchase order-1001 | jq -r '[.reference, .gw_match.match] | @tsv'", 'order-1001-R1\tcertain\n'],
  ['gw purchase get order-1001 --refunds | jq -c .gw_left_to_refund', '{"at_least":2000,"at_most":2000,"currency":"AUD"}\n'],
  // "What did we take since Monday?" is a report of takings, not a list that holds the declines too.
  ['gw report --from monday', '"purchases_approved"'],
  // What settles today, beside the day's takings: the quick start's purchases, captured at once, settle today.
  ["jq -c '{day, currency, settling, settling_amount, settling_voided}'", '"currency":"AUD","settling":'],
  ["jq -c '{currency, settling, settling_amount, settling_voided}'", '{"currency":"AUD","settling":'],
  // docs/money-safety.md's lost answer: the fault set, then the purchase found by its reference and reported approved (exit 8 had it not been found).
  ['--reference order-1050', '"action":"drop-after"}\nApproved\n'],
  // gw's record of the refunds it made, read with sqlite3 as docs/local-files.md shows: finding-records.md's refund of order-1001.
  ["SELECT refund, transaction_id FROM refunds_made", '|order-1001\n'],
  // A batch's journal, read with sqlite3 as docs/batches.md shows.
  ["SELECT line FROM entries ORDER BY seq", 'evt-42-refund-0001\tapproved\n'],
]

interface Block {
  /** The file it is in, from the repository's root. */
  file: string
  /** Line of the opening fence, 1-based. */
  line: number
  lang: string
  body: string
  /** Why it is not run, from the marker above it. */
  notRun?: string
}

const ROOT = join(import.meta.dirname, '..', '..')
/** The README, then the guides whose commands build on what the ones before them made. */
const FILES = [
  'README.md',
  'docs/install.md',
  'docs/output.md',
  'docs/finding-records.md',
  'docs/local-files.md',
  'docs/batches.md',
  'docs/money-safety.md',
  'docs/authorize-and-capture.md',
  'docs/subscriptions-and-webhooks.md',
  'docs/recurring-billing.md',
  'docs/live-profiles.md',
  'docs/proxies-and-certificates.md',
  'docs/help-and-completion.md',
  'docs/platforms.md',
  'docs/test-cards.md',
  'docs/local-gateway.md',
  'docs/sandbox-dialects.md',
  'CONTRIBUTING.md',
]

function blocksOf(file: string): Block[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const blocks: Block[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)$/.exec(lines[i]!)
    if (!open) continue
    const end = lines.indexOf('```', i + 1)
    if (end < 0) throw new Error(`${file} line ${i + 1}: a code block that never closes`)
    const notRun = /^<!-- readme-test: not run: (.+) -->$/.exec(lines[i - 1] ?? '')?.[1]
    blocks.push({file, line: i + 1, lang: open[1]!, body: lines.slice(i + 1, end).join('\n') + '\n', notRun})
    i = end
  }
  return blocks
}

const blocks = FILES.flatMap(blocksOf)
const home = isolatedHome()
const work = join(home.HOME!, 'work')
let listener: Listener

/** The block as the test runs it: the changes above, each of which must still apply somewhere. */
function asRun(body: string): string {
  let text = body
  for (const [from, to] of CHANGES) text = text.replaceAll(from, typeof to === 'string' ? to : to())
  return text
}

const env = () => ({...home, PATH: `${join(home.HOME!, 'bin')}:${process.env.PATH}`, NO_COLOR: '1'})

beforeAll(async () => {
  // `./bin/run.js` of the quick start, from the working directory: a link to this tree's.
  mkdirSync(join(work, 'bin'), {recursive: true})
  symlinkSync(GW, join(work, 'bin', 'run.js'))
  // `gw` on PATH, as `npm link` puts it there.
  mkdirSync(join(home.HOME!, 'bin'))
  writeFileSync(join(home.HOME!, 'bin', 'gw'), `#!/bin/sh\nexec "${process.execPath}" "${GW}" "$@"\n`)
  chmodSync(join(home.HOME!, 'bin', 'gw'), 0o755)
})

/**
 * The `gw listen` the Subscriptions section has the reader run in another terminal before its
 * block, once the local gateway runs: it registers itself with it (on a free port: gw listen's
 * default is a fixed one).
 */
async function listenInAnotherTerminal(): Promise<void> {
  listener ??= await startListen(['--json'], {env: home})
  expect(listener.stderr()).toMatch(/Registered as web hook \S+ with the local gateway/)
}

afterAll(async () => {
  await listener?.stop()
  await runGw(['sandbox', 'stop', '--all'], {env: home})
})

describe('README.md and the guides', () => {
  it('are every guide in docs/ and CONTRIBUTING.md, and hold only blocks the test knows how to run, or that say why they are not run', () => {
    const guides = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)
    expect(FILES.toSorted()).toEqual(['README.md', 'CONTRIBUTING.md', ...guides].toSorted())
    for (const block of blocks) {
      if (block.notRun) continue
      expect(['sh', 'console'], `${block.file} line ${block.line}: a \`\`\`${block.lang} block; run it as sh or console, or mark it <!-- readme-test: not run: WHY -->`).toContain(block.lang)
    }
    // Every change the test makes still finds what it changes.
    for (const [from] of [...CHANGES, ...SHOWN]) expect(blocks.some((block) => !block.notRun && block.body.includes(from)), from).toBe(true)
  })

  for (const block of blocks) {
    const name = `${block.file} line ${block.line}: ${block.body.split('\n')[0]!.slice(0, 80)}`
    if (block.notRun) {
      it.skip(`${name} (not run: ${block.notRun})`, () => {})
      continue
    }
    if (block.lang === 'console') {
      it(`${name}: prints what the README shows`, async () => {
        const [command, ...shown] = block.body.split('\n')
        expect(command, 'a console block starts with the command, after "$ "').toMatch(/^\$ /)
        const result = await runProgram('bash', ['-c', `${asRun(command!.slice(2))} 2>&1`], {cwd: work, env: env()})
        expect(result.stdout).toBe(shown.join('\n'))
      })
      continue
    }
    it(`${name}: runs, each command exiting 0 or as its \`echo "exit $?"   # exit N\` says`, {timeout: 120_000}, async () => {
      if (block.body.includes('gw subscription create')) await listenInAnotherTerminal()
      const result = await runProgram('bash', ['-e', '-o', 'pipefail', '-c', asRun(block.body)], {cwd: work, env: env(), timeoutMs: 110_000})
      expect(result.code, `${block.file} line ${block.line}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0)
      // An exit status the README shows is the one its comment says (a failure shown on purpose: `|| echo`).
      const said = [...block.body.matchAll(/echo "exit \$\?" +# exit (\d+)/g)].map((match) => `exit ${match[1]}`)
      expect(result.stdout.split('\n').filter((line) => /^exit \d+$/.test(line)), `${block.file} line ${block.line}`).toEqual(said)
      for (const [command, output] of SHOWN) if (block.body.includes(command)) expect(result.stdout, command).toContain(output)
    })
  }

  it('the Subscriptions block reached the gw listen of another terminal: the month\'s charge and the expiring card', async () => {
    await listener.waitForStdout(/"event":"card:expiring"/)
    const events = listener.stdout().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as {event: string}).event)
    expect(events).toContain('charge:successful')
    expect(events).toContain('card:expiring')
  })
})
