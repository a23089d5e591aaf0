import {describe, expect, it} from 'vitest'
import {purchaseColumns, triggerColumns} from '../../../src/output/columns.js'
import {NotFoundError} from '../../../src/errors.js'
import {testIo} from '../../test-io.js'
import {recordStream, renderError, renderList, renderRecord} from '../../../src/output/render.js'
import {renderWarning} from '../../../src/output/warning.js'

const approved = {id: '071-P-ABCDEFGH', amount: 1000, currency: 'AUD', successful: true, message: 'Approved', reference: 'order-1', card_number: '424242XXXXXX4242', extra_field: 'kept'}
const declined = {...approved, id: '071-P-DECLINED', successful: false, message: 'Insufficient Funds', reference: 'order-2'}
const lines = (text: string) => text.split('\n').filter(Boolean)

describe('renderRecord, by destination', () => {
  it('to a pipe: one compact JSON line, exactly the record, with or without --json', async () => {
    for (const json of [false, true]) {
      const io = testIo()
      await renderRecord(io, approved, purchaseColumns, {json})
      expect(io.stdout()).toBe(JSON.stringify(approved) + '\n')
      expect(io.stderr()).toBe('')
    }
  })

  it('to a terminal with --json: the record pretty-printed', async () => {
    const io = testIo({tty: true})
    await renderRecord(io, approved, purchaseColumns, {json: true})
    expect(io.stdout()).toBe(JSON.stringify(approved, null, 2) + '\n')
  })

  it('to a terminal: a field/value list, no boxes, empty fields left out', async () => {
    const io = testIo({tty: true})
    await renderRecord(io, approved, purchaseColumns, {json: false})
    expect(io.stdout()).toBe(
      ['Reference  order-1', 'Amount     10.00 AUD', 'Outcome    Approved', 'Card       424242XXXXXX4242', 'Id         071-P-ABCDEFGH', ''].join('\n'),
    )
  })

  it('colours the outcome on a terminal: approved green, declined red', async () => {
    const good = testIo({tty: true, color: true})
    await renderRecord(good, approved, purchaseColumns, {json: false})
    expect(good.stdout()).toContain('\u001B[32mApproved\u001B[39m')
    const bad = testIo({tty: true, color: true})
    await renderRecord(bad, declined, purchaseColumns, {json: false})
    expect(bad.stdout()).toContain('\u001B[31mInsufficient Funds\u001B[39m')
  })

  it('wraps a long value to the terminal width under its own column', async () => {
    const io = testIo({tty: true, columns: 40})
    await renderRecord(io, {...approved, reference: 'a-very-long-reference-that-goes-on-and-on'}, purchaseColumns, {json: false})
    const out = lines(io.stdout())
    expect(out).toContain('Reference  a-very-long-reference-that-go')
    expect(out).toContain('           es-on-and-on')
    expect(Math.max(...out.map((line) => line.length))).toBeLessThanOrEqual(40)
  })

  it('spreads a nested payload out as indented key paths', async () => {
    const io = testIo({tty: true})
    const record = {event: 'charge:successful', delivered_to: 1, payload: [{subscription: {id: 'S1'}, response: {successful: true, amount: 1000}}]}
    await renderRecord(io, record, triggerColumns, {json: false})
    expect(io.stdout()).toBe(
      [
        'Event         charge:successful',
        'Delivered to  1',
        'Payload',
        '  [0].subscription.id      S1',
        '  [0].response.successful  true',
        '  [0].response.amount      1000',
        '',
      ].join('\n'),
    )
  })

  it('makes control characters in gateway text visible in the list, and keeps them exact in JSON', async () => {
    const hostile = {...approved, card_holder: 'Jane\u001B[2K\rApproved', reference: '\u001B]8;;https://x.example\u001B\\ref\u001B]8;;\u001B\\'}
    const tty = testIo({tty: true})
    await renderRecord(tty, hostile, purchaseColumns, {json: false})
    // eslint-disable-next-line no-control-regex
    expect(tty.stdout()).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/)
    expect(tty.stdout()).toContain('Card holder  Jane\\x1B[2K\\rApproved')
    expect(tty.stdout()).toContain('Reference    \\x1B]8;;https://x.example\\x1B\\ref\\x1B]8;;\\x1B\\')
    const json = testIo({tty: true})
    await renderRecord(json, hostile, purchaseColumns, {json: true})
    expect(JSON.parse(json.stdout())).toEqual(hostile)
  })

  it('writes DEL and C1 as \\u escapes in JSON: the same value, harmless on a terminal', async () => {
    const io = testIo()
    await renderRecord(io, {id: 'a\u009Bb\u007F'}, purchaseColumns, {json: true})
    expect(io.stdout()).toBe('{"id":"a\\u009bb\\u007f"}\n')
    expect(JSON.parse(io.stdout())).toEqual({id: 'a\u009Bb\u007F'})
  })
})

describe('--fields', () => {
  it('picks and orders the fields of the JSON, leaving out what the record lacks', async () => {
    const io = testIo()
    await renderRecord(io, approved, purchaseColumns, {json: true, fields: ['reference', 'id', 'successful']})
    expect(io.stdout()).toBe('{"reference":"order-1","id":"071-P-ABCDEFGH","successful":true}\n')
  })

  it('picks and orders the columns of a table, fields without a column under their own name', async () => {
    const io = testIo({tty: true})
    await renderList(io, [approved, declined], purchaseColumns, {json: false, fields: ['reference', 'successful', 'amount']})
    expect(lines(io.stdout())[1]).toBe('│ Reference │ successful │ Amount    │')
    expect(lines(io.stdout()).slice(3, 5)).toEqual(['│ order-1   │ true       │ 10.00 AUD │', '│ order-2   │ false      │ 10.00 AUD │'])
  })
})

describe('renderList, by destination', () => {
  it('to a pipe: one JSON line per record', async () => {
    const io = testIo()
    await renderList(io, [approved, declined], purchaseColumns, {json: true})
    expect(lines(io.stdout()).map((line) => JSON.parse(line))).toEqual([approved, declined])
  })

  it('to a terminal with --json: the same stream of records, each pretty-printed, never an array', async () => {
    const io = testIo({tty: true})
    await renderList(io, [approved, declined], purchaseColumns, {json: true})
    expect(io.stdout()).toBe(JSON.stringify(approved, null, 2) + '\n' + JSON.stringify(declined, null, 2) + '\n')
  })

  it('to a terminal: one table, a row per record, no rules between rows, empty columns dropped', async () => {
    const io = testIo({tty: true, columns: 200})
    await renderList(io, [approved, declined], purchaseColumns, {json: false})
    expect(io.stdout()).toBe(
      [
        '┌───────────┬───────────┬────────────────────┬───────┬────────────────┐',
        '│ Reference │ Amount    │ Outcome            │ Card  │ Id             │',
        '├───────────┼───────────┼────────────────────┼───────┼────────────────┤',
        '│ order-1   │ 10.00 AUD │ Approved           │ …4242 │ 071-P-ABCDEFGH │',
        '│ order-2   │ 10.00 AUD │ Insufficient Funds │ …4242 │ 071-P-DECLINED │',
        '└───────────┴───────────┴────────────────────┴───────┴────────────────┘',
        '',
      ].join('\n'),
    )
  })

  it('to a narrow terminal: values cut with …, the columns that matter kept longest, one line naming those left out', async () => {
    const io = testIo({tty: true, columns: 40})
    const full = {...approved, card_holder: 'Jane Citizen', authorization: '053511', transaction_date: '2026-11-22T10:00:00Z'}
    await renderList(io, [full, {...full, reference: 'order-with-a-long-reference'}], purchaseColumns, {json: false})
    for (const line of lines(io.stdout())) expect(line.length).toBeLessThanOrEqual(40)
    // What is seldom read goes first, without a word; then, of what matters, the last first: the outcome and the id stay.
    expect(lines(io.stdout())[1]).toBe('│ Outcome  │ Id             │')
    expect(io.stderr()).toBe('Card, Amount, Reference left out to fit 40 columns (--fields picks columns).\n')
    const cut = testIo({tty: true, columns: 40})
    await renderList(cut, [full, {...full, reference: 'order-with-a-long-reference'}], purchaseColumns, {json: false, fields: ['id', 'reference']})
    expect(lines(cut.stdout())[4]).toBe('│ 071-P-ABCDEFGH │ order-with-a-long-… │')
    expect(cut.stderr()).toBe('')
    const named = testIo({tty: true, columns: 40})
    await renderList(named, [full], purchaseColumns, {json: false, fields: ['id', 'reference', 'card_holder']})
    expect(named.stderr()).toBe('Card holder left out to fit 40 columns (--fields picks columns).\n')
  })
})

describe('a table for a support task', () => {
  const record = (i: number, message: string) => ({
    ...approved, id: `071-P-0000000${i}`, reference: `order-2026-11-17-${i}`, message, successful: message === 'Approved', card_number: '512345XXXXXX2346',
    card_holder: 'Jane Q Citizen', authorization: '053511', transaction_date: '2026-11-17T10:31:02+11:00', settlement_date: '2026-11-18', card_token: '2vbk6ahx0cwzgqf3ynsi', card_expiry: '2030-02-28',
  })
  const records = [record(1, 'Approved'), record(2, 'Insufficient Funds'), record(3, 'Refer to Card Issuer')]

  it('at 110 columns keeps date, reference, amount, outcome, card (by its last four) and id whole, and leaves out what is seldom read without a word', async () => {
    const io = testIo({tty: true, columns: 110})
    await renderList(io, records, purchaseColumns, {json: false})
    const rows = lines(io.stdout())
    expect(rows[1]).toBe('│ Date             │ Reference          │ Amount    │ Outcome              │ Card  │ Id             │')
    expect(rows[4]).toBe('│ 2026-11-17 10:31 │ order-2026-11-17-2 │ 10.00 AUD │ Insufficient Funds   │ …2346 │ 071-P-00000002 │')
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(110)
    expect(io.stderr()).toBe('')
  })

  it('at 60 columns keeps the outcome, the reference, the amount and the id, and says the card was left out', async () => {
    const io = testIo({tty: true, columns: 60})
    await renderList(io, records, purchaseColumns, {json: false})
    const rows = lines(io.stdout())
    expect(rows[1]).toBe('│ Reference    │ Amount    │ Outcome      │ Id             │')
    expect(rows[4]).toBe('│ order-2026-… │ 10.00 AUD │ Insufficien… │ 071-P-00000002 │')
    expect(io.stderr()).toBe('Card left out to fit 60 columns (--fields picks columns).\n')
  })
})

describe('recordStream (several ids)', () => {
  it('to a pipe: each record as it arrives, one JSON line', async () => {
    const io = testIo()
    const stream = recordStream(io, purchaseColumns, {json: false})
    await stream.write([approved])
    expect(io.stdout()).toBe(JSON.stringify(approved) + '\n')
    await stream.write([declined])
    await stream.end()
    expect(lines(io.stdout()).map((line) => JSON.parse(line))).toEqual([approved, declined])
  })

  it('to a terminal: one table at the end', async () => {
    const io = testIo({tty: true, columns: 200})
    const stream = recordStream(io, purchaseColumns, {json: false})
    await stream.write([approved])
    await stream.write([declined])
    expect(io.stdout()).toBe('')
    await stream.end()
    expect(io.stdout().match(/┌/g)).toHaveLength(1)
    expect(io.stdout()).toContain('│ 071-P-DECLINED │')
  })

  it('to a terminal with one record: its field/value list', async () => {
    const io = testIo({tty: true})
    const stream = recordStream(io, purchaseColumns, {json: false})
    await stream.write([approved])
    await stream.end()
    expect(lines(io.stdout())[0]).toBe('Reference  order-1')
  })
})

describe('renderError', () => {
  it('writes the message with status and request id, the hint, and the JSON object with --json', () => {
    const io = testIo()
    renderError(io, new NotFoundError('Purchase not found', {status: 404, requestId: 'abc', hint: 'Check the id.'}), {json: true})
    const [message, hint, json] = io.stderr().trim().split('\n')
    expect(message).toBe('Error: Purchase not found (HTTP 404, request-id abc)')
    expect(hint).toBe('Hint: Check the id.')
    expect(JSON.parse(json!)).toEqual({error: {kind: 'not_found', status: 404, messages: ['Purchase not found'], request_id: 'abc', exit_code: 5, hint: 'Check the id.'}})
    expect(io.stdout()).toBe('')
  })

  it('makes control characters visible in the message and subject; the JSON object keeps them exact', () => {
    const io = testIo()
    renderError(io, new NotFoundError('No purchase ref\u001B]0;owned\u0007'), {json: true, subject: 'id\u001B[2K'})
    const [message, json] = io.stderr().trim().split('\n')
    expect(message).toBe('Error: id\\x1B[2K: No purchase ref\\x1B]0;owned\\x07')
    expect(JSON.parse(json!).error).toMatchObject({id: 'id\u001B[2K', messages: ['No purchase ref\u001B]0;owned\u0007']})
  })

  it('one of several is named by its key, unless the message names it already', () => {
    const io = testIo()
    renderError(io, new NotFoundError('No refund has the id or reference nope: Purchase not found'), {json: false, subject: 'nope'})
    renderError(io, new NotFoundError('Purchase not found'), {json: false, subject: 'nope'})
    expect(io.stderr()).toBe('Error: No refund has the id or reference nope: Purchase not found\nError: nope: Purchase not found\n')
  })
})

describe('renderWarning', () => {
  it('writes the warning and its hint when there is one, on stderr, control characters made visible', () => {
    const io = testIo()
    renderWarning(io, 'the note could not be read:\nnote\u001B[2K is shared.', 'Take the others\' write permission away.\u0007')
    renderWarning(io, 'no hint for this one.')
    expect(io.stderr()).toBe("Warning: the note could not be read:\nnote\\x1B[2K is shared.\nHint: Take the others' write permission away.\\x07\nWarning: no hint for this one.\n")
    expect(io.stdout()).toBe('')
  })

  it('colours its label yellow and the hint\'s dim on a terminal that takes colour', () => {
    const io = testIo({color: true})
    renderWarning(io, 'said.', 'done.')
    expect(io.stderr()).toBe('\u001B[33mWarning:\u001B[39m said.\n\u001B[2mHint:\u001B[22m done.\n')
  })
})

describe('a gateway that sends a card number whole, or a CVV (design.md §3: masked and left out, whoever sent them)', () => {
  const leaky = {...approved, card_number: '4242424242424242', cvv: '987', payload: [{card: {number: '5123456789012346', cvv: '123'}}]}
  const shows = (text: string) => {
    expect(text).not.toMatch(/4242424242424242|5123456789012346|987|"cvv"|CVV|Cvv/)
    expect(text).toContain('424242XXXXXX4242')
  }

  it('a field/value list shows the card masked, a table by its last four', async () => {
    const one = testIo({tty: true, columns: 200})
    await renderRecord(one, leaky, purchaseColumns, {json: false})
    shows(one.stdout())
    const several = testIo({tty: true, columns: 200})
    await renderList(several, [leaky, {...leaky, id: '071-P-OTHER'}], purchaseColumns, {json: false})
    expect(several.stdout()).not.toMatch(/4242424242424242|5123456789012346|987/)
    expect(several.stdout()).toContain('│ …4242 │')
  })

  it('JSON, piped or pretty, and a stream of records: masked, no CVV, every other field in its order', async () => {
    for (const [tty, json] of [[false, false], [true, true]] as const) {
      const io = testIo({tty})
      await renderRecord(io, leaky, purchaseColumns, {json})
      shows(io.stdout())
      expect(Object.keys(JSON.parse(io.stdout()) as object)).toEqual(['id', 'amount', 'currency', 'successful', 'message', 'reference', 'card_number', 'extra_field', 'payload'])
    }
    const io = testIo()
    const stream = recordStream(io, purchaseColumns, {json: false})
    await stream.write([leaky])
    await stream.end()
    shows(io.stdout())
  })
})
