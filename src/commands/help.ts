import {Args} from '@oclif/core'
import {GwCommand} from '../cli/gw-command.js'
import type {HelpTopic} from '../cli/help/topics.js'
import {placeGuides} from '../lib/guides.js'

export default class Help extends GwCommand<string[]> {
  static override summary = 'Show help for gw, a topic or a command; or exit codes, environment variables, test cards, formatting'
  static override description = `gw help COMMAND is the same as gw COMMAND --help (or -h).
Four topics are not commands: exit-codes (what each exit status means), environment (every environment variable gw reads), test-cards (the local gateway's approving and declining cards and amounts) and formatting (tables at a terminal, NDJSON in a pipe, --json, --fields, --jq).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> purchase create',
    '<%= config.bin %> <%= command.id %> exit-codes',
    '<%= config.bin %> <%= command.id %> test-cards',
    '<%= config.bin %> <%= command.id %> formatting',
  ]

  static override strict = false
  static override args = {
    command: Args.string({description: 'command or topic, words separated by spaces; or exit-codes, environment, test-cards, formatting'}),
  }

  protected async input() {
    const {argv} = await this.parse(Help)
    return (argv as string[]).filter((word) => !word.startsWith('-'))
  }

  protected async operate(words: string[]) {
    const {HELP_TOPICS} = await import('../cli/help/topics.js')
    if (words.length === 1 && Object.hasOwn(HELP_TOPICS, words[0]!)) {
      this.io.out(placeGuides(HELP_TOPICS[words[0] as HelpTopic]()))
      return
    }
    const {showHelp} = await import('../cli/help/show.js')
    await showHelp(this.config, words)
  }
}
