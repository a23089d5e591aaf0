import {type Interfaces, loadHelpClass} from '@oclif/core'
import {UsageError} from '../../errors.js'
import {suggestCommand} from './not-found.js'
import {HELP_TOPIC_NAMES} from './topics.js'

/** oclif's help for a topic or command given as words (`purchase create`); an unknown one is a usage error with a suggestion. */
export async function showHelp(config: Interfaces.Config, words: string[]): Promise<void> {
  const id = words.join(':')
  if (words.length > 0 && !config.findCommand(id) && !config.findTopic(id)) {
    const {typed, suggestion} = suggestCommand(words, config.commandIDs)
    const hint = suggestion ? `Did you mean ${config.bin} help ${suggestion.replaceAll(':', ' ')}? ` : ''
    throw new UsageError(`no help for ${typed.join(' ')}: it is not a command, a topic, or one of ${HELP_TOPIC_NAMES.join(', ')}`, `${hint}${config.bin} help lists every command.`)
  }
  // The help class package.json names (GwHelp), as --help uses: required flags marked "asked if missing".
  const HelpClass = await loadHelpClass(config)
  await new HelpClass(config).showHelp(words)
}
