import {lookUpCommand, MANY_RECORDS} from '../../cli/look-up-command.js'
import {directDebitColumns} from '../../output/payment-columns.js'

export default lookUpCommand('directDebits', 'id', {
  summary: 'Look direct debits up by id or reference',
  description: `Takes one or more debit ids or references, or - to read them from stdin, one a line. A debit's amount is in dollars, as the gateway gives it (the table shows 42.42 AUD).
${MANY_RECORDS}`,
  examples: ['<%= config.bin %> <%= command.id %> dd-42', '<%= config.bin %> <%= command.id %> dd-42 --json | jq -r .status'],
}, directDebitColumns)
