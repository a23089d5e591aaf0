import {profileColumns} from '../../auth/columns.js'
import {GwCommand} from '../../cli/gw-command.js'

export default class ProfileList extends GwCommand<void> {
  static override summary = 'List the profiles'
  static override description = 'Each profile with its environment, gateway, username, whether it is read-only or active, and where its token is kept (keychain, file, config for the local demo token). GW_USERNAME/GW_TOKEN, when set, show as one more row.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json | jq -r .name']

  static override columns = profileColumns

  protected async input() {
    await this.parse(ProfileList)
  }

  protected async operate() {
    const {listProfiles} = await import('../../auth/profiles.js')
    return listProfiles(this.factory.configDir)
  }
}
