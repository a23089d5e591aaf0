import {describe, expect, it} from 'vitest'
import {purchaseColumns} from '../../../src/output/columns.js'
import {NotFoundError} from '../../../src/errors.js'
import {testIo} from '../../../src/output/io.js'
import {recordStream, renderError, renderRecord} from '../../../src/output/render.js'

const approved = {id: '071-P-ABCDEFGH', amount: 1000, currency: 'AUD', successful: true, message: 'Approved', card_number: '424242XXXXXX4242', extra_field: 'kept'}
const declined = {...approved, successful: false, message: 'Insufficient Funds'}

describe('renderRecord', () => {
  it('prints exactly the gateway record with --json', async () => {
    const io = testIo()
    await renderRecord(io, approved, purchaseColumns, {json: true})
    expect(JSON.parse(io.stdout())).toEqual(approved)
    expect(io.stderr()).toBe('')
  })

  it('prints a plain table when colour is off', async () => {
    const io = testIo()
    await renderRecord(io, approved, purchaseColumns, {json: false})
    expect(io.stdout()).toContain('10.00 AUD')
    expect(io.stdout()).toContain('Approved')
    expect(io.stdout()).not.toContain('\u001B[')
  })

  it('colours the outcome on a terminal: approved green, declined red', async () => {
    const good = testIo({tty: true, color: true})
    await renderRecord(good, approved, purchaseColumns, {json: false})
    expect(good.stdout()).toContain('\u001B[32mApproved\u001B[39m')
    const bad = testIo({tty: true, color: true})
    await renderRecord(bad, declined, purchaseColumns, {json: false})
    expect(bad.stdout()).toContain('\u001B[31mInsufficient Funds\u001B[39m')
  })
})

describe('recordStream', () => {
  it('writes NDJSON to a pipe', async () => {
    const io = testIo()
    const write = recordStream(io, purchaseColumns, {json: false})
    await write(approved)
    await write(declined)
    expect(io.stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line))).toEqual([approved, declined])
  })

  it('writes tables one after another on a terminal', async () => {
    const io = testIo({tty: true})
    const write = recordStream(io, purchaseColumns, {json: false})
    await write(approved)
    await write(declined)
    expect(io.stdout().match(/071-P-ABCDEFGH/g)).toHaveLength(2)
    expect(() => JSON.parse(io.stdout())).toThrow()
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
})
