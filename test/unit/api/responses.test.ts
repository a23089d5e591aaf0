import {describe, expect, it} from 'vitest'
import {envelopeOf, errorFromResponse, parseEnvelope} from '../../../src/api/responses.js'
import {Envelope} from '../../../src/api/schemas/common.js'
import {Purchase} from '../../../src/api/schemas/purchase.js'
import {Refund} from '../../../src/api/schemas/refund.js'
import {Card} from '../../../src/api/schemas/card.js'
import {GatewayError} from '../../../src/errors.js'
import {expectThrow} from '../../expect-error.js'

const raw = (status: number, body: unknown) => ({status, requestId: 'req-1', text: typeof body === 'string' ? body : JSON.stringify(body)})

describe('errorFromResponse: the envelope is the truth whatever the status', () => {
  it.each([
    [200, {successful: true, response: {id: 'x'}, errors: []}, undefined, undefined],
    [201, {successful: true, response: {id: 'x'}, errors: []}, undefined, undefined],
    [200, {successful: false, response: null, errors: ['Reference is already taken']}, 'rejected', 7],
    [400, {successful: false, response: {}, errors: ['Invalid Card Number']}, 'rejected', 7],
    [422, {successful: false, response: null, errors: ['Address can\'t be blank']}, 'rejected', 7],
    [501, {successful: false, response: {id: 'x'}, errors: ["Name can't be blank"]}, 'rejected', 7],
    [401, {successful: false, errors: ['Incorrect Username or Token'], response: null}, 'auth', 4],
    [403, {successful: false, errors: ['You do not have permissions to access this record']}, 'permission', 6],
    [404, {successful: false, errors: ['Could not find Purchase'], response: null}, 'not_found', 5],
    [503, {successful: false, errors: ['Service unavailable']}, 'gateway', 1],
  ])('HTTP %i %j → %s', (status, body, kind, exitCode) => {
    const response = raw(status, body)
    const error = errorFromResponse(response, parseEnvelope(response))
    expect(error?.kind).toBe(kind)
    expect(error?.exitCode).toBe(exitCode)
    if (error) {
      expect(error.status).toBe(status)
      expect(error.requestId).toBe('req-1')
      expect(error.messages).toEqual(body.errors)
    }
  })

  it('reads an envelope with no errors key and no test key', () => {
    expect(parseEnvelope(raw(200, {successful: true, response: {}}))).toMatchObject({successful: true, errors: []})
  })

  it('turns an HTML 500 into a gateway error and other non-JSON into an unreadable answer', () => {
    expectThrow(() => parseEnvelope(raw(500, '<html><body>Internal Server Error</body></html>')), GatewayError, 'The gateway failed (HTTP 500) and sent a body that is not JSON')
    expectThrow(() => parseEnvelope(raw(200, 'OK')), GatewayError, 'The gateway answered HTTP 200 with a body that is not JSON')
    expectThrow(() => parseEnvelope(raw(200, {hello: 'world'})), GatewayError, 'JSON without the gateway envelope')
  })
})

describe('record schemas accept every variation the gateway sends', () => {
  it.each([
    ['authorization as an integer', {authorization: 123456}],
    ['authorization as a string', {authorization: '123456'}],
    ['card_expiry as a date', {card_expiry: '2030-02-28'}],
    ['card_expiry as a date-time', {card_expiry: '2030-02-28T23:59:59+11:00'}],
    ['card_expiry as MM/YYYY', {card_expiry: '02/2030'}],
    ['a declined token purchase with authorization_id and null id', {id: null, authorization_id: null, successful: false}],
    ['no test, unknown fields', {captured: true, rrn: '123', metadata: {a: 1}}],
  ])('purchase: %s', (_, record) => {
    const parsed = Purchase.parse(record)
    expect(parsed).toMatchObject(record)
  })

  it('keeps unknown fields', () => {
    expect(Purchase.parse({id: 'x', cvv_match: 'M', addendum_data: {}})).toEqual({id: 'x', cvv_match: 'M', addendum_data: {}})
  })

  it('accepts refund amounts positive and negative', () => {
    expect(Refund.parse({amount: -1000}).amount).toBe(-1000)
    expect(Refund.parse({amount: 1000}).amount).toBe(1000)
  })

  it('rejects a record of the wrong shape', () => {
    expect(Card.safeParse({transaction_count: 'many'}).success).toBe(false)
    expect(Purchase.safeParse('nope').success).toBe(false)
  })
})

describe('envelopeOf: the envelope checked by hand, as its schema reads it', () => {
  it.each<[string, unknown]>([
    ['a success', {successful: true, response: [], errors: [], test: true}],
    ['errors left out: none', {successful: false, response: null}],
    ['paging beside it', {successful: true, response: [], total_records: 3, current_page: 1}],
    ['successful missing', {response: []}],
    ['successful a string', {successful: 'true', response: []}],
    ['errors not strings', {successful: false, errors: [1]}],
    ['errors null', {successful: false, errors: null}],
    ['test a string', {successful: true, test: 'yes'}],
    ['test null', {successful: true, test: null}],
    ['an array', [{successful: true}]],
    ['null', null],
    ['a number', 3],
  ])('%s', (_, value) => {
    const zod = Envelope.safeParse(value)
    expect(envelopeOf(value)).toEqual(zod.success ? zod.data : undefined)
  })
})
