import RefundCreate from '../../../src/commands/refund/create.js'
import RefundGet from '../../../src/commands/refund/get.js'
import RefundList from '../../../src/commands/refund/list.js'
import {parsesAs} from './parse-table.js'

// oclif leaves a boolean flag not given undefined.
const batch = {input: 'refunds.csv', concurrency: undefined, 'skip-invalid': undefined, 'dry-run': undefined, journal: undefined, verify: undefined}

parsesAs('refund create', RefundCreate, [
  {argv: ['--transaction-id', '071-P-ABCDEFGH', '--amount', '1000', '--reference', 'refund-1001'], input: {refund: {transactionId: '071-P-ABCDEFGH', amount: 1000, reference: 'refund-1001'}}},
  {argv: ['--transaction-id', 'order-1002'], input: {refund: {transactionId: 'order-1002', amount: undefined, reference: undefined}}},
  {argv: ['--transaction-id', ' order-1003 ', '--amount', '250'], input: {refund: {transactionId: 'order-1003', amount: 250, reference: undefined}}},
  {argv: ['--input', 'refunds.csv'], input: {batch}},
  {argv: ['--input', '-', '--concurrency', '8', '--skip-invalid'], input: {batch: {...batch, input: '-', concurrency: 8, 'skip-invalid': true}}},
  {argv: ['--transaction-id', '071-P-ABCDEFGH', '--amount', '100', '--reference', ''], usage: '--reference must not be blank'},
  {argv: ['--transaction-id', ' ', '--amount', '100'], usage: '--transaction-id must not be blank'},
  {argv: ['--amount', '100'], usage: 'Missing required flag transaction-id\nOr, for an unmatched refund, give a card instead: --card-token, --card-number, or --card -.'},
  {argv: ['--card-token', 'customer-42', '--amount', '100', '--reference', 'goodwill-1', '--metadata', 'ticket=7'], input: {unmatched: {amount: 100, reference: 'goodwill-1', currency: 'AUD', card: {token: 'customer-42'}, metadata: {ticket: '7'}}}},
  {argv: ['--card-token', 'customer-42', '--amount', '100'], usage: 'an unmatched refund needs --reference: no purchase gives it'},
  {argv: ['--transaction-id', 'order-1', '--currency', 'NZD'], usage: '--currency is for an unmatched refund: a refund of a purchase is in its currency'},
  {argv: ['--transaction-id', '071-P-ABCDEFGH', '--amount', '-100'], usage: "--amount must be a positive whole number in the currency's minor unit, got \"-100\""},
  {argv: ['--input', 'refunds.csv', '--transaction-id', '071-P-ABCDEFGH'], usage: "--input takes each row's fields from the file: leave out --transaction-id"},
  {argv: ['--input', 'refunds.csv', '--concurrency', '64'], usage: '--concurrency: Expected an integer less than or equal to 32 but received: 64'},
  {argv: ['--transaction-id', '071-P-ABCDEFGH', '--journal', 'j.ndjson'], usage: 'All of the following must be provided when using --journal: --input'},
])

parsesAs('refund get', RefundGet, [
  {argv: ['071-R-ABCDEFGH'], input: {ids: ['071-R-ABCDEFGH'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['refund-1001', 'refund-1002'], input: {ids: ['refund-1001', 'refund-1002'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['--input', '-', '--concurrency', '4'], input: {ids: [], input: '-', concurrency: 4, ownFields: false}},
  {argv: ['refund-1001', '--refunds'], usage: 'unknown flag: --refunds'},
])

parsesAs('refund list', RefundList, [
  {argv: [], input: {}},
  {argv: ['--purchase', 'order-1001'], input: {purchase: 'order-1001'}},
  {argv: ['--from', '7d', '--status', 'approved', '--currency', 'nzd', '--all'], input: {from: '7d', status: 'approved', currency: 'NZD', all: true}},
  {argv: ['--amount', 'ten'], usage: "--amount must be a positive whole number in the currency's minor unit, got \"ten\""},
  {argv: ['--purchase'], usage: 'Flag --purchase expects a value'},
])
