// gw listen: 20,000 web hook deliveries at concurrency 16 against `gw listen --json`, and against a
// bare node:http receiver that parses the JSON and writes one line per event, in the same run.
// Both are child processes whose stdout goes to a counting sink; the load generator is an undici
// Pool with 16 keep-alive connections, loopback only. Rounds alternate bare/gw; the median counts.
// Goal (issue 13): gw >= 0.95x the bare receiver's events/s, and its RSS flat (start/middle/end) over
// the 101,000 events of the default run.
import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Pool} from 'undici'
import {GW, median} from './lib.js'

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 20_000)
const CONCURRENCY = 16
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const WARM_UP = 1_000

const BARE_RECEIVER = `
const http = require('node:http')
const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const delivery = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    process.stdout.write(JSON.stringify({received_at: new Date().toISOString(), event: delivery.event, mode: req.headers['x-service-mode'] ?? null, payload: delivery.payload}) + '\\n')
    res.writeHead(200, {'content-length': 0}).end()
  })
})
server.listen(0, '127.0.0.1', () => process.stderr.write('Listening for web hooks on http://127.0.0.1:' + server.address().port + '/ (Ctrl-C stops)\\n'))
process.on('SIGTERM', () => process.exit(0))
`

const delivery = JSON.stringify({
  event: 'charge:successful',
  payload: [
    {
      subscription: {id: '071-S-AAAA1111', frequency: 'Daily', start_date: '2026-11-01', end_date: null, reference: 'sub-1', last_status: 'Scheduled', customer: {id: '071-C-BBBB2222', email: 'jane@example.com', first_name: 'Jane', last_name: 'Citizen', reference: 'cust-1'}},
      response: {successful: true, response: {id: '071-P-CCCC3333', amount: 1000, decimal_amount: 10.0, currency: 'AUD', message: 'Approved', successful: true, source: 'Recurring', card_number: '424242XXXXXX4242'}, errors: [], test: true},
    },
  ],
})

/** A receiver child process with its stdout counted line by line. */
async function startReceiver(command, args, env) {
  const child = spawn(command, args, {env, stdio: ['ignore', 'pipe', 'pipe']})
  let lines = 0
  child.stdout.on('data', (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
  })
  const url = await new Promise((resolve, reject) => {
    let err = ''
    child.stderr.on('data', (chunk) => {
      err += chunk
      const match = /Listening for web hooks on (\S+) \(/.exec(err)
      if (match) resolve(match[1])
    })
    child.on('exit', (code) => reject(new Error(`receiver exited ${code}: ${err}`)))
  })
  return {
    url,
    pid: child.pid,
    lines: () => lines,
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
  }
}

/** Sends `count` deliveries over 16 keep-alive connections; resolves with the elapsed ms. */
async function load(url, count) {
  const {origin, pathname} = new URL(url)
  const pool = new Pool(origin, {connections: CONCURRENCY, pipelining: 1})
  let next = 0
  const started = performance.now()
  const worker = async () => {
    while (next < count) {
      next++
      const response = await pool.request({path: pathname, method: 'POST', headers: {'content-type': 'application/json', 'x-service-mode': 'Sandbox'}, body: delivery})
      await response.body.dump()
      if (response.statusCode !== 200) throw new Error(`delivery answered ${response.statusCode}`)
    }
  }
  await Promise.all(Array.from({length: CONCURRENCY}, worker))
  const ms = performance.now() - started
  await pool.close()
  return ms
}

/** Samples a process's resident set size (Linux /proc) every 50 ms; KiB, or NaN elsewhere. */
function sampleRss(pid) {
  const samples = []
  const read = () => {
    try {
      samples.push(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]))
    } catch {
      samples.push(NaN)
    }
  }
  read()
  const timer = setInterval(read, 50)
  return {samples, stop: () => (clearInterval(timer), read())}
}

export default async function bench() {
  const home = mkdtempSync(join(tmpdir(), 'gw-bench-'))
  const env = {...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data')}
  const bare = await startReceiver(process.execPath, ['-e', BARE_RECEIVER], env)
  const gw = await startReceiver(process.execPath, [GW, 'listen', '--json', '--port', '0'], env)
  try {
    await load(bare.url, WARM_UP)
    await load(gw.url, WARM_UP)
    const gwRss = sampleRss(gw.pid)
    const bareRss = sampleRss(bare.pid)
    const rates = {bare: [], gw: []}
    for (let round = 0; round < ROUNDS; round++) {
      rates.bare.push(DELIVERIES / ((await load(bare.url, DELIVERIES)) / 1000))
      rates.gw.push(DELIVERIES / ((await load(gw.url, DELIVERIES)) / 1000))
    }
    gwRss.stop()
    bareRss.stop()
    const expected = WARM_UP + ROUNDS * DELIVERIES
    if (gw.lines() !== expected || bare.lines() !== expected) throw new Error(`lines printed: gw ${gw.lines()}, bare ${bare.lines()}, expected ${expected}`)
    const [bareRate, gwRate] = [median(rates.bare), median(rates.gw)]
    const rss = gwRss.samples
    const at = (fraction) => rss[Math.min(rss.length - 1, Math.floor(fraction * (rss.length - 1)))]
    const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`
    console.log(`deliveries: ${DELIVERIES} x ${ROUNDS} rounds at concurrency ${CONCURRENCY} (after ${WARM_UP} warm-up), every event printed: ${gw.lines()} lines each`)
    console.log(`bare node:http receiver: ${bareRate.toFixed(0)} events/s (rounds ${rates.bare.map((r) => r.toFixed(0)).join(', ')}), peak RSS ${mib(Math.max(...bareRss.samples))}`)
    console.log(`gw listen --json:        ${gwRate.toFixed(0)} events/s (rounds ${rates.gw.map((r) => r.toFixed(0)).join(', ')})`)
    console.log(`ratio gw/bare: ${(gwRate / bareRate).toFixed(2)}x (goal >= 0.95x)`)
    console.log(`gw RSS over the run (${rss.length} samples): start ${mib(at(0))}, middle ${mib(at(0.5))}, end ${mib(at(1))}, peak ${mib(Math.max(...rss))} (goal: flat)`)
  } finally {
    await Promise.all([bare.stop(), gw.stop()])
  }
}
