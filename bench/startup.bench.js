// Start-up (issues 2 and 13): whole gw processes against `node -e 0` and against a script that does
// the same GET with node:http, all alternating in one run, medians and ratios to node's bare start.
// gw purchase get/create talk to a local gateway started for the run. With a proxy variable set,
// gw also loads undici's proxy agent (the local gateway itself is still reached directly).
// Goals (issue 13): --version and --help at most 3x node; purchase get and purchase create at most 5x.
// The code cache is trained by a first `gw purchase get`, as the first command after an install
// would; 'first run after a build' removes it (or the saved root help) before each of its runs, and
// that run writes it again.
import {readdirSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {GW, measure, median, startSandbox} from './lib.js'

// bin/run.js keeps V8's code cache for the bundle and the rendered root help in dist/.
const DIST = join(import.meta.dirname, '..', 'dist')
const forgetCodeCache = () => rmSync(join(DIST, 'gw.cjs.cache'), {force: true})
const forgetSavedHelp = () => readdirSync(DIST).filter((name) => name.startsWith('root-help-')).forEach((name) => rmSync(join(DIST, name)))

const RUNS = Number(process.env.BENCH_RUNS ?? 15)
const GOALS = {'gw --version': 3, 'gw --help': 3, 'gw purchase get': 5, 'gw purchase create': 5}

const NODE_HTTP_GET = `
const http = require('node:http')
const [url, id] = process.argv.slice(1)
http.get(url + '/v1.0/purchases/' + encodeURIComponent(id), {headers: {authorization: 'Basic ' + Buffer.from('TEST:TEST').toString('base64')}}, (res) => {
  let body = ''
  res.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body).response) + '\\n'))
})
`

export default async function bench() {
  const sandbox = await startSandbox()
  try {
    const auth = 'Basic ' + Buffer.from('TEST:TEST').toString('base64')
    const body = JSON.stringify({amount: 1000, reference: `bench-${Date.now()}`, card_holder: 'Bench', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'})
    const created = await fetch(`${sandbox.url}/v1.0/purchases`, {method: 'POST', headers: {authorization: auth, 'content-type': 'application/json'}, body}).then((r) => r.json())
    const id = created.response.id
    // On Node 20, NODE_EXTRA_CA_CERTS alone triples node's start: measure without it, for both sides.
    const env = {...process.env, GW_BASE_URL: sandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', XDG_CONFIG_HOME: sandbox.home}
    delete env.NODE_EXTRA_CA_CERTS
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']) delete env[name]
    const proxied = {...env, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9'}
    const runId = Date.now().toString(36)
    const node = (...args) => [process.execPath, args]
    // Each case gives its command for run n (a purchase needs a fresh reference every time).
    const cases = {
      'node -e 0': () => node('-e', '0'),
      'node:http GET script': () => node('-e', NODE_HTTP_GET, sandbox.url, id),
      'gw --version': () => node(GW, '--version'),
      'gw --help': () => node(GW, '--help'),
      'gw --help, first run after a build': () => (forgetSavedHelp(), node(GW, '--help')),
      'gw purchase get': () => node(GW, 'purchase', 'get', id, '--json'),
      'gw purchase get, first run after a build': () => (forgetCodeCache(), node(GW, 'purchase', 'get', id, '--json')),
      'gw --json purchase get': () => node(GW, '--json', 'purchase', 'get', id),
      'gw purchase create': (n) => node(GW, 'purchase', 'create', '--amount', '1000', '--reference', `bench-${runId}-${n}`, '--card-holder', 'Bench', '--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123', '--json'),
      'gw get, proxy set': () => [...node(GW, 'purchase', 'get', id, '--json'), proxied],
    }
    const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, {ms: [], rss: []}]))
    forgetCodeCache()
    forgetSavedHelp()
    measure(...withEnv(cases['gw purchase get'](), env))
    for (const command of Object.values(cases)) measure(...withEnv(command(-1), env))
    for (let i = 0; i < RUNS; i++) {
      for (const [name, command] of Object.entries(cases)) {
        const {ms, rss} = measure(...withEnv(command(i), env))
        samples[name].ms.push(ms)
        samples[name].rss.push(rss)
      }
    }
    const base = median(samples['node -e 0'].ms)
    console.log(`runs: ${RUNS} each, alternating; medians`)
    console.log('| case | ms | x node -e 0 | goal | peak RSS |')
    console.log('|---|---:|---:|---:|---:|')
    for (const [name, {ms, rss}] of Object.entries(samples)) {
      const ratio = median(ms) / base
      const goal = GOALS[name] ? `<= ${GOALS[name]}x ${ratio <= GOALS[name] ? 'met' : 'MISSED'}` : ''
      console.log(`| ${name} | ${median(ms).toFixed(0)} | ${ratio.toFixed(1)}x | ${goal} | ${(median(rss) / 1024).toFixed(0)} MiB |`)
    }
  } finally {
    await sandbox.stop()
  }
}

function withEnv([command, args, env], fallback) {
  return [command, args, env ?? fallback]
}
