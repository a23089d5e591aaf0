/** The names NO_PROXY is given for this machine: undici matches names there, not address ranges. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '::1']

/**
 * Whether an address is this machine's own, so only a process here can reach it: localhost, the
 * whole of 127.0.0.0/8 (127.0.0.2 is as local as 127.0.0.1), and ::1 in any of its spellings.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (name === 'localhost' || name === '::1' || name === '0:0:0:0:0:0:0:1') return true
  const ipv4 = /^(?:::ffff:)?127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name)
  return ipv4 !== null && ipv4.slice(1).every((octet) => Number(octet) <= 255)
}

/** A server's URL on every address (0.0.0.0, [::]) as this machine reaches it, on loopback of the same family; any other URL as it is. */
export function reachableUrl(url: string): string {
  return url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:')
}

/** Whether a URL's host is this machine's own (isLoopbackHost); a URL that does not parse is not. */
export function isLoopbackUrl(url: string): boolean {
  return URL.canParse(url) && isLoopbackHost(new URL(url).hostname)
}

/** The names of this machine's loopback address that are one host to gw (design.md §5): `127.1` and `[0::1]` reach here parsed. */
const ONE_LOOPBACK_HOST = new Set(['localhost', 'localhost.', '127.0.0.1', '[::1]', '[::ffff:7f00:1]'])

/**
 * A gateway's base URL in one spelling, so that one gateway is one journal and one lock however it
 * is written (design.md §5, identity, not names): parsed as WHATWG URL (scheme and host lower
 * case, a default port dropped), `localhost`, `127.0.0.1` and `[::1]` one host, `localhost`; a
 * trailing slash, credentials, a query or a fragment make no other gateway. Throws TypeError for
 * what is no URL.
 */
export function gatewayAddress(baseUrl: string): string {
  const url = new URL(baseUrl.trim())
  const host = ONE_LOOPBACK_HOST.has(url.hostname) ? 'localhost' : url.hostname
  return `${url.protocol}//${host}${url.port === '' ? '' : `:${url.port}`}${url.pathname.replace(/\/+$/, '')}`
}
