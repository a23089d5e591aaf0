import {describe, expect, it} from 'vitest'
import {DirectDebit} from '../../src/api/schemas/direct-debit.js'
import {newDebit} from '../fixtures/recorded-plans-debits.js'
import type {Dialect} from '../../src/sandbox/dialect.js'
import {ACME_AUTH, call, sandbox} from './helpers.js'
import {advance} from './recurring-helpers.js'

// The fixed clock's today is Sunday 2026-11-22: a debit made then goes to the bank on Monday the 23rd.
const DEBIT = {description: 'Confirmation', amount: 42, bsb: '123-123', account_name: 'Test', account_number: '012345678'}

type Gateway = Awaited<ReturnType<typeof sandbox>>
const createDebit = (gateway: Gateway, fields: Record<string, unknown> = {}, auth?: string) => call(gateway, 'POST', '/v1.0/direct_debits', {body: {...DEBIT, ...fields}, auth})

/** A clock at this local time of day: the cut-off is read in the gateway's own time zone. */
const at = (year: number, month: number, day: number, hours: number, minutes: number) => ({now: () => new Date(year, month - 1, day, hours, minutes)})

describe('POST /v1.0/direct_debits', () => {
  it.each<[Dialect, object | null]>([
    ['contract', {}],
    ['live', null],
  ])('%s: 201, the record as recorded: dollars, the id as reference, New, metadata %o', async (dialect, metadata) => {
    const gateway = await sandbox({dialect})
    const answer = await createDebit(gateway)
    expect(answer.status).toBe(201)
    const id = answer.body.response.id
    expect(answer.body).toStrictEqual({
      successful: true,
      response: {
        id: expect.stringMatching(/^071-DD-[A-Z0-9]{8}$/),
        amount: 42,
        bsb: '123-123',
        account_number: '012345678',
        account_name: 'Test',
        description: 'Confirmation',
        reference: id,
        date: '2026-11-23',
        process_date: null,
        status: 'New',
        result: null,
        metadata,
      },
      errors: [],
      test: true,
    })
    // Field for field in the recorded order, the amount written as the gateway writes a float (the Ruby library checks for one).
    expect(Object.keys(answer.body.response)).toStrictEqual(Object.keys(newDebit))
    expect(answer.text).toContain('"amount":42.0,')
    const listed = await call(gateway, 'GET', '/v1.0/direct_debits')
    expect(listed.text).toContain('"amount":42.0,')
    expect((await call(gateway, 'GET', `/v1.0/direct_debits/${id}`)).text).toContain('"amount":42.0,')
    expect(DirectDebit.parse(answer.body.response)).toStrictEqual(answer.body.response)
  })

  it('takes dollars and cents, as a number or its text, and a reference of its own', async () => {
    const gateway = await sandbox()
    expect((await createDebit(gateway, {amount: 42.42})).body.response.amount).toBe(42.42)
    expect((await createDebit(gateway, {amount: '7.5', reference: 'rent-december'})).body.response).toMatchObject({amount: 7.5, reference: 'rent-december'})
  })

  it.each([
    ['before the 16:00 cut-off: that day', at(2026, 11, 26, 15, 53), undefined, '2026-11-26'],
    ['after it: the next day', at(2026, 11, 26, 19, 16), undefined, '2026-11-27'],
    ['after it on a Friday: the Monday', at(2026, 11, 27, 21, 6), undefined, '2026-11-30'],
    ['on a Saturday: the Monday', at(2026, 11, 28, 9, 0), undefined, '2026-11-30'],
    ['a later date asked for', at(2026, 11, 26, 9, 0), '2026-12-01', '2026-12-01'],
    ['a later date-time asked for, as the .NET library sends one', at(2026, 11, 26, 9, 0), '2026-12-01T00:00:00+11:00', '2026-12-01'],
    ['a later Sunday asked for: the Monday', at(2026, 11, 26, 9, 0), '2026-12-06', '2026-12-07'],
    ['a date already past: the first day it can go', at(2026, 11, 26, 9, 0), '2026-01-01', '2026-11-26'],
  ])('dates a debit made %s', async (_, clock, date, expected) => {
    const gateway = await sandbox({clock})
    const answer = await createDebit(gateway, date === undefined ? {} : {date})
    expect(answer.status).toBe(201)
    expect(answer.body.response.date).toBe(expected)
  })

  it.each<[Dialect, object | null]>([
    ['contract', {}],
    ['live', null],
  ])('%s: an empty body is 422 with the record of nulls and the nine recorded errors, in order', async (dialect, metadata) => {
    const gateway = await sandbox({dialect})
    const answer = await call(gateway, 'POST', '/v1.0/direct_debits', {body: {test: true}})
    expect(answer.status).toBe(422)
    expect(answer.body).toStrictEqual({
      successful: false,
      response: {id: null, amount: 0, bsb: null, account_number: null, account_name: null, description: null, reference: null, date: '2026-11-23', process_date: null, status: 'New', result: null, metadata},
      errors: [
        "Account number can't be blank",
        'Account number is not a number',
        'Account number is too short (minimum is 1 characters)',
        'Account number must be numbers only',
        "Account name can't be blank",
        "Bsb can't be blank",
        'Bsb is the incorrect format - expecting 111-222',
        "Description can't be blank",
        'Amount must be greater than 0',
      ],
      test: true,
    })
    expect(DirectDebit.parse(answer.body.response)).toEqual(answer.body.response)
  })

  it('an unknown bank account is 422 with an empty record and that error alone, as recorded', async () => {
    const gateway = await sandbox()
    const answer = await createDebit(gateway, {bsb: '1', account_number: '01', bank_account: 'unknown'})
    expect(answer.status).toBe(422)
    expect(answer.body).toStrictEqual({successful: false, response: {}, errors: ['Could not find bank account unknown'], test: true})
  })

  it.each<[Record<string, unknown>, string[]]>([
    [{bsb: '1'}, ['Bsb is the incorrect format - expecting 111-222']],
    [{account_number: '12a'}, ['Account number is not a number', 'Account number must be numbers only']],
    [{amount: -1}, ['Amount must be greater than 0']],
    [{amount: 42.425}, ['Amount must have no more than 2 decimal places']],
    [{amount: 'lots'}, ['Amount is not a number']],
    [{date: 'tomorrow'}, ['Date must be a date as YYYY-MM-DD']],
  ])('refuses %o with 422, the record as sent', async (fields, errors) => {
    const gateway = await sandbox()
    const answer = await createDebit(gateway, fields)
    expect(answer.status).toBe(422)
    expect(answer.body.errors).toStrictEqual(errors)
    expect(answer.body.response).toMatchObject({id: null, account_name: 'Test', status: 'New'})
    expect((await call(gateway, 'GET', '/v1.0/direct_debits')).body.total_records).toBe(0)
  })

  it('refuses a reference the merchant has used', async () => {
    const gateway = await sandbox()
    await createDebit(gateway, {reference: 'rent'})
    expect((await createDebit(gateway, {reference: 'rent'})).body.errors).toStrictEqual(['Reference has already been taken'])
    expect((await createDebit(gateway, {reference: 'rent'}, ACME_AUTH)).status).toBe(201)
  })
})

describe('GET and DELETE /v1.0/direct_debits', () => {
  it('finds a debit by id or reference; an unknown one is 404 with an empty record, as recorded; another merchant\'s 403', async () => {
    const gateway = await sandbox()
    const debit = (await createDebit(gateway, {reference: 'rent'})).body.response
    for (const key of [debit.id, 'rent']) expect((await call(gateway, 'GET', `/v1.0/direct_debits/${key}`)).body.response).toStrictEqual(debit)
    const unknown = await call(gateway, 'GET', '/v1.0/direct_debits/unknown')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toStrictEqual({successful: false, response: {}, errors: ['Could not find Direct Entry'], test: true})
    expect((await call(gateway, 'GET', `/v1.0/direct_debits/${debit.id}`, {auth: ACME_AUTH})).status).toBe(403)
  })

  it.each<[Dialect, Record<string, unknown>]>([
    ['contract', {records: 2, total_records: 3, pages: 2, current_page: 1}],
    ['live', {total_records: 3, page: 0, total_pages: 2}],
  ])('%s: deletes: status Deleted, still listed, newest first, in the list envelope', async (dialect, paging) => {
    const gateway = await sandbox({dialect})
    const made = []
    for (const reference of ['a', 'b', 'c']) made.push((await createDebit(gateway, {reference})).body.response)
    const deleted = await call(gateway, 'DELETE', `/v1.0/direct_debits/${made[2].id}`)
    expect(deleted.status).toBe(200)
    expect(deleted.body.response).toStrictEqual({...made[2], status: 'Deleted'})
    expect((await call(gateway, 'DELETE', `/v1.0/direct_debits/${made[2].id}`)).body.response).toStrictEqual(deleted.body.response)
    const page = await call(gateway, 'GET', '/v1.0/direct_debits?limit=2&offset=0')
    expect(page.body).toMatchObject({successful: true, ...paging})
    expect(page.body.response).toStrictEqual([deleted.body.response, made[1]])
  })

  it('an unknown debit is 404 with a null record and its key in the message, as recorded', async () => {
    const gateway = await sandbox()
    const answer = await call(gateway, 'DELETE', '/v1.0/direct_debits/unknown')
    expect(answer.status).toBe(404)
    expect(answer.body).toStrictEqual({successful: false, response: null, errors: ['Direct Debit unknown could not be found.'], test: true})
  })
})

describe('the billing clock and direct debits', () => {
  it('moves a debit from New to Pending at the end of its day, then Completed or Rejected at the end of the next business day', async () => {
    const gateway = await sandbox()
    const kept = (await createDebit(gateway, {reference: 'kept'})).body.response
    await createDebit(gateway, {reference: 'returned', amount: 42.06})
    await createDebit(gateway, {reference: 'friday', date: '2026-11-27'})
    const statusOf = async (reference: string) => (await call(gateway, 'GET', `/v1.0/direct_debits/${reference}`)).body.response

    await advance(gateway, {to: '2026-11-23'})
    expect(await statusOf('kept')).toStrictEqual(kept)
    await advance(gateway, {to: '2026-11-24'})
    expect(await statusOf('kept')).toStrictEqual({...kept, status: 'Pending'})
    await advance(gateway, {to: '2026-11-25'})
    expect(await statusOf('kept')).toStrictEqual({...kept, status: 'Completed', process_date: '2026-11-24', result: 'Processed'})
    expect(await statusOf('returned')).toMatchObject({status: 'Rejected', process_date: '2026-11-24', result: 'Refer to Customer'})
    expect(await statusOf('friday')).toMatchObject({status: 'New', process_date: null})

    await advance(gateway, {to: '2026-11-30'})
    expect(await statusOf('friday')).toMatchObject({status: 'Pending', process_date: null})
    await advance(gateway, {to: '2026-12-01'})
    expect(await statusOf('friday')).toMatchObject({status: 'Completed', process_date: '2026-11-30'})
  })

  it('neither moves a deleted debit nor deletes one that went to the bank', async () => {
    const gateway = await sandbox()
    const deleted = (await createDebit(gateway, {reference: 'deleted'})).body.response
    await call(gateway, 'DELETE', '/v1.0/direct_debits/deleted')
    const sent = (await createDebit(gateway, {reference: 'sent'})).body.response
    await advance(gateway, {to: '2026-11-24'})
    expect((await call(gateway, 'GET', `/v1.0/direct_debits/${deleted.id}`)).body.response.status).toBe('Deleted')
    const refused = await call(gateway, 'DELETE', '/v1.0/direct_debits/sent')
    expect(refused.status).toBe(422)
    expect(refused.body).toStrictEqual({
      successful: false,
      response: {...sent, status: 'Pending'},
      errors: [`Direct Debit ${sent.id} is Pending: it has gone to the bank and can no longer be deleted`],
      test: true,
    })
  })
})
