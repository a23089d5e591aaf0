import {lookUpCommand, MANY_RECORDS} from '../../cli/look-up-command.js'
import {paymentPlanColumns} from '../../output/payment-columns.js'

export default lookUpCommand('paymentPlans', 'id', {
  summary: 'Look payment plans up by reference or id, with their schedule of payments',
  description: `Takes one or more plan references or ids, or - to read them from stdin, one a line. At a terminal one plan shows its payments as a table: when each falls, and what came of it.
${MANY_RECORDS}`,
  examples: [
    '<%= config.bin %> <%= command.id %> plan-42',
    '<%= config.bin %> <%= command.id %> plan-42 --json | jq -r \'.payments[] | [.scheduled_date, .status] | @tsv\'',
  ],
}, paymentPlanColumns)
