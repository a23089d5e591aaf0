// gw sandbox: purchase-create rates at concurrency 8 (undici Pool, 8 keep-alive connections,
// loopback), each over a window of the same number of requests, median of 3 rounds:
//   - in memory, on an empty gateway and again once it holds 30,000 purchases (goal: >= 0.8x);
//     before the first window, 5,000 purchases of another merchant warm the JIT, so the empty
//     window is not also the cold one (merchant TEST's own records start at none);
//   - with --state, at 5,000 purchases, against in memory at 5,000: two fresh gateways, windows of
//     each in turn (goal: >= 0.8x, issue 47);
//   - with the request log on (the default, appended to a file in gw's data folder), against
//     --no-request-log: two fresh gateways in memory, warmed alike, then windows of each in turn
//     (the order swapped every pair), so that load from elsewhere on the machine falls on both
//     alike (goal: >= 0.9x);
//   - a bare node:http server that parses the same body and answers the same envelope shape
//     with no validation or storage: the ceiling of this machine (report; aim for 0.5x).
// And a quick history (issue 67), median of 3 rounds, each on fresh gateways:
//   - `gw sandbox seed --purchases 10000 --refunds 100000 --days 60`, in memory and with --state,
//     as a user runs it (the gw process included), against the same refunds sent one a request
//     through POST /v1.0/refunds at concurrency 8 (a window of 4,000 on purchases of a history);
//   - a page of 50 of the refunds list, at offset 0 and the last, with that history against a
//     gateway holding one page of refunds (an empty one's page holds nothing to send), read from
//     each in turn (goal 1.0x).
// Every gateway is the built CLI (`gw sandbox start`) in a process of its own.
// BENCH_SANDBOX_ONLY=rates or =history runs one of the two.
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Pool} from 'undici'
import {GW, count, cpuSeconds, measure, median, spawnServer} from './lib.js'

const CONCURRENCY = 8
const MEASURED = Number(process.env.BENCH_REQUESTS ?? 4_000)
const WARM_UP = 5_000
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const LARGE = Number(process.env.BENCH_RECORDS ?? 30_000)
const STATE_RECORDS = Number(process.env.BENCH_STATE_RECORDS ?? 5_000)
// Windows of each of the two gateways compared for the request log, and for --state, in turn.
const LOG_PAIRS = Number(process.env.BENCH_LOG_PAIRS ?? 6)
const STATE_PAIRS = Number(process.env.BENCH_STATE_PAIRS ?? 6)
const AUTH = `Basic ${Buffer.from('TEST:TEST').toString('base64')}`
// The merchant whose purchases warm a gateway up; it has records of its own, TEST none.
const WARM_MERCHANT = 'WARM:warm'
const WARM_AUTH = `Basic ${Buffer.from(WARM_MERCHANT).toString('base64')}`

const BARE_SERVER = `
const http = require('node:http')
let next = 0
const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    const id = '071-P-' + String(next++).padStart(8, '0')
    const response = {id, authorization: '123456', card_number: input.card_number.slice(0, 6) + 'XXXXXX' + input.card_number.slice(-4), card_holder: input.card_holder, card_expiry: '2030-02-28', card_type: 'MasterCard', card_token: 'abcdefghij0123456789', amount: input.amount, decimal_amount: input.amount / 100, successful: true, message: 'Approved', reference: input.reference, currency: 'AUD', settlement_date: '2026-11-23', transaction_date: new Date().toISOString(), source: 'API', response_code: '00', transaction_id: id, captured: true}
    const text = JSON.stringify({successful: true, response, errors: [], test: true})
    res.writeHead(200, {'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text)}).end(text)
  })
})
server.listen(0, '127.0.0.1', () => process.stdout.write('http://127.0.0.1:' + server.address().port + '\\n'))
process.on('SIGTERM', () => process.exit(0))
`

/** A server child process that prints its URL on stdout. */
async function start(args) {
  const home = mkdtempSync(join(tmpdir(), 'gw-bench-'))
  const env = {...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data')}
  const {url, child} = await spawnServer(args(home), env)
  const pool = new Pool(url, {connections: CONCURRENCY, pipelining: 1})
  let made = 0
  let warmed = 0
  const purchase = async (warm) => {
    const reference = warm ? `warm-${warmed++}` : `bench-${made++}`
    const {statusCode, body} = await pool.request({
      path: '/v1.0/purchases',
      method: 'POST',
      headers: {'content-type': 'application/json', authorization: warm ? WARM_AUTH : AUTH},
      body: JSON.stringify({card_holder: 'Jo Citizen', card_number: '5123456789012346', card_expiry: '02/2030', cvv: '123', amount: 1000, reference}),
    })
    await body.text()
    if (statusCode !== 200) throw new Error(`purchase ${reference} answered ${statusCode}`)
  }
  /** Makes `purchases` purchases (the warm-up merchant's with `warm`), 8 at a time; returns purchases per second. */
  const run = async (purchases, {warm = false} = {}) => {
    let left = purchases
    const started = performance.now()
    await Promise.all(
      Array.from({length: CONCURRENCY}, async () => {
        while (left-- > 0) await purchase(warm)
      }),
    )
    return purchases / ((performance.now() - started) / 1000)
  }
  const stop = async () => {
    await pool.close()
    await new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')))
  }
  return {run, stop, made: () => made}
}

const sandboxArgs = (extra) => (home) => [GW, 'sandbox', 'start', '--port', '0', '--merchant', WARM_MERCHANT, ...extra(home)]
const rate = (value) => `${count(Math.round(value))}/s`
const ratio = (a, b) => `${(a / b).toFixed(2)}x`

/** One round: every rate once, each gateway fresh. */
async function round() {
  const bare = await start(() => ['-e', BARE_SERVER])
  await bare.run(WARM_UP)
  const bareRate = await bare.run(MEASURED)
  await bare.stop()

  // Windows of MEASURED purchases of merchant TEST: from none ("empty"), then at LARGE.
  const memory = await start(sandboxArgs(() => []))
  await memory.run(WARM_UP, {warm: true})
  const emptyRate = await memory.run(MEASURED)
  await memory.run(LARGE - memory.made())
  const largeRate = await memory.run(MEASURED)
  await memory.stop()

  // --state against in memory, two fresh gateways at STATE_RECORDS each; the request log on
  // against off, two fresh gateways warmed alike.
  const durable = await start(sandboxArgs((home) => ['--state', join(home, 'state.json')]))
  const inMemory = await start(sandboxArgs(() => []))
  for (const gateway of [durable, inMemory]) {
    await gateway.run(WARM_UP, {warm: true})
    await gateway.run(STATE_RECORDS)
  }
  const [stateRate, memoryAtState] = await inTurn(durable, inMemory, STATE_PAIRS)

  const logged = await start(sandboxArgs(() => []))
  const unlogged = await start(sandboxArgs(() => ['--no-request-log']))
  for (const gateway of [logged, unlogged]) await gateway.run(WARM_UP, {warm: true})
  const [loggedRate, unloggedRate] = await inTurn(logged, unlogged, LOG_PAIRS)
  return {bareRate, emptyRate, memoryAtState, largeRate, stateRate, loggedRate, unloggedRate}
}

/**
 * Windows of two gateways in turn, the first of a pair swapped each time, so that load from
 * elsewhere on the machine falls on both alike; each one's median rate. Both are stopped after.
 */
async function inTurn(one, other, pairs) {
  const ones = []
  const others = []
  for (let pair = 0; pair < pairs; pair++) {
    const [first, second] = pair % 2 === 0 ? [one, other] : [other, one]
    const rates = [await first.run(MEASURED), await second.run(MEASURED)]
    ones.push(rates[first === one ? 0 : 1])
    others.push(rates[first === one ? 1 : 0])
  }
  await one.stop()
  await other.stop()
  return [median(ones), median(others)]
}

const HISTORY = {purchases: Number(process.env.BENCH_HISTORY_PURCHASES ?? 10_000), refunds: Number(process.env.BENCH_HISTORY_REFUNDS ?? 100_000), days: 60}
const API_REFUNDS = 4_000
const PAGE_READS = 200
// A gateway that has just made a history collects its garbage for a while after: read past that first.
const WARM_READS = 500

/** A gateway of its own, started by the built CLI, and gw's environment to reach it. */
async function historyGateway(extra = () => []) {
  const home = mkdtempSync(join(tmpdir(), 'gw-bench-history-'))
  const env = {...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data')}
  const {url, child} = await spawnServer([GW, 'sandbox', 'start', '--port', '0', '--no-request-log', ...extra(home)], env)
  const gwEnv = {...env, GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'sandbox'}
  const stop = () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')))
  return {url, gwEnv, stop, cpu: () => cpuSeconds(child.pid)}
}

/** The history made, as a user makes it: its wall time in ms, and the CPU seconds the gateway spent on it. */
function timedHistory(gateway, asked) {
  const before = gateway.cpu()
  const ms = seedHistory(gateway, asked)
  return {ms, cpu: gateway.cpu() - before}
}

/** `gw sandbox seed --purchases ...` as a user runs it: its wall time in ms. */
const seedHistory = ({gwEnv}, {purchases, refunds, days}) =>
  measure(process.execPath, [GW, 'sandbox', 'seed', '--purchases', String(purchases), '--refunds', String(refunds), '--days', String(days)], gwEnv).ms

/** Refunds sent one a request, 8 at a time, of a history's purchases (each has $10 or more left): refunds per second. */
async function apiRefundRate(gateway) {
  seedHistory(gateway, {purchases: 2_000, refunds: 0, days: 1})
  const pool = new Pool(gateway.url, {connections: CONCURRENCY, pipelining: 1})
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({length: CONCURRENCY}, async () => {
      for (let index = next++; index < API_REFUNDS; index = next++) {
        const body = JSON.stringify({transaction_id: `hist-p${(index % 2_000) + 1}`, amount: 100, reference: `api-r${index}`})
        const {statusCode, body: answer} = await pool.request({path: '/v1.0/refunds', method: 'POST', headers: {'content-type': 'application/json', authorization: AUTH}, body})
        await answer.text()
        if (statusCode !== 200) throw new Error(`refund ${index} answered ${statusCode}`)
      }
    }),
  )
  const perSecond = API_REFUNDS / ((performance.now() - started) / 1000)
  await pool.close()
  return perSecond
}

/**
 * The median time in ms to read one page of the refunds list from each of two gateways, read in
 * turn, so that load from elsewhere on the machine falls on both alike.
 */
async function pagesInTurn(...pages) {
  const pools = pages.map(({url}) => new Pool(url, {connections: 1}))
  const times = pages.map(() => [])
  for (let read = 0; read < WARM_READS + PAGE_READS; read++) {
    // Which goes first swaps each time.
    for (const index of read % 2 === 0 ? pages.keys() : [...pages.keys()].reverse()) {
      const {path} = pages[index]
      const started = performance.now()
      const response = await pools[index].request({path, method: 'GET', headers: {authorization: AUTH}})
      const envelope = await response.body.json()
      if (!envelope.successful || envelope.response.length !== 50) throw new Error(`${path}: ${JSON.stringify(envelope).slice(0, 200)}`)
      if (read >= WARM_READS) times[index].push(performance.now() - started)
    }
  }
  await Promise.all(pools.map((pool) => pool.close()))
  return times.map(median)
}

/** One round of the quick history's figures, every gateway fresh. */
async function historyRound() {
  const memory = await historyGateway()
  const inMemory = timedHistory(memory, HISTORY)
  const onePage = await historyGateway()
  seedHistory(onePage, {purchases: 10, refunds: 50, days: 1})
  const pages = {}
  for (const [name, offset] of [['first', 0], ['last', HISTORY.refunds - 50]]) {
    const [large, small] = await pagesInTurn({url: memory.url, path: `/v1.0/refunds?offset=${offset}&limit=50`}, {url: onePage.url, path: '/v1.0/refunds?offset=0&limit=50'})
    pages[name] = {large, small}
  }
  await Promise.all([memory.stop(), onePage.stop()])
  const durable = await historyGateway((home) => ['--state', join(home, 'state.db')])
  const withState = timedHistory(durable, HISTORY)
  await durable.stop()
  const api = await historyGateway()
  const apiRate = await apiRefundRate(api)
  await api.stop()
  return {memoryMs: inMemory.ms, memoryCpu: inMemory.cpu, stateMs: withState.ms, stateCpu: withState.cpu, apiRate, pages}
}

async function history() {
  const rounds = []
  for (let index = 0; index < ROUNDS; index++) rounds.push(await historyRound())
  const mid = (pick) => median(rounds.map(pick))
  const [memoryMs, stateMs, apiRate] = [mid((r) => r.memoryMs), mid((r) => r.stateMs), mid((r) => r.apiRate)]
  const cpu = (pick) => `${mid(pick).toFixed(1)} s of the gateway's CPU`
  const apiMs = (HISTORY.refunds / apiRate) * 1000
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`
  console.log(`quick history, ${count(HISTORY.purchases)} purchases and ${count(HISTORY.refunds)} refunds over ${HISTORY.days} days, median of ${ROUNDS} rounds:`)
  console.log(`  gw sandbox seed --purchases, in memory   ${seconds(memoryMs)}, ${cpu((r) => r.memoryCpu)}  (${ratio(apiMs, memoryMs)} faster than the refunds alone through the API)`)
  console.log(`  gw sandbox seed --purchases, --state     ${seconds(stateMs)}, ${cpu((r) => r.stateCpu)}  (${ratio(apiMs, stateMs)} faster; goal well under 10 s)`)
  console.log(`  the refunds alone through POST /v1.0/refunds, concurrency ${CONCURRENCY}: ${rate(apiRate)}, so ${seconds(apiMs)}`)
  for (const name of ['first', 'last']) {
    const [large, small] = [mid((r) => r.pages[name].large), mid((r) => r.pages[name].small)]
    console.log(`  refunds list, ${name} page of 50: ${(large * 1000).toFixed(0)} µs with the history / ${(small * 1000).toFixed(0)} µs with one page = ${ratio(large, small)} (goal 1.0x)`)
  }
}

async function rates() {
  const rounds = []
  for (let index = 0; index < ROUNDS; index++) rounds.push(await round())
  const mid = (key) => median(rounds.map((measured) => measured[key]))
  const [bareRate, emptyRate, memoryAtState, largeRate, stateRate, loggedRate, unloggedRate] = ['bareRate', 'emptyRate', 'memoryAtState', 'largeRate', 'stateRate', 'loggedRate', 'unloggedRate'].map(mid)
  const at = (size) => count(size).padEnd(7)
  console.log(`purchase create, concurrency ${CONCURRENCY}, windows of ${MEASURED} requests, median of ${ROUNDS} rounds:`)
  console.log(`  bare node:http JSON server      ${rate(bareRate)}`)
  console.log(`  in memory, empty                ${rate(emptyRate)}  (${ratio(emptyRate, bareRate)} bare; aim 0.5x)`)
  console.log(`  in memory, from ${at(STATE_RECORDS)}         ${rate(memoryAtState)}`)
  console.log(`  in memory, from ${at(LARGE)}         ${rate(largeRate)}  (${ratio(largeRate, emptyRate)} of empty; goal >= 0.8x)`)
  console.log(`  --state, from ${at(STATE_RECORDS)}           ${rate(stateRate)}  (${ratio(stateRate, memoryAtState)} of in memory, windows in turn; goal >= 0.8x; ${ratio(stateRate, bareRate)} bare)`)
  console.log(`  request log on / off, in turn   ${rate(loggedRate)} / ${rate(unloggedRate)}  (${ratio(loggedRate, unloggedRate)}; goal >= 0.9x)`)
}

export default async function bench() {
  const only = process.env.BENCH_SANDBOX_ONLY
  if (only !== 'history') await rates()
  if (only !== 'rates') await history()
}
