import {describe, expect, it} from 'vitest'
import {suggestCommand, typedWords} from '../../../../src/cli/help/not-found.js'
import {closest, editDistance} from '../../../../src/cli/help/suggest.js'

const IDS = ['purchase:create', 'purchase:get', 'refund:create', 'refund:get', 'profile:list', 'sandbox:clock', 'sandbox:clock:advance', 'status']

describe('editDistance', () => {
  it.each([
    ['purchse', 'purchase', 1],
    ['gte', 'get', 1],
    ['status', 'status', 0],
    ['', 'abc', 3],
  ])('%s → %s is %i', (a, b, distance) => expect(editDistance(a, b)).toBe(distance))
})

describe('closest', () => {
  it('takes the nearest candidate, and nothing when none is near', () => {
    expect(closest('amout', ['amount', 'reference'])).toBe('amount')
    expect(closest('xyz', ['amount', 'reference'])).toBeUndefined()
    expect(closest('token', ['token-stdin', 'username'])).toBe('token-stdin')
    expect(closest('card', ['card-number', 'card-holder', 'cvv'])).toBeUndefined()
  })
})

describe('suggestCommand', () => {
  it.each([
    [['purchse', 'get', '071-P-AAAA1111'], {typed: ['purchse', 'get'], suggestion: 'purchase:get'}],
    [['purchase', 'gte'], {typed: ['purchase', 'gte'], suggestion: 'purchase:get'}],
    [['refnd'], {typed: ['refnd'], suggestion: 'refund'}],
    [['sandbox', 'clok', 'advance'], {typed: ['sandbox', 'clok'], suggestion: 'sandbox:clock'}],
    [['statsu'], {typed: ['statsu'], suggestion: 'status'}],
    [['frobnicate', 'now'], {typed: ['frobnicate']}],
    // Other tools' words for gw's verbs and topics (gh's view, the Stripe CLI's charges).
    [['purchase', 'view', 'X'], {typed: ['purchase', 'view'], suggestion: 'purchase:get'}],
    [['charges', 'create'], {typed: ['charges', 'create'], suggestion: 'purchase:create'}],
    [['profile', 'ls'], {typed: ['profile', 'ls'], suggestion: 'profile:list'}],
  ])('%j', (words, expected) => {
    expect(suggestCommand(words, IDS)).toEqual(expected)
  })
})

describe('typedWords', () => {
  it("are the id's and argv's words, a global flag's value none", () => {
    expect(typedWords('purchse', ['--profile', 'prod'])).toEqual(['purchse'])
    expect(typedWords('purchse:get', ['--json', '071-P-1', '--jq', '.id', '-'])).toEqual(['purchse', 'get', '071-P-1', '-'])
  })
})
