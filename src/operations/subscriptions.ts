import type {Frequency} from '../api/schemas/recurring-rules.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'

export interface SubscriptionInput {
  customer: string
  plan: string
  frequency: Frequency
  startDate: string
  reference: string
  active: boolean
}

export async function createSubscription(input: SubscriptionInput, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.subscriptions.create({
    customer: input.customer,
    plan: input.plan,
    frequency: input.frequency,
    start_date: input.startDate,
    reference: input.reference,
    is_active: input.active,
  })
}

/** Stops or resumes billing. */
export async function setSubscriptionActive(id: string, active: boolean, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.subscriptions.update(id, {is_active: active})
}
