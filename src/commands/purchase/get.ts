import {lookUpCommand, MANY_RECORDS} from '../../cli/look-up-command.js'
import {purchaseGetColumns} from '../../output/columns.js'

export default lookUpCommand('purchases', 'id', {
  summary: 'Look purchases up by id or reference',
  description: `Takes one or more purchase ids or your references, or - to read them from stdin, one a line.
${MANY_RECORDS}
At a terminal each purchase also shows what has been refunded of it and what is left. In JSON they come with --refunds, or when --fields names them, as gw_refunded and gw_left_to_refund after the gateway's fields. Each has at_least and at_most in minor units (the same when gw knows it exactly), and gw_refunded's says, why. They come from the gateway's own figure where its record has one (refunded_amount). Otherwise they come from the refunds on its card since it, matched as refund list --purchase matches them: certain where gw recorded making the refund for it, a range while some are only likely or possible.`,
  examples: [
    '<%= config.bin %> <%= command.id %> order-1001',
    '<%= config.bin %> <%= command.id %> order-1001 order-1002 --json',
    '<%= config.bin %> <%= command.id %> order-1001 --fields reference,gw_refunded,gw_left_to_refund | jq -c .gw_left_to_refund',
    'printf "order-1001\\norder-1003\\n" | <%= config.bin %> <%= command.id %> - | jq -r .message',
    '<%= config.bin %> <%= command.id %> --input complaints.csv --concurrency 8 > purchases.ndjson',
  ],
}, purchaseGetColumns, {
  flag: {name: 'refunds', description: 'add gw_refunded and gw_left_to_refund, what has been refunded of each purchase and what is left, to its JSON too'},
  fields: ['gw_refunded', 'gw_left_to_refund'],
  add: async (purchase, f) => (await import('../../lists/refunds-of-purchase.js')).withRefunded(purchase, f),
})
