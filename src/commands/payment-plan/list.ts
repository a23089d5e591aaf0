import {Flags} from '@oclif/core'
import {listCommand} from '../../cli/list-command.js'
import * as gwFlags from '../../cli/flags.js'
import {paymentPlanColumns} from '../../output/payment-columns.js'

export default listCommand(
  'paymentPlans',
  {
    summary: 'List payment plans, newest first',
    description: `The ${gwFlags.DEFAULT_LIST_LIMIT} newest payment plans, or --limit N, or --all. No recorded gateway shows a list of payment plans (the local gateway has one): against a gateway without one, gw says so (exit 5); look plans up by reference with gw payment-plan get.`,
    examples: ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --customer cust-42 --all'],
  },
  {
    customer: Flags.string({description: "only this customer's (an id or a reference)", helpGroup: 'FILTERS'}),
    reference: gwFlags.referenceFilter('payment plan'),
  },
  paymentPlanColumns,
)
