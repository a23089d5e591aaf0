import {describe, expect, it} from 'vitest'
import {Refund} from '../../src/api/schemas/refund.js'
import {addDays, formatDate, formatDateTime} from '../../src/sandbox/domain/clock.js'
import {ACME_AUTH, CENTS_CARD, NOW, call, purchase, sandbox, type Answer} from './helpers.js'

type Gateway = Awaited<ReturnType<typeof sandbox>>

const refund = (gateway: Gateway, body: Record<string, unknown>, auth?: string): Promise<Answer> =>
  call(gateway, 'POST', '/v1.0/refunds', {body, auth})

const REFUSED = {
  id: null,
  authorization: null,
  amount: null,
  refunded: null,
  message: null,
  card_holder: 'Jo Citizen',
  card_number: '512345XXXXXX2346',
  card_expiry: '2030-02-28',
  card_type: 'MasterCard',
  successful: false,
  transaction_date: null,
  response_code: null,
  reference: null,
  transaction_id: null,
  currency: null,
  settlement_date: null,
  metadata: null,
  standalone: null,
  rrn: null,
}

async function paid(gateway: Gateway, amount = 1000, card: Record<string, string> = {}): Promise<string> {
  return (await purchase(gateway, {...card, amount})).body.response.id
}

describe('POST /v1.0/refunds', () => {
  it('refunds a purchase, with a negative amount, echoing the merchant\'s metadata', async () => {
    const gateway = await sandbox()
    const purchaseId = await paid(gateway)
    const answer = await refund(gateway, {transaction_id: purchaseId, amount: 400, reference: 'refund-1', metadata: {reason: 'damaged'}})

    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({
      successful: true,
      response: {
        id: expect.stringMatching(/^071-R-[A-Z0-9]{8}$/),
        // The refund's Unix time in seconds, as text (builds from May 2018 on).
        authorization: String(Math.floor(NOW.getTime() / 1000)),
        amount: -400,
        refunded: 'Approved',
        message: 'Approved',
        card_holder: 'Jo Citizen',
        card_number: '512345XXXXXX2346',
        card_expiry: '2030-02-28',
        card_type: 'MasterCard',
        successful: true,
        transaction_date: formatDateTime(NOW),
        response_code: '00',
        reference: 'refund-1',
        // The refund's own id, as the live gateway answers: nothing in a refund names its purchase.
        transaction_id: answer.body.response.id,
        currency: 'AUD',
        settlement_date: formatDate(addDays(NOW, 1)),
        metadata: {reason: 'damaged'},
        standalone: false,
        rrn: answer.body.response.id.replaceAll('-', ''),
      },
      errors: [],
      test: true,
    })
    expect(Refund.parse(answer.body.response)).toEqual(answer.body.response)
  })

  it('accepts the purchase reference as transaction_id', async () => {
    const gateway = await sandbox()
    const purchaseId = await paid(gateway)
    const answer = await refund(gateway, {transaction_id: 'order-1', amount: 1000, reference: 'refund-1'})
    expect(answer.status).toBe(200)
    expect(answer.body.response).toMatchObject({transaction_id: answer.body.response.id, amount: -1000})
    // Refunded in full under its reference: the purchase, by its id, has nothing left to refund.
    const more = await refund(gateway, {transaction_id: purchaseId, amount: 1, reference: 'refund-2'})
    expect(more.body.errors).toEqual(['Amount exceeds the refundable balance of 0 (purchase 1000, already refunded 1000)'])
  })

  it('allows partial refunds up to the amount paid, then names both numbers', async () => {
    const gateway = await sandbox()
    const purchaseId = await paid(gateway)
    for (const reference of ['r1', 'r2']) {
      expect((await refund(gateway, {transaction_id: purchaseId, amount: 400, reference})).body.response.successful).toBe(true)
    }

    const over = await refund(gateway, {transaction_id: purchaseId, amount: 201, reference: 'r3'})
    expect(over.status).toBe(400)
    expect(over.body).toStrictEqual({
      successful: false,
      response: REFUSED,
      errors: ['Amount exceeds the refundable balance of 200 (purchase 1000, already refunded 800)'],
      test: true,
    })
    expect((await refund(gateway, {transaction_id: purchaseId, amount: 200, reference: 'r3'})).status).toBe(200)
    const none = await refund(gateway, {transaction_id: purchaseId, amount: 1, reference: 'r4'})
    expect(none.body.errors).toEqual(['Amount exceeds the refundable balance of 0 (purchase 1000, already refunded 1000)'])
  })

  it('answers a blank reference with the card fields filled and the record fields null (contract endpoint 4)', async () => {
    const gateway = await sandbox()
    const purchaseId = await paid(gateway)
    const answer = await refund(gateway, {transaction_id: purchaseId, amount: 100, reference: ''})
    expect(answer.status).toBe(400)
    expect(answer.body).toStrictEqual({successful: false, response: REFUSED, errors: ["Reference can't be blank"], test: true})
  })

  it('refuses a refund reference the merchant already used', async () => {
    const gateway = await sandbox()
    const purchaseId = await paid(gateway)
    await refund(gateway, {transaction_id: purchaseId, amount: 100, reference: 'refund-1'})
    const again = await refund(gateway, {transaction_id: purchaseId, amount: 100, reference: 'refund-1'})
    expect(again.status).toBe(400)
    expect(again.body.errors).toEqual(['Reference has already been taken'])
  })

  it.each(['contract', 'live'] as const)('answers an unknown transaction with HTTP 200, successful false and an empty response, as recorded (%s dialect)', async (dialect) => {
    const answer = await refund(await sandbox({dialect}), {transaction_id: '071-P-NOTHERE0', amount: 100, reference: 'refund-1'})
    expect(answer.status).toBe(200)
    expect(answer.body).toStrictEqual({successful: false, response: {}, errors: ['Original transaction could not be found'], test: true})
  })

  it('refuses to refund a declined purchase', async () => {
    const gateway = await sandbox()
    const purchaseId = await paid(gateway, 10051, CENTS_CARD)
    const answer = await refund(gateway, {transaction_id: purchaseId, amount: 100, reference: 'refund-1'})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(['Original transaction was not successful'])
  })

  it.each([
    [{amount: 0}, ['Amount must be greater than 0']],
    [{amount: -100}, ['Amount must be greater than 0']],
    [{amount: undefined}, ["Amount can't be blank"]],
    [{amount: '1.5'}, ['Amount must be an integer']],
    [{reference: 'r'.repeat(256)}, ['Reference is too long (maximum is 255 characters)']],
    // No purchase and no card: nothing to refund to.
    [{transaction_id: undefined}, ['Invalid credit card for unmatched refund']],
    [{transaction_id: '', amount: 0, reference: ''}, ['Invalid credit card for unmatched refund', 'Amount must be greater than 0', "Reference can't be blank"]],
    [{metadata: {reason: ['a']}}, ['Metadata reason must be text, a number or true/false']],
  ])('%j is a 400: %j', async (fields, errors) => {
    const gateway = await sandbox()
    const purchaseId = await paid(gateway)
    const answer = await refund(gateway, {transaction_id: purchaseId, amount: 100, reference: 'refund-1', ...fields})
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(errors)
  })

  it('answers 403 when refunding another merchant’s purchase', async () => {
    const gateway = await sandbox()
    const purchaseId = await paid(gateway)
    const answer = await refund(gateway, {transaction_id: purchaseId, amount: 100, reference: 'refund-1'}, ACME_AUTH)
    expect(answer.status).toBe(403)
    expect(answer.body.errors).toEqual(['You do not have permissions to access this record'])
  })
})

describe('GET /v1.0/refunds/{id_or_reference}', () => {
  it('finds a refund by id or reference; unknown is 404 Purchase not found; another merchant’s is 403', async () => {
    const gateway = await sandbox()
    const created = (await refund(gateway, {transaction_id: await paid(gateway), amount: 100, reference: 'refund-1'})).body.response

    for (const path of [`/v1.0/refunds/${created.id}`, `/v1.0/refunds/${created.id}.json`, '/v1.0/refunds/refund-1']) {
      const answer = await call(gateway, 'GET', path)
      expect(answer.status, path).toBe(200)
      expect(answer.body.response, path).toStrictEqual(created)
    }

    const unknown = await call(gateway, 'GET', '/v1.0/refunds/071-R-NOTHERE0')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toStrictEqual({successful: false, response: null, errors: ['Purchase not found'], test: true})

    const foreign = await call(gateway, 'GET', `/v1.0/refunds/${created.id}`, {auth: ACME_AUTH})
    expect(foreign.status).toBe(403)
    expect(foreign.body.errors).toEqual(['You do not have permissions to access this record'])
    expect((await call(gateway, 'GET', '/v1.0/refunds/refund-1', {auth: ACME_AUTH})).status).toBe(404)
  })
})
