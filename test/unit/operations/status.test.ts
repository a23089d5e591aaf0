import {describe, expect, it} from 'vitest'
import type {GatewayClient, RawAnswer} from '../../../src/api/client.js'
import {AuthError, GatewayError, NotFoundError, PermissionError} from '../../../src/errors.js'
import {checkGateway, pingOf} from '../../../src/operations/status.js'
import {fakeDeps} from './fake-client.js'
import {expectReject} from '../../expect-error.js'

/** A client whose /ping and look-up answer apart; /ping's answer may echo what was asked (`echoed`). */
function gateway(ping: RawAnswer | Error | 'echoed', lookUp: RawAnswer | Error): {client: GatewayClient; paths: string[]} {
  const paths: string[] = []
  const client = {
    sendRaw: async (_method: string, path: string) => {
      paths.push(path)
      if (!path.startsWith('/ping')) return lookUp instanceof Error ? Promise.reject(lookUp) : lookUp
      if (ping === 'echoed') return {status: 200, text: JSON.stringify({timestamp: 1525302730, echo: new URLSearchParams(path.split('?')[1]).get('echo')})}
      return ping instanceof Error ? Promise.reject(ping) : ping
    },
  } as unknown as GatewayClient
  return {client, paths}
}

const notFound = {status: 404, text: '{"successful":false,"test":true}', error: new NotFoundError('Purchase not found')}

describe('checkGateway: /ping for an answer and the clock, then one look-up for the token and the mode', () => {
  it('a gateway answering /ping with the echo: answered, its clock read; the look-up tells the token and the mode', async () => {
    const {client, paths} = gateway('echoed', notFound)
    expect(await checkGateway(fakeDeps(client))).toEqual({reachable: true, token_valid: true, gateway_mode: 'test', answers_ping: true, gateway_time: '2018-05-02T23:12:10.000Z'})
    expect(paths).toHaveLength(2)
    expect(paths[0]).toMatch(/^\/ping\?echo=gw-status-[0-9a-f]{8}$/)
    expect(paths[1]).toBe('/v1.0/purchases/gw-status-check')
  })

  it.each([
    ['a 404 in test mode: the token was taken', notFound, {reachable: true, token_valid: true, gateway_mode: 'test'}],
    ['a 404 in live mode', {status: 404, text: '{"successful":false,"test":false}', error: new NotFoundError('x')}, {reachable: true, token_valid: true, gateway_mode: 'live'}],
    ['a 401 without a mode: the token was refused', {status: 401, text: '{"successful":false,"errors":["Incorrect Username or Token"]}', error: new AuthError('Incorrect Username or Token')}, {reachable: true, token_valid: false, gateway_mode: null}],
    ['an HTML 500: reachable, cannot tell', {status: 500, text: '<html>', error: new GatewayError('gateway', 'failed')}, {reachable: true, token_valid: null, gateway_mode: null}],
  ])('a gateway without /ping (404) is checked by the look-up alone: %s', async (_, answer, expected) => {
    const check = await checkGateway(fakeDeps(gateway(notFound, answer).client))
    expect(check).toMatchObject({...expected, answers_ping: false, gateway_time: null})
    expect(check.problem).toBe(expected.token_valid === true ? undefined : answer.error)
  })

  it('a 403 at /ping is no failure either: the look-up alone tells', async () => {
    const forbidden = {status: 403, text: '{}', error: new PermissionError('Forbidden')}
    const {client, paths} = gateway(forbidden, notFound)
    expect(await checkGateway(fakeDeps(client))).toEqual({reachable: true, token_valid: true, gateway_mode: 'test', answers_ping: false, gateway_time: null})
    expect(paths).toHaveLength(2)
  })

  it('a 401 at /ping is a refused token: no look-up follows', async () => {
    const refused = {status: 401, text: '{"successful":false,"test":true}', error: new AuthError('Incorrect Username or Token')}
    const {client, paths} = gateway(refused, notFound)
    expect(await checkGateway(fakeDeps(client))).toEqual({reachable: true, token_valid: false, gateway_mode: 'test', answers_ping: false, gateway_time: null, problem: refused.error})
    expect(paths).toHaveLength(1)
  })

  it('a failure at /ping, or an answer without the echo, is the problem (exit 1): no look-up follows', async () => {
    const failing = {status: 503, text: 'busy', error: new GatewayError('gateway', 'Service Unavailable', {status: 503})}
    const failed = await checkGateway(fakeDeps(gateway(failing, notFound).client))
    expect(failed).toMatchObject({reachable: true, token_valid: null, gateway_mode: null, answers_ping: false, gateway_time: null})
    expect(failed.problem).toMatchObject({kind: 'gateway', exitCode: 1, status: 503})
    expect(failed.problem?.message).toBe('The gateway answered its health check, GET /ping, with a failure: Service Unavailable')
    const other = gateway({status: 200, text: '<html>welcome</html>'}, notFound)
    const check = await checkGateway(fakeDeps(other.client))
    expect(check).toMatchObject({reachable: true, token_valid: null, answers_ping: false})
    expect(check.problem).toMatchObject({kind: 'unreadable', exitCode: 1})
    expect(check.problem?.message).toMatch(/^The gateway answered GET \/ping with HTTP 200, but not with the echo sent \(gw-status-[0-9a-f]{8}\)$/)
    expect(other.paths).toHaveLength(1)
  })

  it('an unreachable gateway is not reachable, and nothing else is known', async () => {
    const unreachable = new GatewayError('network', 'Could not reach the gateway')
    expect(await checkGateway(fakeDeps(gateway(unreachable, notFound).client))).toEqual({reachable: false, token_valid: null, gateway_mode: null, answers_ping: null, gateway_time: null, problem: unreachable})
  })

  it('anything else is a bug, not a finding', async () => {
    await expectReject(checkGateway(fakeDeps(gateway(new Error('boom'), notFound).client)), Error, 'boom')
    await expectReject(checkGateway(fakeDeps(gateway('echoed', new Error('bang')).client)), Error, 'bang')
  })
})

describe("pingOf: /ping's bare body", () => {
  it.each([
    ['{"timestamp":1525302730,"echo":"e"}', {answers_ping: true, gateway_time: '2018-05-02T23:12:10.000Z'}],
    ['{"timestamp":1525302730,"echo":"other"}', {answers_ping: false, gateway_time: '2018-05-02T23:12:10.000Z'}],
    ['{"echo":"e"}', {answers_ping: true, gateway_time: null}],
    ['{"timestamp":"soon","echo":"e"}', {answers_ping: true, gateway_time: null}],
    ['{"timestamp":1e300,"echo":"e"}', {answers_ping: true, gateway_time: null}],
    ['pong', {answers_ping: false, gateway_time: null}],
    ['null', {answers_ping: false, gateway_time: null}],
  ])('%s', (body, expected) => {
    expect(pingOf(body, 'e')).toEqual(expected)
  })
})
