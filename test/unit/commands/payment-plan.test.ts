import PaymentPlanActivate from '../../../src/commands/payment-plan/activate.js'
import PaymentPlanCancel from '../../../src/commands/payment-plan/cancel.js'
import PaymentPlanCreate from '../../../src/commands/payment-plan/create.js'
import PaymentPlanGet from '../../../src/commands/payment-plan/get.js'
import PaymentPlanList from '../../../src/commands/payment-plan/list.js'
import PaymentPlanSuspend from '../../../src/commands/payment-plan/suspend.js'
import {parsesAs} from './parse-table.js'

const weekly = ['--customer', 'cust-42', '--amount', '1000', '--frequency', 'weekly', '--anniversary', '5', '--start-date', '2027-01-01', '--total-count', '5', '--reference', 'plan-42']
const plan = {
  customer: 'cust-42',
  reference: 'plan-42',
  amount: 1000,
  currency: undefined,
  setupFee: undefined,
  startDate: '2027-01-01',
  frequency: 'Weekly' as const,
  anniversary: 5,
  totalCount: 5,
  endDate: undefined,
  description: undefined,
}
/** weekly without --total-count, so that a row may give --end-date instead or neither. */
const open = weekly.slice(0, 10).concat(weekly.slice(12))

parsesAs('payment-plan create', PaymentPlanCreate, [
  {argv: weekly, input: {plan}},
  {
    argv: [...open, '--end-date', '2027-12-31', '--currency', 'aud', '--setup-fee', '0', '--description', 'Gym'],
    input: {plan: {...plan, totalCount: undefined, endDate: '2027-12-31', currency: 'AUD', setupFee: 0, description: 'Gym'}},
  },
  {argv: [...weekly.slice(0, 6), '--anniversary', '07', ...weekly.slice(8)], input: {plan: {...plan, anniversary: 7}}},
  {argv: ['--input', 'plans.csv', '--journal', 'plans.journal'], input: {batch: {input: 'plans.csv', concurrency: undefined, 'skip-invalid': undefined, 'dry-run': undefined, journal: 'plans.journal', verify: undefined}}},
  {argv: ['--input', 'plans.csv', '--amount', '1000'], usage: "--input takes each row's fields from the file: leave out --amount"},
  {argv: open, usage: 'At least one of the following must be provided: --end-date, --total-count'},
  {argv: [...weekly.slice(0, 6), '--anniversary', '32', ...weekly.slice(8)], usage: '--anniversary must be a whole number from 0 to 31 (a day of the week, 1 Monday, or of the month), got "32"'},
  {argv: [...weekly.slice(0, 10), '--total-count', '0', ...weekly.slice(12)], usage: '--total-count must be a whole number, 1 or more, got "0"'},
  {argv: [...weekly, '--setup-fee', '2.50'], usage: '--setup-fee must be a whole number of the minor unit, 0 or more, got "2.50"'},
  {argv: [...weekly.slice(0, 4), '--frequency', 'hourly', ...weekly.slice(6)], usage: '--frequency must be one of Daily, Weekly, Fortnightly, Monthly, Quarterly, Bi-Annually, Annually, got "hourly"'},
  {argv: [...weekly.slice(0, 8), '--start-date', '2027-02-30', ...weekly.slice(10)], usage: '--start-date must be a date as YYYY-MM-DD, got "2027-02-30"'},
  {argv: [...weekly.slice(0, 2), '--amount', '10.00', ...weekly.slice(4)], usage: "--amount must be a positive whole number in the currency's minor unit, got \"10.00\""},
  {argv: weekly.slice(0, 12), usage: 'Missing required flag reference'},
  {argv: ['--customer', ' ', ...weekly.slice(2)], usage: '--customer must not be blank'},
])

parsesAs('payment-plan get', PaymentPlanGet, [
  {argv: ['plan-42'], input: {ids: ['plan-42'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['plan-42', 'plan-43', '--concurrency', '2'], input: {ids: ['plan-42', 'plan-43'], input: undefined, concurrency: 2, ownFields: false}},
  {argv: ['--input', 'plans.csv'], input: {ids: [], input: 'plans.csv', concurrency: undefined, ownFields: false}},
  {argv: ['plan-42', '--concurrency', '0'], usage: '--concurrency: Expected an integer greater than or equal to 1 but received: 0'},
])

parsesAs('payment-plan list', PaymentPlanList, [
  {argv: [], input: {}},
  {argv: ['--customer', 'cust-42', '--all'], input: {customer: 'cust-42', all: true}},
  {argv: ['--reference', 'plan-42', '--limit', '5'], input: {reference: 'plan-42', limit: 5}},
  {argv: ['--all', '--limit', '5'], usage: '--all cannot also be provided when using --limit'},
])

/** Suspend, activate and cancel each take one plan id and nothing else. */
const byId = (name: string) => [
  {argv: ['071-PP-1'], input: '071-PP-1'},
  {argv: [' '], usage: 'ID must not be blank'},
  {argv: [], usage: 'Missing 1 required arg:\nid  id or reference of the payment plan'},
  {argv: ['071-PP-1', '071-PP-2'], usage: `gw ${name}: unexpected arguments "071-PP-1 071-PP-2"`},
]

parsesAs('payment-plan suspend', PaymentPlanSuspend, byId('payment-plan suspend'))
parsesAs('payment-plan activate', PaymentPlanActivate, byId('payment-plan activate'))
parsesAs('payment-plan cancel', PaymentPlanCancel, byId('payment-plan cancel'))
