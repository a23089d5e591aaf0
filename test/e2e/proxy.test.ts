import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {cardArgs, isolatedHome, ref, runGw, type Sandbox, sharedSandbox} from './helpers.js'
import {chargeSuccessful, startRecorder} from './listen-helpers.js'
import {type Certificate, opensslMissing, startForwardProxy, startTlsFront, throwawayCertificate} from './proxy-helpers.js'

// gateway.test cannot be looked up on this machine (.test is reserved): only the test proxy,
// which resolves names itself, reaches it. So a request that arrives went through the proxy.
const GATEWAY_HOST = 'gateway.test'

const noOpenssl = opensslMissing()
const mustRun = Boolean(process.env.CI)
if (noOpenssl && !mustRun) console.warn(`Skipping the proxy tests over TLS: ${noOpenssl}`)

let sandbox: Sandbox
let sandboxPort: number
let httpGateway: string

// Reached under a name of its own, the local gateway must be told it (browser-guard.ts).
sharedSandbox((started) => {
  sandbox = started
  sandboxPort = Number(new URL(sandbox.url).port)
  httpGateway = `http://${GATEWAY_HOST}:${sandboxPort}`
}, ['--allow-host', GATEWAY_HOST])

/** gw as merchant TEST at `baseUrl`, with the proxy variables given and none of the machine's. */
function gw(args: string[], baseUrl: string, proxyEnv: NodeJS.ProcessEnv) {
  return runGw(args, {env: {...isolatedHome(), GW_BASE_URL: baseUrl, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', GW_ENVIRONMENT: 'sandbox', ...proxyEnv}})
}

const purchase = (reference = ref('proxy')) => ['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--json', '--verbose']

describe('gw behind an http proxy (HTTP_PROXY, NO_PROXY)', () => {
  it('sends every request through HTTP_PROXY, in absolute form, and --verbose says so', async () => {
    const proxy = await startForwardProxy({routes: {[`${GATEWAY_HOST}:${sandboxPort}`]: sandboxPort}})
    try {
      const reference = ref('proxy')
      const result = await gw(purchase(reference), httpGateway, {HTTP_PROXY: proxy.url})
      expect(result.code, result.stderr).toBe(0)
      expect(result.json).toMatchObject({successful: true, message: 'Approved', reference, amount: 1000})
      expect(proxy.seen).toEqual([{method: 'POST', target: `${httpGateway}/v1.0/purchases`, credentials: undefined}])
      expect(result.stderr).toContain(`* through proxy ${proxy.url} (HTTP_PROXY)\n> POST ${httpGateway}/v1.0/purchases`)

      const lookup = await gw(['purchase', 'get', reference, '--json'], httpGateway, {http_proxy: proxy.url})
      expect(lookup.code, lookup.stderr).toBe(0)
      expect(lookup.json).toMatchObject({reference})
      expect(proxy.seen.at(-1)).toEqual({method: 'GET', target: `${httpGateway}/v1.0/purchases/${reference}`, credentials: undefined})
    } finally {
      await proxy.close()
    }
  })

  it('reads the lower-case spelling first, and takes host:port without a scheme as http', async () => {
    const proxy = await startForwardProxy({routes: {[`${GATEWAY_HOST}:${sandboxPort}`]: sandboxPort}})
    try {
      // Nothing listens on port 9: were HTTP_PROXY used, the request would fail.
      const result = await gw(purchase(), httpGateway, {http_proxy: proxy.url.replace('http://', ''), HTTP_PROXY: 'http://127.0.0.1:9'})
      expect(result.code, result.stderr).toBe(0)
      expect(proxy.seen).toHaveLength(1)
      expect(result.stderr).toContain(`* through proxy ${proxy.url} (http_proxy)\n`)
    } finally {
      await proxy.close()
    }
  })

  it.each([
    ['NO_PROXY', GATEWAY_HOST],
    ['no_proxy', GATEWAY_HOST.toUpperCase()],
    ['NO_PROXY', '.test'],
    ['NO_PROXY', `example.com, *.test`],
    ['NO_PROXY', `${GATEWAY_HOST}:PORT`],
    ['NO_PROXY', '*'],
  ])('goes direct when %s names the host (%s): the proxy sees nothing, and a purchase that cannot be sent is not in doubt', async (variable, entry) => {
    const proxy = await startForwardProxy({routes: {[`${GATEWAY_HOST}:${sandboxPort}`]: sandboxPort}})
    try {
      const named = entry.replace('PORT', String(sandboxPort))
      const result = await gw(purchase(), httpGateway, {HTTP_PROXY: proxy.url, [variable]: named})
      expect(proxy.seen).toEqual([])
      // Direct, gateway.test cannot be looked up: nothing was sent, so exit 1, not 8.
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`* no proxy: NO_PROXY ${named === '*' ? 'is *' : 'names '}`)
      expect(result.stderr).toMatch(new RegExp(`Error: Could not reach the gateway at ${httpGateway.replaceAll('.', '\\.')}: getaddrinfo (ENOTFOUND|EAI_AGAIN) ${GATEWAY_HOST}`))
      expect(result.stderr).toContain('Hint: Nothing was sent. Check the base URL of the profile in force')
    } finally {
      await proxy.close()
    }
  })

  it('still uses the proxy when NO_PROXY names the host on another port', async () => {
    const proxy = await startForwardProxy({routes: {[`${GATEWAY_HOST}:${sandboxPort}`]: sandboxPort}})
    try {
      const result = await gw(purchase(), httpGateway, {HTTP_PROXY: proxy.url, NO_PROXY: `${GATEWAY_HOST}:${sandboxPort + 1}`})
      expect(result.code, result.stderr).toBe(0)
      expect(proxy.seen).toHaveLength(1)
    } finally {
      await proxy.close()
    }
  })

  it.each(['127.0.0.1', 'localhost'])('never sends requests for %s (the local gateway) through a proxy', async (host) => {
    const proxy = await startForwardProxy({routes: {}})
    try {
      const result = await gw(purchase(), `http://${host}:${sandboxPort}`, {HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url})
      expect(result.code, result.stderr).toBe(0)
      expect(proxy.seen).toEqual([])
      expect(result.stderr).toContain(`* no proxy: ${host} is this machine (loopback is never proxied)\n`)
    } finally {
      await proxy.close()
    }
  })

  it('says the proxy could not be reached, and that nothing was sent', async () => {
    const proxy = await startForwardProxy({routes: {}})
    await proxy.close()
    const reference = ref('proxy')
    const result = await gw(purchase(reference), httpGateway, {HTTP_PROXY: proxy.url})
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`Error: Could not reach the gateway at ${httpGateway} through the proxy ${proxy.url} (HTTP_PROXY): connect ECONNREFUSED ${proxy.url.replace('http://', '')}`)
    expect(result.stderr).toContain("Hint: Nothing was sent. Check that the proxy in HTTP_PROXY is right and up, or name the gateway's host in NO_PROXY to go direct.\n")
    expect((await sandbox.gw(['purchase', 'get', reference])).code).toBe(5)
  })

  it('refuses a proxy variable it cannot use with exit 2, naming it and never showing its credentials', async () => {
    const socks = await gw(purchase(), httpGateway, {HTTPS_PROXY: 'socks5://user:hunter2@127.0.0.1:1080'})
    expect(socks.code).toBe(2)
    expect(socks.stderr).toContain(
      'Error: HTTPS_PROXY is a socks5 proxy; gw reaches proxies over http or https: "socks5://***@127.0.0.1:1080"\n' +
        'Hint: Set it to the proxy\'s URL, for example HTTPS_PROXY=http://proxy.example:3128 (credentials as http://USER:PASSWORD@proxy.example:3128), or unset it.\n',
    )
    const garbled = await gw(purchase(), httpGateway, {http_proxy: 'http://user:hunter2@proxy:port'})
    expect(garbled.code).toBe(2)
    expect(garbled.stderr).toContain('Error: http_proxy is not a URL: "***@proxy:port"\n')
    expect(socks.stderr + garbled.stderr).not.toContain('hunter2')
  })
})

// The https case needs the throwaway certificate: without openssl it is left out, and said so above.
const credentialSchemes = noOpenssl && !mustRun ? (['http'] as const) : (['http', 'https'] as const)

describe('proxy credentials', () => {
  it.each(credentialSchemes)('sends the credentials in the proxy URL for %s, never prints them, and a 407 means nothing was sent', async (scheme) => {
    const certificate = scheme === 'https' ? throwawayCertificate() : undefined
    const front = certificate ? await startTlsFront(sandboxPort, certificate) : undefined
    const port = front?.port ?? sandboxPort
    const proxy = await startForwardProxy({routes: {[`${GATEWAY_HOST}:${port}`]: port}, credentials: 'shop:pr0xy-pass'})
    const gateway = `${scheme}://${GATEWAY_HOST}:${port}`
    const variable = scheme === 'https' ? 'HTTPS_PROXY' : 'HTTP_PROXY'
    const tls = certificate ? {NODE_EXTRA_CA_CERTS: certificate.certFile} : {}
    try {
      const withCredentials = proxy.url.replace('//', '//shop:pr0xy-pass@')
      const accepted = await gw(purchase(), gateway, {[variable]: withCredentials, ...tls})
      expect(accepted.code, accepted.stderr).toBe(0)
      expect(proxy.seen).toEqual([{method: scheme === 'https' ? 'CONNECT' : 'POST', target: scheme === 'https' ? `${GATEWAY_HOST}:${port}` : `${gateway}/v1.0/purchases`, credentials: 'shop:pr0xy-pass'}])
      expect(accepted.stderr).toContain(`* through proxy ${proxy.url.replace('//', '//***@')} (${variable})\n`)
      expect(accepted.stdout + accepted.stderr).not.toContain('pr0xy-pass')

      const reference = ref('proxy')
      const refused = await gw(purchase(reference), gateway, {[variable]: proxy.url, ...tls})
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain(`Error: The proxy ${proxy.url} (${variable}) refused to carry the request to ${gateway}: HTTP 407\n`)
      expect(refused.stderr).toContain(`Hint: Nothing was sent. It wants credentials: give them in the proxy's URL, ${variable}=http://USER:PASSWORD@HOST:PORT.\n`)
      expect((await sandbox.gw(['purchase', 'get', reference])).code).toBe(5)
    } finally {
      await proxy.close()
      await front?.close()
    }
  })
})

describe.skipIf(noOpenssl !== undefined && !mustRun)('gw behind a proxy, to an https gateway (CONNECT)', () => {
  let certificate: Certificate
  let front: {port: number; close(): Promise<void>}
  let httpsGateway: string

  beforeAll(async () => {
    expect(noOpenssl, 'with CI=true the TLS proxy tests must run').toBeUndefined()
    certificate = throwawayCertificate()
    front = await startTlsFront(sandboxPort, certificate)
    httpsGateway = `https://${GATEWAY_HOST}:${front.port}`
  })

  afterAll(async () => {
    await front?.close()
  })

  it('tunnels through HTTPS_PROXY with CONNECT, trusting a CA added with NODE_EXTRA_CA_CERTS', async () => {
    const proxy = await startForwardProxy({routes: {[`${GATEWAY_HOST}:${front.port}`]: front.port}})
    try {
      const reference = ref('tls')
      const result = await gw(purchase(reference), httpsGateway, {HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificate.certFile})
      expect(result.code, result.stderr).toBe(0)
      expect(result.json).toMatchObject({successful: true, message: 'Approved', reference})
      expect(proxy.seen).toEqual([{method: 'CONNECT', target: `${GATEWAY_HOST}:${front.port}`, credentials: undefined}])
      expect(result.stderr).toContain(`* through proxy ${proxy.url} (HTTPS_PROXY)\n> POST ${httpsGateway}/v1.0/purchases`)
    } finally {
      await proxy.close()
    }
  })

  it('uses HTTP_PROXY for https too when HTTPS_PROXY is not set', async () => {
    const proxy = await startForwardProxy({routes: {[`${GATEWAY_HOST}:${front.port}`]: front.port}})
    try {
      const result = await gw(['purchase', 'get', 'nothing-here'], httpsGateway, {HTTP_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificate.certFile})
      expect(result.code, result.stderr).toBe(5)
      expect(proxy.seen).toEqual([{method: 'CONNECT', target: `${GATEWAY_HOST}:${front.port}`, credentials: undefined}])
    } finally {
      await proxy.close()
    }
  })

  it('reaches an https:// proxy over TLS', async () => {
    const proxy = await startForwardProxy({routes: {[`${GATEWAY_HOST}:${front.port}`]: front.port}, tls: certificate})
    try {
      const result = await gw(purchase(), httpsGateway, {HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificate.certFile})
      expect(result.code, result.stderr).toBe(0)
      expect(proxy.seen).toEqual([{method: 'CONNECT', target: `${GATEWAY_HOST}:${front.port}`, credentials: undefined}])
    } finally {
      await proxy.close()
    }
  })

  it('without the CA, refuses the certificate: nothing was sent, and the hint names NODE_EXTRA_CA_CERTS', async () => {
    const proxy = await startForwardProxy({routes: {[`${GATEWAY_HOST}:${front.port}`]: front.port}})
    try {
      const reference = ref('tls')
      const result = await gw(purchase(reference), httpsGateway, {HTTPS_PROXY: proxy.url})
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`Error: Could not reach the gateway at ${httpsGateway} through the proxy ${proxy.url} (HTTPS_PROXY): self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)\n`)
      expect(result.stderr).toContain("Hint: Nothing was sent. The gateway's or the proxy's certificate is not trusted here. If your network inspects TLS with a certificate authority of its own, add that CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.\n")
      expect((await sandbox.gw(['purchase', 'get', reference])).code).toBe(5)
    } finally {
      await proxy.close()
    }
  })
})

describe.skipIf(noOpenssl !== undefined && !mustRun)('an https gateway with a private certificate authority, no proxy', () => {
  it('is trusted through NODE_EXTRA_CA_CERTS, and refused without it: nothing sent, the hint names the variable', async () => {
    const certificate = throwawayCertificate()
    const front = await startTlsFront(sandboxPort, certificate)
    const gateway = `https://localhost:${front.port}`
    try {
      const trusted = await gw(purchase(), gateway, {NODE_EXTRA_CA_CERTS: certificate.certFile})
      expect(trusted.code, trusted.stderr).toBe(0)
      expect(trusted.json).toMatchObject({successful: true, message: 'Approved'})

      const reference = ref('tls')
      const untrusted = await gw(purchase(reference), gateway, {})
      expect(untrusted.code).toBe(1)
      expect(untrusted.stderr).toContain(`Error: Could not reach the gateway at ${gateway}: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)\n`)
      expect(untrusted.stderr).toContain("Hint: Nothing was sent. The gateway's certificate is not trusted here. If your network inspects TLS with a certificate authority of its own, add that CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.\n")
      expect((await sandbox.gw(['purchase', 'get', reference])).code).toBe(5)
    } finally {
      await front.close()
    }
  })
})

describe('other requests gw makes', () => {
  it('gw login checks the credentials through the proxy: over plain http to another host, only those of a gateway said to be a sandbox', async () => {
    const proxy = await startForwardProxy({routes: {[`${GATEWAY_HOST}:${sandboxPort}`]: sandboxPort}})
    try {
      const home = isolatedHome()
      const args = ['login', '--profile', 'shop', '--base-url', httpGateway, '--username', 'TEST', '--token-stdin', '--insecure-storage']
      // Its mode not known before the token is tried, a gateway elsewhere counts as live: its token never goes over plain http.
      const refused = await runGw(args, {env: {...home, HTTP_PROXY: proxy.url}, stdin: 'TEST'})
      expect(refused.code).toBe(2)
      expect(refused.stderr).toBe(
        `Error: ${httpGateway} is plain http: the live token of profile shop would cross the network readable by anyone on the way, so gw does not send it\nHint: Give the gateway's https:// address: gw login --profile shop --base-url https://${GATEWAY_HOST}:${sandboxPort}\n`,
      )
      expect(proxy.seen).toEqual([])
      // Nor do credentials from the environment for a gateway elsewhere, which count as live.
      const fromEnv = await runGw(['purchase', 'get', 'anything'], {env: {...isolatedHome(), GW_BASE_URL: httpGateway, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST', HTTP_PROXY: proxy.url}})
      expect(fromEnv.code).toBe(2)
      expect(fromEnv.stderr).toContain(`Error: ${httpGateway} is plain http: the live token of the credentials in GW_USERNAME and GW_TOKEN would cross the network readable by anyone on the way, so gw does not send it\n`)
      expect(proxy.seen).toEqual([])
      const login = await runGw([...args, '--environment', 'sandbox'], {env: {...home, HTTP_PROXY: proxy.url}, stdin: 'TEST'})
      expect(login.code, login.stderr).toBe(0)
      expect(proxy.seen).toEqual([{method: 'GET', target: `${httpGateway}/v1.0/purchases/gw-login-check`, credentials: undefined}])
    } finally {
      await proxy.close()
    }
  })

  it('gw status shows the proxy in force for the gateway, or why there is none', async () => {
    const proxied = await gw(['status', '--json'], httpGateway, {HTTPS_PROXY: 'http://u:hunter2@proxy.example:3128', HTTP_PROXY: 'http://proxy.example:3128'})
    expect(proxied.code, proxied.stderr).toBe(0)
    expect(proxied.json).toMatchObject({base_url: httpGateway, proxy: 'http://proxy.example:3128 (HTTP_PROXY)'})
    const tls = await gw(['status', '--json'], 'https://gateway.example.com', {HTTPS_PROXY: 'http://u:hunter2@proxy.example:3128'})
    expect(tls.json).toMatchObject({proxy: 'http://***@proxy.example:3128 (HTTPS_PROXY)'})
    expect(tls.stdout + tls.stderr).not.toContain('hunter2')
    const bypassed = await gw(['status', '--json'], httpGateway, {HTTP_PROXY: 'http://proxy.example:3128', NO_PROXY: 'gateway.test'})
    expect(bypassed.json).toMatchObject({proxy: 'none: NO_PROXY names gateway.test'})
    const none = await gw(['status', '--json'], httpGateway, {})
    expect(none.json).toMatchObject({proxy: 'none: no proxy is set'})
  })

  it('gw listen replay forwards through the proxy to an app on another host', async () => {
    const app = await startRecorder()
    const appPort = Number(new URL(app.url).port)
    const proxy = await startForwardProxy({routes: {[`app.test:${appPort}`]: appPort}})
    try {
      const home = isolatedHome()
      const file = join(home.HOME!, 'events.ndjson')
      writeFileSync(file, JSON.stringify({received_at: new Date().toISOString(), event: 'charge:successful', mode: 'Test', payload: chargeSuccessful().payload, headers: {}}) + '\n')
      const replayed = await runGw(['listen', 'replay', file, '--forward-to', `http://app.test:${appPort}/hooks`], {env: {...home, HTTP_PROXY: proxy.url}})
      expect(replayed.code, replayed.stderr).toBe(0)
      expect(proxy.seen).toEqual([{method: 'POST', target: `http://app.test:${appPort}/hooks`, credentials: undefined}])
      expect(app.requests).toHaveLength(1)
    } finally {
      await proxy.close()
      await app.close()
    }
  })
})
