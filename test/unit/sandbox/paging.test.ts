import {describe, expect, it} from 'vitest'
import {SandboxError} from '../../../src/sandbox/domain/errors.js'
import {pageOf} from '../../../src/sandbox/domain/paging.js'

// Kept in the order they were made (1 the oldest), listed newest first as the live gateway lists.
const items = Array.from({length: 23}, (_, index) => index + 1)
const newestFirst = items.toReversed()

describe('pageOf', () => {
  it.each<[Record<string, string>, number[], Record<string, number>]>([
    [{}, newestFirst.slice(0, 10), {records: 10, total_records: 23, pages: 3, current_page: 1}],
    [{page: '3'}, [3, 2, 1], {records: 3, total_records: 23, pages: 3, current_page: 3}],
    [{page: '2', per_page: '20'}, [3, 2, 1], {records: 3, total_records: 23, pages: 2, current_page: 2}],
    [{offset: '5', limit: '5'}, [18, 17, 16, 15, 14], {records: 5, total_records: 23, pages: 5, current_page: 2}],
    [{offset: '7', limit: '5'}, [16, 15, 14, 13, 12], {records: 5, total_records: 23, pages: 5, current_page: 2}],
    [{offset: '20', page: '1'}, [3, 2, 1], {records: 3, total_records: 23, pages: 3, current_page: 3}],
    [{limit: '500'}, newestFirst, {records: 23, total_records: 23, pages: 1, current_page: 1}],
    [{page: '9'}, [], {records: 0, total_records: 23, pages: 3, current_page: 9}],
    [{page: ''}, newestFirst.slice(0, 10), {records: 10, total_records: 23, pages: 3, current_page: 1}],
  ])('%o', (query, records, fields) => {
    expect(pageOf(items, query)).toStrictEqual({records, fields})
  })

  it('counts an empty list as one empty page', () => {
    expect(pageOf([], {})).toStrictEqual({records: [], fields: {records: 0, total_records: 0, pages: 1, current_page: 1}})
  })

  it.each<Record<string, string>>([{page: '0'}, {limit: '0'}, {per_page: 'x'}, {offset: '-3'}, {page: '1.5'}])('refuses %o', (query) => {
    expect(() => pageOf(items, query)).toThrow(SandboxError)
  })
})

describe('pageOf with from and to', () => {
  // Two records a day from 2026-11-01, in the order they were made; read through at() only.
  const made = Array.from({length: 20}, (_, index) => ({n: index, at: `2026-11-${String(1 + Math.floor(index / 2)).padStart(2, '0')}T${index % 2 ? '18' : '09'}:00:00+00:00`}))
  const reads: number[] = []
  const positional = {length: made.length, at: (index: number) => (reads.push(index), made[index])}
  const page = (query: Record<string, string>) => pageOf(positional, query, (record) => record.at)

  it.each<[Record<string, string>, number[], number]>([
    [{from: '2026-11-03T00:00:00Z', to: '2026-11-04T23:59:59Z'}, [7, 6, 5, 4], 4],
    [{from: '2026-11-03T09:00:00Z', to: '2026-11-03T09:00:00Z'}, [4], 1],
    [{from: '2026-11-09T12:00:00Z'}, [19, 18, 17], 3],
    [{to: '2026-10-31T23:59:59Z'}, [], 0],
    [{from: '2026-11-05T00:00:00Z', to: '2026-11-01T00:00:00Z'}, [], 0],
    [{from: '2026-11-01T00:00:00Z', limit: '3', offset: '3'}, [16, 15, 14], 20],
  ])('%o', (query, numbers, total) => {
    const {records, fields} = page(query)
    expect(records.map((record) => record.n)).toEqual(numbers)
    expect(fields.total_records).toBe(total)
  })

  it('takes a date as the whole of that day where the sandbox runs', () => {
    const local = (day: number, hour: number) => new Date(2026, 10, day, hour).toISOString()
    const days = [local(2, 0), local(2, 23), local(3, 0)].map((at, n) => ({n, at}))
    expect(pageOf(days, {from: '2026-11-02', to: '2026-11-02'}, (record) => record.at).records.map((record) => record.n)).toEqual([1, 0])
    // As the gateway's recordings send it (gateway-notes.md): the same whole day.
    expect(pageOf(days, {from: '2026/11/02', to: '2026/11/02'}, (record) => record.at).records.map((record) => record.n)).toEqual([1, 0])
  })

  it('reads by binary search and the page alone, not every record', () => {
    reads.length = 0
    page({from: '2026-11-05T00:00:00Z', limit: '2'})
    expect(reads.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(made.length + 1)) + 2)
  })

  it.each(['yesterday', '2026-13-01', '2026-02-30', '2026/02/30', '2026-11/02', 'now'])('refuses from=%s', (from) => {
    expect(() => page({from})).toThrow(SandboxError)
  })
})
