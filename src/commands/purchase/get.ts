import {lookUpCommand, MANY_RECORDS} from '../../command/look-up-command.js'
import {purchaseGetColumns} from '../../output/columns.js'

export default lookUpCommand('purchases', 'id', {
  summary: 'Look purchases up by id or reference',
  description: `Takes one or more purchase ids or your references, or - to read them from stdin, one a line.
${MANY_RECORDS}
One purchase at a terminal also shows what has been refunded of it and what is left: the gateway's own figure where its record has one (refunded_amount), else from the refunds on its card since it (as refund list --purchase finds them), exact where every one is certain and a range where some only may be of it. JSON is the gateway's record alone.`,
  examples: [
    '<%= config.bin %> <%= command.id %> order-1001',
    '<%= config.bin %> <%= command.id %> order-1001 order-1002 --json',
    'printf "order-1001\\norder-1003\\n" | <%= config.bin %> <%= command.id %> - | jq -r .message',
    '<%= config.bin %> <%= command.id %> --input complaints.csv --concurrency 8 > purchases.ndjson',
  ],
}, purchaseGetColumns, async (purchase, f) => (await import('../../lists/refunds-of.js')).withRefunded(purchase, f))
