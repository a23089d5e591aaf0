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

parsesAs('purchase settlement', PurchaseSettlement, [
  {argv: ['--on', '2026-11-06'], input: {from: '2026-11-06', to: '2026-11-06'}},
  {argv: ['--from', '2026-11-02', '--to', '2026-11-06'], input: {from: '2026-11-02', to: '2026-11-06'}},
  {argv: ['--from', '2026-11-02'], input: {from: '2026-11-02', to: '2026-11-02'}},
  {argv: ['--from', '2026-11-06', '--to', '2026-11-02'], usage: '--from 2026-11-06 is after --to 2026-11-02'},
])

parsesAs('webhook update', WebhookUpdate, [
  {argv: ['071-WH-1', '--name', 'all'], input: {id: '071-WH-1', changes: {address: undefined, events: undefined, name: 'all', auth: undefined}}},
  {argv: ['071-WH-1'], usage: 'give something to change: --url, --event, --name or --auth'},
])
