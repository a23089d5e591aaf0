// The cost of one request inside a process: 1,000 sequential GETs of one purchase through
// gw's GatewayClient (auth, envelope, zod parse, retry bookkeeping) against the same 1,000 through a
// bare undici Pool that reads and JSON-parses the body, both against one local `gw sandbox`.
// The client is bundled from src/ by esbuild with the settings scripts/bundle.js uses. Rounds
// alternate raw/gw after a warm-up; the ratio is the median of each round's gw/raw. Goal: gw at most 1.25x raw.
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {build} from 'esbuild'
import {Pool} from 'undici'
import {median, startSandbox} from './lib.js'

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
// The sandbox and both clients need their code optimised before rounds compare anything.
const WARM_UP = 2_000

async function loadClient() {
  const outdir = mkdtempSync(join(tmpdir(), 'gw-bench-client-'))
  await build({
    stdin: {contents: "export {GatewayClient} from './src/api/client.ts'", resolveDir: join(import.meta.dirname, '..'), loader: 'ts'},
    outfile: join(outdir, 'client.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minifySyntax: true,
    banner: {js: "import {createRequire as __gwCreateRequire} from 'node:module'; const require = __gwCreateRequire(import.meta.url);"},
    logLevel: 'warning',
  })
  return (await import(pathToFileURL(join(outdir, 'client.js')).href)).GatewayClient
}

async function timed(count, get) {
  const started = performance.now()
  for (let i = 0; i < count; i++) await get()
  return performance.now() - started
}

export default async function bench() {
  const sandbox = await startSandbox()
  try {
    const authorization = 'Basic ' + Buffer.from('TEST:TEST').toString('base64')
    const body = JSON.stringify({amount: 1000, reference: `bench-${Date.now()}`, card_holder: 'Bench', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'})
    const created = await fetch(`${sandbox.url}/v1.0/purchases`, {method: 'POST', headers: {authorization, 'content-type': 'application/json'}, body}).then((r) => r.json())
    const id = created.response.id
    const GatewayClient = await loadClient()
    const client = new GatewayClient({baseUrl: sandbox.url, username: 'TEST', token: 'TEST', userAgent: 'gw-bench'})
    const pool = new Pool(sandbox.url, {connections: 1})
    const path = `/v1.0/purchases/${encodeURIComponent(id)}`
    const raw = async () => {
      const response = await pool.request({path, method: 'GET', headers: {authorization, accept: 'application/json'}})
      const record = JSON.parse(await response.body.text()).response
      if (response.statusCode !== 200 || record.id !== id) throw new Error(`raw GET answered ${response.statusCode}`)
    }
    const viaGw = async () => {
      const record = await client.purchases.get(id)
      if (record.id !== id) throw new Error('gw GET read another record')
    }
    await timed(WARM_UP, raw)
    await timed(WARM_UP, viaGw)
    const ms = {raw: [], gw: []}
    for (let round = 0; round < ROUNDS; round++) {
      ms.raw.push(await timed(REQUESTS, raw))
      ms.gw.push(await timed(REQUESTS, viaGw))
    }
    await Promise.all([pool.close(), client.close()])
    const perRequest = (total) => `${((total / REQUESTS) * 1000).toFixed(0)} µs/request`
    const [rawMs, gwMs] = [median(ms.raw), median(ms.gw)]
    console.log(`${REQUESTS} sequential GETs x ${ROUNDS} rounds (after ${WARM_UP} warm-up), alternating; medians`)
    console.log(`raw undici Pool:    ${rawMs.toFixed(0).padStart(5)} ms  ${perRequest(rawMs)}  (rounds ${ms.raw.map((v) => v.toFixed(0)).join(', ')})`)
    console.log(`gw GatewayClient:   ${gwMs.toFixed(0).padStart(5)} ms  ${perRequest(gwMs)}  (rounds ${ms.gw.map((v) => v.toFixed(0)).join(', ')})`)
    const ratio = median(ms.gw.map((gw, round) => gw / ms.raw[round]))
    console.log(`ratio gw/raw: ${ratio.toFixed(2)}x, median of the rounds' ratios (goal <= 1.25x)`)
  } finally {
    await sandbox.stop()
  }
}
