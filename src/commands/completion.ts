import {Args} from '@oclif/core'
import {GwCommand} from '../cli/gw-command.js'
import type {Shell} from '../cli/help/completion.js'

export default class Completion extends GwCommand<Shell> {
  static override summary = 'Print a shell completion script for bash, zsh or fish'
  static override description = `The script is self-contained: it completes topics, commands, flags, fixed flag values (frequencies, modes, event names) and profile names, with no cache to refresh. Load it again after upgrading gw.`

  static override examples = [
    'source <(<%= config.bin %> <%= command.id %> bash)',
    '<%= config.bin %> <%= command.id %> bash > ~/.local/share/bash-completion/completions/<%= config.bin %>',
    '<%= config.bin %> <%= command.id %> zsh > "${fpath[1]}/_<%= config.bin %>"',
    '<%= config.bin %> <%= command.id %> fish > ~/.config/fish/completions/<%= config.bin %>.fish',
  ]

  static override args = {
    shell: Args.string({description: 'the shell to complete in', required: true, options: ['bash', 'zsh', 'fish']}),
  }

  protected async input() {
    const {args} = await this.parse(Completion)
    return args.shell as Shell
  }

  protected async operate(shell: Shell) {
    const [{completionScript, completionTree}, {HELP_TOPICS}] = await Promise.all([import('../cli/help/completion.js'), import('../cli/help/topics.js')])
    this.io.out(completionScript(shell, completionTree(this.config, Object.keys(HELP_TOPICS))))
  }
}
