import {chmodSync, mkdtempSync, readdirSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runProgram} from './helpers.js'
import {runsInCiOr} from './slow-gates.js'

// Each benchmark in bench/, run as `npm run bench NAME` runs it but at its smallest: a benchmark
// nothing runs goes stale unseen (refunds-made did, when the format it wrote was removed). The
// figures at these sizes mean nothing; what counts is that each part runs to its end and prints
// its lines, and leaves nothing behind and the build whole.
const root = join(import.meta.dirname, '..', '..')
const wanted = runsInCiOr('GW_TEST_BENCH', 'the benchmarks in bench/, each at its smallest (about 2 minutes)')
const OUTER_BOUND_MS = 20 * 60_000

/** Each bench's smallest sizes, and the lines that show each of its parts ran. */
const BENCHES: Record<string, {sizes: Record<string, string>; lines: RegExp[]}> = {
  batch: {
    sizes: {BENCH_REFUNDS: '20', BENCH_LOOP_SAMPLE: '2', BENCH_LIMITED_ROWS: '20', BENCH_LATENCY_MS: '1', BENCH_LONG_SEND: '2000'},
    lines: [
      /^gw refund create --input: +\d+ refunds\/s/m,
      /^shell loop of gw refund create: [\d.]+ refunds\/s \(2 rows/m,
      /^gw purchase create --input, 20 rows: .*every row made once: true$/m,
      /^gw purchase get --input, 20 ids: /m,
      /^memory over a send of 2,000 refunds: RSS [\d.]+ MiB at 333 rows/m,
    ],
  },
  client: {sizes: {BENCH_REQUESTS: '20'}, lines: [/^20 sequential GETs x 1 rounds/m, /^ratio gw\/raw: [\d.]+x/m]},
  history: {
    sizes: {BENCH_HISTORY_SCALE: '0.01'},
    lines: [
      /^refund of a purchase with 1,000 refunds since: 3 requests, /m,
      /^refund batch rate at 100 rows \/ at 10: [\d.]+x/m,
      /^refund batch of 30 rows against --rate-limit 100 --latency 20: .* 30 of 30 rows made once, 0 more than once$/m,
    ],
  },
  list: {
    sizes: {BENCH_LIST_PURCHASES: '200', BENCH_LIST_LARGE: '300', BENCH_LIST_ONE_PAGE: '300', BENCH_ROUND_TRIP_MS: '1'},
    lines: [/^loopback: gw \/ loop speed [\d.]+x/m, /^local gateway, last page of a window/m, /^one page of 300 purchases \(a gateway ignoring limit\), peak RSS: /m],
  },
  listen: {sizes: {BENCH_DELIVERIES: '50', BENCH_WARM_UP: '50'}, lines: [/^gw listen --json: +\d+ events\/s/m, /^gw RSS over the 50 events after warm-up: /m]},
  'refunds-made': {sizes: {BENCH_REFUNDS_MADE_LARGE: '2000'}, lines: [/^refunds-made: a look-up of 25 refunds \(20 recorded\): [\d.]+ ms at 2,000 \/ [\d.]+ ms at 1,000/m]},
  sandbox: {
    sizes: {BENCH_REQUESTS: '20', BENCH_RECORDS: '100', BENCH_STATE_RECORDS: '50', BENCH_LOG_PAIRS: '1', BENCH_STATE_PAIRS: '1', BENCH_HISTORY_PURCHASES: '50', BENCH_HISTORY_REFUNDS: '100'},
    lines: [/^ {2}--state, from 50 +[\d,]+\/s/m, /^ {2}refunds list, last page of 50: /m],
  },
  startup: {sizes: {BENCH_RUNS: '1'}, lines: [/^\| gw purchase get \| \d+ \|/m, /^\| executable: gw purchase get \| \d+ \|/m, /^\| npm install read-only \/ writable: gw purchase get /m]},
}

describe.skipIf(!wanted || process.platform === 'win32')('npm run bench, each benchmark at its smallest', () => {
  it('knows every benchmark in bench/', () => {
    const files = readdirSync(join(root, 'bench')).filter((name) => name.endsWith('.bench.js'))
    expect(files.map((name) => name.replace(/\.bench\.js$/, '')).sort()).toEqual(Object.keys(BENCHES).sort())
  })

  for (const [name, {sizes, lines}] of Object.entries(BENCHES)) {
    it(
      `${name} runs every part, leaves its temporary folder empty and the build whole`,
      async () => {
        // Searchable by all: the start-up bench runs an install as nobody from inside it.
        const temporary = mkdtempSync(join(tmpdir(), 'gw-bench-test-'))
        chmodSync(temporary, 0o711)
        const env = {...sizes, BENCH_ROUNDS: '1', HOME: process.env.HOME, TMPDIR: temporary}
        const built = readdirSync(join(root, 'dist'))
        const ran = await runProgram(process.execPath, [join(root, 'bench', 'run.js'), name], {cwd: root, env, timeoutMs: OUTER_BOUND_MS})
        expect(ran.code, ran.stderr).toBe(0)
        expect(ran.stdout.split('\n', 2)[1]).toBe(`# ${name}.bench.js`)
        for (const line of lines) expect(ran.stdout).toMatch(line)
        // npm leaves its compile cache in any TMPDIR it runs under (the start-up bench's npm install).
        expect(readdirSync(temporary).filter((entry) => entry !== 'node-compile-cache')).toEqual([])
        // The tests beside it run gw from this build: its code cache and saved help stay (the start-up bench removes its copy's).
        expect(readdirSync(join(root, 'dist'))).toEqual(expect.arrayContaining(built))
      },
      OUTER_BOUND_MS,
    )
  }
})
