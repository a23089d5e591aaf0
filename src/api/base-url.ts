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
