import PurchaseCapture from '../../../src/commands/purchase/capture.js'
import PurchaseExtend from '../../../src/commands/purchase/extend.js'
import PurchaseIncrement from '../../../src/commands/purchase/increment.js'
import PurchaseSettlement from '../../../src/commands/purchase/settlement.js'
import PurchaseVoid from '../../../src/commands/purchase/void.js'
import RefundVoid from '../../../src/commands/refund/void.js'
import WebhookUpdate from '../../../src/commands/webhook/update.js'
import {parsesAs} from './parse-table.js'

const batch = {input: 'shipped.csv', concurrency: undefined, 'skip-invalid': undefined, 'dry-run': undefined, journal: undefined, verify: undefined}

parsesAs('purchase capture', PurchaseCapture, [
  {argv: ['071-P-ABCDEFGH'], input: {id: '071-P-ABCDEFGH', amount: undefined}},
  {argv: ['071-P-ABCDEFGH', '--amount', '600'], input: {id: '071-P-ABCDEFGH', amount: 600}},
  {argv: ['--input', 'shipped.csv'], input: {batch}},
  {argv: [], usage: 'give the id or reference of the authorization to capture, or --input FILE'},
  {argv: ['071-P-ABCDEFGH', '--input', 'shipped.csv'], usage: 'give an id or --input, not both'},
  {argv: ['--input', 'shipped.csv', '--amount', '5'], usage: "--input takes each row's fields from the file: leave out --amount"},
])

parsesAs('purchase void', PurchaseVoid, [
  {argv: ['071-P-A', '071-P-B'], input: {ids: ['071-P-A', '071-P-B'], input: undefined}},
  {argv: ['--input', 'ids.txt'], input: {ids: [], input: 'ids.txt'}},
])

parsesAs('refund void', RefundVoid, [
  {argv: ['071-R-A'], input: {ids: ['071-R-A'], input: undefined}},
])

parsesAs('purchase increment', PurchaseIncrement, [
  {argv: ['071-P-A', '--amount', '12000'], input: {id: '071-P-A', amount: 12000}},
  {argv: ['071-P-A'], usage: 'Missing required flag amount'},
])

parsesAs('purchase extend', PurchaseExtend, [
  {argv: ['071-P-A'], input: '071-P-A'},
])

// This machine's calendar day, as the lists and the report read a named day.
const localDay = (shift = 0) => new Date(new Date().getFullYear(), new Date().getMonth(), new Date().getDate() + shift).toLocaleDateString('sv')
const lastMonday = localDay(-((new Date().getDay() + 6) % 7))

parsesAs('purchase settlement', PurchaseSettlement, [
  {argv: [], input: {days: {from: localDay(), to: localDay()}, includeDeclined: false}},
  {argv: ['--on', '2026-11-06'], input: {days: {from: '2026-11-06', to: '2026-11-06'}, includeDeclined: false}},
  {argv: ['--from', '2026-11-02', '--to', '2026-11-06', '--include-declined'], input: {days: {from: '2026-11-02', to: '2026-11-06'}, includeDeclined: true}},
  // The same days as lists and the report: --from alone runs to today, a weekday is the latest.
  {argv: ['--from', '2026-11-02'], input: {days: {from: '2026-11-02', to: localDay()}, includeDeclined: false}},
  {argv: ['--to', '2026-11-02'], input: {days: {from: '2026-11-02', to: '2026-11-02'}, includeDeclined: false}},
  {argv: ['--on', 'monday'], input: {days: {from: lastMonday, to: lastMonday}, includeDeclined: false}},
  {argv: ['--on', 'yesterday'], input: {days: {from: localDay(-1), to: localDay(-1)}, includeDeclined: false}},
  {argv: ['--from', '2026-11-06', '--to', '2026-11-02'], usage: `--from (${new Date(2026, 10, 6).toISOString()}) comes after --to (${new Date(2026, 10, 3, 0, 0, 0, -1).toISOString()}): no record can be in between`},
  {argv: ['--on', '7d'], usage: '--on must be a day: a date (2026-11-17), today, yesterday or a weekday; or this-week, last-week, this-month or last-month; got "7d"'},
])

parsesAs('webhook update', WebhookUpdate, [
  {argv: ['071-WH-1', '--name', 'all'], input: {id: '071-WH-1', changes: {address: undefined, events: undefined, name: 'all', auth: undefined}}},
  {argv: ['071-WH-1'], usage: 'give something to change: --url, --event, --name or --auth'},
])
