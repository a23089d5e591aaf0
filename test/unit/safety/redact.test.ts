import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {UsageError} from '../../../src/errors.js'
import {toGwError} from '../../../src/cli/to-gw-error.js'
import {looksLikeCardNumber, maskCardDataIn, maskCardNumber, maskCardNumbersIn, maskCardToken, maskCardTokenPath, maskCardTokensIn, redact, redactFlagMessage, redactText} from '../../../src/safety/redact.js'
import {purchaseColumns} from '../../../src/output/columns.js'
import {testIo} from '../../test-io.js'
import {renderList} from '../../../src/output/render.js'
import {cardToken} from '../../../src/cli/validate.js'
import {Errors} from '@oclif/core'

describe('maskCardNumber never re-masks a masked number', () => {
  it.each([
    ['424242XXXXXX4242', '424242XXXXXX4242'],
    ['512345XXXXXX2346', '512345XXXXXX2346'],
    ['XXXXXXXXXXXX4242', 'XXXXXXXXXXXX4242'],
    ['424242xxxxxx4242', '424242xxxxxx4242'],
    ['4242424242XX4242', '424242XXXXXX4242'],
    ['4242424242424242', '424242XXXXXX4242'],
    ['XXXX', 'XXXX'],
  ])('%s shows as %s', (value, shown) => {
    expect(maskCardNumber(value)).toBe(shown)
  })

  it('--verbose keeps the gateway masked card_number as it sent it', () => {
    expect(redactText('{"response":{"card_number":"424242XXXXXX4242","card_token":"4242424242424242"}}')).toBe(
      '{"response":{"card_number":"424242XXXXXX4242","card_token":"424242XXXXXX4242"}}',
    )
  })

  it('masks a card number under any key, and leaves other numbers alone', () => {
    expect(redact({reference: '4242424242424242', amount: 1000, id: '071-P-52NRCGCF', phone: '0412345678'})).toEqual({
      reference: '424242XXXXXX4242',
      amount: 1000,
      id: '071-P-52NRCGCF',
      phone: '0412345678',
    })
  })

  it('property: masking is idempotent and never shows more than 10 digits of a long number', () => {
    const cardish = fc.array(fc.constantFrom('0', '1', '4', '9', 'X', 'x', ' ', '-', '*'), {maxLength: 24}).map((chars) => chars.join(''))
    fc.assert(
      fc.property(fc.oneof(cardish, fc.string()), (value) => {
        const once = maskCardNumber(value)
        expect(maskCardNumber(once)).toBe(once)
        if (value.replace(/\D/g, '').length >= 12) expect(once.replace(/\D/g, '').length).toBeLessThanOrEqual(10)
      }),
      {numRuns: 3000},
    )
  })

  it('property: redact is idempotent, leaves no Luhn-valid card number in any string and no CVV or secret under any key', () => {
    const card = fc.constantFrom('4242424242424242', '5123456789012346', '4005550000000001', '4557012345678902')
    const key = fc.oneof(fc.string(), fc.constantFrom('cvv', 'CVV', 'cvc', 'cvv2', 'card_number', 'number', 'pan', 'authentication_password', 'cvv_match'))
    const json = fc.letrec((tie) => ({
      value: fc.oneof({depthSize: 'small'}, card, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), {maxLength: 4}), fc.dictionary(key, tie('value'), {maxKeys: 4})),
    })).value
    const keysOf = (value: unknown): string[] =>
      Array.isArray(value) ? value.flatMap(keysOf) : value !== null && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]) : []
    fc.assert(
      fc.property(json, (value) => {
        const once = redact(value)
        expect(redact(once)).toEqual(once)
        expect(JSON.stringify(once)).not.toMatch(/4242424242424242|5123456789012346|4005550000000001|4557012345678902/)
        expect(keysOf(once).filter((k) => /^(cvv|cvc|cvv2|authentication_password)$/i.test(k))).toEqual([])
      }),
      {numRuns: 1000},
    )
  })

  it('property: masking numbers in free text is idempotent', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('4242424242424242', '4242 4242 4242 4242', ' ', '-', 'X'), fc.string()), {maxLength: 6}), (parts) => {
        const once = maskCardNumbersIn(parts.join(''))
        expect(maskCardNumbersIn(once)).toBe(once)
      }),
    )
  })
})

describe('errors about flags name the flag, never its value', () => {
  it.each([
    ['--cvv=987 cannot also be provided when using --card', '--cvv cannot also be provided when using --card'],
    ['--card-number=4242424242424242 cannot also be provided when using --card-token', '--card-number cannot also be provided when using --card-token'],
    ['--card-holder=Jane Q Citizen cannot also be provided when using --card', '--card-holder cannot also be provided when using --card'],
    ['Expected --event=charge:everything to be one of: charge:pending, card:expired', 'Expected --event=charge:everything to be one of: charge:pending, card:expired'],
    ['Expected --environment=4242424242424242 to be one of: sandbox, live', 'Expected --environment=424242XXXXXX4242 to be one of: sandbox, live'],
    ['Nonexistent flag: --cvc=987', 'Nonexistent flag: --cvc'],
    ['Unexpected argument: 4242 4242 4242 4242', 'Unexpected argument: 424242XXXXXX4242'],
    ['Expected --event=charge everything to be one of: charge:pending, card:expired', 'Expected --event=charge everything to be one of: charge:pending, card:expired'],
  ])('%s', (message, shown) => {
    expect(redactFlagMessage(message)).toBe(shown)
  })

  it('toGwError passes oclif errors and usage errors through it, as usage errors (exit 2)', () => {
    const fromOclif = toGwError(new Errors.CLIError('The following error occurred:\n  --cvv=987 cannot also be provided when using --card\nSee more help with --help'))
    expect(fromOclif).toBeInstanceOf(UsageError)
    expect(fromOclif.exitCode).toBe(2)
    expect(fromOclif.message).toBe('--cvv cannot also be provided when using --card')
    expect(fromOclif.messages).toEqual([fromOclif.message])
    const ours = toGwError(new UsageError('Parsing --amount \n\tUnexpected argument: 4242424242424242', 'hint'))
    expect(ours.message).toBe('Unexpected argument: 424242XXXXXX4242')
    expect(ours.hint).toBe('hint')
  })
})

describe('--card-token refuses a card number', () => {
  it.each(['4242424242424242', '4242 4242 4242 4242', '5123-4567-8901-2346', '4005550000000001'])('%s: exit 2, shown masked', (value) => {
    let error: unknown
    try {
      cardToken('card-token', value)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(UsageError)
    expect((error as UsageError).exitCode).toBe(2)
    expect((error as UsageError).message).toMatch(/^--card-token \d{6}X+\d{4} is a card number, not a token or alias: nothing was sent$/)
  })

  it.each(['abcdefghij0123456789', 'jane-visa', '4242424242424241', '123456789012'])('%s is a token or alias', (value) => {
    expect(cardToken('card-token', value)).toBe(value)
  })

  it('looksLikeCardNumber: 13 to 19 digits passing Luhn', () => {
    expect(looksLikeCardNumber('4242424242424242')).toBe(true)
    expect(looksLikeCardNumber('424242424242')).toBe(false)
    expect(looksLikeCardNumber('4242424242424241')).toBe(false)
    // Any spacing a person or a gateway puts between the groups; a date or an id is never one.
    for (const spaced of ['4242 4242 4242 4242', '4242-4242-4242-4242', '4242\t4242\t4242\t4242', '4242\u00a04242\u00a04242\u00a04242']) expect(looksLikeCardNumber(spaced), spaced).toBe(true)
    for (const other of ['2026-11-23T09:01:02+00:00', '071-P-1VQZVNTX', '4242424242424242x']) expect(looksLikeCardNumber(other), other).toBe(false)
  })
})

describe('a card number sent as a JSON number is masked as the same digits in a string', () => {
  it('under a card key or any other, it becomes the masked string a string would (JSON has no masked number)', () => {
    expect(redact({card_number: 4242424242424242, reference: 5123456789012346, amount: 1000, authorization: 297515})).toStrictEqual({
      card_number: '424242XXXXXX4242',
      reference: '512345XXXXXX2346',
      amount: 1000,
      authorization: 297515,
    })
    expect(redact([4242424242424242, 4242424242424241, 1234567890123])).toStrictEqual(['424242XXXXXX4242', 4242424242424241, 1234567890123])
    // Under a card key every number is masked, as a string there is: a short one wholly.
    expect(redact({pan: 4242, number: 4.5})).toStrictEqual({pan: 'XXXX', number: 'XX'})
  })

  it('a number too large for its digits to survive JSON parsing is masked whatever its Luhn check says', () => {
    const rounded = JSON.parse('{"ref":4242424242424242424}') as {ref: number}
    expect(Number.isSafeInteger(rounded.ref)).toBe(false)
    expect(redact(rounded)).toStrictEqual({ref: maskCardNumber(String(rounded.ref))})
    expect(redact({n: 1e19, m: 999_999_999_999})).toStrictEqual({n: 1e19, m: 999_999_999_999})
  })

  it('--verbose and gw api: an unquoted digit run is masked, in JSON and in a body that is not JSON', () => {
    expect(redactText('{"response":{"card_number":4242424242424242,"cvv":987,"amount":1000}}')).toBe('{"response":{"card_number":"424242XXXXXX4242","amount":1000}}')
    expect(redactText('{"response":{"card_number":4242424242424242,')).toBe('{"response":{"card_number":424242XXXXXX4242,')
    expect(redactText('card_number=4242424242424242&amount=1000')).toBe('card_number=424242XXXXXX4242&amount=1000')
  })
})

describe('a card-number field that holds letters as well as digits', () => {
  it.each([
    ['4242 4242 4242 4242 (Visa)', 'XXXX XXXX XXXX XXXX (Visa)'],
    ['tok_4242424242424242', 'tok_XXXXXXXXXXXXXXXX'],
    ['4242424242424242A', 'XXXXXXXXXXXXXXXXA'],
    ['visa-4242', 'visa-XXXX'],
  ])('%s shows no digit at all: %s', (value, shown) => {
    expect(maskCardNumber(value)).toBe(shown)
    expect(redact({card_number: value})).toStrictEqual({card_number: shown})
  })
})

describe('a number-typed card number in a table', () => {
  it('shows by its last four, as a string one does', async () => {
    const io = testIo({tty: true, columns: 120})
    await renderList(io, [{id: '071-P-ABCDEFGH', reference: 'order-1', amount: 1000, currency: 'AUD', successful: true, message: 'Approved', card_number: 4242424242424242}], purchaseColumns, {json: false})
    expect(io.stdout()).toContain('…4242')
    expect(io.stdout()).not.toMatch(/\d{5}/)
  })
})

describe('a stored card token, as gw and the local gateway show it', () => {
  it.each([
    ['abcdefghij0123456789', '****************6789'],
    ['jane-visa', '*****visa'],
    ['12345678', '****5678'],
    ['1234567', '*******'],
    ['', ''],
  ])('%s shows as %s', (token, shown) => {
    expect(maskCardToken(token)).toBe(shown)
  })

  it.each([
    ['/v1.0/credit_cards/abcdefghij0123456789', '/v1.0/credit_cards/****************6789'],
    ['/v1.0/credit_cards/abcdefghij0123456789.json', '/v1.0/credit_cards/****************6789.json'],
    ['http://127.0.0.1:1/v1.0/CREDIT_CARDS/abcdefghij0123456789?x=1', 'http://127.0.0.1:1/v1.0/CREDIT_CARDS/****************6789?x=1'],
    ['/v1.0/credit_cards/abcdefghij0123456789/extra', '/v1.0/credit_cards/****************6789/extra'],
    ['/v1.0/credit_cards', '/v1.0/credit_cards'],
    ['/v1.0/purchases/071-P-ABCDEFGH', '/v1.0/purchases/071-P-ABCDEFGH'],
  ])('the path %s is shown as %s', (path, shown) => {
    expect(maskCardTokenPath(path)).toBe(shown)
  })

  it("the gateway's Card <token> could not be found keeps its words; other messages are left as they are", () => {
    expect(maskCardTokensIn('Card abcdefghij0123456789 could not be found')).toBe('Card ****************6789 could not be found')
    expect(maskCardTokensIn('Reference order20261123abcdefgh has already been taken')).toBe('Reference order20261123abcdefgh has already been taken')
  })

  it('an unexpected argument shaped as a card token (20 lower-case letters and digits) is masked, other words are not', () => {
    expect(maskCardDataIn('Unexpected argument: abcdefghij0123456789')).toBe('Unexpected argument: ****************6789')
    expect(maskCardDataIn('Unexpected argument: 4242424242424242')).toBe('Unexpected argument: 424242XXXXXX4242')
    for (const word of ['abcdefghij012345678', 'abcdefghij01234567890', 'ABCDEFGHIJ0123456789', 'a-abcdefghij0123456789', 'abcdefghij0123456789-b', '071-P-ABCDEFGH']) {
      expect(maskCardDataIn(`Unexpected argument: ${word}`), word).toBe(`Unexpected argument: ${word}`)
    }
    expect(redactFlagMessage('Unexpected argument: abcdefghij0123456789')).toBe('Unexpected argument: ****************6789')
  })
})

describe('masking as a person reads the result', () => {
  it.each([
    // Masked another way, with ten digits or fewer showing: kept, spaces and dashes aside.
    ['•••• •••• •••• 4242', '••••••••••••4242'],
    ['4242 42•• •••• 4242', '424242••••••4242'],
    ['4242-42**-****-4242', '424242******4242'],
    // Eleven digits showing is one too many: masked as a whole number is.
    ['4242 424• •••• 4242', '424242XXXXXX4242'],
    // 12 digits under a card key show as the gateway masks them; 13 and 19, the shortest and longest card numbers.
    ['424242424242', '424242XX4242'],
    ['4222222222222', '422222XXX2222'],
    ['6011000990139424123', '601100XXXXXXXXX4123'],
  ])('%s shows as %s', (value, shown) => {
    expect(maskCardNumber(value)).toBe(shown)
    expect(redact({card_number: value})).toStrictEqual({card_number: shown})
  })

  it('a 13-digit card number is found under any key; 12 digits, however spaced, are no card number', () => {
    expect(looksLikeCardNumber('4222222222222')).toBe(true)
    expect(redact({reference: '4222222222222', note: '4222 2222 22222'})).toStrictEqual({reference: '422222XXX2222', note: '422222XXX2222'})
    // 424242424242 passes the Luhn check, but has too few digits for a card.
    expect(looksLikeCardNumber('4242 4242 4242')).toBe(false)
    expect(redact({reference: '4242 4242 4242', phone: '+61 412 345 678 9'})).toStrictEqual({reference: '4242 4242 4242', phone: '+61 412 345 678 9'})
    // A separator around it is still a card number whole (a sentence's full stop); a letter is not.
    for (const separated of ['4242424242424242/', '4242424242424242.', '4242_4242_4242_4242']) expect(looksLikeCardNumber(separated), separated).toBe(true)
    for (const other of ['x4242424242424242', '4242424242424242a', '4242\n4242\n4242\n4242']) expect(looksLikeCardNumber(other), other).toBe(false)
  })

  it('null and empty values stay as the gateway sent them, under a card key too', () => {
    expect(redact(null)).toBe(null)
    expect(redact({card_number: null, reference: null, number: undefined, amount: 0, pan: true})).toStrictEqual({card_number: null, reference: null, number: undefined, amount: 0, pan: true})
    expect(redact({card_number: ''})).toStrictEqual({card_number: ''})
    // A card key holding a record is gone through as one.
    expect(redact({number: {card_number: '4242424242424242', cvv: '123', holder: 'Jo'}})).toStrictEqual({number: {card_number: '424242XXXXXX4242', holder: 'Jo'}})
  })

  it('under a card key a number too short to be a card is still hidden, as the gateway would never show it', () => {
    expect(redact({card_number: '4242', number: '42424242424', pan: 4242})).toStrictEqual({card_number: 'XXXX', number: 'XXXXXXXXXXX', pan: 'XXXX'})
  })

  it('amounts, decimal amounts and counts are numbers that stay numbers', () => {
    expect(redact({amount: 1000, decimal_amount: 10.5, captured_amount: 0, refunded: -2500, total: 4242424242424241, rate: 0.1, big: 1e21})).toStrictEqual({
      amount: 1000,
      decimal_amount: 10.5,
      captured_amount: 0,
      refunded: -2500,
      total: 4242424242424241,
      rate: 0.1,
      big: 1e21,
    })
  })

  it.each(['cvv', 'CVV', 'cvc', 'cvv2', 'CVC2', 'password', 'authentication_password', 'token_secret', 'Api_Token'])('a secret under %s is left out', (key) => {
    expect(redact({id: 'h1', [key]: 'hush'})).toStrictEqual({id: 'h1'})
  })

  it.each(['card_number', 'Card_Number', 'number', 'PAN'])('a card number under %s is masked, however short', (key) => {
    expect(redact({[key]: '4242'})).toStrictEqual({[key]: 'XXXX'})
  })

  it('keys that only resemble those names are kept as they are', () => {
    const record = {cvv_match: 'M', card_numbers: '4242', number_of_items: 2, password_hint: 'pet', api_token_id: 'tok-1', span: '1234'}
    expect(redact(record)).toStrictEqual(record)
  })
})

describe('a record with nothing to mask is handed back as it is (a list page is not copied)', () => {
  const clean = {
    id: '071-P-52NRCGCF',
    card_number: '512345XXXXXX2346',
    card_holder: 'Jane Citizen',
    amount: 1000,
    transaction_date: '2026-11-17T12:00:00+11:00',
    settlement_date: '2026-11-18',
    metadata: {order: '2026-11-17', lines: [1, 2, 3]},
    authorized: null,
  }

  it('the same object, array and nested record, not a copy', () => {
    expect(redact(clean)).toBe(clean)
    const page = [clean, {...clean, id: '071-P-2'}]
    expect(redact(page)).toBe(page)
    expect(redact('2026-11-17')).toBe('2026-11-17')
    expect(redact(1000)).toBe(1000)
    expect(redact(null)).toBe(null)
  })

  it('a copy, the value given untouched, once anything in it needs masking: a secret, a card number at any depth or under any key, a number-typed one', () => {
    for (const dirty of [
      {...clean, cvv: '987'},
      {...clean, card_number: '5123456789012346'},
      {...clean, card_number: 5123456789012346},
      {...clean, metadata: {note: '4242 4242 4242 4242'}},
      {...clean, metadata: {lines: [1, '4242424242424242']}},
    ]) {
      const before = JSON.stringify(dirty)
      const redacted = redact(dirty)
      expect(redacted).not.toBe(dirty)
      expect(JSON.stringify(dirty)).toBe(before)
      expect(JSON.stringify(redacted)).not.toMatch(/5123456789012346|4242 ?4242 ?4242 ?4242|"cvv"/)
      expect(redacted.metadata).toEqual(expect.any(Object))
    }
    const list = [clean, {card_number: '4242424242424242'}]
    const masked = redact(list)
    expect(masked).not.toBe(list)
    expect(masked[0]).toBe(clean)
    expect(masked[1]).toEqual({card_number: '424242XXXXXX4242'})
  })
})
