import {Args} from '@oclif/core'
import {localGatewayName} from '../../cli/flags.js'
import {useLocalGateway} from '../../cli/local-gateway.js'
import {GwCommand} from '../../cli/gw-command.js'
import {deliveryColumns} from '../../output/columns.js'

export default class SandboxRedeliver extends GwCommand<string> {
  static override summary = 'Send a web hook delivery of the local gateway again, now'
  static override description = `A finished delivery (delivered, or failed) is queued again as it was, to the same address, and prints as the new delivery, which names the one it repeats in redelivery_of. A delivery still queued, waiting to be tried again, is tried at once.
A delivery to a web hook deleted since is refused. gw sandbox deliveries lists the ids.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> 6f1c2a9e-8a43-4c7e-9d7e-2b1f0c3d4e5f',
    '<%= config.bin %> sandbox deliveries --status failed --json | jq -r .id | xargs -n 1 <%= config.bin %> <%= command.id %>',
  ]

  static override args = {
    id: Args.string({description: 'id of the delivery, as gw sandbox deliveries lists it', required: true}),
  }

  static override flags = {
    name: localGatewayName(),
  }

  static override columns = deliveryColumns

  protected async input() {
    const {args, flags} = await this.parse(SandboxRedeliver)
    await useLocalGateway(this.factory, flags.name)
    return args.id
  }

  protected async operate(id: string) {
    const {redeliver} = await import('../../operations/sandbox.js')
    return redeliver(id, await this.factory.deps())
  }
}
