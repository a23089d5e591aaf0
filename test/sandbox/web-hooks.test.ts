import {describe, expect, it} from 'vitest'
import {WebHook} from '../../src/api/schemas/web-hook.js'
import {ACME_AUTH, call, sandbox} from './helpers.js'
import {registerHook} from './recurring-helpers.js'

const ADDRESS = 'https://merchant.example/hooks'

const hook = (fields: Record<string, unknown> = {}) => ({
  id: expect.stringMatching(/^071-WH-[A-Z0-9]{8}$/),
  name: 'test',
  address: ADDRESS,
  events: '*',
  mode: 'Test',
  authentication_username: null,
  authentication_password: '',
  // No recorded web hook carries created_at: the gateway keeps it for the list's order only.
  is_active: null,
  ...fields,
})

describe('POST /v1.0/web_hooks', () => {
  it('registers a hook: 200, the record as the live gateway answers it (its password, is_active null, in the list too)', async () => {
    const gateway = await sandbox()
    const answer = await registerHook(gateway, ADDRESS, {authentication_username: 'user', authentication_password: 'secret-pass'})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({successful: true, response: hook({authentication_username: 'user', authentication_password: 'secret-pass'}), errors: [], test: true})
    expect(WebHook.parse(answer.body.response)).toEqual(answer.body.response)
    expect((await call(gateway, 'GET', '/v1.0/web_hooks')).body.response).toStrictEqual([hook({authentication_username: 'user', authentication_password: 'secret-pass', is_active: null})])
  })

  it('takes a list of event names instead of *', async () => {
    const gateway = await sandbox()
    const answer = await registerHook(gateway, ADDRESS, {events: ['card:expiring', 'card:expired'], mode: 'Live'})
    expect(answer.body.response).toStrictEqual(hook({events: ['card:expiring', 'card:expired'], mode: 'Live'}))
  })

  it('answers 422 naming each missing field, with a null id and no password', async () => {
    const gateway = await sandbox()
    const answer = await call(gateway, 'POST', '/v1.0/web_hooks', {body: {name: 'x', authentication_password: 'secret-pass'}})
    expect(answer.status).toBe(422)
    expect(answer.body).toStrictEqual({
      successful: false,
      response: {id: null, name: 'x', address: null, events: null, mode: null, authentication_username: null},
      errors: ["Address can't be blank", 'Events is not included in the list', 'Mode is not included in the list'],
      test: true,
    })
  })

  it.each([
    [{address: 'ftp://merchant.example'}, 'Address must be an http or https URL'],
    [{events: 'charge:*'}, 'Events is not included in the list'],
    [{events: ['charge:refunded']}, 'Events is not included in the list'],
    [{mode: 'test'}, 'Mode is not included in the list'],
  ])('refuses %o', async (fields, message) => {
    const gateway = await sandbox()
    const answer = await registerHook(gateway, ADDRESS, fields)
    expect(answer.status).toBe(422)
    expect(answer.body.errors).toStrictEqual([message])
  })
})

describe('GET and DELETE /v1.0/web_hooks', () => {
  it('lists the merchant own hooks and deletes one, answering with it', async () => {
    const gateway = await sandbox()
    const first = (await registerHook(gateway, ADDRESS)).body.response
    const second = (await registerHook(gateway, `${ADDRESS}/2`)).body.response
    await registerHook(gateway, ADDRESS, {}, ACME_AUTH)
    // A hook made through the API says is_active null in a list too (Rb:WebHook/_search, 2018-07-25).
    const listed = (hook: Record<string, unknown>) => ({...hook, is_active: null})
    expect((await call(gateway, 'GET', '/v1.0/web_hooks')).body.response).toStrictEqual([listed(first), listed(second)])

    const deleted = await call(gateway, 'DELETE', `/v1.0/web_hooks/${first.id}`)
    expect(deleted.status).toBe(200)
    expect(deleted.body.response).toStrictEqual(first)
    expect((await call(gateway, 'GET', '/v1.0/web_hooks')).body.response).toStrictEqual([listed(second)])
  })

  it.each([
    [{}, [1, 2, 3]],
    [{webHookOrder: 'oldest' as const}, [1, 2, 3]],
    [{webHookOrder: 'newest' as const}, [3, 2, 1]],
  ])('lists hooks oldest first, as recorded in 2017 and 2019, or newest first as in 2018 (%j)', async (options, order) => {
    const gateway = await sandbox(options)
    for (const n of [1, 2, 3]) await registerHook(gateway, `${ADDRESS}/${n}`)
    const listed = (await call(gateway, 'GET', '/v1.0/web_hooks')).body.response as {address: string}[]
    expect(listed.map((hook) => hook.address)).toStrictEqual(order.map((n) => `${ADDRESS}/${n}`))
  })

  it('answers 404 for an unknown hook and 403 for another merchant hook', async () => {
    const gateway = await sandbox()
    const created = (await registerHook(gateway, ADDRESS)).body.response
    const unknown = await call(gateway, 'DELETE', '/v1.0/web_hooks/071-WH-NOPE0000')
    expect(unknown.status).toBe(404)
    expect(unknown.body.errors).toStrictEqual(['Record not found'])
    expect((await call(gateway, 'DELETE', `/v1.0/web_hooks/${created.id}`, {auth: ACME_AUTH})).status).toBe(403)
    expect((await call(gateway, 'GET', '/v1.0/web_hooks', {auth: ACME_AUTH})).body.response).toStrictEqual([])
  })
})

describe('PUT /v1.0/web_hooks/{id}', () => {
  it('changes what the body gives, as the Ruby library sends it: the whole record, a name given twice, the last one kept', async () => {
    const gateway = await sandbox()
    const created = (await registerHook(gateway, ADDRESS)).body.response
    const raw = `{"address":"${ADDRESS}","events":"*","mode":"Test","authentication_username":null,"authentication_password":"","is_active":null,"name":"test","name":"New Test hook","test":true}`
    const answer = await call(gateway, 'PUT', `/v1.0/web_hooks/${created.id}`, {raw})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({successful: true, response: hook({id: created.id, name: 'New Test hook'}), errors: [], test: true})
    expect(WebHook.parse(answer.body.response)).toEqual(answer.body.response)
    expect((await call(gateway, 'GET', '/v1.0/web_hooks')).body.response).toStrictEqual([hook({id: created.id, name: 'New Test hook', is_active: null})])
  })

  it('keeps what the body leaves out, and takes new credentials, answered as a hook is', async () => {
    const gateway = await sandbox()
    const created = (await registerHook(gateway, ADDRESS, {events: ['card:expired']})).body.response
    const answer = await call(gateway, 'PUT', `/v1.0/web_hooks/${created.id}`, {body: {address: `${ADDRESS}/new`, authentication_username: 'user', authentication_password: 'secret-pass'}})
    expect(answer.body.response).toStrictEqual(hook({id: created.id, address: `${ADDRESS}/new`, events: ['card:expired'], authentication_username: 'user', authentication_password: 'secret-pass'}))
  })

  it('refuses what creation refuses with a 422 and changes nothing; 404 for an unknown hook, 403 for another merchant\'s', async () => {
    const gateway = await sandbox()
    const created = (await registerHook(gateway, ADDRESS)).body.response
    const refused = await call(gateway, 'PUT', `/v1.0/web_hooks/${created.id}`, {body: {mode: 'test', events: 'charge:*', authentication_password: 'secret-pass'}})
    expect(refused.status).toBe(422)
    expect(refused.body).toStrictEqual({
      successful: false,
      response: {id: created.id, name: 'test', address: ADDRESS, events: 'charge:*', mode: 'test', authentication_username: null},
      errors: ['Events is not included in the list', 'Mode is not included in the list'],
      test: true,
    })
    expect((await call(gateway, 'GET', '/v1.0/web_hooks')).body.response).toStrictEqual([{...created, is_active: null}])
    const unknown = await call(gateway, 'PUT', '/v1.0/web_hooks/071-WH-NOPE0000', {body: {name: 'x'}})
    expect(unknown.status).toBe(404)
    expect(unknown.body.errors).toStrictEqual(['Record not found'])
    expect((await call(gateway, 'PUT', `/v1.0/web_hooks/${created.id}`, {body: {name: 'x'}, auth: ACME_AUTH})).status).toBe(403)
  })

  it('sends the next deliveries to the new address', async () => {
    const gateway = await sandbox()
    const created = (await registerHook(gateway, ADDRESS)).body.response
    await call(gateway, 'PUT', `/v1.0/web_hooks/${created.id}`, {body: {address: 'http://127.0.0.1:9/moved'}})
    const triggered = await call(gateway, 'POST', '/_sandbox/trigger', {body: {event: 'card:expiring'}, auth: null})
    expect(triggered.status).toBe(200)
    const deliveries = await call(gateway, 'GET', '/_sandbox/deliveries', {auth: null})
    expect(deliveries.body.response.map((delivery: {hook: string}) => delivery.hook)).toStrictEqual(['http://127.0.0.1:9/moved'])
  })
})
