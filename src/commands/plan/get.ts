import {lookUpCommand, MANY_RECORDS} from '../../cli/look-up-command.js'
import {planColumns} from '../../output/columns.js'

export default lookUpCommand('plans', 'id', {
  summary: 'Look plans up by id or reference',
  description: `Takes one or more plan ids (071-PL-...) or your references for them, or - to read them from stdin, one a line.
${MANY_RECORDS}`,
  examples: [
    '<%= config.bin %> <%= command.id %> gold-monthly',
    '<%= config.bin %> <%= command.id %> gold-monthly basic --json | jq -r .amount',
  ],
}, planColumns)
