import {describe, expect, it} from 'vitest'
import {eventFilter, InvalidDelivery, isKnownEvent, parseDelivery, summarize} from '../../../src/webhooks/events.js'

describe('eventFilter', () => {
  const cases: [string[], string, boolean][] = [
    [[], 'anything:at-all', true],
    [['charge:*'], 'charge:successful', true],
    [['charge:*'], 'charge:', true],
    [['charge:*'], 'card:expired', false],
    [['charge:*,card:expired'], 'card:expired', true],
    [['charge:*,card:expired'], 'card:expiring', false],
    [['charge:*', 'card:*'], 'card:expiring', true],
    [['*:failed'], 'charge:failed', true],
    [['card:expire.'], 'card:expired', false],
    [['charge:success'], 'charge:successful', false],
    [[' charge:retry , '], 'charge:retry', true],
    [['*'], 'x', true],
  ]
  it.each(cases)('%j matches %s: %s', (patterns, event, expected) => {
    expect(eventFilter(patterns)(event)).toBe(expected)
  })
})

describe('parseDelivery', () => {
  it('takes the event name and the payload', () => {
    expect(parseDelivery('{"event":"card:expired","payload":[{"id":"1"}]}')).toEqual({event: 'card:expired', payload: [{id: '1'}]})
    expect(parseDelivery('{"event":"charge:pending"}')).toEqual({event: 'charge:pending', payload: null})
  })

  const invalid: [string, string][] = [
    ['{"event":', 'the body is not JSON'],
    ['', 'the body is not JSON'],
    ['[1]', 'the body is not a JSON object'],
    ['null', 'the body is not a JSON object'],
    ['{"payload":[]}', 'the body has no "event" name'],
    ['{"event":7}', 'the body has no "event" name'],
    ['{"event":""}', 'the body has no "event" name'],
  ]
  it.each(invalid)('refuses %j: %s', (body, message) => {
    expect(() => parseDelivery(body)).toThrow(InvalidDelivery)
    expect(() => parseDelivery(body)).toThrow(message)
  })
})

describe('isKnownEvent', () => {
  it("knows the contract's six events and nothing else", () => {
    for (const event of ['charge:pending', 'charge:successful', 'charge:retry', 'charge:failed', 'card:expiring', 'card:expired']) expect(isKnownEvent(event)).toBe(true)
    expect(isKnownEvent('charge:refunded')).toBe(false)
  })
})

describe('summarize', () => {
  const customer = {id: 'C1', email: 'a@b.c', first_name: 'A', last_name: 'B', reference: 'c-1'}
  const charge = (successful: boolean, message: string) => ({
    subscription: {id: 'S1', frequency: 'Daily', reference: 's-1', customer},
    response: {successful: true, response: {id: 'P1', amount: 1050, currency: 'AUD', successful, message}, errors: []},
  })

  it('reads subscription, customer, purchase, amount and outcome from a charge', () => {
    expect(summarize('charge:successful', [charge(true, 'Approved')])).toEqual([{subscription: 'S1', customer: 'C1', purchase: 'P1', amount: 1050, currency: 'AUD', outcome: 'Approved', successful: true}])
    const retry = charge(false, 'Insufficient Funds')
    expect(summarize('charge:retry', [{...retry, subscription: {...retry.subscription, last_status: 'Failed (2), Pending'}}])[0]).toMatchObject({outcome: 'Insufficient Funds', successful: false, lastStatus: 'Failed (2), Pending'})
  })

  it('reads charge:pending elements as subscriptions with their customer', () => {
    expect(summarize('charge:pending', [{id: 'S1', frequency: 'Daily', customer}, {id: 'S2', customer: {id: 'C2'}}])).toEqual([
      {subscription: 'S1', customer: 'C1'},
      {subscription: 'S2', customer: 'C2'},
    ])
  })

  it('reads card events as the customer', () => {
    expect(summarize('card:expiring', [customer])).toEqual([{customer: 'C1'}])
  })

  it('copes with payloads that are not the contract shape', () => {
    expect(summarize('charge:successful', null)).toEqual([])
    expect(summarize('charge:successful', {subscription: {id: 9}})).toEqual([{subscription: '9'}])
    expect(summarize('other:thing', ['text', 3])).toEqual([{}, {}])
  })
})
