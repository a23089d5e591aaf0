import DirectDebitCreate from '../../../src/commands/direct-debit/create.js'
import DirectDebitDelete from '../../../src/commands/direct-debit/delete.js'
import DirectDebitGet from '../../../src/commands/direct-debit/get.js'
import DirectDebitList from '../../../src/commands/direct-debit/list.js'
import {parsesAs} from './parse-table.js'

const rent = ['--amount', '4242', '--description', 'November rent', '--bsb', '123-456', '--account-name', 'Jane Citizen', '--account-number', '012345678']
const debit = {amount: 4242, description: 'November rent', bsb: '123-456', accountName: 'Jane Citizen', accountNumber: '012345678', reference: undefined}

parsesAs('direct-debit create', DirectDebitCreate, [
  {argv: rent, input: {debit}},
  {argv: [...rent, '--reference', 'dd-42'], input: {debit: {...debit, reference: 'dd-42'}}},
  {argv: [...rent.slice(0, 4), '--bsb', '123456', ...rent.slice(6)], input: {debit}},
  {argv: ['--input', 'debits.csv', '--dry-run'], input: {batch: {input: 'debits.csv', concurrency: undefined, 'skip-invalid': undefined, 'dry-run': true, journal: undefined, verify: undefined}}},
  {argv: ['--input', 'debits.csv', '--bsb', '123-456'], usage: "--input takes each row's fields from the file: leave out --bsb"},
  {argv: [...rent.slice(0, 4), '--bsb', '12-3456', ...rent.slice(6)], usage: '--bsb must be six digits as 123-456, got "12-3456"'},
  {argv: [...rent.slice(0, 8), '--account-number', '0123-456'], usage: '--account-number must be digits only (at most 20), got "0123-456"'},
  {argv: ['--amount', '42.42', ...rent.slice(2)], usage: "--amount must be a positive whole number in the currency's minor unit, got \"42.42\""},
  {argv: [...rent.slice(0, 2), '--description', ' ', ...rent.slice(4)], usage: '--description must not be blank'},
  {argv: rent.slice(0, 8), usage: 'Missing required flag account-number'},
])

parsesAs('direct-debit get', DirectDebitGet, [
  {argv: ['dd-42'], input: {ids: ['dd-42'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['-'], input: {ids: ['-'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['--input', 'debits.csv', '--concurrency', '4'], input: {ids: [], input: 'debits.csv', concurrency: 4, ownFields: false}},
  {argv: ['dd-42', '--purchase'], usage: 'unknown flag: --purchase'},
])

parsesAs('direct-debit list', DirectDebitList, [
  {argv: [], input: {}},
  {argv: ['--reference', 'dd-42', '--all'], input: {reference: 'dd-42', all: true}},
  {argv: ['--from', '2027-01-01', '--to', '2027-01-31', '--limit', '5'], input: {from: '2027-01-01', to: '2027-01-31', limit: 5}},
  {argv: ['--limit', '0'], usage: '--limit: Expected an integer greater than or equal to 1 but received: 0'},
])

parsesAs('direct-debit delete', DirectDebitDelete, [
  {argv: ['071-DD-1'], input: '071-DD-1'},
  {argv: [' '], usage: 'ID must not be blank'},
  {argv: ['071-DD-1', '071-DD-2'], usage: 'gw direct-debit delete: unexpected arguments "071-DD-1 071-DD-2"'},
  {argv: [], usage: 'Missing 1 required arg:\nid  id or reference of the direct debit'},
])
