import {describe, expect, it} from 'vitest'
import {historyFailure, historyRequest, historySummary} from '../../../src/seed/history.js'
import {NotFoundError, RejectedError, UsageError} from '../../../src/errors.js'
import SandboxSeed from '../../../src/commands/sandbox/seed.js'
import {HISTORY_DEFAULTS} from '../../../src/api/schemas/sandbox-control.js'

describe('a quick history from gw sandbox seed\'s flags', () => {
  it('sends only what was given: the local gateway makes the rest as it does by default', () => {
    expect(historyRequest({purchases: 5})).toEqual({purchases: 5})
    expect(historyRequest({purchases: 5, refunds: 0, days: 1, cards: 1, 'reference-prefix': 'x'})).toEqual({purchases: 5, refunds: 0, days: 1, cards: 1, reference_prefix: 'x'})
  })

  it('names the defaults in the flags\' help as the gateway has them', () => {
    const flags = SandboxSeed.flags as Record<string, {description?: string}>
    expect(flags.days!.description).toContain(`(${HISTORY_DEFAULTS.days} unless given)`)
    expect(flags.cards!.description).toContain(`(${HISTORY_DEFAULTS.cards} unless given)`)
    expect(flags['reference-prefix']!.description).toContain(`(${HISTORY_DEFAULTS.reference_prefix} unless given)`)
    expect(HISTORY_DEFAULTS.refunds).toBe(0)
    expect(flags.refunds!.description).toContain('(none unless given)')
  })

  it('says what it made in one line', () => {
    const made = {purchases: 10_000, refunds: 100_000, cards: 4, reference_prefix: 'hist', from: '2026-09-29T02:07:26+11:00', to: '2026-11-28T01:42:35+11:00'}
    expect(historySummary(made, 3240)).toBe('10,000 purchases and 100,000 refunds on 4 cards, 2026-09-29 to 2026-11-28 (hist-p1 to hist-p10000), made in 3.2 s.\n')
    expect(historySummary({...made, purchases: 1, refunds: 1, cards: 1}, 40)).toBe('1 purchase and 1 refund on 1 card, 2026-09-29 to 2026-11-28 (hist-p1), made in 0.0 s.\n')
  })
})

describe('a quick history not made', () => {
  it('by a gateway with no such control: said as what it is, exit 2', () => {
    const failure = historyFailure(new NotFoundError('Not Found')) as UsageError
    expect(failure).toBeInstanceOf(UsageError)
    expect(failure.message).toBe('A quick history is made by the local gateway only, and this gateway has no such control: nothing was made')
  })

  it('refused for its references: the refusal as it came, with what to give instead', () => {
    const failure = historyFailure(new RejectedError('Reference hist-p1 is already taken', {status: 400, requestId: 'r-1'})) as RejectedError
    expect(failure).toMatchObject({exitCode: 7, message: 'Reference hist-p1 is already taken', status: 400, requestId: 'r-1', hint: 'Give another --reference-prefix, or seed a local gateway started afresh.'})
    const other = new Error('socket hang up')
    expect(historyFailure(other)).toBe(other)
  })
})
