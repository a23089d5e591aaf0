import {type Command, CommandHelp, Help} from '@oclif/core'
import {getHelpFlagAdditions, normalizeArgv} from '@oclif/core/help'
import {guidesPlace, placeGuides} from '../../lib/guides.js'

const ASKED = 'asked if missing'

/**
 * oclif's help for a command, with every required flag and argument marked "asked if missing":
 * on a terminal gw asks for what was left out (GwCommand.parse) instead of failing.
 */
class AskedIfMissingCommandHelp extends CommandHelp {
  /** gh's order (design.md §3): the description first, under the summary oclif prints, then USAGE and the flags. */
  override generate(): string {
    const {summary, description = ''} = this.command
    // Without a summary, oclif prints the description's first line as one.
    const described = (summary ? description : description.split('\n').slice(1).join('\n')).trim()
    const rest = super.generate()
    return described ? `${this.wrap(described, 0)}\n\n${rest}` : rest
  }

  protected override sections(): ReturnType<CommandHelp['sections']> {
    return super.sections().filter(({header}) => header !== 'DESCRIPTION')
  }

  protected override flags(flags: Command.Flag.Any[]): [string, string | undefined][] | undefined {
    return super.flags(flags)?.map(([left, right], i) => [left, flags[i]?.required && right ? right.replace('(required)', `(required; ${ASKED})`) : right])
  }

  protected override args(args: Command.Arg.Any[]): [string, string | undefined][] | undefined {
    return super.args(args)?.map(([left, right], i) => [left, args[i]?.required ? `${right ?? ''} (${ASKED})`.trim() : right])
  }
}

export class GwHelp extends Help {
  protected override CommandHelpClass = AskedIfMissingCommandHelp

  /**
   * `gw card create --help` is the same typo as `gw card create`: a usage error (exit 2, design.md
   * §4) with the same suggestion, from the same hook, not oclif's bare "Command card:create not found".
   */
  override async showHelp(argv: string[]): Promise<void> {
    const helpFlags = getHelpFlagAdditions(this.config)
    // The words as oclif reads a command id from them when it runs one (main.ts), so the hook sees what it sees then.
    const [id, ...rest] = normalizeArgv(this.config, argv.filter((arg) => !helpFlags.includes(arg)))
    if (id !== undefined && !id.startsWith('-') && id !== 'help' && !this.config.findCommand(id) && !this.config.findTopic(id)) {
      await this.config.runHook('command_not_found', {id, argv: rest})
      return
    }
    await super.showHelp(argv)
  }

  /** A command's help, each guide it names at its place in this install (lib/guides.ts). */
  protected override formatCommand(command: Command.Loadable): string {
    return super.formatCommand({...command, description: command.description && placeGuides(command.description)})
  }

  /** oclif's root help, then the topics that are not commands (`gw help exit-codes`), as gh lists its HELP TOPICS. */
  override async showRootHelp(): Promise<void> {
    await super.showRootHelp()
    const {HELP_TOPICS} = await import('./topics.js')
    const rows = Object.entries(HELP_TOPICS).map(([topic, {summary}]): [string, string] => [`${this.config.bin} help ${topic}`, summary])
    this.log(this.section('HELP TOPICS', this.renderList(rows, {indentation: 2, spacer: '\n', stripAnsi: this.opts.stripAnsi})))
    this.log('')
    // gh's LEARN MORE: where to read on. The last line is where this install's guides are, on a line
    // of its own: the saved root help holds a mark there that each install fills (bin/start.js).
    const more = [`${this.config.bin} COMMAND --help for a command, ${this.config.bin} help TOPIC for a topic above.`, 'Guides, one task a page:']
    const place = guidesPlace() ?? "the docs/ folder beside gw's README.md"
    this.log(this.section('LEARN MORE', [...more.map((line) => this.wrap(line, this.indentSpacing + 2)), place].join('\n')))
    this.log('')
  }
}
