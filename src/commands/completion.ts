import {Args} from '@oclif/core'
import {GwCommand} from '../cli/gw-command.js'
import type {Shell} from '../cli/help/completion.js'

export default class Completion extends GwCommand<Shell> {
  static override summary = 'Print a shell completion script for bash, zsh, fish or PowerShell'
  static override description = `The script is self-contained: it completes topics, commands, flags, fixed flag values (frequencies, modes, event names) and profile names, with no cache to refresh. Load it again after upgrading gw.
PowerShell's (Windows PowerShell 5.1 and PowerShell 7 on any system) is a native argument completer: load it in your profile ($PROFILE).`

  static override examples = [
    'source <(<%= config.bin %> <%= command.id %> bash)',
    '<%= config.bin %> <%= command.id %> bash > ~/.local/share/bash-completion/completions/<%= config.bin %>',
    '<%= config.bin %> <%= command.id %> zsh > "${fpath[1]}/_<%= config.bin %>"',
    '<%= config.bin %> <%= command.id %> fish > ~/.config/fish/completions/<%= config.bin %>.fish',
    '<%= config.bin %> <%= command.id %> powershell | Out-String | Invoke-Expression',
    "Add-Content $PROFILE '<%= config.bin %> <%= command.id %> powershell | Out-String | Invoke-Expression'",
  ]

  static override args = {
    shell: Args.string({description: 'the shell to complete in', required: true, options: ['bash', 'zsh', 'fish', 'powershell']}),
  }

  protected async input() {
    const {args} = await this.parse(Completion)
    return args.shell as Shell
  }

  protected async operate(shell: Shell) {
    const [{completionScript, completionTree}, {HELP_TOPIC_NAMES}] = await Promise.all([import('../cli/help/completion.js'), import('../cli/help/topics.js')])
    const tree = completionTree(this.config, HELP_TOPIC_NAMES)
    this.io.out(shell === 'powershell' ? (await import('../cli/help/powershell-completion.js')).powershellScript(tree) : completionScript(shell, tree))
  }
}
