import {describe, expect, it} from 'vitest'
import type {GatewayClient, RawAnswer} from '../../../src/api/client.js'
import {AuthError, GatewayError, NotFoundError} from '../../../src/errors.js'
import {checkGateway} from '../../../src/operations/status.js'
import {fakeDeps} from './fake-client.js'
import {expectReject} from '../../expect-error.js'

const answering = (answer: RawAnswer | Error) =>
  ({sendRaw: async () => (answer instanceof Error ? Promise.reject(answer) : answer)}) as unknown as GatewayClient

describe('checkGateway: one look-up read for reachability, the token and the mode', () => {
  it.each([
    ['a 404 in test mode: the token was taken', {status: 404, text: '{"successful":false,"test":true}', error: new NotFoundError('Purchase not found')}, {reachable: true, token_valid: true, gateway_mode: 'test'}],
    ['a 404 in live mode', {status: 404, text: '{"successful":false,"test":false}', error: new NotFoundError('x')}, {reachable: true, token_valid: true, gateway_mode: 'live'}],
    ['a 401 without a mode: the token was refused', {status: 401, text: '{"successful":false,"errors":["Incorrect Username or Token"]}', error: new AuthError('Incorrect Username or Token')}, {reachable: true, token_valid: false, gateway_mode: null}],
    ['an HTML 500: reachable, cannot tell', {status: 500, text: '<html>', error: new GatewayError('gateway', 'failed')}, {reachable: true, token_valid: null, gateway_mode: null}],
  ])('%s', async (_, answer, expected) => {
    const check = await checkGateway(fakeDeps(answering(answer)))
    expect(check).toMatchObject(expected)
    expect(check.problem).toBe(expected.token_valid === true ? undefined : answer.error)
  })

  it('an unreachable gateway is not reachable, and nothing else is known', async () => {
    const unreachable = new GatewayError('network', 'Could not reach the gateway')
    expect(await checkGateway(fakeDeps(answering(unreachable)))).toEqual({reachable: false, token_valid: null, gateway_mode: null, problem: unreachable})
  })

  it('anything else is a bug, not a finding', async () => {
    await expectReject(checkGateway(fakeDeps(answering(new Error('boom')))), Error, 'boom')
  })
})
