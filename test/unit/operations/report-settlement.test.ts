import {describe, expect, it} from 'vitest'
import {parseWindow} from '../../../src/lists/window.js'
import {settlementDaysOf} from '../../../src/operations/report.js'
import {settlementDate} from '../../../src/operations/settlement.js'

// gw report --settlement: the window's days, as this machine's calendar has them, looked up as the gateway writes days.
describe('settlementDaysOf', () => {
  const now = new Date(2026, 10, 26, 15, 30) // a Thursday, this machine's time

  it.each([
    [{on: 'today'}, {from: '2026-11-26', to: '2026-11-26'}],
    [{on: 'friday'}, {from: '2026-11-20', to: '2026-11-20'}],
    [{on: '2026-11-27'}, {from: '2026-11-27', to: '2026-11-27'}],
    [{on: 'last-week'}, {from: '2026-11-16', to: '2026-11-22'}],
    // From an age: the day it began, until today.
    [{from: '7d'}, {from: '2026-11-19', to: '2026-11-26'}],
    [{from: '2026-11-01', to: '2026-11-03'}, {from: '2026-11-01', to: '2026-11-03'}],
  ])('%o is %o', (flags, days) => {
    expect(settlementDaysOf(parseWindow(flags, now), now)).toEqual(days)
  })

  it('a window with no first day has none: the look-up takes both ends', () => {
    expect(settlementDaysOf(parseWindow({to: 'today'}, now), now)).toBeUndefined()
  })

  it('writes a day as the look-up takes it', () => {
    expect(settlementDate('2026-11-06')).toBe('2026/11/06')
  })
})
