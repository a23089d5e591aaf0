import type {RawAnswer} from '../api/client.js'
import {type ListPage, readPaging, walkList} from '../api/paging.js'
import {parseEnvelope} from '../api/responses.js'
import {GatewayError} from '../errors.js'
import {type ApiRequest, withQuery} from './api.js'
import type {Deps} from './deps.js'
import type {GwRecord} from '../api/schemas/record.js'

/** The paging parameters set on every page asked for: the request's own would be overridden. */
export const PAGING_PARAMETERS = ['offset', 'limit', 'page', 'per_page']

/**
 * Every record of a list path (gh api's --paginate), page after page in the gateway's order, each page asked for with the request's own query and the paging parameters.
 * Only the pages in flight are held.
 */
export async function* paginate(request: Omit<ApiRequest, 'method' | 'body'>, {client}: Pick<Deps, 'client'>, {ahead, maxPages}: {ahead: number; maxPages?: number}): AsyncGenerator<GwRecord[]> {
  const given = request.query ?? []
  const fetch = async ({offset, limit, page}: {offset: number; limit: number; page?: number}): Promise<ListPage<GwRecord>> => {
    const paging: [string, string][] = [['offset', String(offset)], ['limit', String(limit)], ...(page === undefined ? [] : ([['page', String(page)], ['per_page', String(limit)]] as [string, string][]))]
    const answer: RawAnswer = await client.sendRaw('GET', withQuery(request.path, [...given, ...paging]))
    if (answer.error) throw answer.error
    const envelope = parseEnvelope(answer)
    if (!Array.isArray(envelope.response)) {
      throw new GatewayError('unreadable', `${request.path} is not a list: its answer's response is ${envelope.response === null ? 'null' : typeof envelope.response}, not an array of records`, {status: answer.status, requestId: answer.requestId})
    }
    return {records: envelope.response as GwRecord[], paging: readPaging(envelope as Record<string, unknown>)}
  }
  yield* walkList(fetch, {ahead, maxPages})
}
