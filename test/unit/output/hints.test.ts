import {spawnSync} from 'node:child_process'
import {describe, expect, it} from 'vitest'
import {hintFor, inFlightName, localDeclineHint, notYetNotice, recoveryNotice, shellQuote, waitingNotice, waitingStatus} from '../../../src/output/hints.js'
import {InterruptedError} from '../../../src/errors.js'
import {sanitize} from '../../../src/safety/sanitize.js'

describe('shellQuote', () => {
  it.each([
    ['order-1001', 'order-1001'],
    ["it's 50%", `'it'\\''s 50%'`],
    ['inv\u001B[2K\r\\x', `$'inv\\x1B[2K\\x0D\\\\x'`],
  ])('%j → %s', (value, quoted) => {
    expect(shellQuote(value)).toBe(quoted)
  })

  it.each(['C', 'C.UTF-8'])('survives sanitize unchanged and names the same value when pasted into bash (LC_ALL=%s)', (locale) => {
    for (const value of ["it's", 'a\u001B]0;t\u0007b', "x'\u009B\\y", 'Zoë 山田']) {
      const quoted = shellQuote(value)
      expect(sanitize(quoted)).toBe(quoted)
      // --norc: bash whose stdin is a socket reads ~/.bashrc, the developer's own.
      const echoed = spawnSync('bash', ['--norc', '-c', `printf %s ${quoted}`], {encoding: 'utf8', env: {PATH: process.env.PATH, LC_ALL: locale}})
      expect(echoed.stdout).toBe(value)
    }
  })

  it('writes a C1 character as the two bytes of its UTF-8', () => {
    expect(shellQuote('a\u009Bb')).toBe(`$'a\\xC2\\x9Bb'`)
  })
})

describe('recoveryNotice', () => {
  const event = {noun: 'purchase' as const, reference: 'order 1', why: 'socket hang up'}

  it.each([
    [{...event, step: 'looking_up' as const}, "No answer to the purchase that could be read (socket hang up); looking reference order 1 up at the gateway."],
    [{...event, step: 'waiting' as const, since: 2_000, endsAt: 60_000}, 'The gateway has no purchase with reference order 1 yet, and may still be processing it: looking again for up to 58 s.'],
    [{...event, step: 'waited' as const}, undefined],
    [{...event, step: 'found' as const}, 'Found the purchase by its reference: the gateway processed it once.'],
  ])('%o', (told, notice) => {
    expect(recoveryNotice(told)).toBe(notice)
  })

  it('a wait already over says 0 s, never less', () => {
    expect(notYetNotice('refund', 'r-1', -5_000)).toBe('The gateway has no refund with reference r-1 yet, and may still be processing it: looking again for up to 0 s.')
  })

  it('a follow-up names its record by id, never as a reference: what is not there yet is the change', () => {
    const capture = {noun: 'purchase' as const, reference: '071-P-1', action: 'capture' as const}
    expect(inFlightName(capture)).toBe('capture of purchase 071-P-1')
    expect(inFlightName({noun: 'refund', reference: 'r-1'})).toBe('refund with reference r-1')
    expect(notYetNotice('purchase', '071-P-1', 3_000, 'capture')).toBe('Purchase 071-P-1 shows no capture yet, and the gateway may still be processing it: looking again for up to 3 s.')
    expect(notYetNotice('refund', '071-R-1', 1_000, 'void')).toBe('Refund 071-R-1 shows no void yet, and the gateway may still be processing it: looking again for up to 1 s.')
    expect(waitingNotice('SIGINT', capture)).toBe('\nCtrl-C: the capture of purchase 071-P-1 has been sent; waiting for its answer to show what became of it (Ctrl-C again to stop at once, leaving it unknown).\n')
    expect(hintFor(new InterruptedError('SIGINT', capture))).toBe('The capture of purchase 071-P-1 may have reached the gateway. Do not resend it until you have checked: gw purchase get 071-P-1')
    expect(waitingStatus('capture', 2, 5)).toBe('Waiting for the gateway to process 2 captures in doubt: 5 s left')
  })

  it('the foot line names one row by its noun, several by their count', () => {
    expect(waitingStatus('refund', 1, 12)).toBe('Waiting for the gateway to process the refund in doubt: 12 s left')
    expect(waitingStatus('refund', 3, 0)).toBe('Waiting for the gateway to process 3 refunds in doubt: 0 s left')
  })
})

describe('localDeclineHint', () => {
  const declined = {amount: 1250, card_number: '424242XXXXXX4242', response_code: '50', message: 'Declined', successful: false}

  it.each([
    [declined, "The local gateway's rule: cents 50 → Declined (cents 00 approve); gw help test-cards"],
    [{...declined, amount: 10051, response_code: '51', message: 'Insufficient Funds'}, "The local gateway's rule: cents 51 → Insufficient Funds (cents 00 approve); gw help test-cards"],
    [{...declined, amount: 1000, card_number: '455701XXXXXX8902', response_code: '05'}, "The local gateway's rule: card 455701XXXXXX8902 → Declined, whatever the amount; gw help test-cards"],
    // The live dialect's records may leave the response code out: the message still has to agree.
    [{amount: 1205, card_number: '424242XXXXXX4242', message: 'Refer to Card Issuer'}, "The local gateway's rule: cents 05 → Refer to Card Issuer (cents 00 approve); gw help test-cards"],
  ])('%j: %s', (record, hint) => {
    expect(localDeclineHint(record)).toBe(hint)
  })

  it.each([
    ['a decline the rule did not give (a trigger sample, an expired card)', {...declined, response_code: '54', message: 'Expired Card'}],
    ['a message the rule does not give for those cents', {...declined, message: 'Insufficient Funds'}],
    ['cents that approve', {...declined, amount: 1000}],
    ['a card approved whatever the cents', {...declined, card_number: '512345XXXXXX2346'}],
    ['no amount', {...declined, amount: undefined}],
    ['an amount that is not whole cents', {...declined, amount: 12.5}],
    ['no card', {...declined, card_number: undefined}],
  ])('says nothing for %s', (_, record) => {
    expect(localDeclineHint(record)).toBeUndefined()
  })
})
