// gw listen: 20,000 web hook deliveries per round at concurrency 16 against `gw listen --json`, and
// in the same run against two bare node:http receivers that parse the JSON and write one line per
// event: the first writes a shorter line (no headers, nothing escaped); the second writes the line gw
// writes (the gateway's x- headers kept, DEL and C1 escaped), so the gap to it is gw's own overhead.
// Every receiver is a child process whose stdout goes to a counting sink; the load generator is an
// undici Pool with 16 keep-alive connections, loopback only. Rounds rotate through the receivers;
// the median counts. CPU per event is the receiver's own user+system time (Linux /proc).
// Goal: gw >= 0.95x the bare receiver's events/s, and its RSS flat over the 100,000
// events after the warm-up.
import {spawn} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Pool} from 'undici'
import {GW, cpuSeconds, median, residentKiB} from './lib.js'

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 20_000)
const CONCURRENCY = 16
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
// Long enough for V8 to finish optimising both receivers (gw's last deopts come ~40,000 events in).
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 40_000)

const receiverScript = (line) => `
const http = require('node:http')
const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const delivery = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    process.stdout.write(${line} + '\\n')
    res.writeHead(200, {'content-length': 0}).end()
  })
})
server.listen(0, '127.0.0.1', () => process.stderr.write('Listening for web hooks on http://127.0.0.1:' + server.address().port + '/ (Ctrl-C stops)\\n'))
process.on('SIGTERM', () => process.exit(0))
`

const BARE_RECEIVER = receiverScript(`JSON.stringify({received_at: new Date().toISOString(), event: delivery.event, mode: req.headers['x-service-mode'] ?? null, payload: delivery.payload})`)

const SAME_LINE_RECEIVER = receiverScript(`(() => {
      const headers = {}
      for (const name in req.headers) if (name === 'content-type' || name === 'user-agent' || (name.startsWith('x-') && !/auth|token|secret|key|cookie/.test(name))) headers[name] = req.headers[name]
      const json = JSON.stringify({received_at: new Date().toISOString(), event: delivery.event, mode: req.headers['x-service-mode'] ?? null, payload: delivery.payload, headers})
      return /[\\u007F-\\u009F]/.test(json) ? json.replace(/[\\u007F-\\u009F]/g, (c) => '\\\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) : json
    })()`)

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
  const read = () => samples.push(residentKiB(pid))
  read()
  const timer = setInterval(read, 50)
  return {samples, stop: () => (clearInterval(timer), read())}
}

/**
 * Counts the user-space instructions a process runs while `during` runs (perf stat, where the
 * kernel lets it): unlike events/s, the same from run to run whatever else the machine does.
 */
async function instructions(pid, during) {
  const perf = spawn('perf', ['stat', '-x,', '-e', 'instructions:u', '-p', String(pid)], {stdio: ['ignore', 'ignore', 'pipe']})
  let report = ''
  perf.stderr.on('data', (chunk) => (report += chunk))
  const exited = new Promise((resolve) => perf.once('close', resolve))
  perf.once('error', () => {})
  await new Promise((resolve) => setTimeout(resolve, 200))
  const result = await during()
  perf.kill('SIGINT')
  await exited
  const count = Number(/^(\d+),[^,]*,instructions/m.exec(report)?.[1])
  return {result, count: count > 0 ? count : NaN}
}

export default async function bench() {
  const home = mkdtempSync(join(tmpdir(), 'gw-bench-'))
  const env = {...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data')}
  const receivers = [
    {name: 'bare node:http receiver', ...(await startReceiver(process.execPath, ['-e', BARE_RECEIVER], env))},
    {name: "bare, writing gw's line", ...(await startReceiver(process.execPath, ['-e', SAME_LINE_RECEIVER], env))},
    {name: 'gw listen --json', ...(await startReceiver(process.execPath, [GW, 'listen', '--json', '--port', '0'], env))},
  ]
  const [bare, sameLine, gw] = receivers
  try {
    for (const receiver of receivers) await load(receiver.url, WARM_UP)
    const rss = Object.fromEntries(receivers.map((receiver) => [receiver.name, sampleRss(receiver.pid)]))
    for (const receiver of receivers) Object.assign(receiver, {rates: [], cpuUs: [], instructions: []})
    for (let round = 0; round < ROUNDS; round++) {
      for (const receiver of receivers) {
        const cpuBefore = cpuSeconds(receiver.pid)
        const {result: ms, count} = await instructions(receiver.pid, () => load(receiver.url, DELIVERIES))
        receiver.rates.push(DELIVERIES / (ms / 1000))
        receiver.cpuUs.push(((cpuSeconds(receiver.pid) - cpuBefore) * 1_000_000) / DELIVERIES)
        receiver.instructions.push(count / DELIVERIES)
      }
    }
    for (const samples of Object.values(rss)) samples.stop()
    const expected = WARM_UP + ROUNDS * DELIVERIES
    for (const receiver of receivers) {
      if (receiver.lines() !== expected) throw new Error(`${receiver.name} printed ${receiver.lines()} lines, expected ${expected}`)
    }
    const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`
    const course = (samples) => {
      const at = (fraction) => samples[Math.min(samples.length - 1, Math.floor(fraction * (samples.length - 1)))]
      return `start ${mib(at(0))}, middle ${mib(at(0.5))}, end ${mib(at(1))}, peak ${mib(Math.max(...samples))}`
    }
    console.log(`deliveries: ${DELIVERIES} x ${ROUNDS} rounds at concurrency ${CONCURRENCY} after ${WARM_UP} to warm up; every event printed (${expected} lines each)`)
    for (const receiver of receivers) {
      receiver.rate = median(receiver.rates)
      receiver.cpu = median(receiver.cpuUs)
      receiver.perEvent = median(receiver.instructions)
      const rounds = receiver.rates.map((rate) => rate.toFixed(0)).join(', ')
      const counted = Number.isNaN(receiver.perEvent) ? 'instructions not counted (no perf)' : `${(receiver.perEvent / 1000).toFixed(1)}k instructions/event`
      console.log(`${(receiver.name + ':').padEnd(25)} ${receiver.rate.toFixed(0)} events/s (rounds ${rounds}), CPU ${receiver.cpu.toFixed(1)} µs/event, ${counted}, RSS ${course(rss[receiver.name].samples)}`)
    }
    const ratio = (value, what) => (Number.isFinite(value) ? `${value.toFixed(2)}x ${what}` : `${what}: not measured here`)
    const ratios = (baseline) =>
      [ratio(gw.rate / baseline.rate, 'events/s'), ratio(baseline.cpu / gw.cpu, 'events per CPU second'), ratio(baseline.perEvent / gw.perEvent, 'events per instruction')].join(', ')
    console.log(`ratio gw/bare: ${ratios(bare)} (goal >= 0.95x)`)
    console.log(`ratio gw/bare writing gw's line: ${ratios(sameLine)}`)
    console.log(`gw RSS over the ${ROUNDS * DELIVERIES} events after warm-up: ${course(rss[gw.name].samples)} (goal: flat)`)
  } finally {
    await Promise.all(receivers.map((receiver) => receiver.stop()))
  }
}
