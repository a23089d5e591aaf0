// A merchant's history (design.md §5, costs that do not grow with history), on local gateways
// whose histories `gw sandbox seed --purchases` makes in seconds:
// - a refund of a purchase with 1,000, 10,000 and 100,000 refunds made since: the requests gw sends
//   and its wall time, once gw's index has seen the history (the first walk timed apart), each
//   against the one at 1,000;
// - refund batches of 1,000 and 10,000 rows (5 refunds a purchase): rows a second, the larger
//   against the smaller, and against a raw undici Pool sending the same POSTs as a script of its own;
// - a 3,000-row refund batch against `--rate-limit 100 --latency 20`: rows a second, and every row
//   made once, counted at the gateway's request log.
// BENCH_HISTORY_ONLY=cost|batch|limited runs one part; BENCH_HISTORY_SCALE=0.01 runs each at a
// hundredth of its size. The batches' CPU time (user + sys, GNU time) is printed beside their rates,
// per 1,000 rows: on cores other work shares, the rate follows it.
// BENCH_GW_BASE names another gw's bin/run.js (a build of the commit before a change): each round
// runs it too, on a gateway of its own, so a change is judged against its baseline in the same run.
import {spawnSync} from 'node:child_process'
import {createRequire} from 'node:module'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {GW, count, median, refundPoolScript, startSandbox} from './lib.js'

const ONLY = process.env.BENCH_HISTORY_ONLY
const BASE = process.env.BENCH_GW_BASE
const TIME = spawnSync('/usr/bin/time', ['--version']).status === 0
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const CONCURRENCY = 8
const DAY = 86_400_000
// Every size a multiple of 5, the refunds a purchase, and at least one purchase's.
const SCALE = Number(process.env.BENCH_HISTORY_SCALE ?? 1)
const scaled = (size) => Math.max(5, Math.round((size * SCALE) / 5) * 5)
const COST_SIZES = [1_000, 10_000, 100_000].map(scaled)
const BATCH_ROWS = [1_000, 10_000].map(scaled)
const LIMITED_ROWS = scaled(3_000)

function gw(sandbox, work, args, {stdin, run = GW} = {}) {
  const env = {...process.env, XDG_CONFIG_HOME: join(work, 'config'), XDG_DATA_HOME: join(work, 'data'), XDG_CACHE_HOME: join(work, 'cache'), GW_BASE_URL: sandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'sandbox'}
  return timed(process.execPath, [run, ...args], {env, input: stdin}, `gw ${args.join(' ')}`)
}

/** Runs a process to its end: its output, wall time in ms and, with GNU time, its CPU seconds (user + sys). */
function timed(command, args, options, name) {
  const started = performance.now()
  const [file, argv] = TIME ? ['/usr/bin/time', ['-f', 'cpu %U %S', command, ...args]] : [command, args]
  const result = spawnSync(file, argv, {encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...options})
  const ms = performance.now() - started
  if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${result.stderr.slice(-2000)}`)
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr)
  return {...result, ms, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : NaN}
}

/** Where the gateway's request log stands: its controls answer what was logged after it. */
async function cursor(sandbox) {
  return (await (await fetch(`${sandbox.url}/_sandbox/requests?limit=1`)).json()).response.next
}

/** The gateway's API requests answered since `from` (its controls left out); `missed`: how many the log no longer keeps. */
async function since(sandbox, from) {
  const {entries, missed} = (await (await fetch(`${sandbox.url}/_sandbox/requests?after=${from}&path=/v1.0/`)).json()).response
  return Object.assign(entries, {missed})
}

/** A local gateway holding purchase `old` (61 days back), then `refunds` refunds of `refunds / 5` purchases over the 60 days since. */
async function withHistory(refunds, args = []) {
  const sandbox = await startSandbox(['--processing-window-ms', '0', ...args])
  const work = mkdtempSync(join(tmpdir(), 'gw-bench-history-'))
  const day = new Date(Date.now() - 61 * DAY).toISOString().slice(0, 10)
  const steps = [{name: 'old', create: 'purchase', at: day, fields: {card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123', amount: 10_000_000, reference: 'old'}}]
  gw(sandbox, work, ['sandbox', 'seed', '-'], {stdin: JSON.stringify({steps})})
  if (refunds > 0) gw(sandbox, work, ['sandbox', 'seed', '--purchases', String(Math.max(1, refunds / 5)), '--refunds', String(refunds), '--days', '60'])
  return {sandbox, work}
}

async function refundCost() {
  const rows = []
  for (const size of COST_SIZES) {
    const {sandbox, work} = await withHistory(size)
    try {
      const before = await cursor(sandbox)
      const first = gw(sandbox, work, ['purchase', 'get', 'old', '--refunds'])
      const read = await since(sandbox, before)
      const walked = read.length + read.missed
      const each = []
      for (let round = 0; round < 5; round++) {
        const from = await cursor(sandbox)
        const {ms} = gw(sandbox, work, ['refund', 'create', '--transaction-id', 'old', '--amount', '100', '--reference', `old-r${round}`])
        each.push({ms, requests: (await since(sandbox, from)).length})
      }
      rows.push({size, firstMs: first.ms, walked, ms: median(each.map((one) => one.ms)), requests: Math.max(...each.map((one) => one.requests))})
    } finally {
      await sandbox.stop()
    }
  }
  const base = rows[0].ms
  for (const row of rows) {
    console.log(`refund of a purchase with ${count(row.size)} refunds since: ${row.requests} requests, ${row.ms.toFixed(0)} ms (${(row.ms / base).toFixed(2)}x the one at ${count(COST_SIZES[0])}); the first look walked ${row.walked} requests in ${(row.firstMs / 1000).toFixed(1)} s`)
  }
}

/** A CSV refunding each of `purchases` seeded purchases `per` times, references its own. */
function refundRows(purchases, per, tag) {
  const lines = ['transaction_id,amount,reference']
  for (let k = 1; k <= per; k++) for (let i = 1; i <= purchases; i++) lines.push(`hist-p${i},100,${tag}-${i}-${k}`)
  return lines.join('\n') + '\n'
}

async function batchRates() {
  const undici = createRequire(import.meta.url).resolve('undici')
  const rates = {}
  const perThousand = (runs, rows) => (median(runs.map((run) => run.cpu)) / rows) * 1000
  for (const rows of BATCH_ROWS) {
    const purchases = rows / 5
    const runs = {gw: [], base: [], pool: []}
    /** One batch of the rows on a gateway of its own: every batch meets the same history, purchases and refunds alike. */
    const round = async (name, send) => {
      const sandbox = await startSandbox(['--processing-window-ms', '0'])
      const work = mkdtempSync(join(tmpdir(), 'gw-bench-batch-'))
      try {
        gw(sandbox, work, ['sandbox', 'seed', '--purchases', String(purchases), '--days', '30'])
        const file = join(work, 'refunds.csv')
        writeFileSync(file, refundRows(purchases, 5, name))
        runs[name].push(send(sandbox, work, file))
      } finally {
        await sandbox.stop()
      }
    }
    for (let turn = 0; turn < ROUNDS; turn++) {
      await round('gw', (sandbox, work, file) => gw(sandbox, work, ['refund', 'create', '--input', file, '--concurrency', String(CONCURRENCY)]))
      if (BASE) await round('base', (sandbox, work, file) => gw(sandbox, work, ['refund', 'create', '--input', file, '--concurrency', String(CONCURRENCY)], {run: BASE}))
      await round('pool', (sandbox, work, file) => timed(process.execPath, ['-e', refundPoolScript(CONCURRENCY), undici, file, sandbox.url], {}, 'the pool script'))
    }
    const rate = (name) => median(runs[name].map((run) => rows / (run.ms / 1000)))
    rates[rows] = {gw: rate('gw'), pool: rate('pool')}
    const cpu = TIME ? `; CPU per 1,000 rows gw ${perThousand(runs.gw, rows).toFixed(2)} s, Pool script ${perThousand(runs.pool, rows).toFixed(2)} s (${(perThousand(runs.gw, rows) / perThousand(runs.pool, rows)).toFixed(2)}x)` : ''
    console.log(`refund batch of ${count(rows)} rows (5 a purchase): gw ${rates[rows].gw.toFixed(0)} rows/s, raw Pool script ${rates[rows].pool.toFixed(0)} rows/s: ${(rates[rows].gw / rates[rows].pool).toFixed(2)}x (goal >= 0.8x)${cpu}`)
    if (BASE) {
      const baseCpu = TIME ? `; CPU per 1,000 rows ${perThousand(runs.base, rows).toFixed(2)} s` : ''
      console.log(`  baseline ${BASE}: ${rate('base').toFixed(0)} rows/s, ${(rate('base') / rates[rows].pool).toFixed(2)}x the Pool script${baseCpu}`)
    }
  }
  const [small, large] = BATCH_ROWS
  console.log(`refund batch rate at ${count(large)} rows / at ${count(small)}: ${(rates[large].gw / rates[small].gw).toFixed(2)}x (goal >= 0.9x)`)
}

async function rateLimited() {
  const rows = LIMITED_ROWS
  const sandbox = await startSandbox(['--processing-window-ms', '0', '--rate-limit', '100', '--latency', '20'])
  const work = mkdtempSync(join(tmpdir(), 'gw-bench-limited-'))
  try {
    gw(sandbox, work, ['sandbox', 'seed', '--purchases', String(rows / 5), '--days', '30'])
    const file = join(work, 'refunds.csv')
    writeFileSync(file, refundRows(rows / 5, 5, 'limited'))
    const before = await cursor(sandbox)
    const sent = gw(sandbox, work, ['refund', 'create', '--input', file, '--concurrency', '16'])
    const requests = await since(sandbox, before)
    const made = new Map()
    for (const entry of requests) if (entry.method === 'POST' && entry.status === 200) made.set(entry.reference, (made.get(entry.reference) ?? 0) + 1)
    const once = [...made.values()].filter((count) => count === 1).length
    const refused = requests.filter((entry) => entry.status === 429).length
    console.log(`refund batch of ${count(rows)} rows against --rate-limit 100 --latency 20: ${(rows / (sent.ms / 1000)).toFixed(1)} rows/s (goal >= 85), ${requests.length} requests (${refused} answered 429), ${once} of ${rows} rows made once, ${made.size - once} more than once`)
    console.log(`  its summary: ${sent.stderr.trim().split('\n').filter((line) => /rate limited|refunds:/i.test(line)).join(' / ')}`)
  } finally {
    await sandbox.stop()
  }
}

export default async function bench() {
  if (!ONLY || ONLY === 'cost') await refundCost()
  if (!ONLY || ONLY === 'batch') await batchRates()
  if (!ONLY || ONLY === 'limited') await rateLimited()
}
