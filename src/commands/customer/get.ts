import {lookUpCommand, MANY_RECORDS} from '../../cli/look-up-command.js'
import {customerColumns} from '../../output/columns.js'

export default lookUpCommand('customers', 'id', {
  summary: 'Look customers up by id or reference',
  description: `Takes one or more customer ids or your references, or - to read them from stdin, one a line.
${MANY_RECORDS}`,
  examples: [
    '<%= config.bin %> <%= command.id %> cust-42',
    '<%= config.bin %> <%= command.id %> cust-42 cust-43 --json',
    'printf "cust-42\\ncust-43\\n" | <%= config.bin %> <%= command.id %> - | jq -r .email',
  ],
}, customerColumns)
