import {Args} from '@oclif/core'
import {GwCommand} from '../cli/gw-command.js'
import {HELP_TOPIC_NAMES, HELP_TOPICS, isHelpTopic} from '../cli/help/topics.js'
import {placeGuides} from '../lib/guides.js'

export default class Help extends GwCommand<string[]> {
  static override summary = `Show help for gw, a topic or a command; or ${HELP_TOPIC_NAMES.join(', ')}`
  static override description = `gw help COMMAND is the same as gw COMMAND --help (or -h).
These topics are not commands: ${HELP_TOPIC_NAMES.slice(0, -1).join(', ')} and ${HELP_TOPIC_NAMES.at(-1)}; gw help says what each holds.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> purchase create',
    '<%= config.bin %> <%= command.id %> exit-codes',
    '<%= config.bin %> <%= command.id %> test-cards',
    '<%= config.bin %> <%= command.id %> formatting',
  ]

  static override strict = false
  static override args = {
    command: Args.string({description: `command or topic, words separated by spaces; or ${HELP_TOPIC_NAMES.join(', ')}`}),
  }

  protected async input() {
    const {argv} = await this.parse(Help)
    return (argv as string[]).filter((word) => !word.startsWith('-'))
  }

  protected async operate(words: string[]) {
    const [word] = words
    if (words.length === 1 && isHelpTopic(word!)) {
      this.io.out(placeGuides(HELP_TOPICS[word].text()))
      return
    }
    const {showHelp} = await import('../cli/help/show.js')
    await showHelp(this.config, words)
  }
}
