import {Flags} from '@oclif/core'
import {GwCommand} from '../cli/gw-command.js'
import {renderWarning} from '../output/warning.js'

export default class Status extends GwCommand<{check: boolean}> {
  static override summary = 'Say which profile and gateway gw uses, and why; with --check, try them'
  static override description = `The profile in force for a command run here and what chose it (--profile, GW_PROFILE, the active profile, or GW_USERNAME/GW_TOKEN), the gateway, the user, the proxy requests to it go through (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), and where the token is kept. Never the token itself.
With --check (the default on a terminal) gw also asks the gateway's health check, GET /ping, with the profile's credentials. It says whether it answered with the text sent (answers_ping), and the gateway's clock (gateway_time). Then one harmless look-up says whether the gateway took the token, and the mode it reports (test or live), which /ping's bare answer does not say. A gateway without /ping (404, or 403) is checked by the look-up alone.
Exits 4 when there are no credentials, the token cannot be found where the profile says it is, or the gateway refuses it (at /ping or the look-up). Exits 1 when the gateway cannot be reached, or answers /ping with a failure or without the text sent.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --check --json',
    '<%= config.bin %> <%= command.id %> --profile local --no-check',
  ]

  static override flags = {
    check: Flags.boolean({description: "try the gateway with the profile's credentials (default on a terminal)", allowNo: true}),
  }

  static override columns = [
    {label: 'Profile', field: 'profile'},
    {label: 'Chosen by', field: 'chosen_by'},
    {label: 'Environment', field: 'environment'},
    {label: 'Base URL', field: 'base_url'},
    {label: 'Username', field: 'username'},
    {label: 'Read-only', field: 'read_only', format: 'boolean' as const},
    {label: 'Secret', field: 'secret'},
    {label: 'Proxy', field: 'proxy'},
    {label: 'Reachable', field: 'reachable', format: 'boolean' as const},
    {label: 'Token valid', field: 'token_valid', format: 'boolean' as const},
    {label: 'Gateway mode', field: 'gateway_mode'},
    {label: 'Answers /ping', field: 'answers_ping', format: 'boolean' as const},
    {label: 'Gateway time', field: 'gateway_time'},
  ]

  protected async input() {
    const {flags} = await this.parse(Status)
    return {check: flags.check ?? this.io.isStdoutTTY}
  }

  protected async operate({check}: {check: boolean}) {
    const [{statusRecord, checkedStatus}, {proxyRoute}] = await Promise.all([import('../auth/status.js'), import('../api/proxy.js')])
    const target = await this.factory.target()
    const record = statusRecord(target, proxyRoute(target.baseUrl, await this.factory.proxy()))
    if (!check) {
      // Reading the token proves it is where the profile says; only its location is shown.
      await this.factory.credentials()
      return record
    }
    const {checkGateway} = await import('../operations/status.js')
    const {record: checked, problem, warning} = checkedStatus(record, target, await checkGateway(await this.factory.deps()))
    if (warning) renderWarning(this.io, warning)
    if (problem) throw problem
    return checked
  }
}
