import {expect} from 'vitest'
import Report from '../../../src/commands/report.js'
import {parsesAs} from './parse-table.js'

// A bare date is a whole day in this machine's time zone: the expected instants are made in it too.
// The gateway's now is this machine's (no local gateway moved its clock).
parsesAs('report', Report, [
  {argv: ['--from', '2026-11-01', '--to', '2026-11-02'], input: {window: {from: new Date(2026, 10, 1), to: new Date(2026, 10, 3, 0, 0, 0, -1)}, now: expect.any(Date), concurrency: 4, maxPages: undefined, includeSamples: false}},
  {argv: ['--from', '2026-11-01T09:30Z', '--concurrency', '8', '--max-pages', '100'], input: {window: {from: new Date(Date.UTC(2026, 10, 1, 9, 30))}, now: expect.any(Date), concurrency: 8, maxPages: 100, includeSamples: false}},
  {argv: ['--from', '2026-11-02T00:00Z', '--to', '2026-11-01T12:00Z'], usage: '--from (2026-11-02T00:00:00.000Z) comes after --to (2026-11-01T12:00:00.000Z): no record can be in between'},
  {argv: ['--on', '2026-11-01'], input: {window: {from: new Date(2026, 10, 1), to: new Date(2026, 10, 2, 0, 0, 0, -1)}, now: expect.any(Date), concurrency: 4, maxPages: undefined, includeSamples: false}},
  {argv: ['--on', '2026-11-01', '--include-samples'], input: {window: {from: new Date(2026, 10, 1), to: new Date(2026, 10, 2, 0, 0, 0, -1)}, now: expect.any(Date), concurrency: 4, maxPages: undefined, includeSamples: true}},
  {argv: ['--on', 'today', '--from', '7d'], usage: '--on names both ends of the window: leave out --from'},
  {argv: ['--from', '2026-02-30'], usage: '--from must be a date (2026-11-17), a date-time (2026-11-17T09:30, or with an offset, +11:00 or Z), today, yesterday, a weekday (monday: the latest, today if it is one), this-week, last-week, this-month, last-month, or an age such as 7d, 24h or 2w; got "2026-02-30"'},
])
