import {lookUpCommand, MANY_RECORDS} from '../../cli/look-up-command.js'
import {refundColumns} from '../../output/columns.js'

export default lookUpCommand('refunds', 'id', {
  summary: 'Look refunds up by id or reference',
  description: `Takes one or more refund ids or your references, or - to read them from stdin, one a line.
${MANY_RECORDS}`,
  examples: [
    '<%= config.bin %> <%= command.id %> refund-1001',
    '<%= config.bin %> <%= command.id %> refund-1001 refund-1002 --json',
    'printf "refund-1001\\nrefund-1002\\n" | <%= config.bin %> <%= command.id %> - | jq -r .message',
  ],
}, refundColumns)
