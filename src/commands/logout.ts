import {Flags} from '@oclif/core'
import {GwCommand} from '../cli/gw-command.js'

export default class Logout extends GwCommand<{all: boolean}> {
  static override summary = "Remove a profile's API token"
  static override description = 'Removes the token of the profile in force (or --profile NAME, or every profile with --all) from the OS keychain or file it is in. The profile keeps its gateway and username, so gw login --profile NAME asks only for a new token; gw profile remove drops it altogether.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile shop-live', '<%= config.bin %> <%= command.id %> --all']

  static override flags = {
    all: Flags.boolean({description: 'log out of every profile', exclusive: ['profile']}),
  }

  protected async input() {
    const {flags} = await this.parse(Logout)
    return {all: flags.all}
  }

  protected async operate({all}: {all: boolean}) {
    const {logout, profileInForce, profileNames} = await import('../auth/profiles.js')
    const names = all ? await profileNames(this.factory.configDir) : [profileInForce(await this.factory.target())]
    for (const line of await logout(this.factory.configDir, names, await this.factory.tokenStores())) this.io.err(`Logged out of ${line}\n`)
  }
}
