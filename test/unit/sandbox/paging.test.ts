import {describe, expect, it} from 'vitest'
import {SandboxError} from '../../../src/sandbox/errors.js'
import {pageOf} from '../../../src/sandbox/paging.js'

const items = Array.from({length: 23}, (_, index) => index + 1)

describe('pageOf', () => {
  it.each<[Record<string, string>, number[], Record<string, number>]>([
    [{}, items.slice(0, 10), {records: 10, total_records: 23, pages: 3, current_page: 1}],
    [{page: '3'}, [21, 22, 23], {records: 3, total_records: 23, pages: 3, current_page: 3}],
    [{page: '2', per_page: '20'}, [21, 22, 23], {records: 3, total_records: 23, pages: 2, current_page: 2}],
    [{offset: '5', limit: '5'}, [6, 7, 8, 9, 10], {records: 5, total_records: 23, pages: 5, current_page: 2}],
    [{offset: '7', limit: '5'}, [8, 9, 10, 11, 12], {records: 5, total_records: 23, pages: 5, current_page: 2}],
    [{offset: '20', page: '1'}, [21, 22, 23], {records: 3, total_records: 23, pages: 3, current_page: 3}],
    [{limit: '500'}, items, {records: 23, total_records: 23, pages: 1, current_page: 1}],
    [{page: '9'}, [], {records: 0, total_records: 23, pages: 3, current_page: 9}],
    [{page: ''}, items.slice(0, 10), {records: 10, total_records: 23, pages: 3, current_page: 1}],
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
