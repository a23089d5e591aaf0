import PlanCreate from '../../../src/commands/plan/create.js'
import PlanGet from '../../../src/commands/plan/get.js'
import PlanList from '../../../src/commands/plan/list.js'
import PlanUpdate from '../../../src/commands/plan/update.js'
import {parsesAs} from './parse-table.js'

const gold = ['--name', 'Gold', '--amount', '2500', '--reference', 'gold-monthly', '--description', 'Gold tier']

parsesAs('plan create', PlanCreate, [
  {argv: gold, input: {name: 'Gold', amount: 2500, reference: 'gold-monthly', description: 'Gold tier'}},
  {argv: ['--name', '  Gold  ', '--amount', '2500', '--reference', 'gold-monthly', '--description', 'Gold tier'], input: {name: 'Gold', amount: 2500, reference: 'gold-monthly', description: 'Gold tier'}},
  {argv: [...gold.slice(0, 2), '--amount', '25.00', ...gold.slice(4)], usage: "--amount must be a positive whole number in the currency's minor unit, got \"25.00\""},
  {argv: [...gold.slice(0, 2), '--amount', '0', ...gold.slice(4)], usage: '--amount must be greater than 0, got 0'},
  {argv: ['--name', ' ', ...gold.slice(2)], usage: '--name must not be blank'},
  {argv: gold.slice(0, 6), usage: 'Missing required flag description'},
])

parsesAs('plan update', PlanUpdate, [
  {argv: ['071-PL-1', '--name', 'Platinum'], input: {id: '071-PL-1', changes: {name: 'Platinum', description: undefined}}},
  {argv: ['071-PL-1', '--description', 'Top tier'], input: {id: '071-PL-1', changes: {name: undefined, description: 'Top tier'}}},
  {argv: ['071-PL-1'], usage: 'At least one of the following must be provided: --description, --name'},
  {argv: [' ', '--name', 'Platinum'], usage: 'ID must not be blank'},
])

parsesAs('plan get', PlanGet, [
  {argv: ['071-PL-1'], input: {ids: ['071-PL-1'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['071-PL-1', 'gold-monthly', '--concurrency', '2'], input: {ids: ['071-PL-1', 'gold-monthly'], input: undefined, concurrency: 2, ownFields: false}},
  {argv: ['-'], input: {ids: ['-'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['--input', 'plans.csv'], input: {ids: [], input: 'plans.csv', concurrency: undefined, ownFields: false}},
  {argv: ['071-PL-1', '--concurrency', '0'], usage: '--concurrency: Expected an integer greater than or equal to 1 but received: 0'},
])

parsesAs('plan list', PlanList, [
  {argv: [], input: {}},
  {argv: ['--limit', '5', '--oldest-first'], input: {limit: 5, 'oldest-first': true}},
  {argv: ['--all', '--reference', 'gold-monthly'], input: {all: true, reference: 'gold-monthly'}},
  {argv: ['--all', '--limit', '5'], usage: '--all cannot also be provided when using --limit'},
])
