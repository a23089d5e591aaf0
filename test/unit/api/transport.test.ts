import {describe, expect, it} from 'vitest'
import {proxySettings} from '../../../src/api/proxy.js'
import {lazyDispatcher} from '../../../src/api/transport.js'

const options = {connectTimeoutMs: 1000, keepAliveTimeoutMs: 1000}

describe('lazyDispatcher', () => {
  it('is a plain Agent without a proxy, and undici’s EnvHttpProxyAgent only when one is set', async () => {
    const plain = lazyDispatcher(options)
    expect((await plain.get()).constructor.name).toBe('Agent')
    const proxied = lazyDispatcher(options, proxySettings({HTTPS_PROXY: 'http://proxy.example:3128'}))
    expect((await proxied.get()).constructor.name).toBe('EnvHttpProxyAgent')
    await Promise.all([plain.end('destroy'), proxied.end('destroy')])
  })

  it('makes one dispatcher however often it is asked, and none when nothing was sent', async () => {
    const dispatcher = lazyDispatcher(options)
    expect(await dispatcher.get()).toBe(await dispatcher.get())
    await dispatcher.end('close')
    await expect(lazyDispatcher(options).end('destroy')).resolves.toBeUndefined()
  })
})
