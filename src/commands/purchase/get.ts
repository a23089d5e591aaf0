import {lookUpCommand, MANY_RECORDS} from '../../command/look-up-command.js'
import {purchaseColumns} from '../../output/columns.js'

export default lookUpCommand('purchases', 'id', {
  summary: 'Look purchases up by id or reference',
  description: `Takes one or more purchase ids or your references, or - to read them from stdin, one a line.
${MANY_RECORDS}`,
  examples: [
    '<%= config.bin %> <%= command.id %> order-1001',
    '<%= config.bin %> <%= command.id %> order-1001 order-1002 --json',
    'printf "order-1001\\norder-1003\\n" | <%= config.bin %> <%= command.id %> - | jq -r .message',
    '<%= config.bin %> <%= command.id %> --input complaints.csv --concurrency 8 > purchases.ndjson',
  ],
}, purchaseColumns)
