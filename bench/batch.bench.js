// Batches: 2,000 refunds at concurrency 8 through `gw refund create --input` (a process of its
// own, start-up and journal included), against a raw undici Pool of 8 keep-alive connections
// sending the same requests, in the same run, against one local gateway (`gw sandbox`). Rounds
// alternate pool/gw; the median counts. Then a shell loop of one `gw refund create` per row,
// measured on a sample and extrapolated. Goals: gw >= 0.5x the pool's rate (aim 0.8x), and
// >= 100x the shell loop's.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Pool} from 'undici'
import {GW, median, startSandbox} from './lib.js'

const REFUNDS = Number(process.env.BENCH_REFUNDS ?? 2_000)
const CONCURRENCY = 8
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const LOOP_SAMPLE = Number(process.env.BENCH_LOOP_SAMPLE ?? 20)
const AUTHORIZATION = 'Basic ' + Buffer.from('TEST:TEST').toString('base64')
// Each purchase takes many partial refunds of 1.00, so one set of purchases serves every round.
const PURCHASE_AMOUNT = 100_000
const REFUND_AMOUNT = 100

/** `count` requests of `bodies` over a Pool of CONCURRENCY connections; resolves with the elapsed ms. */
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

async function gwRound(work, round) {
  const {sandbox, ids} = await gatewayWithPurchases()
  try {
    const file = join(work, `refunds-${round}.csv`)
    writeFileSync(file, ['transaction_id,amount,reference', ...refunds(ids, `gw-${round}`).map((r) => `${r.transaction_id},${r.amount},${r.reference}`)].join('\n') + '\n')
    const started = performance.now()
    const result = spawnSync(process.execPath, [GW, 'refund', 'create', '--input', file, '--concurrency', String(CONCURRENCY)], {env: gwEnv(work, sandbox.url), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024})
    const ms = performance.now() - started
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

function gwEnv(work, url) {
  return {...process.env, XDG_CONFIG_HOME: join(work, 'config'), XDG_DATA_HOME: join(work, 'data'), GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', CI: '1'}
}

export default async function bench() {
  const work = mkdtempSync(join(tmpdir(), 'gw-bench-batch-'))
  const rates = {pool: [], gw: []}
  for (let round = 0; round < ROUNDS; round++) {
    // Which goes first alternates, so neither always meets a warmer machine.
    if (round % 2 === 0) {
      rates.pool.push(await poolRound())
      rates.gw.push(await gwRound(work, round))
    } else {
      rates.gw.push(await gwRound(work, round))
      rates.pool.push(await poolRound())
    }
  }
  const loop = await loopRate(work)
  const [poolRate, gwRate] = [median(rates.pool), median(rates.gw)]
  const rounds = (list) => list.map((r) => r.toFixed(0)).join(', ')
  console.log(`refunds: ${REFUNDS} x ${ROUNDS} rounds at concurrency ${CONCURRENCY}, each against a fresh local gateway holding ${REFUNDS} purchases`)
  console.log(`raw undici Pool:                ${poolRate.toFixed(0)} refunds/s (rounds ${rounds(rates.pool)})`)
  console.log(`gw refund create --input:       ${gwRate.toFixed(0)} refunds/s (rounds ${rounds(rates.gw)}; process start, checks and fsync'd journal included)`)
  console.log(`shell loop of gw refund create: ${loop.rate.toFixed(1)} refunds/s (${LOOP_SAMPLE} rows in ${(loop.ms / 1000).toFixed(1)} s; ${REFUNDS} would take ${(REFUNDS / loop.rate / 60).toFixed(1)} min)`)
  console.log(`ratio gw/pool: ${(gwRate / poolRate).toFixed(2)}x (goal >= 0.5x, aim 0.8x)`)
  console.log(`ratio gw/loop: ${(gwRate / loop.rate).toFixed(0)}x (goal >= 100x)`)
}
