import * as gwFlags from '../../cli/flags.js'
import {GwCommand} from '../../cli/gw-command.js'
import {purchaseColumns} from '../../output/columns.js'

export default class PurchaseExtend extends GwCommand<string> {
  static override summary = 'Extend an authorization that has not expired, to capture it later'
  static override description = `Asks the gateway to push back the expiry of the authorization ID (its id or reference). The record comes back as it was: no field shows an expiry. A captured or voided purchase cannot be extended.
Sent once and never retried; an extension moves no money, so when no answer comes back, running it again is harmless (exit 8 says so).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> order-2001',
    '<%= config.bin %> <%= command.id %> order-2001 --json | jq .captured',
  ]

  static override args = {id: gwFlags.id('id or reference of the authorization to extend')}
  static override columns = purchaseColumns

  protected async input() {
    const {args} = await this.parse(PurchaseExtend)
    return args.id
  }

  protected async operate(id: string) {
    const {followUpIds} = await import('../../cli/follow-up.js')
    return followUpIds(this.factory, [id], undefined, 'purchases', (resolved) => ({kind: 'extend', id: resolved}))
  }
}
