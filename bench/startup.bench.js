// Start-up: a one-shot `gw purchase get ID --json` against the local gateway, against a bare
// `node -e` that makes the same request with fetch and prints the body. Same machine, same run.
// Goal: gw within 3x of the bare script's wall time, so scripts that call it in a loop stay quick.
import {GW, measure, median, startSandbox} from './lib.js'

const RUNS = Number(process.env.BENCH_RUNS ?? 15)

export default async function bench() {
  const sandbox = await startSandbox()
  try {
    const auth = 'Basic ' + Buffer.from('TEST:TEST').toString('base64')
    const body = JSON.stringify({amount: 1000, reference: `bench-${Date.now()}`, card_holder: 'Bench', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'})
    const created = await fetch(`${sandbox.url}/v1.0/purchases`, {method: 'POST', headers: {authorization: auth, 'content-type': 'application/json'}, body}).then((r) => r.json())
    const id = created.response.id
    const env = {...process.env, GW_BASE_URL: sandbox.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}
    const bare = `fetch(${JSON.stringify(`${sandbox.url}/v1.0/purchases/${id}`)}, {headers: {authorization: ${JSON.stringify(auth)}}}).then(r => r.json()).then(e => console.log(JSON.stringify(e.response, null, 2)))`
    const samples = {bare: [], gw: [], bareRss: [], gwRss: []}
    measure(process.execPath, ['-e', bare], env)
    measure(process.execPath, [GW, 'purchase', 'get', id, '--json'], env)
    for (let i = 0; i < RUNS; i++) {
      const b = measure(process.execPath, ['-e', bare], env)
      const g = measure(process.execPath, [GW, 'purchase', 'get', id, '--json'], env)
      samples.bare.push(b.ms)
      samples.gw.push(g.ms)
      samples.bareRss.push(b.rss)
      samples.gwRss.push(g.rss)
    }
    const [bareMs, gwMs] = [median(samples.bare), median(samples.gw)]
    console.log(`runs: ${RUNS}`)
    console.log(`bare node fetch: ${bareMs.toFixed(0)} ms, ${median(samples.bareRss)} KiB peak`)
    console.log(`gw purchase get: ${gwMs.toFixed(0)} ms, ${median(samples.gwRss)} KiB peak`)
    console.log(`ratio gw/bare: time ${(gwMs / bareMs).toFixed(2)}x (goal <= 3x), memory ${(median(samples.gwRss) / median(samples.bareRss)).toFixed(2)}x`)
  } finally {
    await sandbox.stop()
  }
}
