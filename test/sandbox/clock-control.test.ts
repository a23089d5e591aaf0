import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {formatDateTime, type Clock} from '../../src/sandbox/domain/clock.js'
import {NOW, call, sandbox} from './helpers.js'
import {receiver} from './receiver.js'
import {TODAY, advance, registerHook, subscribed} from './recurring-helpers.js'

describe('GET /_sandbox/clock', () => {
  it('starts at the real date, needs no credentials; says its now with its offset and its time zone, whose days it dates records on', async () => {
    const gateway = await sandbox()
    const answer = await call(gateway, 'GET', '/_sandbox/clock', {auth: null})
    expect(answer.status).toBe(200)
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
    expect(answer.body).toStrictEqual({successful: true, response: {today: TODAY, now: formatDateTime(NOW), time_zone: zone, processing_window_ms: 2000}, errors: [], test: true})
  })

  it('says the processing window it was started with, as long again as the longest a fault holds a request, waiting or holding one now', async () => {
    const gateway = await sandbox({processingWindowMs: 500})
    const window = async () => (await call(gateway, 'GET', '/_sandbox/clock', {auth: null})).body.response.processing_window_ms
    expect(await window()).toBe(500)
    await call(gateway, 'POST', '/_sandbox/faults', {body: {method: 'POST', path: '/v1.0/purchases', action: 'delay', delayMs: 1000}, auth: null})
    await call(gateway, 'POST', '/_sandbox/faults', {body: {method: 'GET', path: '/v1.0/refunds', action: 'status', status: 503}, auth: null})
    expect(await window()).toBe(1500)
    // Taken by a purchase, the delay holds it: still counted until it is answered.
    const held = call(gateway, 'POST', '/v1.0/purchases', {body: {amount: 1000, reference: 'held', card_holder: 'Jo', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'}})
    await expect.poll(async () => ((await call(gateway, 'GET', '/_sandbox/faults', {auth: null})).body.response as unknown[]).length).toBe(1)
    expect(await window()).toBe(1500)
    expect((await held).status).toBe(200)
    expect(await window()).toBe(500)
  })

  it('proves with its key, asked with a challenge, what it says: the challenge, its today, its now, its time zone and its window, signed', async () => {
    const {keyedProof} = await import('../../src/lib/keyed-proof.js')
    const {clockProofText} = await import('../../src/api/schemas/sandbox-control.js')
    const runtimeFile = join(mkdtempSync(join(tmpdir(), 'gw-clock-')), 'sandbox.json')
    const gateway = await sandbox({runtimeFile})
    const {controlToken: proofKey} = JSON.parse(readFileSync(runtimeFile, 'utf8')) as {controlToken: string}
    const said = (await call(gateway, 'GET', '/_sandbox/clock?challenge=abc', {auth: null})).body.response
    const clock = {today: TODAY, now: formatDateTime(NOW), time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone, processing_window_ms: 2000}
    expect(said).toStrictEqual({...clock, proof: keyedProof(proofKey, clockProofText('abc', clock))})
    expect(said.proof).not.toBe(keyedProof(proofKey, clockProofText('abd', said)))
    // Each thing it says is signed: none can be changed or left out.
    for (const changed of [{...clock, time_zone: 'Etc/GMT+12'}, {...clock, now: formatDateTime(new Date(NOW.getTime() + 1000))}, {...clock, time_zone: ''}]) {
      expect(said.proof).not.toBe(keyedProof(proofKey, clockProofText('abc', changed)))
    }
  })
})

describe('POST /_sandbox/clock/advance', () => {
  it('moves by days or to a date; new records carry the virtual date with the real time of day', async () => {
    const gateway = await sandbox()
    expect((await advance(gateway, {days: 3})).body).toStrictEqual({
      successful: true,
      response: {from: TODAY, today: '2026-11-25', days: 3, events: 0, charges_approved: 0, charges_declined: 0, deliveries_queued: 0},
      errors: [],
      test: true,
    })
    expect((await advance(gateway, {to: '2027-03-01'})).body.response).toStrictEqual({from: '2026-11-25', today: '2027-03-01', days: 96, events: 0, charges_approved: 0, charges_declined: 0, deliveries_queued: 0})
    expect((await advance(gateway, {to: '2027-03-01'})).body.response).toMatchObject({days: 0})

    const info = await call(gateway, 'GET', '/_sandbox/info', {auth: null})
    const later = new Date(NOW)
    later.setDate(later.getDate() + 99)
    expect(info.body.response.clock).toBe(formatDateTime(later))
  })

  it.each([
    [{}, 'Give exactly one of days and to'],
    [{days: 1, to: '2027-01-01'}, 'Give exactly one of days and to'],
    [{days: 0}, 'Days must be 1 or more'],
    [{days: -2}, 'Days must be 1 or more'],
    [{days: 1.5}, 'Days must be an integer'],
    [{to: '01/01/2027'}, 'To must be a date as YYYY-MM-DD, not 01/01/2027'],
    [{to: '2027-02-29'}, 'To must be a date as YYYY-MM-DD, not 2027-02-29'],
    [{to: '2026-11-21'}, 'To 2026-11-21 is in the past: today is 2026-11-22 and the clock only moves forward'],
    [{days: 3661}, 'The clock moves at most 3660 days at a time'],
  ])('refuses %o with 400', async (body, message) => {
    const gateway = await sandbox()
    const answer = await advance(gateway, body)
    expect(answer.status).toBe(400)
    expect(answer.body).toStrictEqual({successful: false, response: null, errors: [message], test: true})
  })

  it('catches up with the real date: days that passed while the sandbox ran are run too', async () => {
    let real = new Date(NOW)
    const movingClock: Clock = {now: () => real}
    const gateway = await sandbox({clock: movingClock})
    await subscribed(gateway)
    real = new Date(NOW.getTime() + 2 * 86_400_000)
    expect((await call(gateway, 'GET', '/_sandbox/clock', {auth: null})).body.response).toMatchObject({today: '2026-11-24', now: formatDateTime(real), processing_window_ms: 2000})
    expect((await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold')).body.response.next_billing_date).toBe('2026-11-24')
  })
})

describe('POST /_sandbox/trigger', () => {
  it.each(['charge:pending', 'charge:successful', 'charge:retry', 'charge:failed', 'card:expiring', 'card:expired'])(
    'delivers a sample %s built from new sample records to the given address only',
    async (event) => {
      const gateway = await sandbox({webhookBackoffMs: 50})
      const given = await receiver()
      const registered = await receiver()
      await registerHook(gateway, registered.url)
      const answer = await call(gateway, 'POST', '/_sandbox/trigger', {body: {event, webhook: given.url}, auth: null})
      expect(answer.status).toBe(200)
      const charged = event.startsWith('charge:') && event !== 'charge:pending'
      // What the sample made, in the order made: the merchant had none of its records.
      const made = ['card', 'customer', 'plan', 'subscription', ...(charged ? ['purchase'] : [])].map((kind) => ({kind, id: expect.any(String), reference: kind === 'card' ? null : expect.stringMatching(/^sample-/)}))
      expect(answer.body.response).toStrictEqual({event, delivered_to: [given.url], created: made, payload: expect.any(Array)})
      const [delivery] = await given.received(1)
      expect(delivery?.event).toBe(event)
      expect(delivery?.payload).toStrictEqual(answer.body.response.payload)
      expect(delivery?.headers['x-service-mode']).toBe('Sandbox')

      const customer = {email: 'sam.sample@example.com', first_name: 'Sam', last_name: 'Sample', reference: expect.stringMatching(/^sample-customer-/), id: expect.stringMatching(/^071-C-/)}
      const subscription = {id: expect.stringMatching(/^071-S-/), frequency: 'Monthly', start_date: TODAY, end_date: null, reference: expect.stringMatching(/^sample-subscription-/), customer}
      const [element] = answer.body.response.payload
      if (event.startsWith('card:')) expect(element).toStrictEqual(customer)
      else if (event === 'charge:pending') expect(element).toStrictEqual(subscription)
      else {
        const approved = event === 'charge:successful'
        const lastStatus = {'charge:successful': 'Successful', 'charge:retry': 'Failed (2), Pending', 'charge:failed': 'Failed (3), Aborted'}[event]
        expect(element.subscription).toStrictEqual({...subscription, last_status: lastStatus})
        expect(element.response).toMatchObject({successful: true, errors: [], test: true, response: {successful: approved, source: 'Recurring', amount: 1000}})
        const purchase = await call(gateway, 'GET', `/v1.0/purchases/${element.response.response.id}`)
        expect(purchase.body.response).toStrictEqual(element.response.response)
      }
      expect((await call(gateway, 'GET', '/v1.0/plans.json')).body.total_records).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(registered.deliveries).toStrictEqual([])
    },
  )

  it('uses the merchant own records and delivers to all its hooks that take the event', async () => {
    const gateway = await sandbox({webhookBackoffMs: 50})
    const first = await receiver()
    const second = await receiver()
    const cardsOnly = await receiver()
    await registerHook(gateway, first.url)
    await registerHook(gateway, second.url)
    await registerHook(gateway, cardsOnly.url, {events: ['card:expired']})
    const {subscription} = await subscribed(gateway)
    const answer = await call(gateway, 'POST', '/_sandbox/trigger', {body: {event: 'charge:pending'}, auth: null})
    expect(answer.body.response.delivered_to).toStrictEqual([first.url, second.url])
    expect(answer.body.response.payload[0]).toMatchObject({id: subscription.body.response.id, reference: 'jo-gold'})
    await first.received(1)
    await second.received(1)
    expect((await call(gateway, 'GET', '/v1.0/subscriptions/jo-gold')).body.response.last_status).toBe('Scheduled')
  })

  it.each([
    [{event: 'charge:refunded'}, 'Event must be one of charge:pending, charge:successful, charge:retry, charge:failed, card:expiring, card:expired, payment_plan_payment:completed, payment_plan_payment:declined, payment_plan_payment:error'],
    [{}, 'Event must be one of charge:pending, charge:successful, charge:retry, charge:failed, card:expiring, card:expired, payment_plan_payment:completed, payment_plan_payment:declined, payment_plan_payment:error'],
    [{event: 'card:expired'}, 'Merchant TEST has no web hook for card:expired: register one (POST /v1.0/web_hooks, or gw webhook create --url URL) or give webhook (gw sandbox trigger --webhook URL)'],
    [{event: 'card:expired', webhook: 'not a url'}, 'Webhook must be an http or https URL, not not a url'],
    [{event: 'card:expired', merchant: 'NOBODY', webhook: 'http://127.0.0.1:1/'}, 'Merchant NOBODY is not one of TEST, ACME'],
  ])('refuses %o with 400', async (body, message) => {
    const gateway = await sandbox()
    const answer = await call(gateway, 'POST', '/_sandbox/trigger', {body, auth: null})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toStrictEqual([message])
    expect((await call(gateway, 'GET', '/v1.0/plans.json')).body.total_records).toBe(0)
  })

  it('samples another merchant records with merchant', async () => {
    const gateway = await sandbox()
    const hooks = await receiver()
    const answer = await call(gateway, 'POST', '/_sandbox/trigger', {body: {event: 'card:expiring', merchant: 'ACME', webhook: hooks.url}, auth: null})
    expect(answer.status).toBe(200)
    expect(answer.body.response.payload[0].id).toMatch(/^\d{3}-C-/)
    expect(answer.body.response.payload[0].id).not.toMatch(/^071-/)
  })
})
