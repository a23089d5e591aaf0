// Lists. `gw purchase list --all` over 20,000 purchases, piped (one JSON line a record),
// against a script of its own that walks the same list a page at a time over a raw undici Pool
// and prints each record, both started cold, in alternating rounds; medians count. Goals:
// gw at least the page-at-a-time loop's speed on loopback (1.0x) and 3x with a round trip per page
// (aim 4x: gw asks for four pages ahead), peak RSS under 150 MiB.
// Measured twice: on loopback, where the one-threaded local gateway serves one page at a time
// whoever asks, and with each page answered ROUND_TRIP_MS late (a fault of the local gateway's),
// as a gateway across a network answers.
// Then the local gateway: a page of 50 (the first, the last, and the last of a window) at 100,000
// purchases against the same at 100; goal: the same cost (1.0x).
// Last, a gateway that ignores `limit` (as the live one does for web hooks) and answers one page
// of 100,000 purchases (~48 MB of JSON): gw purchase list -L 50's and --all's peak RSS, goal under
// 150 MiB (issue 47: gw reads the page as a stream of records, never as one value), beside a
// script that reads it whole with undici and JSON.parse. Then a page oldest first (issue 60) of
// ONE_PAGE purchases shaped as the live gateway sends them (~660 bytes each, ~133 MB), which newest
// first reads backwards: -L 50 under 100 MiB, --all, --jq and gw report (its refunds too) under 150,
// beside a script that only streams the page's body through undici (the least reading it can cost),
// and --jq over the page newest first (the same list read in order). BENCH_LIST_ONLY=one-page: these alone.
import {createRequire} from 'node:module'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Pool} from 'undici'
import {GW, measure, median, spawnServer, startSandbox} from './lib.js'

const PURCHASES = Number(process.env.BENCH_LIST_PURCHASES ?? 20_000)
const LARGE = Number(process.env.BENCH_LIST_LARGE ?? 100_000)
// The page of a gateway that ignores limit, oldest first: 200,000 purchases of ~660 bytes (~133 MB).
const ONE_PAGE = Number(process.env.BENCH_LIST_ONE_PAGE ?? 200_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const PAGE_READS = 300
const ROUND_TRIP_MS = Number(process.env.BENCH_ROUND_TRIP_MS ?? 20)
// BENCH_GW_BASE names another gw's bin/run.js (a build of the commit before a change): its rounds
// alternate with this gw's and the loop's. BENCH_LIST_ONLY=loopback measures the loopback case alone.
const BASE = process.env.BENCH_GW_BASE
const LOOPBACK_ONLY = process.env.BENCH_LIST_ONLY === 'loopback'
const ONE_PAGE_ONLY = process.env.BENCH_LIST_ONLY === 'one-page'
const FLOOR = process.env.BENCH_LIST_FLOOR === '1'
const AUTHORIZATION = 'Basic ' + Buffer.from('TEST:TEST').toString('base64')
const HEADERS = {authorization: AUTHORIZATION, accept: 'application/json', 'content-type': 'application/json'}

/** `count` purchases made over a Pool of 8 connections. */
export async function fill(url, count) {
  const pool = new Pool(url, {connections: 8, pipelining: 1})
  const card = {card_holder: 'Bench Mark', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'}
  let next = 0
  const worker = async () => {
    while (next < count) {
      const i = next++
      const response = await pool.request({path: '/v1.0/purchases', method: 'POST', headers: HEADERS, body: JSON.stringify({...card, amount: 1000, reference: `bench-list-${i}`, currency: 'AUD'})})
      const envelope = await response.body.json()
      if (!envelope.successful) throw new Error(`purchase ${i}: ${envelope.errors}`)
    }
  }
  await Promise.all(Array.from({length: 8}, worker))
  await pool.close()
}

// The least a script does to read a whole list: one page after another, each record printed.
const LOOP_SCRIPT = `
const [, , undici, url] = process.argv
const {Pool} = require(undici)
const pool = new Pool(url, {connections: 1})
;(async () => {
  for (let offset = 0; ; offset += 50) {
    const response = await pool.request({path: '/v1.0/purchases?offset=' + offset + '&limit=50', method: 'GET', headers: {authorization: '${AUTHORIZATION}', accept: 'application/json'}})
    const envelope = await response.body.json()
    for (const record of envelope.response) process.stdout.write(JSON.stringify(record) + '\\n')
    if (envelope.response.length < 50) break
  }
  await pool.close()
})()
`

// The floor under both: the same pages asked for the same way, each body read as text and nothing
// else done with it (no parse, no print). BENCH_LIST_FLOOR=1 measures it beside the others.
const FLOOR_SCRIPT = `
const [, , undici, url, count] = process.argv
const {Pool} = require(undici)
const pool = new Pool(url, {connections: 1})
;(async () => {
  for (let offset = 0; offset <= Number(count); offset += 50) {
    const response = await pool.request({path: '/v1.0/purchases?offset=' + offset + '&limit=50', method: 'GET', headers: {authorization: '${AUTHORIZATION}', accept: 'application/json'}})
    await response.body.text()
  }
  await pool.close()
})()
`

/** The median ms of PAGE_READS GETs of one path, one at a time over one connection, after 50 to warm up. */
async function pageCost(url, path) {
  const pool = new Pool(url, {connections: 1})
  const times = []
  for (let i = 0; i < PAGE_READS + 50; i++) {
    const started = performance.now()
    const response = await pool.request({path, method: 'GET', headers: HEADERS})
    const envelope = await response.body.json()
    if (!envelope.successful || envelope.response.length === 0) throw new Error(`${path}: ${JSON.stringify(envelope).slice(0, 200)}`)
    if (i >= 50) times.push(performance.now() - started)
  }
  await pool.close()
  return median(times)
}

async function listing() {
  const sandbox = await startSandbox()
  try {
    await fill(sandbox.url, PURCHASES)
    const dir = mkdtempSync(join(tmpdir(), 'gw-bench-list-'))
    const script = join(dir, 'loop.cjs')
    writeFileSync(script, LOOP_SCRIPT)
    const floorScript = join(dir, 'floor.cjs')
    writeFileSync(floorScript, FLOOR_SCRIPT)
    const undici = createRequire(import.meta.url).resolve('undici')
    const env = {...process.env, GW_BASE_URL: sandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'sandbox', XDG_CONFIG_HOME: sandbox.home}
    // stdout to /dev/null through sh, so both print every line as into a pipe.
    const run = (command) => measure('sh', ['-c', `${command} > /dev/null`], env)
    const compare = (where, goal) => {
      const runs = {loop: [], gw: [], base: [], floor: []}
      for (let round = 0; round < ROUNDS; round++) {
        runs.loop.push(run(`'${process.execPath}' '${script}' '${undici}' '${sandbox.url}'`))
        if (FLOOR) runs.floor.push(run(`'${process.execPath}' '${floorScript}' '${undici}' '${sandbox.url}' ${PURCHASES}`))
        // The baseline and this gw take turns going first.
        const gws = [() => runs.gw.push(run(`'${process.execPath}' '${GW}' purchase list --all`))]
        if (BASE) gws[round % 2 === 0 ? 'unshift' : 'push'](() => runs.base.push(run(`'${process.execPath}' '${BASE}' purchase list --all`)))
        for (const gw of gws) gw()
      }
      const gwMs = median(runs.gw.map((r) => r.ms))
      const loopMs = median(runs.loop.map((r) => r.ms))
      const mib = (list) => (Math.max(...list.map((r) => r.rss)) / 1024).toFixed(1)
      // Each round's CPU time against the loop's in the same round, and the median of those.
      const cpuRatios = (list) => list.map((r, round) => runs.loop[round].cpu / r.cpu)
      const cpu = (list) => `CPU ${median(list.map((r) => r.cpu)).toFixed(2)} s, ${median(cpuRatios(list)).toFixed(2)}x the loop's (rounds ${cpuRatios(list).map((x) => x.toFixed(2)).join(' ')})`
      console.log(`${where}: gw purchase list --all, ${PURCHASES} purchases: ${gwMs.toFixed(0)} ms (${((PURCHASES / gwMs) * 1000).toFixed(0)} records/s), peak RSS ${mib(runs.gw)} MiB (goal < 150); ${cpu(runs.gw)}`)
      if (BASE) console.log(`${where}: baseline gw (${BASE}): ${median(runs.base.map((r) => r.ms)).toFixed(0)} ms, ${(loopMs / median(runs.base.map((r) => r.ms))).toFixed(2)}x the loop's speed, peak RSS ${mib(runs.base)} MiB; ${cpu(runs.base)}`)
      console.log(`${where}: page-at-a-time loop over a raw undici Pool: ${loopMs.toFixed(0)} ms (${((PURCHASES / loopMs) * 1000).toFixed(0)} records/s), peak RSS ${mib(runs.loop)} MiB, CPU ${median(runs.loop.map((r) => r.cpu)).toFixed(2)} s`)
      if (FLOOR) console.log(`${where}: the same pages read as text, nothing parsed or printed (the floor under both): CPU ${median(runs.floor.map((r) => r.cpu)).toFixed(2)} s, ${median(cpuRatios(runs.floor)).toFixed(2)}x the loop's`)
      console.log(`${where}: gw / loop speed ${(loopMs / gwMs).toFixed(2)}x (goal >= ${goal})`)
    }
    compare('loopback', '1.0x')
    if (LOOPBACK_ONLY) return
    const fault = {method: 'GET', path: '/v1.0/purchases', action: 'delay', delayMs: ROUND_TRIP_MS, times: 1_000_000}
    const armed = await fetch(`${sandbox.url}/_sandbox/faults`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(fault)})
    if (!armed.ok) throw new Error(`arming the round trip: ${armed.status}`)
    compare(`${ROUND_TRIP_MS} ms round trip`, '3x, aim 4x')
  } finally {
    await sandbox.stop()
  }
}

async function pages() {
  const [small, large] = [await startSandbox(), await startSandbox()]
  try {
    await fill(small.url, 100)
    await fill(large.url, LARGE)
    const today = new Date()
    const day = `${today.getFullYear()}/${String(today.getMonth() + 1).padStart(2, '0')}/${String(today.getDate()).padStart(2, '0')}`
    for (const [name, path] of [
      ['first page', () => '/v1.0/purchases?offset=0&limit=50'],
      ['last page', (count) => `/v1.0/purchases?offset=${count - 50}&limit=50`],
      ['last page of a window (from/to today)', (count) => `/v1.0/purchases?offset=${count - 50}&limit=50&from=${day}&to=${day}`],
    ]) {
      const smallMs = await pageCost(small.url, path(100))
      const largeMs = await pageCost(large.url, path(LARGE))
      console.log(`local gateway, ${name}: ${(largeMs * 1000).toFixed(0)} µs at ${LARGE} / ${(smallMs * 1000).toFixed(0)} µs at 100 = ${(largeMs / smallMs).toFixed(2)}x (goal 1.0x)`)
    }
  } finally {
    await Promise.all([small.stop(), large.stop()])
  }
}

/**
 * A gateway answering every list with one page, whatever it asks: `count` purchases, a refund for
 * every tenth of them, and no payment plans or direct debits (404, as a gateway without those
 * lists). The records are shaped as the live gateway sends them (test/fixtures/live-records.ts, a
 * merchant's order id in metadata): ~660 bytes of JSON a purchase.
 */
const ONE_PAGE_SERVER = `
const {createServer} = require('node:http')
const count = Number(process.argv[2])
// Newest first (the i-th record is i seconds older), or oldest first (the same records the other way round).
const oldestFirst = process.argv[3] === 'oldest'
const nth = (n, length) => (oldestFirst ? length - 1 - n : n)
const id = (kind, i) => '071-' + kind + '-' + i.toString(36).toUpperCase().padStart(8, 'Q')
const dated = (i) => new Date(Date.UTC(2026, 10, 25) - i * 1000).toISOString().replace('.000Z', '+00:00')
const card = {card_number: '512345XXXXXX2346', card_holder: 'Jane Citizen', card_expiry: '2030-02-28T23:59:59+11:00'}
const purchase = (n) => { const i = nth(n, count); return {id: id('P', i), authorization: '512834', ...card, card_token: '2vbk6ahx0cwzgqf3ynsi', card_type: 'MasterCard', card_category: 'Credit', card_subcategory: 'Standard', amount: 10000, decimal_amount: 100.0, successful: true, message: 'Approved', reference: 'order-' + i, currency: 'AUD', transaction_id: id('P', i), settlement_date: '2026-11-26', transaction_date: dated(i), response_code: '00', captured: true, captured_amount: 10000, rrn: id('P', i).replaceAll('-', ''), cvv_match: 'M', metadata: {order_id: 'order-' + i, channel: 'web'}, addendum_data: {}} }
const refunds = Math.floor(count / 10)
const refund = (n) => { const i = nth(n, refunds) * 10; return {id: id('R', i), authorization: '640211', amount: 5000, refunded: 'Approved', message: 'Approved', ...card, card_type: 'MasterCard', successful: true, transaction_date: dated(i), response_code: '00', reference: 'refund-' + i, transaction_id: id('R', i), currency: 'AUD', settlement_date: '2026-11-26', metadata: {}, standalone: false, rrn: id('R', i).replaceAll('-', '')} }
const page = (length, record) => JSON.stringify({successful: true, response: Array.from({length}, (_, n) => record(n)), errors: [], test: true, page: 0, total_pages: 1})
const bodies = {purchases: page(count, purchase), refunds: page(refunds, refund)}
createServer((req, res) => {
  const body = bodies[/^\\/v1\\.0\\/(\\w+)/.exec(req.url)?.[1]]
  if (body === undefined) return res.writeHead(404, {'content-type': 'application/json'}).end(JSON.stringify({successful: false, response: null, errors: ['Not found'], test: true}))
  res.writeHead(200, {'content-type': 'application/json'}).end(body)
}).listen(0, '127.0.0.1', function () { console.log('http://127.0.0.1:' + this.address().port) })
`

/** What reading one page costs at the least: undici's body, JSON.parse, the first 50 printed. */
const ONE_PAGE_READER = `
const {request} = require(process.argv[2])
request(process.argv[3] + '/v1.0/purchases?offset=0&limit=50').then(async ({body}) => {
  const page = await body.json()
  for (const record of page.response.slice(0, 50)) process.stdout.write(JSON.stringify(record) + '\\n')
})
`

/** Peak RSS (MiB, median of ROUNDS) of gw and of the bare reader against a gateway answering one page of `count`. */
async function onePageRss(dir, count) {
  const {url, child} = await spawnServer([join(dir, 'server.cjs'), String(count)], process.env)
  try {
    const undici = createRequire(import.meta.url).resolve('undici')
    const env = {...process.env, GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'sandbox', XDG_CONFIG_HOME: dir}
    const run = (command) => measure('sh', ['-c', `${command} > /dev/null`], env).rss
    const gw = []
    const all = []
    const reader = []
    for (let round = 0; round < ROUNDS; round++) {
      reader.push(run(`'${process.execPath}' '${join(dir, 'reader.cjs')}' '${undici}' '${url}'`))
      gw.push(run(`'${process.execPath}' '${GW}' purchase list -L 50 --json`))
      all.push(run(`'${process.execPath}' '${GW}' purchase list --all`))
    }
    return {gw: median(gw) / 1024, all: median(all) / 1024, reader: median(reader) / 1024}
  } finally {
    child.kill('SIGTERM')
  }
}

/** What reading one page in bounded memory costs at the least: undici's body streamed through, nothing kept. */
const ONE_PAGE_STREAMER = `
const {request} = require(process.argv[2])
request(process.argv[3] + '/v1.0/purchases?offset=0&limit=50').then(async ({body}) => {
  let bytes = 0
  for await (const chunk of body) bytes += chunk.length
  process.stdout.write(bytes + '\\n')
})
`

/** Peak RSS (MiB, median of ROUNDS) over one page of ONE_PAGE oldest first, which newest first reads backwards, in alternating rounds. */
async function onePageOldestFirst(dir) {
  const servers = {oldest: await spawnServer([join(dir, 'server.cjs'), String(ONE_PAGE), 'oldest'], process.env), newest: await spawnServer([join(dir, 'server.cjs'), String(ONE_PAGE)], process.env)}
  try {
    const undici = createRequire(import.meta.url).resolve('undici')
    const run = (url, command) => measure('sh', ['-c', `${command} > /dev/null`], {...process.env, GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'sandbox', XDG_CONFIG_HOME: dir}).rss / 1024
    const gw = `'${process.execPath}' '${GW}' purchase list`
    const cases = {
      // Its HTTP parser compiled by V8's baseline compiler only, as gw has undici's (bin/start.js).
      streamer: () => run(servers.oldest.url, `'${process.execPath}' --liftoff-only '${join(dir, 'streamer.cjs')}' '${undici}' '${servers.oldest.url}'`),
      last50: () => run(servers.oldest.url, `${gw} -L 50`),
      all: () => run(servers.oldest.url, `${gw} --all`),
      jq: () => run(servers.oldest.url, `${gw} --all --jq .reference`),
      jqInOrder: () => run(servers.newest.url, `${gw} --all --jq .reference`),
      // Every purchase and refund of the page counted: the window holds them all.
      report: () => run(servers.oldest.url, `'${process.execPath}' '${GW}' report --from 2026-11-01 --to 2026-11-30 --json`),
    }
    const rss = Object.fromEntries(Object.keys(cases).map((name) => [name, []]))
    for (let round = 0; round < ROUNDS; round++) for (const [name, measured] of Object.entries(cases)) rss[name].push(measured())
    return Object.fromEntries(Object.entries(rss).map(([name, values]) => [name, {median: median(values), min: Math.min(...values), max: Math.max(...values)}]))
  } finally {
    servers.oldest.child.kill('SIGTERM')
    servers.newest.child.kill('SIGTERM')
  }
}

async function onePage() {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-page-'))
  writeFileSync(join(dir, 'server.cjs'), ONE_PAGE_SERVER)
  writeFileSync(join(dir, 'reader.cjs'), ONE_PAGE_READER)
  writeFileSync(join(dir, 'streamer.cjs'), ONE_PAGE_STREAMER)
  const oldest = await onePageOldestFirst(dir)
  const shown = ({median: mid, min, max}) => `${mid.toFixed(1)} MiB (${min.toFixed(1)}-${max.toFixed(1)})`
  console.log(`one page of ${ONE_PAGE} purchases of ~660 bytes oldest first, read backwards for newest first, peak RSS (median of ${ROUNDS}, range): gw purchase list -L 50 ${shown(oldest.last50)}, goal < 100; --all ${shown(oldest.all)}, goal < 150; --all --jq .reference ${shown(oldest.jq)}, goal < 150; gw report (and ${ONE_PAGE / 10} refunds) ${shown(oldest.report)}, goal < 150`)
  console.log(`the same: undici streaming the page's body, nothing kept, ${shown(oldest.streamer)}; gw -L 50 / it: ${(oldest.last50.median / oldest.streamer.median).toFixed(2)}x; --jq over the page newest first (read in order) ${shown(oldest.jqInOrder)}, --jq oldest first / it: ${(oldest.jq.median / oldest.jqInOrder.median).toFixed(2)}x`)
  if (ONE_PAGE_ONLY) return
  const small = await onePageRss(dir, 100)
  const large = await onePageRss(dir, LARGE)
  console.log(`one page of ${LARGE} purchases (a gateway ignoring limit), peak RSS: gw purchase list -L 50 ${large.gw.toFixed(1)} MiB (${small.gw.toFixed(1)} at a page of 100), --all ${large.all.toFixed(1)} MiB (${small.all.toFixed(1)}); goal < 150`)
  console.log(`one page of ${LARGE} purchases: undici + JSON.parse of the page whole ${large.reader.toFixed(1)} MiB (${small.reader.toFixed(1)} at 100); gw -L 50 / it: ${(large.gw / large.reader).toFixed(2)}x`)
}

export default async function bench() {
  if (ONE_PAGE_ONLY) return onePage()
  await listing()
  if (LOOPBACK_ONLY) return
  await pages()
  await onePage()
}
