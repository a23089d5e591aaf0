import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {ListSplitter, type RecordText, splitListAnswer} from '../../../src/api/list-splitter.js'
import {parseListBody, readListBody, sentAs} from '../../../src/api/list-text.js'
import {readFacts} from '../../../src/api/record-facts.js'

// JSON values with what trips a splitter: quotes, backslashes and brackets inside strings, and keys spelt so.
const tricky = fc.string({unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', ':', 'a', ' ', '\n', 'é', '\u2028', '0')})
const value = fc.letrec((tie) => ({
  value: fc.oneof({depthSize: 'small'}, tricky, fc.integer(), fc.double({noNaN: true, noDefaultInfinity: true}), fc.boolean(), fc.constant(null), tie('list'), tie('record')),
  list: fc.array(tie('value'), {maxLength: 4}),
  record: fc.dictionary(tricky, tie('value'), {maxKeys: 4}),
})).value
const record = fc.dictionary(tricky, value, {maxKeys: 5})
// A record with an id and a date (read from its text, not parsed), the rest as above.
const dated = fc
  .tuple(fc.string({unit: fc.constantFrom('a', '0', '-', ':', 'é', ']', '}', '"', '\\')}), fc.string({unit: fc.constantFrom('2', '0', '-', 'T', ':', '+')}), record)
  .map(([id, date, rest]) => ({id, ...rest, transaction_date: date}))
// How a gateway might space its JSON: compact, JSON.stringify's indent, or a tab.
const spacing = fc.constantFrom(undefined, 2, '\t')

describe('splitListAnswer', () => {
  it("finds each record of the envelope's response as its own text, whatever the strings hold", () => {
    fc.assert(
      fc.property(fc.array(record, {maxLength: 5}), fc.dictionary(fc.constantFrom('successful', 'errors', 'page', 'total_pages', 'x]},:['), value), spacing, (records, around, space) => {
        const envelope = {...around, response: records}
        const text = JSON.stringify(envelope, null, space)
        const split = splitListAnswer(text)!
        expect(split.records.map((part) => JSON.parse(part.text) as unknown)).toEqual(JSON.parse(JSON.stringify(records)))
        // Each record's facts as its text alone reads them.
        for (const part of split.records) expect(part.facts).toEqual(readFacts(part.text))
        expect(JSON.parse(split.envelope)).toEqual(JSON.parse(JSON.stringify({...envelope, response: []})))
      }),
    )
  })

  it("keeps each record's text exactly as sent", () => {
    const records = ['{"a":"x\\"]}","b":[1,{"c":"\\\\"}]}', '{ "d" : "]" }', '7', '"s\\\\"']
    expect(splitListAnswer(`{"successful":true,"response":[${records.join(' , ')}],"errors":[]}`)).toEqual({
      records: [{text: records[0], facts: {}}, {text: records[1], facts: {}}, {text: '7'}, {text: '"s\\\\"'}],
      envelope: '{"successful":true,"response":[],"errors":[]}',
    })
  })

  it('leaves a body of any other shape to be parsed whole', () => {
    for (const text of [
      '',
      '[]',
      '{}',
      '{"successful":true}',
      '{"successful":true,"response":null}',
      '{"successful":true,"response":{"id":1}}',
      '{"response":[1],"response":[2]}',
      '{"respons\\u0065":[1]}',
      '{"response":[1]} x',
      '{"response":[1]]}',
      '{"response":[1,]}',
      '{"response":[{"a":"]}',
      '<html>',
    ]) {
      expect(splitListAnswer(text), text).toBeUndefined()
    }
  })
})

describe('parseListBody', () => {
  it('reads what JSON.parse reads, each record keeping its text', () => {
    const text = '{"successful":true,"response":[{"id":"a"},{"id":"b","n":[1]}],"errors":[],"total_records":2}'
    const body = parseListBody(text)
    expect(body).toEqual({ok: true, value: JSON.parse(text)})
    const [first, second] = (body as {value: {response: object[]}}).value.response
    expect([sentAs(first!), sentAs(second!)]).toEqual(['{"id":"a"}', '{"id":"b","n":[1]}'])
  })

  it('parses a body the splitter cannot take apart whole, and one that is not JSON as such', () => {
    expect(parseListBody('{"successful":false,"response":null,"errors":["no"]}')).toEqual({ok: true, value: {successful: false, response: null, errors: ['no']}})
    expect(parseListBody('{"successful":true,"response":[{"a":tru}]}')).toEqual({ok: false})
  })
})

describe('ListSplitter', () => {
  it('hands back the same records and envelope however the body is cut into pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(record, dated), {maxLength: 6}), fc.array(fc.nat(), {maxLength: 12}), spacing, (records, cuts, space) => {
        const text = JSON.stringify({successful: true, response: records, errors: [], total_pages: 1}, null, space)
        const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b)
        const splitter = new ListSplitter()
        const found: RecordText[] = []
        for (const [index, end] of [...at, text.length].entries()) found.push(...splitter.push(text.slice(index === 0 ? 0 : at[index - 1], end))!)
        const end = splitter.end()!
        expect([...found, ...end.records]).toEqual(splitListAnswer(text)!.records)
        expect(end.envelope).toBe(splitListAnswer(text)!.envelope)
      }),
    )
  })

  it('says the envelope so far while the records come', () => {
    const splitter = new ListSplitter()
    expect(splitter.push('{"successful":true,"response":[{"id":1},{"id"')).toEqual([{text: '{"id":1}'}])
    expect(JSON.parse(splitter.envelopeSoFar()!)).toEqual({successful: true, response: []})
    expect(splitter.push(':"2"}, 3')).toEqual([{text: '{"id":"2"}', facts: {id: '2'}}])
    expect(splitter.push('4]')).toEqual([{text: '34'}])
    expect(splitter.end()).toBeUndefined()
  })
})

describe('readListBody', () => {
  const body = (text: string, size: number, read: {pieces: number; released: boolean}) => ({
    [Symbol.asyncIterator]() {
      let at = 0
      return {
        next: () => {
          if (at >= text.length) return Promise.resolve({done: true as const, value: undefined})
          read.pieces++
          const piece = Buffer.from(text.slice(at, (at += size)))
          return Promise.resolve({done: false as const, value: piece})
        },
        return: () => {
          read.released = true
          return Promise.resolve({done: true as const, value: undefined})
        },
      }
    },
  })
  const answer = (count: number, after = ',"errors":[],"page":0,"total_pages":1}') =>
    `{"successful":true,"response":[${Array.from({length: count}, (_, i) => `{"id":"071-P-${i}","note":"a ] } \\" quote"}`).join(',')}]${after}`

  it('reads a page of a few records whole, each keeping its text', async () => {
    const read = {pieces: 0, released: false}
    const list = await readListBody(body(answer(3), 7, read), {head: 10, status: 200})
    expect(list.more).toBeUndefined()
    expect(list.text).toBe(answer(3))
    expect(list.json).toEqual({ok: true, value: JSON.parse(answer(3))})
    const [first] = (list.json as {value: {response: object[]}}).value.response
    expect(sentAs(first!)).toBe('{"id":"071-P-0","note":"a ] } \\" quote"}')
  })

  it('hands back an answer of more records than `head` once they have come, the rest read as they are asked for', async () => {
    const read = {pieces: 0, released: false}
    const list = await readListBody(body(answer(1000), 256, read), {head: 20, status: 200})
    const first = (list.json as {value: {successful: boolean; response: {id: string}[]}}).value
    expect(first.successful).toBe(true)
    expect(first.response.length).toBeGreaterThan(20)
    expect(first.response.length).toBeLessThan(40)
    const asked = read.pieces
    const ids = first.response.map((record) => record.id)
    for await (const batch of list.more!) ids.push(...batch.map((record) => record.id as string))
    expect(ids).toEqual(Array.from({length: 1000}, (_, i) => `071-P-${i}`))
    expect(read.pieces).toBeGreaterThan(asked)
  })

  it('stops reading the body when its reader stops', async () => {
    const read = {pieces: 0, released: false}
    const list = await readListBody(body(answer(1000), 256, read), {head: 20, status: 200})
    for await (const batch of list.more!) if (batch.length > 0) break
    expect(read.released).toBe(true)
    expect(read.pieces).toBeLessThan(20)
  })

  it('fails after the records before it where the rest is not a list, or the envelope ends in errors', async () => {
    const read = {pieces: 0, released: false}
    const broken = await readListBody(body(answer(100, ',"x"]}'), 64, read), {head: 20, status: 200, requestId: 'req-1'})
    const seen: unknown[] = []
    await expect(
      (async () => {
        for await (const batch of broken.more!) seen.push(...batch)
      })(),
    ).rejects.toThrow("The gateway's list answer could not be read past its first")
    expect(seen.length + 21).toBeGreaterThan(90)
    const refused = await readListBody(body(answer(100, ',"successful":false,"errors":["Stopped"]}'), 64, read), {head: 20, status: 200})
    await expect(
      (async () => {
        for await (const batch of refused.more!) void batch
      })(),
    ).rejects.toThrow('Stopped')
  })
})
