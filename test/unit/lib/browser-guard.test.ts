import {describe, expect, it} from 'vitest'
import {browserGuard, hostName, originOf} from '../../../src/lib/browser-guard.js'

const guard = (options: {listenHost?: string; allowedHosts?: string[]; allowedOrigins?: string[]} = {}) =>
  browserGuard({listenHost: '127.0.0.1', allowedHosts: [], allowedOrigins: [], server: 'local gateway', command: 'gw sandbox start', ...options})

describe('hostName', () => {
  it.each([
    ['localhost:8787', 'localhost'],
    ['LocalHost.', 'localhost'],
    ['localhost.:8787', 'localhost'],
    ['127.0.0.1:8787', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['[::1]:8787', '[::1]'],
    ['[0:0:0:0:0:0:0:1]', '[::1]'],
    ['Gateway.Internal:80', 'gateway.internal'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['localhost:', 'localhost'],
  ])('%s is %s', (host, name) => {
    expect(hostName(host)).toBe(name)
  })

  it.each(['evil@localhost', 'localhost/x', 'local host', '', '[::1', 'localhost:99999', 'localhost:80:80', 'a?b', 'a#b', 'a\\b'])('%j is no host', (host) => {
    expect(hostName(host)).toBeUndefined()
  })
})

describe('originOf', () => {
  it.each([
    ['http://localhost:3000', 'http://localhost:3000'],
    ['HTTP://LOCALHOST:3000/', 'http://localhost:3000'],
    ['https://shop.example:443/app', 'https://shop.example'],
    ['http://[::1]:80', 'http://[::1]'],
  ])('%s is %s', (text, origin) => {
    expect(originOf(text)).toBe(origin)
  })

  it.each(['null', 'file:///tmp/x.html', 'localhost:3000', 'chrome-extension://abc', ''])('%j is no page origin', (text) => {
    expect(originOf(text)).toBeUndefined()
  })
})

describe('browserGuard', () => {
  it.each([
    ['no Host (HTTP/1.0)', {}],
    ['localhost with its port', {host: 'localhost:8787'}],
    ['a subdomain of localhost', {host: 'app.localhost:8787'}],
    ['an IPv4 address', {host: '192.0.2.1:8787'}],
    ['an IPv6 address', {host: '[2001:db8::1]:8787'}],
  ])('lets %s through, with no headers added', (_case, headers) => {
    expect(guard()('GET', headers)).toStrictEqual({headers: {}})
  })

  it.each([
    ['another name', 'evil.example:8787', ', or start it with gw sandbox start --allow-host evil.example'],
    ['a name ending in localhost', 'evillocalhost', ', or start it with gw sandbox start --allow-host evillocalhost'],
    ['credentials riding along', 'evil@localhost', ''],
    ['an empty Host', '', ''],
  ])('refuses %s in the Host (403), naming the fix', (_case, host, fix) => {
    expect(guard()('GET', {host})).toStrictEqual({
      status: 403,
      error: `Host ${JSON.stringify(host)} names no address of this local gateway: a web page may have sent it (DNS rebinding). Reach it as localhost, 127.0.0.1 or [::1]${fix}.`,
      headers: {},
    })
  })

  it('quotes a long Host only in part', () => {
    expect(guard()('GET', {host: 'a'.repeat(300)}).error).toContain(`"${'a'.repeat(100)}…"`)
  })

  it('takes the name it listens on, and --allow-host names, a leading dot for every name under one', () => {
    const check = guard({listenHost: 'box.lan', allowedHosts: ['sandbox', '.corp.example']})
    for (const host of ['box.lan:8787', 'sandbox', 'corp.example', 'a.b.corp.example:1']) expect(check('GET', {host}).status, host).toBeUndefined()
    for (const host of ['box.lan.evil', 'sandbox.evil', 'xcorp.example']) expect(check('GET', {host}).status, host).toBe(403)
    expect(guard({listenHost: '::1'})('GET', {host: '[::1]'}).status).toBeUndefined()
  })

  it('refuses any Origin but those allowed, whatever the method', () => {
    const check = guard({allowedOrigins: ['http://localhost:3000']})
    expect(check('POST', {host: 'localhost', origin: 'http://localhost:3001'})).toStrictEqual({
      status: 403,
      error: 'Web pages are kept out of this local gateway, and this came from one (Origin "http://localhost:3001"). To let that page in, start it with gw sandbox start --allow-origin http://localhost:3001.',
      headers: {},
    })
    expect(check('GET', {host: 'localhost', origin: 'null'}).error).toBe('Web pages are kept out of this local gateway, and this came from one (Origin "null"). Only a page with an http:// or https:// origin can be let in.')
    expect(check('OPTIONS', {host: 'localhost', origin: 'http://evil.example', 'access-control-request-method': 'POST'}).status).toBe(403)
  })

  it('answers an allowed page with CORS headers, and its preflight with 204', () => {
    const check = guard({allowedOrigins: ['http://localhost:3000']})
    const cors = {'Access-Control-Allow-Origin': 'http://localhost:3000', Vary: 'Origin'}
    expect(check('POST', {host: 'localhost', origin: 'http://localhost:3000'})).toStrictEqual({headers: cors})
    // The origin as the browser spelled it is what it expects back.
    expect(check('GET', {host: 'localhost', origin: 'HTTP://localhost:3000'}).headers['Access-Control-Allow-Origin']).toBe('HTTP://localhost:3000')
    expect(check('OPTIONS', {host: 'localhost', origin: 'http://localhost:3000', 'access-control-request-method': 'PUT'})).toStrictEqual({
      status: 204,
      headers: {...cors, 'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE', 'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept', 'Access-Control-Max-Age': '600'},
    })
    // An OPTIONS that asks nothing is no preflight: the server answers it as any other method.
    expect(check('OPTIONS', {host: 'localhost', origin: 'http://localhost:3000'})).toStrictEqual({headers: cors})
  })

  it('checks the Host before the Origin', () => {
    expect(guard({allowedOrigins: ['http://evil.example']})('POST', {host: 'evil.example', origin: 'http://evil.example'}).error).toMatch(/^Host "evil.example" names no address/)
  })
})
