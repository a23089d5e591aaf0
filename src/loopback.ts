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

/** Whether a URL's host is this machine's own (isLoopbackHost); a URL that does not parse is not. */
export function isLoopbackUrl(url: string): boolean {
  return URL.canParse(url) && isLoopbackHost(new URL(url).hostname)
}
