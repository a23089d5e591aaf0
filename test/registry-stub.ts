import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'

/**
 * An npm registry on a free loopback port, for what would otherwise ask the real one: each
 * package's document (GET /NAME) as given, 404 for any other; `requests` lists what was asked,
 * as METHOD PATH. With `hold`, each answer waits for it (a slow registry). Closed with close().
 */
export async function registryStub(packages: Record<string, object> = {}, {hold}: {hold?: Promise<void>} = {}): Promise<{url: string; requests: string[]; close: () => Promise<void>}> {
  const requests: string[] = []
  const server = createServer(async (request, response) => {
    requests.push(`${request.method} ${request.url}`)
    await hold
    const name = decodeURIComponent((request.url ?? '/').slice(1).split('?')[0]!)
    const found = request.method === 'GET' ? packages[name] : undefined
    response.writeHead(found ? 200 : 404, {'content-type': 'application/json'})
    response.end(JSON.stringify(found ?? {error: 'Not found'}))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {url: `http://127.0.0.1:${port}/`, requests, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())))}
}
