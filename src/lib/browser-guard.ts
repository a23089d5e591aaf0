import type {IncomingHttpHeaders} from 'node:http'
import {isIP} from 'node:net'

/**
 * What keeps web pages out of gw's local servers (`gw sandbox`, `gw listen`). Anything on this
 * machine can reach a loopback port, a web page too: a browser sends a simple cross-origin request
 * (a text/plain POST) without asking, and DNS rebinding lets a page read the answers under a name
 * of its own. So a request is answered only when its Host names this server, as
 * webpack-dev-server's allowedHosts and Vite's host check do, and only when it carries no Origin
 * (browsers alone send one) or an origin allowed in so many words.
 */
export interface BrowserGuardOptions {
  /** The address the server listens on (--host): a name given there is its own. */
  listenHost: string
  /** Other names a Host may carry (--allow-host), as hostName spells them; `.example.com` takes its subdomains too. */
  allowedHosts: readonly string[]
  /** Origins of the pages let in (--allow-origin), as originOf spells them. */
  allowedOrigins: readonly string[]
  /** How a refusal names the server and the command that starts it: `local gateway`, `gw sandbox start`. */
  server: string
  command: string
}

/**
 * A request kept out (403, with the error to send and log), a preflight from an allowed page
 * (204), or a request let through (no status); `headers` go on the answer in every case.
 */
export interface Verdict {
  status?: 204 | 403
  error?: string
  headers: Record<string, string>
}

/** A browser's preflight asks for these; nothing else is sent to the servers. */
const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept',
  'Access-Control-Max-Age': '600',
}
/** What of a header is quoted back in a refusal: enough to recognise it. */
const QUOTED_CHARS = 100

export function browserGuard(options: BrowserGuardOptions): (method: string, headers: IncomingHttpHeaders) => Verdict {
  const ownName = hostName(options.listenHost.includes(':') && !options.listenHost.startsWith('[') ? `[${options.listenHost}]` : options.listenHost)
  const allowedHost = (name: string) =>
    // A name under .localhost never leaves the machine (RFC 6761), and an IP address cannot be rebound.
    name === 'localhost' || name.endsWith('.localhost') || isIpLiteral(name) || name === ownName || options.allowedHosts.some((allowed) => (allowed.startsWith('.') ? name === allowed.slice(1) || name.endsWith(allowed) : name === allowed))

  return (method, headers) => {
    // HTTP/1.0 may leave the Host out; a browser never does, so DNS rebinding needs one.
    const host = headers.host
    const name = host === undefined ? undefined : hostName(host)
    if (host !== undefined && (name === undefined || !allowedHost(name))) {
      const fix = name === undefined ? '' : `, or start it with ${options.command} --allow-host ${name}`
      return {
        status: 403,
        error: `Host ${quoted(host)} names no address of this ${options.server}: a web page may have sent it (DNS rebinding). Reach it as localhost, 127.0.0.1 or [::1]${fix}.`,
        headers: {},
      }
    }
    const origin = headers.origin
    if (origin === undefined) return {headers: {}}
    const page = originOf(origin)
    if (page === undefined || !options.allowedOrigins.includes(page)) {
      const fix = page === undefined ? 'Only a page with an http:// or https:// origin can be let in' : `To let that page in, start it with ${options.command} --allow-origin ${page}`
      return {status: 403, error: `Web pages are kept out of this ${options.server}, and this came from one (Origin ${quoted(origin)}). ${fix}.`, headers: {}}
    }
    const cors = {'Access-Control-Allow-Origin': origin, Vary: 'Origin'}
    return method === 'OPTIONS' && headers['access-control-request-method'] !== undefined ? {status: 204, headers: {...cors, ...PREFLIGHT_HEADERS}} : {headers: cors}
  }
}

/**
 * The name a Host header (or --allow-host) gives, as WHATWG URL spells it (lower case, IDN as
 * punycode, `127.1` as `127.0.0.1`, IPv6 in brackets), without its port or a trailing dot;
 * undefined when it is not a host with an optional port.
 */
export function hostName(host: string): string | undefined {
  // Nothing else may ride along: `evil@localhost` would parse as localhost.
  if (!/^(?:\[[\da-f:.]+\]|[^\s@/\\?#[\]:]+)(?::\d*)?$/i.test(host)) return undefined
  try {
    return new URL(`http://${host}`).hostname.replace(/\.$/, '')
  } catch {
    return undefined
  }
}

/** An http(s) URL's origin (`scheme://host[:port]`, a default port left out), as browsers send it in Origin; undefined for anything else. */
export function originOf(text: string): string | undefined {
  if (!URL.canParse(text)) return undefined
  const url = new URL(text)
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined
}

function isIpLiteral(name: string): boolean {
  return name.startsWith('[') || isIP(name) === 4
}

function quoted(text: string): string {
  return JSON.stringify(text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text)
}
