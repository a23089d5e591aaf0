import {lookUpCommand} from '../../cli/look-up-command.js'
import {cardColumns} from '../../output/columns.js'

export default lookUpCommand('cards', 'token', {
  summary: 'Look stored cards up by token or alias',
  description: 'Shows the stored card: holder, masked number, expiry, scheme and how many transactions used it. Takes several tokens or aliases, or - to read them from stdin.',
  examples: [
    '<%= config.bin %> <%= command.id %> customer-42',
    '<%= config.bin %> <%= command.id %> customer-42 --json | jq -r .card_expiry',
  ],
}, cardColumns)
