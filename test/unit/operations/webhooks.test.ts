import {describe, expect, it} from 'vitest'
import {createWebHook, deleteWebHook} from '../../../src/operations/webhooks.js'
import {fakeClient, fakeDeps} from './fake-client.js'

const hook = {id: '071-WH-ABCD1234', name: 'x', address: 'http://127.0.0.1:4242/', events: '*', mode: 'Test'}

describe('web hook operations (gateway-notes.md: POST, GET, DELETE /v1.0/web_hooks)', () => {
  it.each([
    ['every event, named by its address, Test for a sandbox profile', {address: 'http://a.example/', events: [], environment: 'sandbox' as const}, {name: 'http://a.example/', address: 'http://a.example/', events: '*', mode: 'Test'}],
    [
      'the events named once each, a name, Live for a live profile, Basic credentials',
      {address: 'https://a.example/', events: ['charge:failed' as const, 'card:expired' as const, 'charge:failed' as const], name: 'ops', environment: 'live' as const, auth: {username: 'u', password: 'p'}},
      {name: 'ops', address: 'https://a.example/', events: ['charge:failed', 'card:expired'], mode: 'Live', authentication_username: 'u', authentication_password: 'p'},
    ],
  ])('create: %s', async (_, input, body) => {
    const fake = fakeClient({'webHooks.create': () => hook})
    expect(await createWebHook(input, fakeDeps(fake.client))).toBe(hook)
    expect(fake.calls).toEqual([{method: 'webHooks.create', args: [body]}])
    fake.verify()
  })

  it('delete passes through', async () => {
    const fake = fakeClient({'webHooks.delete': () => hook})
    expect(await deleteWebHook(hook.id, fakeDeps(fake.client))).toBe(hook)
    expect(fake.calls.at(-1)).toEqual({method: 'webHooks.delete', args: [hook.id]})
    fake.verify()
  })
})
