import type {SandboxContext} from '../context.js'
import {addCustomer} from '../domain/customer.js'

/**
 * The mark a purchase made by `/_sandbox/trigger` carries in its metadata, so that takings can leave
 * it out (gw report does, unless --include-samples): a sample charge is no sale.
 */
export const SAMPLE_METADATA = {gw_sample: 'gw sandbox trigger'}

/** The merchant's first customer's id, or a new sample customer's (reference `sample-customer-<suffix>`), for the samples of `/_sandbox/trigger`. */
export function sampleCustomerId(ctx: SandboxContext, merchant: string, suffix: string): string {
  const [year] = ctx.clock.today().split('-')
  return (
    ctx.store.ordered('customers', merchant).at(0)?.id ??
    addCustomer(ctx, merchant, {
      first_name: 'Sam',
      last_name: 'Sample',
      reference: `sample-customer-${suffix}`,
      email: 'sam.sample@example.com',
      card: {card_number: '4242424242424242', expiry_date: `12/${Number(year) + 3}`, cvv: '123'},
    }).id
  )
}
