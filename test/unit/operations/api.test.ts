import {describe, expect, it} from 'vitest'
import type {GatewayClient} from '../../../src/api/client.js'
import {holdsCard, sendRequest} from '../../../src/operations/api.js'
import {fakeDeps} from './fake-client.js'

describe('gw api request', () => {
  it.each([
    [{card_number: '4242424242424242'}, true],
    [{card: {cvv: '123'}}, true],
    [[{cvv: '1'}], true],
    [{card_token: 'abc', amount: 1}, false],
    ['card_number', false],
    // Values are judged, whatever their key: a card number under any name, in any text, typed as a number.
    [{Card_Number: '4242424242424242'}, true],
    [{note: 'order 4242 4242 4242 4242'}, true],
    [{reference: 'ord-4929123456789015'}, true],
    [{anything: 4242424242424242}, true],
    [['4242.4242.4242.4242'], true],
    [{PAN: 'x'}, true],
    // Any key holding cvv or cvc, as gw api -f 'card[cvv]=731' makes.
    [{'card[cvv]': '731'}, true],
    [{Card_CVC: '1'}, true],
    // Numbers that are no card number: amounts, ids, a Luhn-invalid run, a card number masked.
    [{amount: 1000, id: '071-P-52NRCGCF', reference: '4242424242424241', card: '424242XXXXXX4242', cvv_match: 'M'}, false],
  ])('holdsCard(%j) is %s', (body, expected) => expect(holdsCard(body)).toBe(expected))

  it('adds --query to the path, after any query it has', async () => {
    const sent: unknown[][] = []
    const client = {sendRaw: async (...args: unknown[]) => (sent.push(args), {status: 200, text: '{}'})} as unknown as GatewayClient
    await sendRequest({method: 'GET', path: '/v1.0/plans.json?page=1', query: [['limit', '5'], ['q', 'a b']]}, fakeDeps(client))
    expect(sent).toEqual([['GET', '/v1.0/plans.json?page=1&limit=5&q=a+b', undefined]])
  })
})
