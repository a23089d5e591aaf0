import type {Deps, GwRecord} from './deps.js'

/** The records gw looks up by id or reference (or token, or alias), one endpoint each. */
export type LookUpResource = 'purchases' | 'refunds' | 'cards' | 'customers' | 'plans' | 'subscriptions'

/** One record by its id or reference: the look-up every `get` command and a batch of ids share. */
export async function lookUp(resource: LookUpResource, id: string, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client[resource].get(id)
}
