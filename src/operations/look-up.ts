import type {endpoints} from '../api/endpoints.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'

type Table = typeof endpoints

/** The records gw looks up by id or reference (or token, or alias): each group of the endpoint table with a `get`. */
export type LookUpResource = {[G in keyof Table]: Table[G] extends {get: unknown} ? G : never}[keyof Table]

/** One record by its id or reference: the look-up every `get` command and a batch of ids share. */
export async function lookUp(resource: LookUpResource, id: string, {client}: Pick<Deps, 'client'>): Promise<GwRecord> {
  return client[resource].get(id)
}
