import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {printsAsSent} from '../../../src/safety/prints-as-sent.js'
import {redact} from '../../../src/safety/redact.js'
import {toNdjsonLine} from '../../../src/output/json.js'

const purchase = {
  id: '071-P-ABCD1234',
  authorization: '123456',
  card_number: '424242XXXXXX4242',
  card_holder: 'Jane Citizen',
  card_expiry: '2030-12-31',
  amount: 1000,
  decimal_amount: 10.5,
  reference: 'ord-1',
  transaction_date: '2026-11-25T10:00:00+11:00',
  metadata: {note: 'a "quoted" \\ note & <b>', list: [1, 2, null]},
}

describe('printsAsSent', () => {
  it("passes a record with nothing to mask, as JSON.stringify writes it", () => {
    expect(printsAsSent(JSON.stringify(purchase))).toBe(true)
    expect(printsAsSent('{"card_number":"411111XXXXXX1111", "number": null, "PAN":"XXXX"}')).toBe(true)
    expect(printsAsSent('{"note":"\\u003cb\\u003e \\u0026 \\u001b"}')).toBe(true)
  })

  it('refuses every text whose record redact would change, and what would not print as one line', () => {
    const refused = [
      {card_number: '4111111111111111'},
      {card_number: '4111 1111 1111 1111'},
      {number: 4111111111111111},
      {Number: '4111-1111-1111'},
      {note: 'card 4242 4242 4242 4242 declined'},
      {reference: 'x4111111111111111y'},
      {deep: [{pan: '5555555555554444'}]},
      {cvv: '123'},
      {Token_Secret: 'x'},
      {amount: 4111111111111111},
      {amount: 2 ** 60},
      {note: 'a\u0085b'},
      {note: 'DEL\u007F'},
    ]
    for (const record of refused) expect(printsAsSent(JSON.stringify(record)), JSON.stringify(record)).toBe(false)
    for (const text of [
      '{"amount":1e16}',
      '{"n":"4111\\t1111\\t1111\\t1111"}',
      '{"n":"4111\\u00201111 1111 1111"}',
      '{"\\u0063vv":"123"}',
      '{"card_number":"4111\\u0031111111111111"}',
      '{"a":\n1}',
      '{"card_number":"4242\\"XXXXXX4242"}',
    ]) {
      expect(printsAsSent(text), text).toBe(false)
    }
  })

  it('passes a text only where its record prints the same written anew, masked', () => {
    // Strings of digits, spaces, dashes and escapes, where card numbers hide.
    const digity = fc.string({unit: fc.constantFrom('4', '1', '2', '0', ' ', '-', '\t', 'X', 'a', '\u00a0', '"', '\\', '\u0085')})
    const key = fc.constantFrom('card_number', 'number', 'PAN', 'cvv', 'note', 'reference', 'amount')
    const field = fc.oneof(digity, fc.integer(), fc.constantFrom(4111111111111111, 4242424242424242, 1e16, 12.5))
    const shaped = fc.letrec((tie) => ({
      value: fc.oneof({depthSize: 'small'}, field, tie('record'), fc.array(field, {maxLength: 3})),
      record: fc.dictionary(key, tie('value'), {maxKeys: 4}),
    })).record
    fc.assert(
      fc.property(shaped, (record) => {
        const text = JSON.stringify(record)
        if (printsAsSent(text)) expect(toNdjsonLine(redact(record))).toBe(text + '\n')
      }),
      {numRuns: 2000},
    )
  })
})
