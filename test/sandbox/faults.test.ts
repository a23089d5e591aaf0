import {describe, expect, it} from 'vitest'
import {call, purchase, sandbox} from './helpers.js'

type Gateway = Awaited<ReturnType<typeof sandbox>>

async function addFault(gateway: Gateway, fault: Record<string, unknown>): Promise<void> {
  const answer = await call(gateway, 'POST', '/_sandbox/faults', {body: fault, auth: null})
  expect(answer.status).toBe(200)
}

describe('faults', () => {
  it('drop-after processes the purchase, then hangs up: the purchase is stored and found by reference', async () => {
    const gateway = await sandbox()
    await addFault(gateway, {method: 'POST', path: '/v1.0/purchases', action: 'drop-after'})

    await expect(purchase(gateway, {reference: 'lost-answer'})).rejects.toThrow(TypeError)

    const found = await call(gateway, 'GET', '/v1.0/purchases/lost-answer')
    expect(found.status).toBe(200)
    expect(found.body.response).toMatchObject({reference: 'lost-answer', successful: true, message: 'Approved'})
    expect((await purchase(gateway, {reference: 'next'})).status).toBe(200)
  })

  it('drop-before hangs up without processing', async () => {
    const gateway = await sandbox()
    await addFault(gateway, {method: 'POST', path: '/v1.0/purchases', action: 'drop-before'})
    await expect(purchase(gateway)).rejects.toThrow(TypeError)
    expect((await call(gateway, 'GET', '/v1.0/purchases/order-1')).status).toBe(404)
  })

  it('status answers that status as an envelope without processing', async () => {
    const gateway = await sandbox()
    await addFault(gateway, {method: 'POST', path: '/v1.0/purchases', action: 'status', status: 503})
    const answer = await purchase(gateway)
    expect(answer.status).toBe(503)
    expect(answer.body).toStrictEqual({successful: false, response: null, errors: ['Service Unavailable'], test: true})
    expect(answer.headers.get('x-request-id')).toBeTruthy()
    expect((await call(gateway, 'GET', '/v1.0/purchases/order-1')).status).toBe(404)
  })

  it('status with html answers an HTML page, as a proxy in front of the gateway would', async () => {
    const gateway = await sandbox()
    await addFault(gateway, {method: 'GET', path: '/v1.0/purchases/', action: 'status', status: 500, html: true})
    const answer = await call(gateway, 'GET', '/v1.0/purchases/anything')
    expect(answer.status).toBe(500)
    expect(answer.headers.get('content-type')).toBe('text/html')
    expect(answer.text).toContain('<h1>Internal Server Error</h1>')
    expect(answer.body).toBeUndefined()
  })

  it('delay waits, then processes', async () => {
    const gateway = await sandbox()
    await addFault(gateway, {method: 'POST', path: '/v1.0/purchases', action: 'delay', delayMs: 300})
    const started = Date.now()
    const answer = await purchase(gateway)
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
    expect(answer.status).toBe(200)
  })

  it('affects `times` matching requests, only those on the method and path prefix', async () => {
    const gateway = await sandbox()
    await addFault(gateway, {method: 'GET', path: '/v1.0/purchases', action: 'status', status: 502, times: 2})
    expect((await call(gateway, 'GET', '/v1.0/refunds/x')).status).toBe(404)
    expect((await purchase(gateway)).status).toBe(200)
    expect((await call(gateway, 'GET', '/v1.0/purchases/order-1')).status).toBe(502)
    expect((await call(gateway, 'GET', '/v1.0/purchases/order-1.json')).status).toBe(502)
    expect((await call(gateway, 'GET', '/v1.0/purchases/order-1')).status).toBe(200)
  })

  it('faults captures, voids, the settlement look-up and /ping by their paths, the id in a void\'s query too', async () => {
    const gateway = await sandbox()
    const authorization = (await purchase(gateway, {capture: false})).body.response
    const capturePath = `/v1.0/purchases/${authorization.id}/capture`
    await addFault(gateway, {method: 'POST', path: capturePath, action: 'drop-after'})
    await expect(call(gateway, 'POST', capturePath, {body: {amount: 1000}})).rejects.toThrow(TypeError)
    expect((await call(gateway, 'GET', `/v1.0/purchases/${authorization.id}`)).body.response).toMatchObject({captured: true, captured_amount: 1000})

    await addFault(gateway, {method: 'POST', path: '/v1.0/purchases/void', action: 'status', status: 503})
    expect((await call(gateway, 'POST', '/v1.0/purchases/void', {body: {id: authorization.id}})).status).toBe(503)
    expect((await call(gateway, 'GET', `/v1.0/purchases/${authorization.id}`)).body.response.message).toBe('Approved')
    await addFault(gateway, {method: 'POST', path: `/v1.0/purchases/void?id=${authorization.id}`, action: 'drop-before'})
    await expect(call(gateway, 'POST', `/v1.0/purchases/void?id=${authorization.id}`, {body: {}})).rejects.toThrow(TypeError)
    expect((await call(gateway, 'GET', `/v1.0/purchases/${authorization.id}`)).body.response.message).toBe('Approved')

    await addFault(gateway, {method: 'GET', path: '/v1.0/purchases/settlement', action: 'status', status: 500, html: true})
    const settlement = await call(gateway, 'GET', '/v1.0/purchases/settlement?from=2026/11/22&to=2026/11/22')
    expect([settlement.status, settlement.headers.get('content-type')]).toStrictEqual([500, 'text/html'])
    await addFault(gateway, {method: 'GET', path: '/ping', action: 'status', status: 502})
    expect((await call(gateway, 'GET', '/ping?echo=x')).status).toBe(502)
    expect((await call(gateway, 'GET', '/ping?echo=x')).status).toBe(200)
  })

  it('takes captures and voids with a fault on /v1.0/purchases, a prefix of their paths', async () => {
    const gateway = await sandbox()
    const authorization = (await purchase(gateway, {capture: false})).body.response
    await addFault(gateway, {method: 'POST', path: '/v1.0/purchases', action: 'status', status: 503, times: 2})
    expect((await call(gateway, 'POST', `/v1.0/purchases/${authorization.id}/capture`, {body: {amount: 1000}})).status).toBe(503)
    expect((await call(gateway, 'POST', '/v1.0/purchases/void', {body: {id: authorization.id}})).status).toBe(503)
    expect((await call(gateway, 'POST', `/v1.0/purchases/${authorization.id}/capture`, {body: {amount: 1000}})).status).toBe(200)
  })

  it('lists and clears faults, and never applies them to the control endpoints', async () => {
    const gateway = await sandbox()
    await addFault(gateway, {method: 'GET', path: '/', action: 'drop-before', times: 5})
    const listed = await call(gateway, 'GET', '/_sandbox/faults', {auth: null})
    expect(listed.body.response).toEqual([{method: 'GET', path: '/', times: 5, action: 'drop-before'}])

    const cleared = await call(gateway, 'DELETE', '/_sandbox/faults', {auth: null})
    expect(cleared.status).toBe(200)
    expect((await call(gateway, 'GET', '/_sandbox/faults', {auth: null})).body.response).toEqual([])
    expect((await call(gateway, 'GET', '/v1.0/purchases/x')).status).toBe(404)
  })

  it('refuses a fault it cannot apply with a 400', async () => {
    const answer = await call(await sandbox(), 'POST', '/_sandbox/faults', {body: {method: 'GET', path: '/v1.0', action: 'explode'}, auth: null})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(['Action must be one of drop-before, drop-after, status, delay, rate-limit'])
  })

  it('closes promptly while a request is being delayed', async () => {
    const gateway = await sandbox()
    await addFault(gateway, {method: 'POST', path: '/v1.0/purchases', action: 'delay', delayMs: 20_000})
    const pending = purchase(gateway)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const started = Date.now()
    await gateway.close()
    expect(Date.now() - started).toBeLessThan(1000)
    await expect(pending).rejects.toThrow(TypeError)
  })
})
