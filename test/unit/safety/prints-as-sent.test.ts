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

  it('passes what is only near a rule: a shape redact leaves alone prints as sent', () => {
    for (const text of [
      '{"a":true,"b":false,"c":null}',
      '{"note":"cvv","also":["pan","password"]}',
      '{"number":null}',
      '{"number" : {"pan": null}}',
      // A card field holding a list of short numbers: looked into as any other value is.
      '{"pan":[1,2,3]}',
      '{"cvv_match":"M","cv_hint":"x","passwords":1,"card_numbers":[1]}',
      '{"a":"\\u0022 \\u0027 \\u003e \\u005c \\u0026 \\u003c"}',
      '{"a":"\\u0000\\u0008\\u000e\\u001f"}',
      '{"a":"411111111111\\b1"}',
      '{"a":"411111111111\\u00081"}',
      '{"a":"411111111111\\u000e1"}',
      '{"a":"411111111111\\"1"}',
      // A line break ends a number (card-digits.ts): these are three numbers of four digits and one.
      '{"a":"4111\\f1111\\f1111\\f1111"}',
      '{"a":"4111\\n1111\\n1111\\n1111"}',
      '{"a":"4111\\r1111\\r1111\\r1111"}',
      '{"a":"411111111111\u00851"}'.replace('\u0085', 'é'),
      '{"a":\t"x"}',
      '{"a":411111111111,"b":1}',
      '{"a":1.5}',
      '{"card_number":"424242XXXXXX4242","pan":"XXXX","number":"411111xxxxxx1111"}',
      '{"a":"\u00e9\u00a0\u3000"}',
    ]) {
      expect(printsAsSent(text), text).toBe(true)
    }
  })

  it('refuses each near miss: every key of a secret or card, space around a colon, white space and escapes inside a card number', () => {
    for (const text of [
      // Each key of a secret, by each length the shortcut knows.
      ...['cvv', 'CVC', 'cvv2', 'cvc2', 'xcvvx', 'password', 'authentication_password', 'token_secret', 'api_token'].map((key) => `{"${key}":"x"}`),
      ...['pan', 'number', 'card_number', 'Card_Number'].map((key) => `{"${key}":1234}`),
      '{"cvv" :"1"}',
      '{"cvv"\t:"1"}',
      '{"pan": 1234}',
      '{"pan":\t1234}',
      '{"pan": -1}',
      // A card field that is 0 or 9, and a number whose exponent follows a 0 or a 9.
      '{"number":0}',
      '{"pan":9}',
      '{"amount":10e2}',
      '{"amount":19e2}',
      '{"pan":"4242"}',
      '{"pan":"XX\\u0058X"}',
      '{"a":"4111-1111-1111-1111"}',
      // Each separator of the table, and an escaped tab and slash (card-digits.ts).
      '{"a":"4111\\t1111\\t1111\\t1111"}',
      '{"a":"411111111111\\/1"}',
      '{"a":"4111.1111_1111/1111"}',
      '{"a":"\uff14\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11"}',
      '{"a":"4111\u200b1111\u00b71111\uff0f1111"}',
      '{"card[CVV]":"1"}',
      '{"Card_Cvc_Code":"1"}',
      '{"a":"4111\u00a01111\u20071111\u30001111"}',
      '{"a":"411111111111\\u00311"}',
      '{"a":"4111\\u00091111 1111 1111"}',
      '{"a":"4111\\u000a1111 1111 1111"}',
      '{"a":"4111\\u000d1111 1111 1111"}',
      '{"a":"4111\\u002d1111 1111 1111"}',
      '{"a":\r1}',
      '{"a":"\u009f"}',
      '{"a":"\u0080"}',
      '{"a":"\u007f"}',
      '{"a":1E16}',
      '{"a":1e+5}',
      '{"a":1.5e-7}',
    ]) {
      expect(printsAsSent(text), text).toBe(false)
    }
  })

  it('passes a text only where its record prints the same written anew, masked', () => {
    // Strings of digits, spaces, dashes and escapes, where card numbers hide.
    const digity = fc.string({unit: fc.constantFrom('4', '1', '2', '0', ' ', '-', '\t', '.', '_', '/', '\n', '\uff14', '\u200b', 'X', 'a', '\u00a0', '"', '\\', '\u0085')})
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
