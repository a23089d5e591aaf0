import SubscriptionCreate from '../../../src/commands/subscription/create.js'
import SubscriptionGet from '../../../src/commands/subscription/get.js'
import SubscriptionList from '../../../src/commands/subscription/list.js'
import SubscriptionUpdate from '../../../src/commands/subscription/update.js'
import {parsesAs} from './parse-table.js'

const monthly = ['--customer', 'cust-42', '--plan', 'gold-monthly', '--frequency', 'monthly', '--start-date', '2030-01-31', '--reference', 'sub-42']
const subscription = {customer: 'cust-42', plan: 'gold-monthly', frequency: 'Monthly' as const, startDate: '2030-01-31', reference: 'sub-42', active: true}

parsesAs('subscription create', SubscriptionCreate, [
  {argv: monthly, input: subscription},
  {argv: [...monthly, '--inactive'], input: {...subscription, active: false}},
  {argv: [...monthly.slice(0, 4), '--frequency', 'BI-ANNUALLY', ...monthly.slice(6)], input: {...subscription, frequency: 'Bi-Annually'}},
  {argv: [...monthly.slice(0, 4), '--frequency', 'hourly', ...monthly.slice(6)], usage: '--frequency must be one of Daily, Weekly, Fortnightly, Monthly, Quarterly, Bi-Annually, Annually, got "hourly"'},
  {argv: [...monthly.slice(0, 6), '--start-date', '2030-04-31', ...monthly.slice(8)], usage: '--start-date must be a date as YYYY-MM-DD, got "2030-04-31"'},
  {argv: [...monthly.slice(0, 8)], usage: 'Missing required flag reference'},
  {argv: ['--customer', '', ...monthly.slice(2)], usage: '--customer must not be blank'},
])

parsesAs('subscription update', SubscriptionUpdate, [
  {argv: ['071-S-1', '--active'], input: {id: '071-S-1', active: true}},
  {argv: ['071-S-1', '--inactive'], input: {id: '071-S-1', active: false}},
  {argv: ['071-S-1'], usage: 'Exactly one of the following must be provided: --active, --inactive'},
  {argv: ['071-S-1', '--active', '--inactive'], usage: '--active cannot also be provided when using --inactive\n--inactive cannot also be provided when using --active'},
])

parsesAs('subscription get', SubscriptionGet, [
  {argv: ['sub-42'], input: {ids: ['sub-42'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['sub-42', 'sub-43'], input: {ids: ['sub-42', 'sub-43'], input: undefined, concurrency: undefined, ownFields: false}},
])

parsesAs('subscription list', SubscriptionList, [
  {argv: [], input: {}},
  {argv: ['--customer', 'cust-42', '--active'], input: {customer: 'cust-42', active: true}},
  {argv: ['--plan', 'gold-monthly', '--inactive', '--all'], input: {plan: 'gold-monthly', inactive: true, all: true}},
  {argv: ['--active', '--inactive'], usage: '--active cannot also be provided when using --inactive\n--inactive cannot also be provided when using --active'},
])
