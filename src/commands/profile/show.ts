import {Args} from '@oclif/core'
import {profileColumns} from '../../auth/columns.js'
import {GwCommand} from '../../cli/gw-command.js'

export default class ProfileShow extends GwCommand<string | undefined> {
  static override summary = 'Show one profile'
  static override description = 'The named profile, or the one in force without a name. Never its token, only where the token is kept.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> local --json']

  static override args = {
    name: Args.string({description: 'profile name (default: the profile in force)'}),
  }

  static override columns = profileColumns

  protected async input() {
    const {args} = await this.parse(ProfileShow)
    return args.name
  }

  protected async operate(name: string | undefined) {
    const {showProfile, profileInForce} = await import('../../auth/profiles.js')
    return showProfile(this.factory.configDir, name ?? profileInForce(await this.factory.target()))
  }
}
