import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {purchaseColumns} from '../../output/columns.js'

export default class PurchaseIncrement extends GwCommand<{id: string; amount: number}> {
  static override summary = 'Raise an authorization to a new total before capturing it'
  static override description = `Raises the authorization ID (its id or reference) to --amount, the new total in minor units (not the increase): a hotel stay that grew, a tip. The record's metadata keeps the first authorized amount (original_amount). A captured or voided purchase cannot be raised.
Sent once and never retried; if no answer comes back, gw looks the authorization up by its id (its amount) and reports what it shows. Run again, an increment to the same total is reported as done before (exit 0); an --amount the authorization holds already with no increment made is refused before anything is sent (exit 2). On a live profile the new total must be typed back to confirm (--yes without a terminal).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> order-2001 --amount 6000',
    '<%= config.bin %> <%= command.id %> order-2001 --amount 6500 --json | jq .metadata.original_amount',
  ]

  static override args = {id: gwFlags.id('id or reference of the authorization to raise')}
  static override flags = {amount: gwFlags.amount({description: 'the new total to authorize, in the minor currency unit (not the increase)', required: true})}
  static override columns = purchaseColumns

  protected async input() {
    const {args, flags} = await this.parse(PurchaseIncrement)
    return {id: args.id, amount: flags.amount!}
  }

  protected async operate({id, amount}: {id: string; amount: number}) {
    const {followUpIds} = await import('../../cli/follow-up.js')
    return followUpIds(this.factory, [id], undefined, 'purchases', (resolved) => ({kind: 'increment', id: resolved, amount}))
  }
}
