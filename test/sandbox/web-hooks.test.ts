import {describe, expect, it} from 'vitest'
import {WebHook} from '../../src/api/schemas/web-hook.js'
import {formatDateTime} from '../../src/sandbox/domain/clock.js'
import {ACME_AUTH, NOW, call, sandbox} from './helpers.js'
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
  created_at: formatDateTime(NOW),
  is_active: null,
  ...fields,
})

describe('POST /v1.0/web_hooks', () => {
  it('registers a hook: 200, the record as the live gateway answers it (its password, is_active null; true in the list)', async () => {
    const gateway = await sandbox()
    const answer = await registerHook(gateway, ADDRESS, {authentication_username: 'user', authentication_password: 'secret-pass'})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({successful: true, response: hook({authentication_username: 'user', authentication_password: 'secret-pass'}), errors: [], test: true})
    expect(WebHook.parse(answer.body.response)).toEqual(answer.body.response)
    expect((await call(gateway, 'GET', '/v1.0/web_hooks')).body.response).toStrictEqual([hook({authentication_username: 'user', authentication_password: 'secret-pass', is_active: true})])
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
      response: {id: null, name: 'x', address: null, events: null, mode: null, authentication_username: null, created_at: null},
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
    const listed = (hook: Record<string, unknown>) => ({...hook, is_active: true})
    expect((await call(gateway, 'GET', '/v1.0/web_hooks')).body.response).toStrictEqual([listed(first), listed(second)])

    const deleted = await call(gateway, 'DELETE', `/v1.0/web_hooks/${first.id}`)
    expect(deleted.status).toBe(200)
    expect(deleted.body.response).toStrictEqual(first)
    expect((await call(gateway, 'GET', '/v1.0/web_hooks')).body.response).toStrictEqual([listed(second)])
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
