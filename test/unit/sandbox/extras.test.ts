import {describe, expect, it} from 'vitest'
import {cvvProblem, readMetadata, threeDSecureProblems} from '../../../src/sandbox/domain/extras.js'

describe('readMetadata', () => {
  it('keeps text, takes numbers and flags as their text, skips nulls, and names nested values', () => {
    expect(readMetadata({a: 'x', b: 2, c: false, d: null})).toStrictEqual({metadata: {a: 'x', b: '2', c: 'false'}, errors: []})
    expect(readMetadata({a: {b: 1}, c: [1], d: 'ok'})).toStrictEqual({metadata: {d: 'ok'}, errors: ['Metadata a, c must be text, a number or true/false']})
    expect(readMetadata(undefined)).toStrictEqual({metadata: {}, errors: []})
  })
})

describe('threeDSecureProblems', () => {
  it.each<[Record<string, unknown>, string[]]>([
    [{}, []],
    [{sli: '06'}, []],
    [{sli: 5}, []],
    [{sli: '05', cavv: 'c', xid: 'x'}, []],
    [{sli: '02', cavv: 'c', xid: 'x', threeds_version: '1.0.2'}, []],
    [{sli: '05', cavv: 'c', threeds_version: '2'}, []],
    [{sli: '05', cavv: ' ', xid: 'x'}, ['Extra/cavv is required for SLI 05']],
    [{sli: '05', cavv: {}, threeds_version: '2.1'}, ['Extra/cavv is required for SLI 05']],
    [{sli: ' 02 '}, ['Extra/cavv is required for SLI 02', 'Extra/xid is required for SLI 02']],
    [{threeds_version: '2.2.0.1'}, ['Extra/threeds_version is not valid']],
    [{threeds_version: 3}, ['Extra/threeds_version is not valid']],
  ])('%j: %j', (extra, problems) => {
    expect(threeDSecureProblems(extra)).toStrictEqual(problems)
  })
})

describe('cvvProblem', () => {
  it.each<[boolean, string | undefined, Record<string, unknown>, string | undefined]>([
    [true, '123', {}, undefined],
    [true, undefined, {}, 'CVV is required'],
    [true, '  ', {}, 'CVV is required'],
    [true, undefined, {ecm: '32'}, undefined],
    [true, undefined, {ecm: 32}, undefined],
    [true, undefined, {ecm: ' '}, 'CVV is required'],
    [true, undefined, {ecm: null}, 'CVV is required'],
    [false, undefined, {}, undefined],
  ])('card details %s, cvv %j, extra %j: %s', (details, cvv, extra, problem) => {
    expect(cvvProblem(details, cvv, extra)).toBe(problem)
  })
})
