import {Flags} from '@oclif/core'
import {actionTaking, FAULT_ACTION_NAMES, FAULT_ACTIONS, FAULT_PARAMETERS, type FaultParameter, type FaultParameterName, parametersOf} from '../../../api/schemas/fault-actions.js'
import type {FaultRequest} from '../../../api/schemas/sandbox-control.js'
import {localGatewayName} from '../../../cli/flags.js'
import {useLocalGateway} from '../../../cli/local-gateway.js'
import {GwCommand} from '../../../cli/gw-command.js'
import {faultColumns} from '../../../output/columns.js'
import {UsageError} from '../../../errors.js'

/** Each action's parameters as flags, from the one table (api/schemas/fault-actions.ts). */
const parameterFlags = Object.fromEntries(
  (Object.keys(FAULT_PARAMETERS) as FaultParameterName[]).map((name) => {
    const parameter: {flag: string; description: string; range?: {min: number; max: number; words: string}} = FAULT_PARAMETERS[name]
    const description = `${parameter.description} (with --action ${actionTaking(name)})`
    const range = parameter.range
    if (!range) return [parameter.flag, Flags.boolean({description})]
    return [parameter.flag, Flags.integer({description: `${description}: ${range.words}`, min: range.min, max: range.max})]
  }),
)

/** The table's words with each parameter named by its flag. */
const withFlags = (words: string) => words.replace(/\{(\w+)\}/g, (_, name: FaultParameterName) => `--${FAULT_PARAMETERS[name].flag}`)

/** A parameter's flag given: an integer at all, a boolean as true. */
const isGiven = (value: unknown) => value !== undefined && value !== false

export default class SandboxFaultAdd extends GwCommand<FaultRequest> {
  static override summary = 'Make the local gateway fail the next matching requests: drop them, answer a status, answer late, or refuse them as rate-limited'
  static override description = `The next --times requests (1 unless given) whose method is --method and whose path starts with --path get the fault; with a ? in --path, their path and query do (/v1.0/purchases?offset=50&: one page of a list). The local gateway's own controls (/_sandbox/) never get one.
${FAULT_ACTION_NAMES.map((action) => `--action ${action} ${withFlags(FAULT_ACTIONS[action].does)}`).join('; ')}.
Prints the fault. gw sandbox fault list shows those waiting, gw sandbox fault clear clears them. The same as POST /_sandbox/faults (docs/local-gateway.md).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --method POST --path /v1.0/purchases --action drop-after',
    '<%= config.bin %> <%= command.id %> --method GET --path "/v1.0/purchases?offset=50&" --action status --status 503 --times 3',
    '<%= config.bin %> <%= command.id %> --method POST --path /v1.0/refunds --action delay --delay-ms 65000',
    '<%= config.bin %> <%= command.id %> --method GET --path /v1.0/purchases --action rate-limit --retry-after 2 --times 2',
  ]

  static override flags = {
    name: localGatewayName(),
    method: Flags.string({description: 'HTTP method of the requests to fail, such as POST', required: true}),
    path: Flags.string({description: 'start of the path of the requests to fail, such as /v1.0/purchases', required: true}),
    action: Flags.string({description: 'what happens to them', options: FAULT_ACTION_NAMES, required: true}),
    ...parameterFlags,
    times: Flags.integer({description: 'how many matching requests get it', min: 1, default: 1}),
  }

  static override columns = faultColumns

  protected async input(): Promise<FaultRequest> {
    const {flags} = await this.parse(SandboxFaultAdd)
    const action = flags.action as FaultRequest['action']
    const given = flags as Record<string, unknown>
    const valueOf = (name: FaultParameterName) => given[FAULT_PARAMETERS[name].flag]
    for (const {name, parameter} of parametersOf(action)) {
      if (parameter.range && !parameter.optional && valueOf(name) === undefined) {
        throw new UsageError(`--action ${action} needs --${parameter.flag}, ${parameter.description}`, `For example --${parameter.flag} ${parameter.range.example}.`)
      }
      const needed: FaultParameter | undefined = parameter.needs === undefined ? undefined : FAULT_PARAMETERS[parameter.needs as FaultParameterName]
      if (needed?.range && isGiven(valueOf(name)) && valueOf(parameter.needs as FaultParameterName) === undefined) {
        throw new UsageError(`--${parameter.flag} needs --${needed.flag}, which it changes`, `For example --${needed.flag} ${needed.range.example}.`)
      }
    }
    const stray = (Object.keys(FAULT_PARAMETERS) as FaultParameterName[]).find((name) => actionTaking(name) !== action && isGiven(valueOf(name)))
    if (stray !== undefined) {
      const owner = actionTaking(stray)
      const named = parametersOf(owner).map(({parameter}) => `--${parameter.flag}`)
      throw new UsageError(`${named.join(' and ')} go${named.length === 1 ? 'es' : ''} with --action ${owner}, not ${action}`, `Leave ${named.length === 1 ? 'it' : 'them'} out, or use --action ${owner}.`)
    }
    if (!flags.path.startsWith('/')) throw new UsageError(`--path must start with /, got "${flags.path}"`, 'For example --path /v1.0/purchases.')
    await useLocalGateway(this.factory, flags.name)
    const parameters = parametersOf(action).flatMap(({name}) => (isGiven(valueOf(name)) ? [[name, valueOf(name)]] : []))
    return {method: flags.method.toUpperCase(), path: flags.path, action, times: flags.times, ...Object.fromEntries(parameters)}
  }

  protected async operate(fault: FaultRequest) {
    const {addFault} = await import('../../../operations/sandbox.js')
    return addFault(fault, await this.factory.deps())
  }
}
