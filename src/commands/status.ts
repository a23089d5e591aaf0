import {GwCommand} from '../gw-command.js'

export default class Status extends GwCommand {
  static override summary = 'Say which profile and gateway gw uses, and why'
  static override description = `The profile in force for a command run here and what chose it (--profile, GW_PROFILE, the active profile, or GW_USERNAME/GW_TOKEN), the gateway, the user, the proxy requests to it go through (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), and where the token is kept. Never the token itself.
Exits 4 when there are no credentials, or the token cannot be found where the profile says it is.`

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile shop-live --json']

  static override columns = [
    {label: 'Profile', field: 'profile'},
    {label: 'Chosen by', field: 'chosen_by'},
    {label: 'Environment', field: 'environment'},
    {label: 'Base URL', field: 'base_url'},
    {label: 'Username', field: 'username'},
    {label: 'Read-only', field: 'read_only', format: 'boolean' as const},
    {label: 'Secret', field: 'secret'},
    {label: 'Proxy', field: 'proxy'},
  ]

  async run() {
    await this.parse(Status)
    const [{statusRecord}, {proxyRoute}] = await Promise.all([import('../auth/status.js'), import('../api/proxy.js')])
    const target = await this.target()
    // Reading the token proves it is where the profile says; only its location is shown.
    await this.credentials()
    return statusRecord(target, proxyRoute(target.baseUrl, await this.proxy()))
  }
}
