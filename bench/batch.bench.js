// Batches: 2,000 refunds at concurrency 8 through `gw refund create --input` (a process of its
// own, start-up and journal included), against a raw undici Pool of 8 keep-alive connections
// sending the same requests, in the same run, against one local gateway (`gw sandbox`). Rounds
// alternate pool/gw; the median counts. The pool is measured twice: warm in this process (its
// start left out), and as a script of its own reading the same CSV, started cold as gw is, so
// that both sides pay for a process. Then a shell loop of one `gw refund create` per row,
// measured on a sample and extrapolated. Goals: gw >= 0.5x the pool's rate (aim 0.8x), and
// >= 100x the shell loop's. Then memory over a long send: 60,000 partial refunds of one purchase,
// gw's RSS read from Linux's /proc while it runs; goal: flat after the first 10,000 rows (a sixth
// of a shorter send, BENCH_LONG_SEND). Before it, a
// batch and many look-ups against a gateway's rate limit (underRateLimit; BENCH_RATE_LIMITED=only
// runs that alone).
import {spawn, spawnSync} from 'node:child_process'
import {createRequire} from 'node:module'
import {existsSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Pool} from 'undici'
import {GW, count, load, median, refundPoolScript, residentKiB, startSandbox} from './lib.js'

const REFUNDS = Number(process.env.BENCH_REFUNDS ?? 2_000)
const CONCURRENCY = 8
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const LOOP_SAMPLE = Number(process.env.BENCH_LOOP_SAMPLE ?? 20)
const AUTHORIZATION = 'Basic ' + Buffer.from('TEST:TEST').toString('base64')
// Each purchase takes many partial refunds of 1.00, so one set of purchases serves every round.
const PURCHASE_AMOUNT = 100_000
const REFUND_AMOUNT = 100

/** POSTs each of `bodies` over a Pool of CONCURRENCY connections; resolves with the elapsed ms and the answers. */
async function send(url, path, bodies) {
  const pool = new Pool(url, {connections: CONCURRENCY, pipelining: 1})
  const answers = []
  let next = 0
  const started = performance.now()
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]
      const response = await pool.request({path, method: 'POST', headers: {authorization: AUTHORIZATION, accept: 'application/json', 'content-type': 'application/json'}, body: JSON.stringify(body)})
      const envelope = await response.body.json()
      if (!envelope.successful) throw new Error(`${path} answered ${response.statusCode}: ${envelope.errors}`)
      answers.push(envelope.response)
    }
  }
  await Promise.all(Array.from({length: CONCURRENCY}, worker))
  const ms = performance.now() - started
  await pool.close()
  return {ms, answers}
}

function refundsCsv(ids, prefix) {
  return ['transaction_id,amount,reference', ...refunds(ids, prefix).map((r) => `${r.transaction_id},${r.amount},${r.reference}`)].join('\n') + '\n'
}

function refunds(ids, prefix) {
  return ids.map((id, i) => ({transaction_id: id, amount: REFUND_AMOUNT, reference: `${prefix}-${i}`}))
}

/** A fresh local gateway holding REFUNDS purchases to refund: every measurement starts from the same state. */
async function gatewayWithPurchases() {
  const sandbox = await startSandbox()
  const card = {card_holder: 'Bench Mark', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'}
  const purchases = Array.from({length: REFUNDS}, (_, i) => ({...card, amount: PURCHASE_AMOUNT, reference: `bench-order-${i}`, currency: 'AUD'}))
  const ids = (await send(sandbox.url, '/v1.0/purchases', purchases)).answers.map((purchase) => purchase.id)
  await send(sandbox.url, '/v1.0/refunds', refunds(ids.slice(0, 200), 'warm-up'))
  return {sandbox, ids}
}

async function poolRound() {
  const {sandbox, ids} = await gatewayWithPurchases()
  try {
    return REFUNDS / ((await send(sandbox.url, '/v1.0/refunds', refunds(ids, 'pool'))).ms / 1000)
  } finally {
    await sandbox.stop()
  }
}

async function poolScriptRound(work, round) {
  const {sandbox, ids} = await gatewayWithPurchases()
  try {
    const file = join(work, `pool-script-${round}.csv`)
    writeFileSync(file, refundsCsv(ids, `script-${round}`))
    const started = performance.now()
    const result = spawnSync(...timed([process.execPath, '-e', refundPoolScript(CONCURRENCY), createRequire(import.meta.url).resolve('undici'), file, sandbox.url]), {encoding: 'utf8', maxBuffer: 256 * 1024 * 1024})
    const ms = performance.now() - started
    if (result.status !== 0) throw new Error(`the Pool script exited ${result.status}: ${result.stderr}`)
    cpu.script.push(cpuOf(result.stderr))
    return REFUNDS / (ms / 1000)
  } finally {
    await sandbox.stop()
  }
}

async function gwRound(work, round, gw = GW, name = 'gw') {
  const {sandbox, ids} = await gatewayWithPurchases()
  try {
    const file = join(work, `refunds-${name}-${round}.csv`)
    writeFileSync(file, refundsCsv(ids, `${name}-${round}`))
    const started = performance.now()
    const result = spawnSync(...timed([process.execPath, gw, 'refund', 'create', '--input', file, '--concurrency', String(CONCURRENCY)]), {env: gwEnv(work, sandbox.url), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024})
    const ms = performance.now() - started
    cpu[name].push(cpuOf(result.stderr))
    const approved = result.stdout.split('\n').filter((line) => line.includes('"status":"approved"')).length
    if (result.status !== 0 || approved !== REFUNDS) throw new Error(`gw refund create --input exited ${result.status} with ${approved} approved: ${result.stderr}`)
    return REFUNDS / (ms / 1000)
  } finally {
    await sandbox.stop()
  }
}

/** The loop a user writes today: one process per refund; a sample of LOOP_SAMPLE rows, timed. */
async function loopRate(work) {
  const {sandbox, ids} = await gatewayWithPurchases()
  try {
    const sample = join(work, 'loop.csv')
    writeFileSync(sample, refunds(ids.slice(0, LOOP_SAMPLE), 'loop').map((r) => `${r.transaction_id},${r.amount},${r.reference}`).join('\n') + '\n')
    const loop = `while IFS=, read -r id amount reference; do "${process.execPath}" "${GW}" refund create --transaction-id "$id" --amount "$amount" --reference "$reference" > /dev/null || exit 1; done < "${sample}"`
    const started = performance.now()
    const looped = spawnSync('sh', ['-c', loop], {env: gwEnv(work, sandbox.url), encoding: 'utf8'})
    const ms = performance.now() - started
    if (looped.status !== 0) throw new Error(`shell loop failed: ${looped.stderr}`)
    return {rate: LOOP_SAMPLE / (ms / 1000), ms}
  } finally {
    await sandbox.stop()
  }
}

let homes = 0

/** CPU seconds (user + sys) of each round's process, by who ran: what a loaded machine moves far less than wall time. */
const cpu = {script: [], gw: [], base: []}
const TIME = spawnSync('/usr/bin/time', ['-f', '%U', 'true']).status === 0

/** The command and its arguments, run under GNU time where there is one (its last stderr line: user and sys seconds). */
function timed([command, ...args]) {
  return TIME ? ['/usr/bin/time', ['-f', 'cpu %U %S', command, ...args]] : [command, args]
}

function cpuOf(stderr) {
  const match = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr)
  return match ? Number(match[1]) + Number(match[2]) : NaN
}

/**
 * BENCH_GW_BASE names another gw's bin/run.js (a build of the commit before a change): its rounds
 * alternate with this gw's and the Pool script's, each a ratio to the script in the same run.
 * BENCH_QUICK=1 leaves out the warm Pool, the shell loop and the long send.
 */
const BASE = process.env.BENCH_GW_BASE
const QUICK = process.env.BENCH_QUICK === '1'

const LONG_SEND = Number(process.env.BENCH_LONG_SEND ?? 60_000)
// Memory counts from here on: what gw holds once warm, which a flat send keeps.
const WARM_ROWS = Math.min(10_000, Math.floor(LONG_SEND / 6))

/** gw's resident memory as a long batch goes: sampled every 200 ms with the rows printed so far. */
async function memoryOverALongSend(work) {
  const sandbox = await startSandbox()
  try {
    const card = {card_holder: 'Bench Mark', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'}
    const [purchase] = (await send(sandbox.url, '/v1.0/purchases', [{...card, amount: LONG_SEND * REFUND_AMOUNT, reference: 'bench-long', currency: 'AUD'}])).answers
    const file = join(work, 'long.csv')
    writeFileSync(file, ['transaction_id,amount,reference', ...Array.from({length: LONG_SEND}, (_, i) => `${purchase.id},${REFUND_AMOUNT},long-${i}`)].join('\n') + '\n')
    const child = spawn(process.execPath, [GW, 'refund', 'create', '--input', file, '--concurrency', String(CONCURRENCY)], {env: gwEnv(work, sandbox.url), stdio: ['ignore', 'pipe', 'ignore']})
    let rows = 0
    child.stdout.on('data', (chunk) => (rows += chunk.toString().split('\n').length - 1))
    const samples = []
    const timer = setInterval(() => {
      const kib = residentKiB(child.pid)
      if (!Number.isNaN(kib)) samples.push({rows, mib: kib / 1024})
    }, 200)
    const code = await new Promise((resolve) => child.on('close', resolve))
    clearInterval(timer)
    if (code !== 0 || rows !== LONG_SEND) throw new Error(`the long send exited ${code} with ${rows} rows`)
    return samples
  } finally {
    await sandbox.stop()
  }
}

function gwEnv(work, url) {
  return {...process.env, XDG_CONFIG_HOME: join(work, 'config'), XDG_DATA_HOME: join(work, 'data', String(++homes)), GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', CI: '1'}
}

/** Each round's ratio of `rates` to `to`, measured in that round. */
function perRound(rates, to) {
  return rates.map((rate, i) => `${(rate / to[i]).toFixed(2)}x`).join(', ')
}

const LIMITED_ROWS = Number(process.env.BENCH_LIMITED_ROWS ?? 3_000)
const LIMIT = 100
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20)
const LIMITED_CONCURRENCY = 16

/**
 * Against `gw sandbox start --rate-limit 100 --latency 20` (a sliding second, refused requests not
 * counted; each answer 15-25 ms late): a purchase batch of LIMITED_ROWS rows, which sends two
 * requests a row (the look-up of its reference, then the purchase), and `gw purchase get` of the
 * same ids, one request each, both at concurrency 16. Read from the gateway's request log: every
 * request, the 429s, and each reference's purchase made once. Goal: 85 a second or better for a
 * request a row (issue 67), with no row made twice and none failed for the limit.
 */
async function underRateLimit(work) {
  const sandbox = await startSandbox(['--rate-limit', String(LIMIT), '--latency', String(LATENCY_MS)])
  try {
    const env = gwEnv(work, sandbox.url)
    const card = spawnSync(process.execPath, [GW, 'card', 'tokenize', '--card-holder', 'Bench Mark', '--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123', '--json'], {env, encoding: 'utf8'})
    const token = JSON.parse(card.stdout).token
    const file = join(work, 'limited.csv')
    writeFileSync(file, ['card_token,amount,reference,currency', ...Array.from({length: LIMITED_ROWS}, (_, i) => `${token},1000,limited-${i},AUD`)].join('\n') + '\n')
    const log = join(sandbox.data, 'gw', 'sandbox-requests.ndjson')
    // The gateway appends its log in batches, off each request's path: read the file once it holds
    // every entry the gateway has numbered so far (GET /_sandbox/requests's cursor), each line whole.
    const logged = async () => {
      const {next} = (await (await fetch(`${sandbox.url}/_sandbox/requests?limit=1`)).json()).response
      for (let tries = 0; ; tries++) {
        const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(0, -1) : []
        if (lines.length >= next) return lines.map((line) => JSON.parse(line)).filter((entry) => entry.path.startsWith('/v1.0/'))
        if (tries === 500) throw new Error(`the local gateway's request log holds ${lines.length} of its ${next} entries after 10 s`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    const run = async (args) => {
      const before = (await logged()).length
      const started = performance.now()
      const result = spawnSync(process.execPath, [GW, ...args, '--concurrency', String(LIMITED_CONCURRENCY)], {env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024})
      const seconds = (performance.now() - started) / 1000
      const requests = (await logged()).slice(before)
      return {result, seconds, requests, refused: requests.filter((entry) => entry.status === 429).length}
    }
    const batch = await run(['purchase', 'create', '--input', file])
    const approved = batch.result.stdout.split('\n').filter((line) => line.includes('"status":"approved"')).length
    if (batch.result.status !== 0 || approved !== LIMITED_ROWS) throw new Error(`gw purchase create --input exited ${batch.result.status} with ${approved} approved: ${batch.result.stderr}`)
    const made = new Map()
    for (const entry of batch.requests) if (entry.method === 'POST' && entry.status === 200) made.set(entry.reference, (made.get(entry.reference) ?? 0) + 1)
    const once = [...made.values()].every((times) => times === 1) && made.size === LIMITED_ROWS
    const summary = batch.result.stderr.split('\n').find((line) => line.startsWith('Rate limited by the gateway')) ?? 'no rate limit met'
    const ids = join(work, 'limited-ids.txt')
    writeFileSync(ids, Array.from({length: LIMITED_ROWS}, (_, i) => `limited-${i}`).join('\n') + '\n')
    const gets = await run(['purchase', 'get', '--input', ids])
    const found = gets.result.stdout.trim().split('\n').length
    if (gets.result.status !== 0 || found !== LIMITED_ROWS) throw new Error(`gw purchase get --input exited ${gets.result.status} with ${found} found: ${gets.result.stderr}`)
    console.log(`under gw sandbox start --rate-limit ${LIMIT} --latency ${LATENCY_MS}, concurrency ${LIMITED_CONCURRENCY}; load ${load()}`)
    console.log(`gw purchase create --input, ${LIMITED_ROWS} rows: ${(LIMITED_ROWS / batch.seconds).toFixed(1)} rows/s, ${(batch.requests.length / batch.seconds).toFixed(1)} requests/s (${(batch.requests.length / LIMITED_ROWS).toFixed(2)} a row), ${batch.refused} answered 429; every row made once: ${once}`)
    console.log(`  its summary: ${summary}`)
    console.log(`gw purchase get --input, ${LIMITED_ROWS} ids: ${(LIMITED_ROWS / gets.seconds).toFixed(1)} ids/s, ${(gets.requests.length / gets.seconds).toFixed(1)} requests/s, ${gets.refused} answered 429 (goal >= 85 a second)`)
  } finally {
    await sandbox.stop()
  }
}

export default async function bench() {
  const work = mkdtempSync(join(tmpdir(), 'gw-bench-batch-'))
  // BENCH_RATE_LIMITED=only: this measure alone.
  if (process.env.BENCH_RATE_LIMITED === 'only') return underRateLimit(work)
  const rates = {pool: [], script: [], gw: [], base: []}
  for (let round = 0; round < ROUNDS; round++) {
    // Which goes first alternates, so none always meets a warmer machine.
    const order = [async () => rates.script.push(await poolScriptRound(work, round)), async () => rates.gw.push(await gwRound(work, round))]
    if (!QUICK) order.unshift(async () => rates.pool.push(await poolRound()))
    if (BASE) order.push(async () => rates.base.push(await gwRound(work, round, BASE, 'base')))
    for (const measure of round % 2 === 0 ? order : order.reverse()) await measure()
  }
  const rounds = (list) => list.map((r) => r.toFixed(0)).join(', ')
  if (QUICK) {
    const scriptRate = median(rates.script)
    console.log(`refunds: ${REFUNDS} x ${ROUNDS} rounds at concurrency ${CONCURRENCY}; load ${load()}`)
    console.log(`raw undici Pool, as a script:   ${scriptRate.toFixed(0)} refunds/s (rounds ${rounds(rates.script)})`)
    console.log(`gw refund create --input:       ${median(rates.gw).toFixed(0)} refunds/s (rounds ${rounds(rates.gw)}): ${(median(rates.gw) / scriptRate).toFixed(2)}x the script (each round's: ${perRound(rates.gw, rates.script)})`)
    if (TIME) console.log(`CPU seconds (user + sys), medians: Pool script ${median(cpu.script).toFixed(2)}, gw ${median(cpu.gw).toFixed(2)}${BASE ? `, baseline gw ${median(cpu.base).toFixed(2)}` : ''}`)
    if (BASE) console.log(`baseline gw (${BASE}): ${median(rates.base).toFixed(0)} refunds/s (rounds ${rounds(rates.base)}): ${(median(rates.base) / scriptRate).toFixed(2)}x the script (each round's: ${perRound(rates.base, rates.script)})`)
    return
  }
  const loop = await loopRate(work)
  const [poolRate, scriptRate, gwRate] = [median(rates.pool), median(rates.script), median(rates.gw)]
  console.log(`refunds: ${REFUNDS} x ${ROUNDS} rounds at concurrency ${CONCURRENCY}, each against a fresh local gateway holding ${REFUNDS} purchases`)
  console.log(`raw undici Pool, warm:          ${poolRate.toFixed(0)} refunds/s (rounds ${rounds(rates.pool)}; in this process, its start left out)`)
  console.log(`raw undici Pool, as a script:   ${scriptRate.toFixed(0)} refunds/s (rounds ${rounds(rates.script)}; a process of its own reading the CSV, as gw is)`)
  console.log(`gw refund create --input:       ${gwRate.toFixed(0)} refunds/s (rounds ${rounds(rates.gw)}; process start, checks and fsync'd journal included)`)
  console.log(`shell loop of gw refund create: ${loop.rate.toFixed(1)} refunds/s (${LOOP_SAMPLE} rows in ${(loop.ms / 1000).toFixed(1)} s; ${REFUNDS} would take ${(REFUNDS / loop.rate / 60).toFixed(1)} min)`)
  console.log(`ratio gw/pool: ${(gwRate / poolRate).toFixed(2)}x against the warm Pool, ${(gwRate / scriptRate).toFixed(2)}x against the Pool script (goal >= 0.5x, aim 0.8x)`)
  console.log(`ratio gw/loop: ${(gwRate / loop.rate).toFixed(0)}x (goal >= 100x)`)
  await underRateLimit(work)
  if (process.platform !== 'linux') return console.log(`memory over a send of ${count(LONG_SEND)} refunds: not measured, for gw's RSS is read from Linux's /proc`)
  const samples = await memoryOverALongSend(work)
  const after = samples.filter((sample) => sample.rows >= WARM_ROWS)
  if (after.length === 0) throw new Error(`the send of ${count(LONG_SEND)} refunds ended before a sample at ${count(WARM_ROWS)} rows: set BENCH_LONG_SEND higher`)
  const at = (rows) => samples.find((sample) => sample.rows >= rows)
  const peak = Math.max(...after.map((sample) => sample.mib))
  console.log(`memory over a send of ${count(LONG_SEND)} refunds: RSS ${after[0].mib.toFixed(1)} MiB at ${count(WARM_ROWS)} rows, ${at(LONG_SEND / 2)?.mib.toFixed(1)} MiB at ${count(LONG_SEND / 2)}, ${after.at(-1).mib.toFixed(1)} MiB at the end; peak after ${count(WARM_ROWS)} rows ${peak.toFixed(1)} MiB, ${(peak / after[0].mib).toFixed(2)}x the figure at ${count(WARM_ROWS)} (goal: flat)`)
}
