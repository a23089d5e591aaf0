import {gatewayAddress} from '../lib/loopback.js'

/**
 * A gateway's base URL as gw keeps it: without trailing slashes, and without the `/v1.0` that the
 * vendor's documentation writes after the host. gw adds `/v1.0` to every path itself
 * (gateway-notes.md), so a base URL that kept it would send every request to `/v1.0/v1.0/...`,
 * answered 404, and a row sent again after its processing window.
 */
export function gatewayRoot(url: string): string {
  return url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/v1\.0$/i, '')
}

/**
 * A gateway as gw tells gateways apart (design.md §5): its base URL in one spelling, whichever
 * reaches the same paths. What gatewayRoot drops (trailing slashes, a trailing `/v1.0`) and what
 * gatewayAddress makes one (case, a default port, the loopback host's names, credentials, a query)
 * make no other gateway. Throws TypeError for what is no URL.
 */
export function gatewayKey(baseUrl: string): string {
  const url = new URL(baseUrl.trim())
  url.pathname = gatewayRoot(url.pathname)
  return gatewayAddress(url.href)
}
