// Start-up (issue 2): `gw --version` and `gw purchase get ID` (against a running local gateway) as
// whole processes, against `node -e 0`, alternating, medians and ratios.
// Budget: --version within 4x of node's bare start, purchase get within 7x. With a proxy variable
// set, gw also loads undici's proxy agent (the local gateway itself is still reached directly).
import {GW, measure, median, startSandbox} from './lib.js'

const RUNS = Number(process.env.BENCH_RUNS ?? 15)

export default async function bench() {
  const sandbox = await startSandbox()
  try {
    const auth = 'Basic ' + Buffer.from('TEST:TEST').toString('base64')
    const body = JSON.stringify({amount: 1000, reference: `bench-${Date.now()}`, card_holder: 'Bench', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'})
    const created = await fetch(`${sandbox.url}/v1.0/purchases`, {method: 'POST', headers: {authorization: auth, 'content-type': 'application/json'}, body}).then((r) => r.json())
    // On Node 20, NODE_EXTRA_CA_CERTS alone triples node's start: measure without it, for both sides.
    const env = {...process.env, GW_BASE_URL: sandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', XDG_CONFIG_HOME: sandbox.home}
    delete env.NODE_EXTRA_CA_CERTS
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']) delete env[name]
    const proxied = {...env, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9'}
    const cases = {
      'node -e 0': [process.execPath, ['-e', '0']],
      'gw --version': [process.execPath, [GW, '--version']],
      'gw purchase get': [process.execPath, [GW, 'purchase', 'get', created.response.id, '--json']],
      'gw get, proxy set': [process.execPath, [GW, 'purchase', 'get', created.response.id, '--json'], proxied],
    }
    const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, {ms: [], rss: []}]))
    for (const [command, args, caseEnv = env] of Object.values(cases)) measure(command, args, caseEnv)
    for (let i = 0; i < RUNS; i++) {
      for (const [name, [command, args, caseEnv = env]] of Object.entries(cases)) {
        const {ms, rss} = measure(command, args, caseEnv)
        samples[name].ms.push(ms)
        samples[name].rss.push(rss)
      }
    }
    const base = median(samples['node -e 0'].ms)
    console.log(`runs: ${RUNS} each, alternating; medians`)
    for (const [name, {ms, rss}] of Object.entries(samples)) {
      console.log(`${name.padEnd(18)} ${median(ms).toFixed(0).padStart(5)} ms  ${(median(ms) / base).toFixed(1).padStart(5)}x node  ${String(median(rss)).padStart(7)} KiB peak`)
    }
    const budget = {'gw --version': 4, 'gw purchase get': 7}
    for (const [name, limit] of Object.entries(budget)) {
      const ratio = median(samples[name].ms) / base
      console.log(`${name}: ${ratio.toFixed(1)}x (budget ${limit}x) ${ratio <= limit ? 'within' : 'OVER'}`)
    }
  } finally {
    await sandbox.stop()
  }
}
