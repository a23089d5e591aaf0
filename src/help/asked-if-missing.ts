import {type Command, CommandHelp, Help} from '@oclif/core'

const ASKED = 'asked if missing'

/**
 * oclif's help for a command, with every required flag and argument marked "asked if missing":
 * on a terminal gw asks for what was left out (GwCommand.parse) instead of failing.
 */
class AskedIfMissingCommandHelp extends CommandHelp {
  protected override flags(flags: Command.Flag.Any[]): [string, string | undefined][] | undefined {
    return super.flags(flags)?.map(([left, right], i) => [left, flags[i]?.required && right ? right.replace('(required)', `(required; ${ASKED})`) : right])
  }

  protected override args(args: Command.Arg.Any[]): [string, string | undefined][] | undefined {
    return super.args(args)?.map(([left, right], i) => [left, args[i]?.required ? `${right ?? ''} (${ASKED})`.trim() : right])
  }
}

export class GwHelp extends Help {
  protected override CommandHelpClass = AskedIfMissingCommandHelp

  /** oclif's root help, then the topics that are not commands (`gw help exit-codes`), as gh lists its HELP TOPICS. */
  override async showRootHelp(): Promise<void> {
    await super.showRootHelp()
    const {TOPIC_SUMMARIES} = await import('./topics.js')
    const rows = Object.entries(TOPIC_SUMMARIES).map(([topic, summary]): [string, string] => [`${this.config.bin} help ${topic}`, summary])
    this.log(this.section('HELP TOPICS', this.renderList(rows, {indentation: 2, spacer: '\n', stripAnsi: this.opts.stripAnsi})))
    this.log('')
  }

  /**
   * `--help` on a command that does not exist is the usage error the command alone gives (exit 2,
   * the closest command suggested), not oclif's bare `Command card:create not found` (exit 1).
   */
  override async showHelp(argv: string[]): Promise<void> {
    try {
      await super.showHelp(argv)
    } catch (err) {
      const missing = err instanceof Error ? /^Command (\S+) not found\.$/.exec(err.message) : null
      if (!missing) throw err
      const [{unknownCommand}, {processIo}, {renderError}] = await Promise.all([import('./not-found.js'), import('../output/io.js'), import('../output/render.js')])
      const error = unknownCommand(missing[1]!, [], this.config)
      renderError(processIo(process.env), error, {json: argv.includes('--json')})
      process.exitCode = error.exitCode
    }
  }
}
