import CustomerCreate from '../../../src/commands/customer/create.js'
import CustomerDelete from '../../../src/commands/customer/delete.js'
import CustomerGet from '../../../src/commands/customer/get.js'
import CustomerList from '../../../src/commands/customer/list.js'
import CustomerUpdate from '../../../src/commands/customer/update.js'
import {liveTarget} from './run-command.js'
import {parsesAs} from './parse-table.js'

const jane = ['--first-name', 'Jane', '--last-name', 'Citizen', '--reference', 'cust-42', '--email', 'jane@example.com']
const customer = {'first-name': 'Jane', 'last-name': 'Citizen', reference: 'cust-42', email: 'jane@example.com'}
const cardFlags = ['--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123']
const card = {card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'}

parsesAs('customer create', CustomerCreate, [
  {argv: [...jane, ...cardFlags], input: {customer, card}},
  {argv: [...jane, ...cardFlags, '--card-holder', 'J Citizen'], input: {customer, card: {...card, card_holder: 'J Citizen'}}},
  {argv: [...jane, ...cardFlags, '--city', ' Sydney ', '--country', 'AU', '--ip-address', '203.0.113.7'], input: {customer: {...customer, city: 'Sydney', country: 'AU', 'ip-address': '203.0.113.7'}, card}},
  {argv: [...jane, '--card', '-'], stdin: JSON.stringify(card), target: liveTarget, input: {customer, card}},
  {argv: [...jane, ...cardFlags.slice(0, 4)], usage: 'give the card: --card-holder, --card-number, --card-expiry and --cvv, or --card - with the card as JSON on stdin'},
  {argv: [...jane.slice(0, 6), '--email', 'jane'], usage: '--email must be an email address, got "jane"'},
  {argv: [...jane.slice(2), ...cardFlags], usage: 'Missing required flag first-name'},
  {argv: [...jane.slice(2), ...cardFlags.slice(0, 4)], usage: 'Missing required flag first-name\nMissing the card: --card-holder, --card-number, --card-expiry and --cvv, or --card - with the card as JSON on stdin'},
  {argv: [...jane, ...cardFlags], target: liveTarget, usage: '--card-number and --cvv cannot be given on the command line with a live profile: arguments stay in shell history and show in ps'},
])

parsesAs('customer update', CustomerUpdate, [
  {argv: ['071-C-1', '--email', 'jane@example.org'], input: {id: '071-C-1', fields: {email: 'jane@example.org'}, card: undefined}},
  {argv: ['071-C-1', '--first-name', 'Janet', '--postcode', '2000'], input: {id: '071-C-1', fields: {'first-name': 'Janet', postcode: '2000'}, card: undefined}},
  {argv: ['071-C-1', ...cardFlags], input: {id: '071-C-1', fields: {}, card: {...card, card_holder: ''}}},
  {argv: ['071-C-1', ...cardFlags, '--card-holder', 'J Citizen'], input: {id: '071-C-1', fields: {'card-holder': 'J Citizen'}, card: {...card, card_holder: 'J Citizen'}}},
  {argv: ['071-C-1', '--card', '-'], stdin: JSON.stringify(card), input: {id: '071-C-1', fields: {}, card}},
  {argv: ['071-C-1'], usage: 'At least one of the following must be provided: --address, --card, --card-number, --city, --country, --email, --first-name, --ip-address, --last-name, --postcode, --reference, --state'},
  {argv: ['071-C-1', '--card-number', '4242424242424242'], usage: 'All of the following must be provided when using --card-number: --card-expiry, --cvv'},
  {argv: ['071-C-1', '--last-name', ' '], usage: '--last-name must not be blank'},
  {argv: ['071-C-1', ...cardFlags], target: liveTarget, usage: '--card-number and --cvv cannot be given on the command line with a live profile: arguments stay in shell history and show in ps'},
])

parsesAs('customer delete', CustomerDelete, [
  {argv: ['071-C-1'], input: '071-C-1'},
  {argv: [' 071-C-1 '], input: '071-C-1'},
  {argv: [], usage: 'Missing 1 required arg:\nid  id or reference of the customer'},
  {argv: ['071-C-1', '071-C-2'], usage: 'gw customer delete: unexpected arguments "071-C-1 071-C-2"'},
])

parsesAs('customer get', CustomerGet, [
  {argv: ['cust-42'], input: {ids: ['cust-42'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['-'], input: {ids: ['-'], input: undefined, concurrency: undefined, ownFields: false}},
])

parsesAs('customer list', CustomerList, [
  {argv: [], input: {}},
  {argv: ['--email', 'Jane@Example.com', '--from', '7d'], input: {email: 'Jane@Example.com', from: '7d'}},
  {argv: ['--reference', 'cust-42', '--all'], input: {reference: 'cust-42', all: true}},
  {argv: ['--holder', 'citizen'], usage: 'unknown flag: --holder'},
  // What every customer record carries beyond the interface is picked (gateway-notes.md); a payment's fields are none of a customer's.
  {argv: ['--json', 'id,card_number,bank_account,metadata,sdk_ready'], input: {}},
  {argv: ['--json', 'id,captured_amount'], usage: '--json FIELDS or --fields: no such field captured_amount'},
])
