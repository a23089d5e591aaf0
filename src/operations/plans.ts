import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'

export interface PlanInput {
  name: string
  amount: number
  reference: string
  description: string
}

export async function createPlan(input: PlanInput, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.plans.create(input)
}

/** Only the name and the description of a plan can change; only those given are sent. */
export async function updatePlan(id: string, changes: {name?: string; description?: string}, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client.plans.update(id, {
    ...(changes.name === undefined ? {} : {name: changes.name}),
    ...(changes.description === undefined ? {} : {description: changes.description}),
  })
}
