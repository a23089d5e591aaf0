import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {UsageError} from '../../../src/errors.js'
import {daysFrom, gatewayDays, parseWhen, parseWindow, withinWindow} from '../../../src/lists/window.js'
import {expectThrow} from '../../expect-error.js'

// Bare dates mean this machine's time zone (TZ): the tests fix one east of UTC.
let zone: string | undefined
beforeEach(() => {
  zone = process.env.TZ
  process.env.TZ = 'Australia/Sydney'
})
afterEach(() => {
  if (zone === undefined) delete process.env.TZ
  else process.env.TZ = zone
})

// 2026-11-23 10:15 in Sydney (UTC+11 in summer).
const now = new Date('2026-11-22T23:15:00Z')

describe('parseWhen', () => {
  it.each([
    ['2026-11-17', 'from', '2026-11-16T13:00:00.000Z'],
    ['2026-11-17', 'to', '2026-11-17T12:59:59.999Z'],
    ['2026/11/17', 'from', '2026-11-16T13:00:00.000Z'],
    ['today', 'from', '2026-11-22T13:00:00.000Z'],
    ['Today', 'to', '2026-11-23T12:59:59.999Z'],
    ['yesterday', 'from', '2026-11-21T13:00:00.000Z'],
    ['yesterday', 'to', '2026-11-22T12:59:59.999Z'],
    ['7d', 'from', '2026-11-15T23:15:00.000Z'],
    ['24h', 'from', '2026-11-21T23:15:00.000Z'],
    ['2w', 'to', '2026-11-08T23:15:00.000Z'],
    ['2026-11-17T09:30', 'from', '2026-11-16T22:30:00.000Z'],
    ['2026-11-17 09:30:15', 'from', '2026-11-16T22:30:15.000Z'],
    ['2026-11-17T09:30Z', 'from', '2026-11-17T09:30:00.000Z'],
    ['2026-11-17T09:30:00.5+05:30', 'to', '2026-11-17T04:00:00.500Z'],
    ['2026-11-17T09:30-0800', 'from', '2026-11-17T17:30:00.000Z'],
    // Winter in Sydney is UTC+10: a bare date follows the zone's own offset on that day.
    ['2026-07-01', 'from', '2026-06-30T14:00:00.000Z'],
  ] as const)('%s as --%s is %s', (text, edge, iso) => {
    expect(parseWhen(text, edge, now).toISOString()).toBe(iso)
  })

  it.each(['2026-02-30', '2026-13-01', '2026-11-17T25:00', '2026-11-17T09:61', 'next week', 'mon', 'last-year', '7', '-7d', '17/11/2026', ''])(
    'refuses %j locally (the gateway would answer an HTML 500), exit 2 naming the flag',
    (text) => {
      const refused = (() => {
        try {
          parseWhen(text, 'from', now)
        } catch (err) {
          return err
        }
      })()
      expect(refused).toBeInstanceOf(UsageError)
      expect((refused as UsageError).exitCode).toBe(2)
      expect((refused as UsageError).message).toBe(
        `--from must be a date (2026-11-17), a date-time (2026-11-17T09:30, or with an offset, +11:00 or Z), today, yesterday, a weekday (monday: the latest, today if it is one), this-week, last-week, this-month, last-month, or an age such as 7d, 24h or 2w; got "${text}"`,
      )
    },
  )

  it('in another zone, the same bare date is another instant', () => {
    process.env.TZ = 'America/Los_Angeles'
    expect(parseWhen('2026-11-17', 'from', now).toISOString()).toBe('2026-11-17T08:00:00.000Z')
  })
})

// The days people name. \`now\` is Monday 23 November in Sydney, while UTC is still at
// Sunday 22nd: the days are Sydney's. Weeks run Monday to Sunday (ISO 8601).
describe('named days and spans', () => {
  it.each([
    // A weekday is the latest one, today when it is that day.
    ['monday', '2026-11-22T13:00:00.000Z', '2026-11-23T12:59:59.999Z'],
    ['Sunday', '2026-11-21T13:00:00.000Z', '2026-11-22T12:59:59.999Z'],
    ['tuesday', '2026-11-16T13:00:00.000Z', '2026-11-17T12:59:59.999Z'],
    ['wednesday', '2026-11-17T13:00:00.000Z', '2026-11-18T12:59:59.999Z'],
    ['thursday', '2026-11-18T13:00:00.000Z', '2026-11-19T12:59:59.999Z'],
    ['friday', '2026-11-19T13:00:00.000Z', '2026-11-20T12:59:59.999Z'],
    ['saturday', '2026-11-20T13:00:00.000Z', '2026-11-21T12:59:59.999Z'],
    // Monday 23rd to Sunday 29th; the one before; the same said with a space.
    ['this-week', '2026-11-22T13:00:00.000Z', '2026-11-29T12:59:59.999Z'],
    ['last-week', '2026-11-15T13:00:00.000Z', '2026-11-22T12:59:59.999Z'],
    ['Last Week', '2026-11-15T13:00:00.000Z', '2026-11-22T12:59:59.999Z'],
    // November; October, which began in winter time (UTC+10) and ended in summer time (UTC+11).
    ['this-month', '2026-10-31T13:00:00.000Z', '2026-11-30T12:59:59.999Z'],
    ['last-month', '2026-09-30T14:00:00.000Z', '2026-10-31T12:59:59.999Z'],
  ] as const)('%s runs from %s to %s', (text, from, to) => {
    expect(parseWhen(text, 'from', now).toISOString()).toBe(from)
    expect(parseWhen(text, 'to', now).toISOString()).toBe(to)
  })

  it('on another weekday, the weekday named is the latest past one', () => {
    // Thursday 26 November, 9:00 in Sydney.
    const thursday = new Date('2026-11-25T22:00:00Z')
    expect(parseWhen('monday', 'from', thursday).toISOString()).toBe('2026-11-22T13:00:00.000Z')
    expect(parseWhen('friday', 'from', thursday).toISOString()).toBe('2026-11-19T13:00:00.000Z')
    expect(parseWhen('thursday', 'to', thursday).toISOString()).toBe('2026-11-26T12:59:59.999Z')
  })

  it('in winter (UTC+10): a week, a month', () => {
    // Wednesday 1 July 2026, noon in Sydney.
    const winter = new Date('2026-07-01T02:00:00Z')
    expect(parseWindow({from: 'last-week', to: 'last-week'}, winter)).toEqual({from: new Date('2026-06-21T14:00:00.000Z'), to: new Date('2026-06-28T13:59:59.999Z')})
    expect(parseWindow({from: 'last-month', to: 'last-month'}, winter)).toEqual({from: new Date('2026-05-31T14:00:00.000Z'), to: new Date('2026-06-30T13:59:59.999Z')})
    expect(parseWhen('monday', 'from', winter).toISOString()).toBe('2026-06-28T14:00:00.000Z')
  })

  it('a week across the change to summer time (Sunday 4 October 2026) is 167 hours long', () => {
    // Wednesday 7 October 2026 in Sydney.
    const window = parseWindow({from: 'last-week', to: 'last-week'}, new Date('2026-10-07T01:00:00Z'))
    expect(window).toEqual({from: new Date('2026-09-27T14:00:00.000Z'), to: new Date('2026-10-04T12:59:59.999Z')})
    expect((window.to!.getTime() + 1 - window.from!.getTime()) / 3_600_000).toBe(167)
  })

  it('yesterday, last week and last month reach back over the turn of a month and a year', () => {
    // Friday 1 January 2027, 8:00 in Sydney.
    const newYear = new Date('2026-12-31T21:00:00Z')
    expect(parseWindow({from: 'yesterday', to: 'yesterday'}, newYear)).toEqual({from: new Date('2026-12-30T13:00:00.000Z'), to: new Date('2026-12-31T12:59:59.999Z')})
    expect(parseWhen('last-month', 'from', newYear).toISOString()).toBe('2026-11-30T13:00:00.000Z')
    expect(parseWhen('last-week', 'from', newYear).toISOString()).toBe('2026-12-20T13:00:00.000Z')
    expect(parseWhen('this-week', 'from', newYear).toISOString()).toBe('2026-12-27T13:00:00.000Z')
  })

  it('--from a day after --to the latest of an earlier weekday is refused, as any reversed window', () => {
    // On Monday the latest Friday is last week's: from Monday to Friday is backwards, and the hint says why.
    const refused = (() => {
      try {
        parseWindow({from: 'monday', to: 'friday'}, now)
      } catch (err) {
        return err
      }
    })()
    expect(refused).toBeInstanceOf(UsageError)
    expect((refused as UsageError).hint).toBe('A weekday is the latest one, today included: for this week give --from this-week (or --from monday alone).')
  })
})

describe('parseWindow', () => {
  it('reads both ends, either left open', () => {
    expect(parseWindow({from: 'yesterday', to: 'yesterday'}, now)).toEqual({from: new Date('2026-11-21T13:00:00.000Z'), to: new Date('2026-11-22T12:59:59.999Z')})
    expect(parseWindow({}, now)).toEqual({})
  })

  it('refuses --from after --to', () => {
    expectThrow(() => parseWindow({from: 'today', to: 'yesterday'}, now), UsageError, '--from (2026-11-22T13:00:00.000Z) comes after --to (2026-11-22T12:59:59.999Z): no record can be in between')
  })

  it('--on DAY is that day alone, as --from DAY --to DAY; a weekday the latest one; a span the whole span', () => {
    expect(parseWindow({on: 'yesterday'}, now)).toEqual(parseWindow({from: 'yesterday', to: 'yesterday'}, now))
    expect(parseWindow({on: 'yesterday'}, now)).toEqual({from: new Date('2026-11-21T13:00:00.000Z'), to: new Date('2026-11-22T12:59:59.999Z')})
    // A Monday in Sydney: the latest Tuesday is six days back.
    expect(parseWindow({on: 'Tuesday'}, now)).toEqual({from: new Date('2026-11-16T13:00:00.000Z'), to: new Date('2026-11-17T12:59:59.999Z')})
    expect(parseWindow({on: '2026-11-17'}, now)).toEqual(parseWindow({on: 'tuesday'}, now))
    expect(parseWindow({on: 'last week'}, now)).toEqual(parseWindow({from: 'last-week', to: 'last-week'}, now))
  })

  it('--on refuses what is no day (an age, a time), pointing to --from', () => {
    expectThrow(() => parseWindow({on: '7d'}, now), UsageError, '--on must be a day: a date (2026-11-17), today, yesterday or a weekday; or this-week, last-week, this-month or last-month; got "7d"')
    expect(() => parseWindow({on: '2026-11-17T09:30'}, now)).toThrow(expect.objectContaining({hint: 'For a window from a time or an age until now, give --from 2026-11-17T09:30.'}))
    expect(() => parseWindow({on: '7d'}, now)).toThrow(expect.objectContaining({hint: 'For a window from a time or an age until now, give --from 7d.'}))
    // A typo is no value of --from either: not pointed there.
    expect(() => parseWindow({on: 'tomorow'}, now)).toThrow(expect.objectContaining({hint: 'For example --on yesterday, --on monday or --on 2026-11-17.'}))
    expectThrow(() => parseWindow({on: '2026-02-30'}, now), UsageError, '--on must be a day: a date (2026-11-17), today, yesterday or a weekday; or this-week, last-week, this-month or last-month; got "2026-02-30"')
    expectThrow(() => parseWindow({on: 'today', from: '7d', to: 'now'}, now), UsageError, '--on names both ends of the window: leave out --from and --to')
  })
})

describe('gatewayDays', () => {
  it("sends whole days in the gateway's form, from the UTC day before to the UTC day after, whatever its zone", () => {
    expect(gatewayDays(parseWindow({from: '2026-11-17', to: '2026-11-17'}, now))).toEqual({from: '2026/11/15', to: '2026/11/18'})
    expect(gatewayDays({from: new Date('2026-01-01T00:30:00Z')})).toEqual({from: '2025/12/31'})
    expect(gatewayDays({to: new Date('2026-12-31T23:30:00Z')})).toEqual({to: '2027/01/01'})
    expect(gatewayDays({})).toEqual({})
  })
})

describe('withinWindow', () => {
  // Read inside each test, once the zone is set.
  const window = () => parseWindow({from: '2026-11-17', to: '2026-11-17'}, now)
  it.each([
    ['2026-11-17T00:00:00+11:00', true],
    ['2026-11-17T23:59:59+11:00', true],
    ['2026-11-16T23:59:59+11:00', false],
    ['2026-11-18T00:00:00+11:00', false],
    ['2026-11-16T13:30:00Z', true],
    ['2026-11-17', true],
    ['not a date', false],
    [undefined, false],
  ])('%s: %s', (time, inside) => {
    expect(withinWindow(window(), time)).toBe(inside)
  })

  it('an open window takes every record, even one without a time', () => {
    expect(withinWindow({}, undefined)).toBe(true)
  })
})

describe('daysFrom: every calendar day between two, both included', () => {
  it('crosses months, years, a leap day and a change of offset without skipping or repeating a day', () => {
    expect(daysFrom('2026-11-29', '2026-12-02')).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02'])
    expect(daysFrom('2023-12-31', '2024-01-01')).toEqual(['2023-12-31', '2024-01-01'])
    expect(daysFrom('2024-02-28', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01'])
    // Sydney's clocks go forward on 2026-10-04.
    expect(daysFrom('2026-10-03', '2026-10-05')).toEqual(['2026-10-03', '2026-10-04', '2026-10-05'])
    expect(daysFrom('2026-11-17', '2026-11-17')).toEqual(['2026-11-17'])
    expect(daysFrom('2026-11-18', '2026-11-17')).toEqual([])
  })
})
