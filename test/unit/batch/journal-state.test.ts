import {describe, expect, it} from 'vitest'
import type {Intent, Result} from '../../../src/batch/journal-entries.js'
import {isFinal, journalState, setAside, standingOf} from '../../../src/batch/journal-state.js'

const intent = (reference: string): Intent => ({intent: reference, row: 1, line: 2, request: {reference}, sent_at: '2026-11-22T10:00:00.000Z'})
const result = (reference: string, exit_code: number): Result => ({result: reference, status: 'x', exit_code})

describe('a row’s standing in its journal', () => {
  it.each([
    [0, true],
    [3, true],
    [7, true],
    [1, false],
    [2, false],
    [4, false],
    [5, false],
    [6, false],
    [8, false],
  ])('an answer that exits %i stands: %s', (code, final) => {
    expect(isFinal(result('r', code))).toBe(final)
  })

  it.each([
    ['nothing journaled', undefined, undefined, 'notStarted'],
    ['an intent alone', intent('r'), undefined, 'inDoubt'],
    ['an intent and an answer that stands', intent('r'), result('r', 0), 'answered'],
    ['an intent and an answer that does not (a 5xx)', intent('r'), result('r', 1), 'inDoubt'],
    ['an answer that stands, its intent taken back', undefined, result('r', 3), 'answered'],
    ['an answer that does not stand, its intent taken back', undefined, result('r', 8), 'notStarted'],
  ] as const)('%s: %s', (_, sent, answer, standing) => {
    expect(standingOf(sent, answer)).toBe(standing)
  })

  it('counts a journal’s rows by their standing, the rows it names nothing of not started', () => {
    const intents = new Map([
      ['a', intent('a')],
      ['b', intent('b')],
      ['c', intent('c')],
    ])
    const results = new Map([
      ['a', result('a', 0)],
      ['b', result('b', 8)],
      ['d', result('d', 7)],
      ['e', result('e', 1)],
    ])
    expect(journalState({intents, results}, 10)).toEqual({answered: 2, inDoubt: 2, notStarted: 6})
    expect(journalState({intents: new Map(), results: new Map()}, 3)).toEqual({answered: 0, inDoubt: 0, notStarted: 3})
    // An edited file may hold fewer rows than the journal names: none is negative.
    expect(journalState({intents, results}, 3)).toEqual({answered: 2, inDoubt: 2, notStarted: 0})
  })

  it('setAside: the entries of rows the input no longer has are neither counted nor looked up, one in doubt is named, and their intents returned', () => {
    const journal = {
      intents: new Map(['answered', 'in-doubt', 'failed', 'kept'].map((reference) => [reference, intent(reference)])),
      results: new Map([result('answered', 0), result('failed', 1), result('kept', 0)].map((entry) => [entry.result, entry])),
      inDoubtElsewhere: [intent('there-before')],
    }
    expect(setAside(journal, (reference) => reference !== 'kept').map((entry) => entry.intent)).toEqual(['answered', 'in-doubt', 'failed'])
    expect([...journal.intents.keys()]).toEqual(['kept'])
    expect([...journal.results.keys()]).toEqual(['kept'])
    expect(journal.inDoubtElsewhere.map((entry) => entry.intent)).toEqual(['there-before', 'in-doubt', 'failed'])
  })
})
