import {UsageError} from '../errors.js'
import {LOOPBACK_HOSTS} from '../lib/loopback.js'

/**
 * The proxy variables as read from the environment, checked and normalised once, so the
 * dispatcher (undici's EnvHttpProxyAgent) and gw's own words about the route see the same values.
 */
export interface ProxySettings {
  http?: ProxyVariable
  https?: ProxyVariable
  /** NO_PROXY's entries, normalised, with the loopback names gw never proxies appended. */
  noProxy: string
}

export interface ProxyVariable {
  /** The name it was read from, in the case it was given: `https_proxy` or `HTTPS_PROXY`. */
  variable: string
  url: string
}

/** Which way a request to one URL goes. */
export type ProxyRoute = {kind: 'proxy'; proxy: string; variable: string} | {kind: 'direct'; reason: string}

// The local gateway lives here: a proxy on another machine could never reach it (gh and the Stripe CLI, in Go, skip these too).
const LOOPBACK = LOOPBACK_HOSTS.map(bracketIpv6)
const DEFAULT_PORTS: Record<string, number> = {'http:': 80, 'https:': 443}

/**
 * HTTP_PROXY, HTTPS_PROXY and NO_PROXY, the lower-case spelling first as curl and undici read them.
 * Undefined when no proxy is set, so the common case never loads the proxy agent.
 */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const http = proxyVariable(env, 'http_proxy', 'HTTP_PROXY')
  const https = proxyVariable(env, 'https_proxy', 'HTTPS_PROXY')
  if (!http && !https) return undefined
  const entries = (env.no_proxy ?? env.NO_PROXY ?? '').split(/[,\s]+/).filter(Boolean)
  const noProxy = entries.includes('*') ? '*' : [...entries.map(bracketIpv6), ...LOOPBACK].join(',')
  return {http, https, noProxy}
}

/** The route undici's EnvHttpProxyAgent takes for a URL, given the same settings: its rules, worded for people. */
export function proxyRoute(url: string, settings: ProxySettings | undefined): ProxyRoute {
  if (!settings) return {kind: 'direct', reason: 'no proxy is set'}
  const target = new URL(url)
  const host = target.host.replace(/:\d*$/, '').toLowerCase()
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0
  if (settings.noProxy === '*') return {kind: 'direct', reason: 'NO_PROXY is *'}
  for (const entry of settings.noProxy.split(',')) {
    const [, name = entry, entryPort] = /^(.+):(\d+)$/.exec(entry) ?? []
    const bare = name.replace(/^\*?\./, '').toLowerCase()
    if (entryPort && Number(entryPort) !== port) continue
    if (host === bare || host.endsWith(`.${bare}`)) {
      return {kind: 'direct', reason: LOOPBACK.includes(entry) ? `${host} is this machine (loopback is never proxied)` : `NO_PROXY names ${entry}`}
    }
  }
  const proxy = target.protocol === 'https:' ? (settings.https ?? settings.http) : settings.http
  if (!proxy) return {kind: 'direct', reason: `no proxy is set for ${target.protocol.slice(0, -1)}`}
  return {kind: 'proxy', proxy: redactedUrl(proxy.url), variable: proxy.variable}
}

/** A proxy URL fit to print: credentials in it (a user and password, or a token as the user) are replaced. */
export function redactedUrl(url: string): string {
  const parsed = new URL(url)
  const credentials = parsed.username || parsed.password
  parsed.username = ''
  parsed.password = ''
  const shown = parsed.href.replace(/\/$/, '')
  return credentials ? shown.replace('//', '//***@') : shown
}

function proxyVariable(env: NodeJS.ProcessEnv, lower: string, upper: string): ProxyVariable | undefined {
  const variable = env[lower] !== undefined ? lower : upper
  const value = env[variable]?.trim()
  if (!value) return undefined
  // "proxy.example:3128" means http, as curl and Go read it.
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(value) ? value : `http://${value}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw badProxy(variable, withoutCredentials(value), 'is not a URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badProxy(variable, redactedUrl(url.href), `is a ${url.protocol.slice(0, -1)} proxy; gw reaches proxies over http or https`)
  if (!url.hostname) throw badProxy(variable, redactedUrl(url.href), 'names no host')
  return {variable, url: url.href}
}

function badProxy(variable: string, shown: string, problem: string): UsageError {
  return new UsageError(`${variable} ${problem}: "${shown}"`, `Set it to the proxy's URL, for example ${variable}=http://proxy.example:3128 (credentials as http://USER:PASSWORD@proxy.example:3128), or unset it.`)
}

/** What cannot be parsed is shown without anything that looks like credentials. */
function withoutCredentials(value: string): string {
  const at = value.lastIndexOf('@')
  return at === -1 ? value : `***@${value.slice(at + 1)}`
}

/** NO_PROXY lists often give `::1`; undici matches IPv6 hosts in brackets, as URLs write them. */
function bracketIpv6(entry: string): string {
  return (entry.match(/:/g)?.length ?? 0) > 1 && !entry.startsWith('[') ? `[${entry}]` : entry
}
