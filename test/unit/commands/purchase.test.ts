import PurchaseCreate from '../../../src/commands/purchase/create.js'
import PurchaseGet from '../../../src/commands/purchase/get.js'
import PurchaseList from '../../../src/commands/purchase/list.js'
import {liveTarget} from './run-command.js'
import {parsesAs} from './parse-table.js'

const cardFlags = ['--card-holder', 'Jane Citizen', '--card-number', '4242 4242 4242 4242', '--card-expiry', '12/30', '--cvv', '123']
const card = {card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'}
// oclif leaves a boolean flag not given undefined.
const batch = {input: 'invoices.csv', concurrency: undefined, 'skip-invalid': undefined, 'dry-run': undefined, journal: undefined, verify: undefined}

parsesAs('purchase create', PurchaseCreate, [
  {argv: ['--amount', '1000', '--reference', 'order-1001', ...cardFlags], input: {purchase: {amount: 1000, reference: 'order-1001', currency: 'AUD', customerIp: undefined, card}}},
  {argv: ['--amount', '2500', '--currency', 'nzd', '--reference', 'order-1002', '--card-token', 'customer-42', '--customer-ip', '203.0.113.7'], input: {purchase: {amount: 2500, reference: 'order-1002', currency: 'NZD', customerIp: '203.0.113.7', card: {token: 'customer-42', cvv: undefined}}}},
  {argv: ['--amount', '1000', '--reference', 'order-1003', '--card-token', 'customer-42', '--cvv', '123'], input: {purchase: {amount: 1000, reference: 'order-1003', currency: 'AUD', customerIp: undefined, card: {token: 'customer-42', cvv: '123'}}}},
  {argv: ['--amount', '1000', '--reference', 'order-1004', '--card', '-'], stdin: JSON.stringify(card), input: {purchase: {amount: 1000, reference: 'order-1004', currency: 'AUD', customerIp: undefined, card}}},
  {argv: ['--amount', '1000', '--reference', 'order-1005', '--card', '-'], stdin: JSON.stringify(card), target: liveTarget, input: {purchase: {amount: 1000, reference: 'order-1005', currency: 'AUD', customerIp: undefined, card}}},
  {argv: ['--input', 'invoices.csv'], input: {batch}},
  {argv: ['--input', 'invoices.csv', '--concurrency', '8', '--dry-run', '--skip-invalid', '--journal', 'j.ndjson', '--verify'], input: {batch: {...batch, concurrency: 8, 'dry-run': true, 'skip-invalid': true, journal: 'j.ndjson', verify: true}}},
  {argv: ['--amount', '1000', '--reference', 'order-1006', ...cardFlags], target: liveTarget, usage: '--card-number and --cvv cannot be given on the command line with a live profile: arguments stay in shell history and show in ps'},
  {argv: ['--amount', '10.00', '--reference', 'order-1007', ...cardFlags], usage: "--amount must be a positive whole number in the currency's minor unit, got \"10.00\""},
  {argv: ['--amount', '1000', '--reference', ' ', ...cardFlags], usage: '--reference must not be blank'},
  {argv: ['--amount', '1000', ...cardFlags], usage: 'Missing required flag reference'},
  // Every one left out, at once: the card too.
  {argv: ['--amount', '1000', '--no-input'], usage: 'Missing required flag reference\nMissing the card: --card-token, or --card-holder, --card-number and --card-expiry, or --card - with the card as JSON on stdin'},
  {argv: ['--no-input'], usage: 'Missing required flag amount\nMissing required flag reference\nMissing the card: --card-token, or --card-holder, --card-number and --card-expiry, or --card - with the card as JSON on stdin'},
  {argv: ['--amount', '1000', '--card-token', 'customer-42'], usage: 'Missing required flag reference'},
  {argv: ['--amount', '1000', '--card', '-'], usage: 'Missing required flag reference'},
  {argv: ['--amount', '1000', '--reference', 'order-1008'], usage: 'give the card: --card-token, or --card-holder, --card-number and --card-expiry, or --card - with the card as JSON on stdin'},
  {argv: ['--amount', '1000', '--reference', 'order-1009', '--card-token', 'customer-42', ...cardFlags.slice(2, 4)], usage: '--card-number cannot also be provided when using --card-token'},
  {argv: ['--amount', '1000', '--reference', 'order-1010', ...cardFlags.slice(0, 6), '--cvv', '12'], usage: '--cvv must be 3 or 4 digits'},
  {argv: ['--amount', '1000', '--reference', 'order-1011', ...cardFlags.slice(0, 4), '--card-expiry', '13/30', '--cvv', '123'], usage: '--card-expiry month must be 01 to 12, got 13 in "13/30"'},
  {argv: ['--amount', '1000', '--reference', 'order-1012', ...cardFlags.slice(0, 2), '--card-number', '4242424242424241', ...cardFlags.slice(4)], usage: '--card-number fails the Luhn check: a digit is wrong or missing'},
  {argv: ['--amount', '1000', '--reference', 'order-1013', '--currency', 'dollars', '--card-token', 'customer-42'], usage: '--currency must be a three-letter ISO 4217 code such as AUD, got "dollars"'},
  {argv: ['--input', 'invoices.csv', '--amount', '1000'], usage: "--input takes each row's fields from the file: leave out --amount"},
  {argv: ['--amount', '1000', '--reference', 'order-1014', '--card', '-'], stdin: 'card', usage: '--card - expects the card as one JSON object on stdin, and what came is not JSON'},
  {argv: ['--dry-run', '--amount', '1000', '--reference', 'order-1015', '--card-token', 'customer-42'], usage: 'All of the following must be provided when using --dry-run: --input'},
])

parsesAs('purchase get', PurchaseGet, [
  {argv: ['order-1001'], input: {ids: ['order-1001'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['order-1001', '071-P-ABCDEFGH', '--concurrency', '8'], input: {ids: ['order-1001', '071-P-ABCDEFGH'], input: undefined, concurrency: 8, ownFields: false}},
  {argv: ['order-1001', '--refunds'], input: {ids: ['order-1001'], input: undefined, concurrency: undefined, ownFields: true}},
  {argv: ['order-1001', '--fields', 'reference,gw_left_to_refund'], input: {ids: ['order-1001'], input: undefined, concurrency: undefined, ownFields: true}},
  {argv: ['order-1001', '--fields', 'reference,amount'], input: {ids: ['order-1001'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['--input', 'orders.csv'], input: {ids: [], input: 'orders.csv', concurrency: undefined, ownFields: false}},
  {argv: ['order-1001', '--fields', 'nope'], usage: '--json FIELDS or --fields: no such field nope'},
  // gh's --json FIELDS, read by the pre-parser the built gw uses: the fields are never a second id.
  {argv: ['order-1001', '--json', 'reference,gw_left_to_refund'], input: {ids: ['order-1001'], input: undefined, concurrency: undefined, ownFields: true}},
  {argv: ['--json', 'id,amount', 'order-1001'], input: {ids: ['order-1001'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['order-1001', '--json', 'id,nope'], usage: '--json FIELDS or --fields: no such field nope'},
  {argv: ['order-1001', '--concurrency', '33'], usage: '--concurrency: Expected an integer less than or equal to 32 but received: 33'},
])

parsesAs('purchase list', PurchaseList, [
  {argv: [], input: {}},
  {argv: ['-L', '5', '--oldest-first', '--from', '2026-11-01', '--to', 'yesterday'], input: {limit: 5, 'oldest-first': true, from: '2026-11-01', to: 'yesterday'}},
  {argv: ['--all', '--status', 'declined', '--card', '4242', '--amount', '1051', '--currency', 'aud', '--holder', 'citizen'], input: {all: true, status: 'declined', card: '4242', amount: 1051, currency: 'AUD', holder: 'citizen'}},
  {argv: ['--reference', 'order-1001', '--concurrency', '2', '--max-pages', '10'], input: {reference: 'order-1001', concurrency: 2, 'max-pages': 10}},
  {argv: ['--status', 'refunded'], usage: 'Expected --status=refunded to be one of: approved, declined, voided'},
  {argv: ['--limit', '0'], usage: '--limit: Expected an integer greater than or equal to 1 but received: 0'},
  {argv: ['--all', '-L', '5'], usage: '--all cannot also be provided when using --limit'},
])
