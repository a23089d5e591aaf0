import {Flags} from '@oclif/core'
import {FAULT_ACTIONS} from '../../../api/schemas/recurring-rules.js'
import type {FaultRequest} from '../../../api/schemas/sandbox-control.js'
import {localGatewayName} from '../../../cli/flags.js'
import {useLocalGateway} from '../../../cli/local-gateway.js'
import {GwCommand} from '../../../cli/gw-command.js'
import {faultColumns} from '../../../output/columns.js'
import {UsageError} from '../../../errors.js'

export default class SandboxFaultAdd extends GwCommand<FaultRequest> {
  static override summary = 'Make the local gateway fail the next matching requests: drop them, answer a status, or answer late'
  static override description = `The next --times requests (1 unless given) whose method is --method and whose path starts with --path get the fault; with a ? in --path, their path and query do (/v1.0/purchases?offset=50&: one page of a list). The local gateway's own controls (/_sandbox/) never get one.
--action drop-before drops the connection before the request is read, so nothing is done; drop-after does the request, then drops the connection before the answer (an outcome the client must find out); status answers --status (with --html, as an HTML page, as a gateway's proxy does); delay answers after --delay-ms, the work done whether or not the client waited.
Prints the fault. gw sandbox fault list shows those waiting, gw sandbox fault clear clears them. The same as POST /_sandbox/faults (docs/local-gateway.md).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --method POST --path /v1.0/purchases --action drop-after',
    '<%= config.bin %> <%= command.id %> --method GET --path "/v1.0/purchases?offset=50&" --action status --status 503 --times 3',
    '<%= config.bin %> <%= command.id %> --method POST --path /v1.0/refunds --action delay --delay-ms 65000',
  ]

  static override flags = {
    name: localGatewayName(),
    method: Flags.string({description: 'HTTP method of the requests to fail, such as POST', required: true}),
    path: Flags.string({description: 'start of the path of the requests to fail, such as /v1.0/purchases', required: true}),
    action: Flags.string({description: 'what happens to them', options: [...FAULT_ACTIONS], required: true}),
    status: Flags.integer({description: 'the HTTP status to answer, 200 to 599 (with --action status)', min: 200, max: 599}),
    html: Flags.boolean({description: 'answer an HTML page, not the envelope (with --action status)'}),
    'delay-ms': Flags.integer({description: 'milliseconds to wait before answering, at most 600000 (with --action delay)', min: 0, max: 600_000}),
    times: Flags.integer({description: 'how many matching requests get it', min: 1, default: 1}),
  }

  static override columns = faultColumns

  protected async input(): Promise<FaultRequest> {
    const {flags} = await this.parse(SandboxFaultAdd)
    const action = flags.action as FaultRequest['action']
    if (action === 'status' && flags.status === undefined) throw new UsageError('--action status needs --status, the HTTP status to answer', 'For example --status 503.')
    if (action === 'delay' && flags['delay-ms'] === undefined) throw new UsageError('--action delay needs --delay-ms, how long to wait before answering', 'For example --delay-ms 65000.')
    if (action !== 'status' && (flags.status !== undefined || flags.html)) throw new UsageError(`--status and --html go with --action status, not ${action}`, 'Leave them out, or use --action status.')
    if (action !== 'delay' && flags['delay-ms'] !== undefined) throw new UsageError(`--delay-ms goes with --action delay, not ${action}`, 'Leave it out, or use --action delay.')
    if (!flags.path.startsWith('/')) throw new UsageError(`--path must start with /, got "${flags.path}"`, 'For example --path /v1.0/purchases.')
    await useLocalGateway(this.factory, flags.name)
    return {
      method: flags.method.toUpperCase(),
      path: flags.path,
      action,
      times: flags.times,
      ...(flags.status === undefined ? {} : {status: flags.status}),
      ...(flags.html ? {html: true} : {}),
      ...(flags['delay-ms'] === undefined ? {} : {delayMs: flags['delay-ms']}),
    }
  }

  protected async operate(fault: FaultRequest) {
    const {addFault} = await import('../../../operations/sandbox.js')
    return addFault(fault, await this.factory.deps())
  }
}
