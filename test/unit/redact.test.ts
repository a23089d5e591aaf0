import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {UsageError} from '../../src/errors.js'
import {toGwError} from '../../src/to-gw-error.js'
import {looksLikeCardNumber, maskCardNumber, maskCardNumbersIn, redact, redactFlagMessage, redactText} from '../../src/redact.js'
import {cardToken} from '../../src/validate.js'
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
