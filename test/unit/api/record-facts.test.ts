import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {FACT_FIELDS, readFacts} from '../../../src/api/record-facts.js'

// What JSON.parse makes of a text's fact fields: the ones it holds at its top level, as strings.
function factsOf(text: string): Record<string, unknown> {
  const parsed = JSON.parse(text) as Record<string, unknown>
  return Object.fromEntries([...FACT_FIELDS].filter((field) => Object.hasOwn(parsed, field)).map((field) => [field, parsed[field]]))
}

/** readFacts is sound: whatever it reads, JSON.parse reads as an object with the same fact fields. */
function agrees(text: string): void {
  const facts = readFacts(text)
  if (facts === undefined) return
  let parsed: unknown
  expect(() => (parsed = JSON.parse(text)), text).not.toThrow()
  expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), text).toBe(true)
  expect({...facts}, text).toEqual(factsOf(text))
}

// Strings with what trips a reader: quotes, backslashes, brackets, controls (escaped by JSON.stringify), non-ASCII.
const tricky = fc.string({unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', ':', 'a', 'e', '1', ' ', '\n', '\t', 'é', '\u2028', '😀', '\u0000')})
const plain = fc.string({unit: fc.constantFrom('a', 'Z', '0', '9', '-', ':', '+', ' ', 'é', '/', '.', '[', '}', ',', '\u2028', '😀')})
const key = fc.oneof(tricky, fc.constantFrom(...FACT_FIELDS))
const value = fc.letrec((tie) => ({
  value: fc.oneof({depthSize: 'small'}, tricky, plain, fc.integer(), fc.double({noNaN: true, noDefaultInfinity: true}), fc.boolean(), fc.constant(null), tie('list'), tie('record')),
  list: fc.array(tie('value'), {maxLength: 4}),
  // Nested records with fact fields of their own: only the top level's count.
  record: fc.dictionary(key, tie('value'), {maxKeys: 4}),
})).value
// A record as a gateway sends one: fact fields as plain strings, anything else around them (its own keys written without escapes), in any order.
const record = fc
  .tuple(fc.dictionary(fc.constantFrom(...FACT_FIELDS), plain), fc.dictionary(plain, value, {maxKeys: 6}), fc.nat())
  .map(([facts, rest, seed]) => {
    const entries = [...Object.entries(rest).filter(([name]) => !FACT_FIELDS.has(name)), ...Object.entries(facts)]
    // Keys in another order each time.
    for (let i = entries.length - 1; i > 0; i--) {
      const j = (seed + i * 7) % (i + 1)
      ;[entries[i], entries[j]] = [entries[j]!, entries[i]!]
    }
    return Object.fromEntries(entries)
  })

describe('readFacts', () => {
  it("reads a compact record's fact fields, wherever they stand and whatever is around them", () => {
    fc.assert(
      fc.property(record, (made) => {
        const text = JSON.stringify(made)
        expect(readFacts(text), text).toBeDefined()
        agrees(text)
      }),
    )
  })

  it('reads nothing JSON.parse reads otherwise: spaced, cut, or with a character changed', () => {
    const spacing = fc.constantFrom(undefined, 1, '\t', '  ')
    const edits = fc.array(fc.tuple(fc.nat(), fc.nat({max: 2}), fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', ' ', '0', '-', 'e', '.', 't', 'n', 'u', 'é', '\n')), {maxLength: 3})
    fc.assert(
      fc.property(fc.oneof(record, value), spacing, edits, fc.nat(), (made, space, changes, cut) => {
        const text = JSON.stringify(made, null, space) ?? 'null'
        agrees(text)
        agrees(text.slice(0, cut % (text.length + 1)))
        let changed = text
        for (const [at, how, char] of changes) {
          const where = at % (changed.length + 1)
          changed = how === 0 ? changed.slice(0, where) + char + changed.slice(where) : how === 1 ? changed.slice(0, where) + changed.slice(where + 1) : changed.slice(0, where) + char + changed.slice(where + 1)
        }
        agrees(changed)
      }),
      {numRuns: 500},
    )
  })

  it('takes only the top level: a nested record with an id of its own is not the record', () => {
    expect(readFacts('{"metadata":{"id":"inner","created_at":"x"},"id":"outer","list":[{"id":"in a list"}]}')).toEqual({id: 'outer'})
    expect(readFacts('{"metadata":{"id":"inner"},"transaction_date":"2026-11-26T05:17:13+00:00"}')).toEqual({transaction_date: '2026-11-26T05:17:13+00:00'})
    expect(readFacts('{}')).toEqual({})
  })

  it('reads escapes, numbers, literals and non-ASCII around the fact fields as JSON.parse does', () => {
    const text = '{"name":"Zoë \\"Z\\" \\u00e9\\\\","amount":-10.5e+3,"n":0,"ok":true,"no":false,"none":null,"list":[],"m":{},"id":"071-P-é😀", "token" : "t"}'
    expect(readFacts(text)).toEqual({id: '071-P-é😀', token: 't'})
    agrees(text)
  })

  it('leaves to JSON.parse what it does not read plainly', () => {
    for (const text of [
      // An escape in a fact field's value, or in a top-level key (which may spell one).
      '{"id":"a\\"b"}',
      '{"id":"\\u0061"}',
      '{"\\u0069d":"x"}',
      '{"n\\u0061me":"x","id":"y"}',
      // A fact field twice, or not a string.
      '{"id":"a","id":"b"}',
      '{"id":7}',
      '{"id":null}',
      '{"transaction_date":{"at":"x"}}',
      '{"created_at":["x"]}',
      '{"token":true}',
      // A raw tab or line break, even between tokens.
      '{"id":"a",\t"b":1}',
      '{\n"id":"a"}',
      // Deeper than it reads.
      `{"a":${'['.repeat(30)}${']'.repeat(30)}}`,
      // Not a record.
      '[{"id":"a"}]',
      '"id"',
      '7',
      ' ',
      '',
    ]) {
      expect(readFacts(text), text).toBeUndefined()
    }
    // As deep as it reads.
    expect(readFacts(`{"a":${'['.repeat(29)}${']'.repeat(29)},"id":"x"}`)).toEqual({id: 'x'})
  })

  it('reads no text that is not JSON', () => {
    for (const text of [
      '{"a":01}',
      '{"a":1.}',
      '{"a":.5}',
      '{"a":1e}',
      '{"a":-}',
      '{"a":+1}',
      '{"a":1,}',
      '{,"a":1}',
      '{"a" 1}',
      '{"a"::1}',
      '{"a":1 "b":2}',
      '{"a":tru}',
      '{"a":nul}',
      '{"a":"\\x"}',
      '{"a":"\\u12g4"}',
      '{"a":"b}',
      '{"a":[1,]}',
      '{"a":[,1]}',
      '{"a":[1}',
      '{"a":{"b":1]}',
      '{"a":1}}',
      '{"a":1} x',
      '{"a":1',
      '{"ab',
      '{"m":{"\\x":1}}',
      '{a:1}',
      "{'a':1}",
      '{"a":\\"b"}',
    ]) {
      expect(readFacts(text), text).toBeUndefined()
      expect(() => JSON.parse(text), text).toThrow()
    }
  })
})
