import {describe, expect, it} from 'vitest'
import {proxyRoute, proxySettings, redactedUrl} from '../../../src/api/proxy.js'

describe('proxySettings', () => {
  it('is undefined when no proxy is set, NO_PROXY alone included', () => {
    expect(proxySettings({})).toBeUndefined()
    expect(proxySettings({NO_PROXY: 'example.com', HTTP_PROXY: '', https_proxy: '  '})).toBeUndefined()
  })

  it('reads the lower-case spelling first, and an empty lower-case one means none, as undici and curl do', () => {
    expect(proxySettings({http_proxy: 'http://lower:1', HTTP_PROXY: 'http://upper:2'})?.http).toEqual({variable: 'http_proxy', url: 'http://lower:1/'})
    expect(proxySettings({https_proxy: '', HTTPS_PROXY: 'http://upper:2', HTTP_PROXY: 'http://p:3'})).toEqual({http: {variable: 'HTTP_PROXY', url: 'http://p:3/'}, https: undefined, noProxy: 'localhost,127.0.0.1,[::1]'})
  })

  it('takes a proxy without a scheme as http, and keeps https proxies', () => {
    expect(proxySettings({HTTPS_PROXY: 'proxy.corp:3128'})?.https?.url).toBe('http://proxy.corp:3128/')
    expect(proxySettings({HTTPS_PROXY: 'https://proxy.corp'})?.https?.url).toBe('https://proxy.corp/')
  })

  it('normalises NO_PROXY: commas or spaces, bare IPv6 in brackets, * alone, loopback always added', () => {
    expect(proxySettings({HTTP_PROXY: 'http://p:1', NO_PROXY: ' a.example, .b.example  ::1 10.0.0.1:8080'})?.noProxy).toBe('a.example,.b.example,[::1],10.0.0.1:8080,localhost,127.0.0.1,[::1]')
    expect(proxySettings({HTTP_PROXY: 'http://p:1', no_proxy: 'a.example,*', NO_PROXY: 'ignored'})?.noProxy).toBe('*')
  })

  it.each([
    [{HTTPS_PROXY: 'socks5://u:hunter2@h:1080'}, 'HTTPS_PROXY is a socks5 proxy; gw reaches proxies over http or https: "socks5://***@h:1080"'],
    [{http_proxy: 'http://u:hunter2@h:port'}, 'http_proxy is not a URL: "***@h:port"'],
    [{HTTP_PROXY: 'http://:8080'}, 'HTTP_PROXY is not a URL: "http://:8080"'],
  ])('refuses %j with a usage error that never shows a password', (env, message) => {
    expect(() => proxySettings(env)).toThrow(expect.objectContaining({exitCode: 2, message}))
  })
})

describe('proxyRoute', () => {
  const settings = proxySettings({HTTP_PROXY: 'http://plain:3128', HTTPS_PROXY: 'http://user:pw@secure:3129', NO_PROXY: 'internal.example,.corp.example,gateway.example:8443,[2001:db8::1]'})

  it.each([
    ['https://gateway.example.com/v1.0', {kind: 'proxy', proxy: 'http://***@secure:3129', variable: 'HTTPS_PROXY'}],
    ['http://gateway.example.com', {kind: 'proxy', proxy: 'http://plain:3128', variable: 'HTTP_PROXY'}],
    ['https://internal.example', {kind: 'direct', reason: 'NO_PROXY names internal.example'}],
    ['https://API.Internal.Example:443', {kind: 'direct', reason: 'NO_PROXY names internal.example'}],
    ['https://notinternal.example', {kind: 'proxy', proxy: 'http://***@secure:3129', variable: 'HTTPS_PROXY'}],
    ['https://a.corp.example', {kind: 'direct', reason: 'NO_PROXY names .corp.example'}],
    ['https://corp.example', {kind: 'direct', reason: 'NO_PROXY names .corp.example'}],
    ['https://gateway.example:8443', {kind: 'direct', reason: 'NO_PROXY names gateway.example:8443'}],
    ['https://gateway.example', {kind: 'proxy', proxy: 'http://***@secure:3129', variable: 'HTTPS_PROXY'}],
    ['http://[2001:db8::1]:8080', {kind: 'direct', reason: 'NO_PROXY names [2001:db8::1]'}],
    ['http://127.0.0.1:8787', {kind: 'direct', reason: '127.0.0.1 is this machine (loopback is never proxied)'}],
    ['http://localhost:8787', {kind: 'direct', reason: 'localhost is this machine (loopback is never proxied)'}],
    ['http://[::1]:8787', {kind: 'direct', reason: '[::1] is this machine (loopback is never proxied)'}],
  ])('%s → %j', (url, route) => {
    expect(proxyRoute(url, settings)).toEqual(route)
  })

  it('says when no proxy is set at all, or none for the scheme', () => {
    expect(proxyRoute('https://gateway.example.com', undefined)).toEqual({kind: 'direct', reason: 'no proxy is set'})
    expect(proxyRoute('http://gateway.example.com', proxySettings({HTTPS_PROXY: 'http://p:1'}))).toEqual({kind: 'direct', reason: 'no proxy is set for http'})
    expect(proxyRoute('https://gateway.example.com', proxySettings({HTTP_PROXY: 'http://p:1'}))).toEqual({kind: 'proxy', proxy: 'http://p:1', variable: 'HTTP_PROXY'})
  })
})

describe('redactedUrl', () => {
  it.each([
    ['http://user:pw@proxy:3128/', 'http://***@proxy:3128'],
    ['http://token@proxy:3128', 'http://***@proxy:3128'],
    ['https://proxy.example', 'https://proxy.example'],
  ])('%s → %s', (url, shown) => {
    expect(redactedUrl(url)).toBe(shown)
  })
})
