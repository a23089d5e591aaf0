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
// Every gateway is the built CLI (`gw sandbox start`) in a process of its own.
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Pool} from 'undici'
import {GW, median, spawnServer} from './lib.js'

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
  /** Makes `count` purchases (the warm-up merchant's with `warm`), 8 at a time; returns purchases per second. */
  const run = async (count, {warm = false} = {}) => {
    let left = count
    const started = performance.now()
    await Promise.all(
      Array.from({length: CONCURRENCY}, async () => {
        while (left-- > 0) await purchase(warm)
      }),
    )
    return count / ((performance.now() - started) / 1000)
  }
  const stop = async () => {
    await pool.close()
    await new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')))
  }
  return {run, stop, made: () => made}
}

const sandboxArgs = (extra) => (home) => [GW, 'sandbox', 'start', '--port', '0', '--merchant', WARM_MERCHANT, ...extra(home)]
const rate = (value) => `${Math.round(value).toLocaleString('en')}/s`
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

export default async function bench() {
  const rounds = []
  for (let index = 0; index < ROUNDS; index++) rounds.push(await round())
  const mid = (key) => median(rounds.map((measured) => measured[key]))
  const [bareRate, emptyRate, memoryAtState, largeRate, stateRate, loggedRate, unloggedRate] = ['bareRate', 'emptyRate', 'memoryAtState', 'largeRate', 'stateRate', 'loggedRate', 'unloggedRate'].map(mid)
  const at = (count) => count.toLocaleString('en').padEnd(7)
  console.log(`purchase create, concurrency ${CONCURRENCY}, windows of ${MEASURED} requests, median of ${ROUNDS} rounds:`)
  console.log(`  bare node:http JSON server      ${rate(bareRate)}`)
  console.log(`  in memory, empty                ${rate(emptyRate)}  (${ratio(emptyRate, bareRate)} bare; aim 0.5x)`)
  console.log(`  in memory, from ${at(STATE_RECORDS)}         ${rate(memoryAtState)}`)
  console.log(`  in memory, from ${at(LARGE)}         ${rate(largeRate)}  (${ratio(largeRate, emptyRate)} of empty; goal >= 0.8x)`)
  console.log(`  --state, from ${at(STATE_RECORDS)}           ${rate(stateRate)}  (${ratio(stateRate, memoryAtState)} of in memory, windows in turn; goal >= 0.8x; ${ratio(stateRate, bareRate)} bare)`)
  console.log(`  request log on / off, in turn   ${rate(loggedRate)} / ${rate(unloggedRate)}  (${ratio(loggedRate, unloggedRate)}; goal >= 0.9x)`)
}
