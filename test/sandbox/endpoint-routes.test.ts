import {describe, expect, it} from 'vitest'
import {allEndpoints, buildPath, type Endpoint} from '../../src/api/endpoints.js'
import {call, sandbox} from './helpers.js'

/** The endpoint's path with a made-up key for each `{name}`: a record that is not there, which is not the same as no route. */
const pathOf = (endpoint: Pick<Endpoint, 'path'>) => buildPath(endpoint.path, Object.fromEntries([...endpoint.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, 'no-such-key'])))

/** The local gateway has no route for the request: 404 "Not Found", as the gateway answers one (its controls: "No route matches"), or 405 for a path it has with other methods. */
const unrouted = ({status, body}: {status: number; body?: {errors?: string[]}}) => status === 405 || (status === 404 && (body?.errors?.[0] === 'Not Found' || String(body?.errors?.[0]).startsWith('No route matches')))

// The endpoint table (src/api/endpoints.ts) drives the client, the look-ups and the get commands;
// the local gateway keeps its own routes (it imports nothing from the client), so this holds them to it.
describe('the local gateway answers every endpoint the table declares', () => {
  it.each(allEndpoints().map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))('%s', async (_, endpoint) => {
    const gateway = await sandbox()
    const answer = await call(gateway, endpoint.method, pathOf(endpoint), {body: endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : {}})
    expect(unrouted(answer), `${answer.status} ${answer.text}`).toBe(false)
  })

  it('tells a missing route from a missing record', async () => {
    const gateway = await sandbox()
    expect(unrouted(await call(gateway, 'GET', pathOf({path: '/v1.0/invoices/{id}'})))).toBe(true)
    expect(unrouted(await call(gateway, 'DELETE', pathOf({path: '/v1.0/purchases/{id}'})))).toBe(true)
    expect(unrouted(await call(gateway, 'GET', pathOf({path: '/v1.0/purchases/{id}'})))).toBe(false)
  })
})
