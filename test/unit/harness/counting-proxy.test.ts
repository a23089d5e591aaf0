import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {networkInterfaces} from 'node:os'
import {afterEach, describe, expect, it} from 'vitest'
import {countingProxy, type CountingProxy} from '../../counting-proxy.js'

// The counting proxy's own behaviour, apart from gw: the e2e tests read its counts as the truth.

const started: (Server | CountingProxy)[] = []
afterEach(async () => {
  for (const thing of started.splice(0).reverse()) {
    if ('target' in thing) await thing.close()
    else await new Promise((resolve) => thing.close(resolve))
  }
})

/** A gateway that answers every request with its name, its path and two headers. */
async function gateway(name: string): Promise<string> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(200, {'content-type': 'text/plain', 'x-sandbox-instance': `run-${name}`, 'x-kept': 'yes'}).end(`${name} ${req.url}`))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  started.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function proxied(upstream: string, options: Parameters<typeof countingProxy>[1] = {}): Promise<CountingProxy> {
  const proxy = await countingProxy(upstream, options)
  started.push(proxy)
  return proxy
}

const post = (url: string, body: unknown) => fetch(url, {method: 'POST', body: JSON.stringify(body), headers: {'content-type': 'application/json'}})

const hasIpv6Loopback = Object.values(networkInterfaces()).some((addresses) => addresses?.some((address) => address.internal && address.family === 'IPv6'))

describe('countingProxy (test/counting-proxy.ts)', () => {
  it('passes requests on as they are and counts each POST by its reference', async () => {
    const proxy = await proxied(await gateway('a'))
    expect(await (await post(`${proxy.url}/v1.0/refunds`, {reference: 'r-1'})).text()).toBe('a /v1.0/refunds')
    await post(`${proxy.url}/v1.0/refunds`, {reference: 'r-1'})
    await post(`${proxy.url}/v1.0/purchases`, {reference: 'p-1'})
    await fetch(`${proxy.url}/v1.0/refunds?offset=0`)
    expect(proxy.postCount()).toBe(3)
    expect(proxy.posts('r-1')).toBe(2)
    expect([...proxy.references()]).toEqual([['r-1', 2], ['p-1', 1]])
    expect(proxy.repeats()).toEqual({'r-1': 2})
    expect(proxy.gets()).toEqual(['/v1.0/refunds?offset=0'])
    expect(proxy.gets(3)).toEqual(['/v1.0/refunds?offset=0'])
  })

  it('sends each request to the target it has when the request arrives: a gateway restarted at the same address', async () => {
    const proxy = await proxied(await gateway('first'))
    expect(await (await fetch(`${proxy.url}/x`)).text()).toBe('first /x')
    proxy.target = await gateway('second')
    expect(await (await fetch(`${proxy.url}/x`)).text()).toBe('second /x')
  })

  it('drops the response headers `strip` names, whatever their case, and keeps the others', async () => {
    const proxy = await proxied(await gateway('a'), {strip: ['X-Sandbox-Instance']})
    const answer = await fetch(`${proxy.url}/x`)
    expect(answer.headers.get('x-sandbox-instance')).toBeNull()
    expect(answer.headers.get('x-kept')).toBe('yes')
    const plain = await proxied(await gateway('b'))
    expect((await fetch(`${plain.url}/x`)).headers.get('x-sandbox-instance')).toBe('run-b')
  })

  it('holds a request until its promise settles: arrived at once, answered after', async () => {
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const proxy = await proxied(await gateway('a'), {hold: (request) => (request.reference === 'held' ? released : undefined)})
    const sending = post(`${proxy.url}/v1.0/refunds`, {reference: 'held'})
    expect((await proxy.arrived((request) => request.reference === 'held')).method).toBe('POST')
    await post(`${proxy.url}/v1.0/refunds`, {reference: 'free'})
    await proxy.answered((request) => request.reference === 'free')
    const heldAnswer = proxy.answered((request) => request.reference === 'held')
    let answered = false
    void heldAnswer.then(() => (answered = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(answered).toBe(false)
    release()
    expect((await heldAnswer).reference).toBe('held')
    expect((await sending).status).toBe(200)
    expect((await proxy.post(1)).reference).toBe('held')
  })

  it.skipIf(!hasIpv6Loopback)(`listens on IPv6 too, so localhost reaches it whichever address it resolves to${hasIpv6Loopback ? '' : ' (skipped: this machine has no IPv6 loopback)'}`, async () => {
    const proxy = await proxied(await gateway('a'))
    expect(await (await fetch(`http://[::1]:${proxy.port}/six`)).text()).toBe('a /six')
    expect(await (await fetch(`http://127.0.0.1:${proxy.port}/four`)).text()).toBe('a /four')
    expect(await (await fetch(`http://localhost:${proxy.port}/name`)).text()).toBe('a /name')
  })
})
