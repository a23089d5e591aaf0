import type {ListPage} from '../api/paging.js'
import type {Deps, GwRecord} from './deps.js'

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

/** One page of plans and where it sits, or with `all` every page (bounded). */
export async function listPlans(input: {page?: number; limit?: number; all?: boolean}, {client}: Pick<Deps, 'client'>): Promise<ListPage<GwRecord>> {
  if (input.all) return {records: await client.plans.listAll(input.limit), paging: {}}
  return client.plans.list({page: input.page, limit: input.limit})
}
