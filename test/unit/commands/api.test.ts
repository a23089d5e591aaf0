import Api from '../../../src/commands/api.js'
import {liveTarget} from './run-command.js'
import {parsesAs} from './parse-table.js'

const plan = {name: 'Gold', amount: 2500, reference: 'gold-api', description: 'Gold tier'}

parsesAs('api', Api, [
  {argv: ['/v1.0/plans.json'], input: {request: {method: 'GET', path: '/v1.0/plans.json', query: []}, inline: false}},
  {argv: ['get', '/v1.0/plans.json', '--query', 'limit=5', '--query', 'offset=10'], input: {request: {method: 'GET', path: '/v1.0/plans.json', query: [['limit', '5'], ['offset', '10']]}, inline: false}},
  {argv: ['POST', '/v1.0/plans', '--data', JSON.stringify(plan)], input: {request: {method: 'POST', path: '/v1.0/plans', query: [], body: plan}, inline: true}},
  {argv: ['POST', '/v1.0/plans', '--data', '-'], stdin: JSON.stringify(plan), input: {request: {method: 'POST', path: '/v1.0/plans', query: [], body: plan}, inline: false}},
  // A live profile's refusal of a card in argv is the operation's: it knows the profile.
  {argv: ['POST', '/v1.0/credit_cards', '--data', '{"card_number":"4242424242424242"}'], target: liveTarget, input: {request: {method: 'POST', path: '/v1.0/credit_cards', query: [], body: {card_number: '4242424242424242'}}, inline: true}},
  {argv: ['DELETE', '/v1.0/customers/071-C-1'], input: {request: {method: 'DELETE', path: '/v1.0/customers/071-C-1', query: []}, inline: false}},
  {argv: ['/v1.0/purchases', '--paginate'], input: {request: {method: 'GET', path: '/v1.0/purchases', query: []}, paginate: {ahead: 4, maxPages: undefined}, inline: false}},
  {argv: ['/v1.0/purchases', '--paginate', '--concurrency', '2', '--max-pages', '3'], input: {request: {method: 'GET', path: '/v1.0/purchases', query: []}, paginate: {ahead: 2, maxPages: 3}, inline: false}},
  {argv: ['POST'], usage: 'PATH is missing after POST'},
  // Nothing given: the PATH is what is missing (not "Missing 1 required arg: method ... GET (when left out)").
  {argv: [], usage: 'PATH is missing'},
  {argv: ['-X', 'POST'], usage: 'PATH is missing'},
  // -f, -F and --query take one value each, as gh api's: the PATH after them is the PATH, not a second field.
  {argv: ['-F', 'amount=1500', '/v1.0/plans'], input: {request: {method: 'POST', path: '/v1.0/plans', query: [], body: {amount: 1500}}, inline: true, inlineBody: {amount: 1500}}},
  {argv: ['--query', 'limit=5', '/v1.0/plans.json'], input: {request: {method: 'GET', path: '/v1.0/plans.json', query: [['limit', '5']]}, inline: false}},
  {argv: ['/v1.0/plans.json', 'extra'], usage: '/v1.0/plans.json is the PATH, so extra is one word too many'},
  {argv: ['/v1.0/plans.json', '--json', 'id'], usage: '/v1.0/plans.json is the PATH, so id is one word too many'},
  {argv: ['/v1.0/plans.json', '--json', 'id,name'], usage: "--json FIELDS and --fields pick the fields of a command's records, and gw api prints its JSON as it is"},
  {argv: ['/v1.0/purchases', '--paginate', '--fields', 'id'], usage: "--json FIELDS and --fields pick the fields of a command's records, and gw api prints its JSON as it is"},
  {argv: ['POST', '/v1.0/plans', '--data', '-'], stdin: '', usage: '--data - read nothing from stdin: the request body is missing, and nothing was sent'},
  {argv: ['PATCH', '/v1.0/plans'], usage: 'METHOD must be one of GET, POST, PUT, DELETE, got "PATCH"'},
  {argv: ['POST', '/v1.0/purchases', '--paginate'], usage: '--paginate follows the pages of a list, which is read with GET, not POST'},
  {argv: ['/v1.0/purchases', '--paginate', '--query', 'limit=5'], usage: '--paginate asks for each page itself: leave out --query limit=5'},
  {argv: ['/v1.0/plans', '--query', 'limit'], usage: '--query must be KEY=VALUE, got "limit"'},
  {argv: ['POST', '/v1.0/plans', '--data', '{name'], usage: '--data is not JSON'},
  {argv: ['/v1.0/plans', '--concurrency', '2'], usage: 'All of the following must be provided when using --concurrency: --paginate'},
])
