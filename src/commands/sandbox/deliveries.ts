import {Flags} from '@oclif/core'
import {DELIVERY_STATUSES, type DeliveryStatus, GATEWAY_EVENTS, type GatewayEvent} from '../../api/schemas/recurring-rules.js'
import {localGatewayName} from '../../cli/flags.js'
import {useLocalGateway} from '../../cli/local-gateway.js'
import {GwCommand} from '../../cli/gw-command.js'
import {deliveryColumns} from '../../output/columns.js'
import type {DeliveryQuery} from '../../api/schemas/sandbox-control.js'

export default class SandboxDeliveries extends GwCommand<DeliveryQuery> {
  static override summary = "List the local gateway's web hook deliveries, with their attempts and last answer"
  static override description = `Finished deliveries (delivered, or failed once every attempt was refused) then those still queued, oldest first: the event, where it goes, how many attempts were made and what the receiver last answered (HTTP 500, ECONNREFUSED...). --json adds each delivery's payload.
Finished deliveries are kept in memory, the latest 500, since the gateway started; queued ones are kept in its state file. gw sandbox redeliver ID sends one again.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --status failed --json | jq -r .id',
    '<%= config.bin %> <%= command.id %> --event card:expiring --status pending',
  ]

  static override flags = {
    name: localGatewayName(),
    event: Flags.string({description: 'only deliveries of this event', options: [...GATEWAY_EVENTS]}),
    status: Flags.string({description: 'only deliveries in this state', options: [...DELIVERY_STATUSES]}),
  }

  static override columns = deliveryColumns

  protected async input(): Promise<DeliveryQuery> {
    const {flags} = await this.parse(SandboxDeliveries)
    await useLocalGateway(this.factory, flags.name)
    return {event: flags.event as GatewayEvent | undefined, status: flags.status as DeliveryStatus | undefined}
  }

  protected async operate(query: DeliveryQuery) {
    const {listDeliveries} = await import('../../operations/sandbox.js')
    return listDeliveries(query, await this.factory.deps())
  }
}
