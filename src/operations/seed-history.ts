import type {HistoryMade, HistoryRequest} from '../api/schemas/sandbox-control.js'
import type {Deps} from './deps.js'

/** A quick history made by the local gateway, in one request (POST /_sandbox/history): what it made. */
export async function seedHistory(request: HistoryRequest, {client}: Pick<Deps, 'client'>): Promise<HistoryMade> {
  return client.sandbox.history(request)
}
