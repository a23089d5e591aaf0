import {describe, expect, it} from 'vitest'
import {HANDED_AT_ONCE, HeldTexts} from '../../../src/api/held-text.js'
import {recordFromText, sentAs} from '../../../src/api/lazy-record.js'
import {splitListAnswer} from '../../../src/api/list-splitter.js'
import {type FetchPage, walkList} from '../../../src/api/paging.js'

// One answer that is the whole list, handed over the other way round (a page of any
// size in bounded memory): held as its records' texts, packed, only the last `keep` where no more
// will be taken, and handed over last first, a batch at a time, each record as it was read.

/** The n-th record made, a minute after the one before it, as a gateway's list sends it. */
const text = (n: number, extra = '') => `{"id":"071-P-${String(n).padStart(8, '0')}","reference":"order-${n}","transaction_date":"${new Date(Date.UTC(2026, 10, 17) + n * 60_000).toISOString()}"${extra}}`
/** Records as the list's answer reads them (list-text.ts): stand-ins over their texts. */
const read = (texts: string[]) => splitListAnswer(`{"successful":true,"response":[${texts.join(',')}]}`)!.records.map(recordFromText) as Record<string, unknown>[]
const range = (from: number, to: number) => Array.from({length: to - from}, (_, i) => from + i)

function handed(held: HeldTexts): Record<string, unknown>[][] {
  return [...held.lastFirst()] as Record<string, unknown>[][]
}

describe('HeldTexts', () => {
  it('hands every record over last first, a batch at a time, each with the text it came as and read as it was', () => {
    const held = new HeldTexts()
    const texts = range(0, 1_234).map((n) => text(n))
    held.add(read(texts.slice(0, 100)))
    held.add(read(texts.slice(100)))
    expect(held.count).toBe(1_234)
    const batches = handed(held)
    // Packed 500 at a time (the last block 234), handed over HANDED_AT_ONCE at a time from the last block back.
    expect(HANDED_AT_ONCE).toBe(100)
    expect(batches.map((batch) => batch.length)).toEqual([100, 100, 34, ...Array(10).fill(100)])
    const records = batches.flat()
    expect(records.map((record) => record.reference)).toEqual(range(0, 1_234).reverse().map((n) => `order-${n}`))
    expect(records.map((record) => sentAs(record))).toEqual([...texts].reverse())
    expect(JSON.parse(JSON.stringify(records[0]))).toEqual(JSON.parse(texts.at(-1)!))
    // Handed over once: nothing is left.
    expect(handed(held)).toEqual([])
  })

  it('with keep, hands over only the last ones, however many came; counts them all', () => {
    const held = new HeldTexts(51)
    for (const from of range(0, 40)) held.add(read(range(from * 250, from * 250 + 250).map((n) => text(n))))
    expect(held.count).toBe(10_000)
    const records = handed(held).flat()
    expect(records.map((record) => record.reference)).toEqual(range(10_000 - 51, 10_000).reverse().map((n) => `order-${n}`))
    // More kept than a block holds: packed, the blocks before them let go.
    const many = new HeldTexts(1_200)
    for (const from of range(0, 40)) many.add(read(range(from * 250, from * 250 + 250).map((n) => text(n))))
    expect(handed(many).flat().map((record) => record.reference)).toEqual(range(10_000 - 1_200, 10_000).reverse().map((n) => `order-${n}`))
    // Fewer than kept: every one.
    const few = new HeldTexts(51)
    few.add(read(range(0, 7).map((n) => text(n))))
    expect(handed(few).flat().map((record) => record.reference)).toEqual(range(0, 7).reverse().map((n) => `order-${n}`))
  })

  it('keeps whatever a text holds, as it came: other scripts, escapes, a record read by JSON.parse, a record far larger than a batch', () => {
    const texts = [text(0, ',"holder":"Zoë 山田 😀"'), text(1, ',"note":"a \\" ] } \\\\ quote"'), '{"id":"071-P-\\u0032","reference":"escaped"}', text(3, `,"pad":"${'x'.repeat(1_500_000)}"`), text(4)]
    const held = new HeldTexts()
    held.add(read(texts))
    // And one that is not the stand-in of a text: as JSON.stringify writes it.
    held.add([{id: 'plain', amount: 1}])
    const records = handed(held).flat()
    expect(records.map((record) => sentAs(record))).toEqual(['{"id":"plain","amount":1}', ...[...texts].reverse()])
    expect(records.map((record) => record.id)).toEqual(['plain', '071-P-00000004', '071-P-00000003', '071-P-2', '071-P-00000001', '071-P-00000000'])
    expect(records[5]!.holder).toBe('Zoë 山田 😀')
  })
})

describe('walkList over one answer that is the whole list, read as it comes (list-text.ts `more`)', () => {
  /** A gateway that ignores `limit`: every record in one answer, oldest first, its first `head` read and the rest in batches. */
  function oneAnswer(count: number, head = 500): FetchPage<Record<string, unknown>> {
    const texts = range(0, count).map((n) => text(n))
    return async () => ({
      records: read(texts.slice(0, head)),
      paging: {},
      more: (async function* () {
        for (let at = head; at < count; at += 300) yield read(texts.slice(at, at + 300))
      })(),
    })
  }

  const walk = async (fetch: FetchPage<Record<string, unknown>>, options: {order: 'newest' | 'oldest'; want?: number}) => {
    const batches: Record<string, unknown>[][] = []
    const states: unknown[] = []
    for await (const batch of walkList(fetch, {ahead: 1, onState: (state) => states.push(state), ...options})) batches.push(batch)
    return {references: batches.flat().map((record) => record.reference), sizes: batches.map((batch) => batch.length), states}
  }

  it('newest first of an answer oldest first: every record, last first, in batches; the count said once all are read', async () => {
    const {references, sizes, states} = await walk(oneAnswer(5_000), {order: 'newest'})
    expect(references).toEqual(range(0, 5_000).reverse().map((n) => `order-${n}`))
    expect(Math.max(...sizes)).toBe(HANDED_AT_ONCE)
    expect(states.at(-1)).toEqual({pages: 1, records: 5_000, size: 5_000, total: 5_000, order: 'newest'})
    expect(states).toContainEqual({pages: 1, records: 0, size: 800, order: 'newest'})
  })

  it('-L 50 (want 51): only the newest, though the whole answer is read', async () => {
    const {references, states} = await walk(oneAnswer(5_000), {order: 'newest', want: 51})
    expect(references).toEqual(range(5_000 - 51, 5_000).reverse().map((n) => `order-${n}`))
    expect(states.at(-1)).toMatchObject({records: 51, total: 5_000})
  })

  it('in the order it came: as it is read, nothing held', async () => {
    const {references} = await walk(oneAnswer(2_000), {order: 'oldest'})
    expect(references).toEqual(range(0, 2_000).map((n) => `order-${n}`))
  })
})
