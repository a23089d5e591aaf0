import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {Journal} from '../../../src/batch/journal.js'
import {peekJournal} from '../../../src/batch/journal-entries.js'
import {journalLine, journalSecret, restoredFrom, restoredIntent} from '../../../src/batch/journal-names.js'
import {wholeCardNumbersIn} from '../../e2e/card-number-helpers.js'
import {journalText} from '../../journal-text.js'
import {ownValue} from '../../own-value.js'

// A batch journal keeps no card number whole, a row's reference that holds one included, and a
// later run finds the row's entries by the reference its input gives all the same.

const now = new Date('2026-11-22T10:00:00Z')
const target = {base_url: 'http://127.0.0.1:8787', username: 'TEST'}
const input = {sha256: 'a'.repeat(64)}
const path = () => join(mkdtempSync(join(tmpdir(), 'gw-journal-')), 'j.ndjson')
/** The input's references, as run-batch.ts gives them. */
const inputOf = (references: string[]) => ({has: (reference: string) => references.includes(reference), keys: () => references})
const open = (file: string, references?: string[]) => Journal.open(file, {command: 'refund create', input, now, target, thread: 'this', ...(references ? {references: inputOf(references)} : {})})

// Two references that mask alike: first six and last four of the card number the same.
const CARD_REF = 'ord-4929123456789015'
const TWIN_REF = 'ord-4929120000009015'
const MASKED = 'ord-492912XXXXXX9015'

describe("a batch journal's lines", () => {
  it('hold a reference with a card number masked, with its keyed hash, and every other card number masked, CVVs left out', async () => {
    const file = path()
    const journal = await open(file, [CARD_REF, TWIN_REF, 'plain-1'])
    await journal.intent({intent: CARD_REF, row: 1, line: 2, request: {transaction_id: 'ord-4111.1111.1111.1111', amount: 100, reference: CARD_REF, metadata: {cvv: '987', note: '4111\t1111\t1111\t1111'}}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.result({result: CARD_REF, status: 'rejected', exit_code: 7, error: {messages: [`Reference ${CARD_REF} was taken`]}})
    await journal.intent({intent: TWIN_REF, row: 2, line: 3, request: {amount: 200, reference: TWIN_REF}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.intent({intent: 'plain-1', row: 3, line: 4, request: {amount: 300, reference: 'plain-1'}, sent_at: '2026-11-22T10:00:00.000Z'})
    await journal.close()
    const text = journalText(file)
    expect(wholeCardNumbersIn(text)).toEqual([])
    expect(text).not.toMatch(ownValue('987'))
    const lines = text.split('\n').slice(1, -1).map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines[0]).toMatchObject({intent: MASKED, request: {transaction_id: 'ord-411111XXXXXX1111', reference: MASKED, metadata: {note: '411111XXXXXX1111'}}, keyed: expect.stringMatching(/^[a-p]{64}$/)})
    expect(lines[1]).toMatchObject({result: MASKED, keyed: lines[0]!.keyed, error: {messages: [`Reference ${MASKED} was taken`]}})
    expect(lines[2]).toMatchObject({intent: MASKED, keyed: expect.not.stringMatching(String(lines[0]!.keyed))})
    // A reference without a card number is kept as it is, and the line as it would be written anyway.
    expect(text.split('\n')[4]).toBe(JSON.stringify({intent: 'plain-1', row: 3, line: 4, request: {amount: 300, reference: 'plain-1'}, sent_at: '2026-11-22T10:00:00.000Z'}))
  })

  it('are found again by the references of the input: each row its own, the twin that masks alike another', async () => {
    const file = path()
    const first = await open(file, [CARD_REF, TWIN_REF])
    await first.intent({intent: CARD_REF, row: 1, line: 2, request: {amount: 100, reference: CARD_REF}, sent_at: '2026-11-22T10:00:00.000Z'})
    await first.result({result: CARD_REF, status: 'approved', exit_code: 0, record: {id: '071-R-1'}})
    await first.intent({intent: TWIN_REF, row: 2, line: 3, request: {amount: 200, reference: TWIN_REF}, sent_at: '2026-11-22T10:00:00.000Z'})
    await first.withdraw(TWIN_REF)
    await first.close()

    const again = await open(file, [CARD_REF, TWIN_REF])
    expect([...again.intents.keys()]).toEqual([CARD_REF])
    // Looked up, or sent again, a row's request carries its reference whole.
    expect(again.intents.get(CARD_REF)).toMatchObject({intent: CARD_REF, request: {amount: 100, reference: CARD_REF}})
    expect(again.results.get(CARD_REF)).toMatchObject({result: CARD_REF, status: 'approved'})
    expect(again.intents.has(TWIN_REF)).toBe(false)
    expect(again.inDoubtElsewhere).toEqual([])
    await again.close()

    // A dry run reads them as the run would.
    const peeked = await peekJournal(file, {command: 'refund create', input, target, references: inputOf([CARD_REF, TWIN_REF])})
    expect(peeked?.results.get(CARD_REF)).toMatchObject({status: 'approved'})
  })

  it("a resumed run hashes under the journal's key, so a third finds what the second wrote; a request naming another reference keeps it", async () => {
    const file = path()
    const first = await open(file, [CARD_REF])
    await first.intent({intent: CARD_REF, row: 1, line: 2, request: {amount: 100, reference: 'ord-4111111111111111-R1'}, sent_at: '2026-11-22T10:00:00.000Z'})
    await first.close()
    const second = await open(file, [CARD_REF])
    await second.result({result: CARD_REF, status: 'approved', exit_code: 0})
    await second.close()
    const third = await open(file, [CARD_REF, TWIN_REF, 'plain'])
    expect(third.results.get(CARD_REF)).toMatchObject({status: 'approved'})
    // Only what masks to the row's reference is the row's reference given back whole.
    expect(third.intents.get(CARD_REF)?.request).toStrictEqual({amount: 100, reference: 'ord-411111XXXXXX1111-R1'})
    await third.close()
  })

  it('a row in doubt the input no longer has is named masked, to be checked before it is sent again', async () => {
    const file = path()
    const first = await open(file, [CARD_REF])
    await first.intent({intent: CARD_REF, row: 1, line: 2, request: {amount: 100, reference: CARD_REF}, sent_at: '2026-11-22T10:00:00.000Z'})
    await first.close()
    const edited = await open(file, [TWIN_REF])
    expect(edited.intents.size).toBe(0)
    expect(edited.inDoubtElsewhere).toMatchObject([{intent: MASKED, line: 2}])
    await edited.close()
  })

  it("hash a reference under the journal's own key, its header line: another journal's hash of it differs", () => {
    const entry = {intent: CARD_REF, row: 1, line: 2, request: {}}
    const keyed = (header: string) => (JSON.parse(journalLine(entry, journalSecret(header))) as {keyed: string}).keyed
    expect(keyed('{"journal":1,"created_at":"a"}')).toBe(keyed('{"journal":1,"created_at":"a"}'))
    expect(keyed('{"journal":1,"created_at":"a"}')).not.toBe(keyed('{"journal":1,"created_at":"b"}'))
    expect(journalSecret('{"journal":1}')).toMatch(/^[\da-f]{64}$/)
  })
})

describe('what a journal kept masked, given back from the row as its input asks now', () => {
  it('each text the row masks to the kept one; one written otherwise stays masked, and the row shows as changed', () => {
    const asked = {transaction_id: 'ord-4111.1111.1111.1111', amount: 100, reference: CARD_REF, metadata: {note: 'x 4242 4242 4242 4242'}, lines: ['4111111111111111']}
    const kept = {transaction_id: 'ord-411111XXXXXX1111', amount: 100, reference: CARD_REF, metadata: {note: 'x 424242XXXXXX4242'}, lines: ['411111XXXXXX1111']}
    expect(restoredFrom(kept, asked)).toStrictEqual(asked)
    expect(restoredFrom(kept, {...asked, transaction_id: 'ord-4111.1111.0000.1111'})).toStrictEqual({...asked, transaction_id: 'ord-411111XXXXXX1111'})
    expect(restoredFrom('424242XXXXXX4242', '424242XXXXXX4242')).toBe('424242XXXXXX4242')
    expect(restoredFrom({a: 1}, undefined)).toStrictEqual({a: 1})
    expect(restoredFrom({a: 'x'}, null)).toStrictEqual({a: 'x'})
    expect(restoredFrom(null, {a: 1})).toBe(null)
    expect(restoredFrom(['x'], 'y')).toStrictEqual(['x'])
  })

  it('an intent: its request and the row as asked then', () => {
    const asked = {transaction_id: 'ord-4111111111111111', amount: 100}
    const kept = {intent: 'r-1', row: 1, line: 2, request: {transaction_id: 'ord-411111XXXXXX1111', amount: 100, reference: 'r-1'}, asked: {transaction_id: 'ord-411111XXXXXX1111'}}
    expect(restoredIntent(kept, asked)).toStrictEqual({...kept, request: {...kept.request, transaction_id: 'ord-4111111111111111'}, asked: {transaction_id: 'ord-4111111111111111'}})
    expect(restoredIntent(undefined, asked)).toBeUndefined()
    expect(restoredIntent({intent: 'r', row: 1, line: 1, request: {}}, asked)).toStrictEqual({intent: 'r', row: 1, line: 1, request: {}})
  })
})
