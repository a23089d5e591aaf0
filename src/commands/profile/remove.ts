import {Args} from '@oclif/core'
import {GwCommand} from '../../cli/gw-command.js'

export default class ProfileRemove extends GwCommand<string> {
  static override summary = 'Remove a profile and its token'
  static override description = 'Deletes the profile from config.json and its token from the OS keychain or file. When it was active, no profile is active afterwards.'

  static override examples = ['<%= config.bin %> <%= command.id %> old-shop', '<%= config.bin %> <%= command.id %> local']

  static override args = {
    name: Args.string({description: 'profile name', required: true}),
  }

  protected override async choicesFor(name: string): Promise<readonly string[] | undefined> {
    if (name !== 'name') return undefined
    const {profileNames} = await import('../../auth/profiles.js')
    return profileNames(this.factory.configDir)
  }

  protected async input() {
    const {args} = await this.parse(ProfileRemove)
    return args.name
  }

  protected async operate(name: string) {
    const {removeProfile} = await import('../../auth/profiles.js')
    await removeProfile(this.factory.configDir, name, await this.factory.tokenStores())
    this.io.err(`Profile ${name} removed.\n`)
  }
}
