import {Args} from '@oclif/core'
import {profileColumns} from '../../auth/columns.js'
import {GwCommand} from '../../cli/gw-command.js'

export default class ProfileUse extends GwCommand<string> {
  static override summary = 'Make a profile the active one'
  static override description = 'Commands use the active profile unless --profile or GW_PROFILE names another.'

  static override examples = ['<%= config.bin %> <%= command.id %> local', '<%= config.bin %> <%= command.id %> local && <%= config.bin %> status --check']

  static override args = {
    name: Args.string({description: 'profile name', required: true}),
  }

  static override columns = profileColumns

  protected override async choicesFor(name: string): Promise<readonly string[] | undefined> {
    if (name !== 'name') return undefined
    const {profileNames} = await import('../../auth/profiles.js')
    return profileNames(this.factory.configDir)
  }

  protected async input() {
    const {args} = await this.parse(ProfileUse)
    return args.name
  }

  protected async operate(name: string) {
    const {useProfile} = await import('../../auth/profiles.js')
    const record = await useProfile(this.factory.configDir, name)
    this.io.err(`Profile ${record.name} is now active.\n`)
    return record
  }
}
