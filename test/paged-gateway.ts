import {envelope, type MisbehavingGateway, misbehavingGateway, type Received, type Reply} from './misbehaving-gateway.js'

/** A list as a gateway of a test's own serves it, honest or not. */
export interface PagedList {
  /** Records it holds, the n-th made n seconds after the first; Infinity: a new one wherever it is asked. */
  hold: number
  /** The order it lists them in: newest first as the live gateway does, or oldest first (the default, as an older gateway may). With Infinity held, oldest first only. */
  order?: 'newest' | 'oldest'
  /** What it claims of the list's length: the truth (the default), a number (a lie), or nothing (`none`: only the page's number). */
  total?: number | 'none'
  /** Answers every place asked for with the first page, and says no page number. */
  ignoresOffset?: boolean
  /** Records a page holds, whatever `limit` asks (as the live gateway's web hooks list): one page of them all, say. */
  pageSize?: number
  /** Characters of filler in each record's metadata: a fat list, for memory. */
  pad?: number
  /** Asked before each list request is answered: an answer of its own (a 503, a drop), or undefined to answer it; may wait for the test. */
  before?: (request: Received, page: number) => Reply | undefined | Promise<Reply | undefined>
}

export interface PagedGateway extends MisbehavingGateway {
  /** The list requests it received (of /v1.0/purchases and /v1.0/refunds). */
  listRequests(): Received[]
}

/** A purchase (or refund) record as the live gateway lists it: the n-th made, n seconds after noon on 17 November 2026 (UTC). */
export function listedRecord(n: number, {kind = 'P', pad = 0}: {kind?: 'P' | 'R'; pad?: number} = {}): Record<string, unknown> {
  return {
    id: `071-${kind}-${String(n).padStart(8, '0')}`,
    card_number: '424242XXXXXX4242',
    card_holder: 'Jane Citizen',
    amount: 1000,
    decimal_amount: 10.0,
    successful: true,
    message: 'Approved',
    reference: `paged-${n}`,
    currency: 'AUD',
    transaction_date: new Date(Date.UTC(2026, 10, 17, 12) + n * 1000).toISOString().replace('.000Z', '+00:00'),
    ...(pad > 0 ? {metadata: {filler: 'x'.repeat(pad)}} : {}),
  }
}

/**
 * A gateway of the test's own whose purchases and refunds lists page as `list` says, by offset and
 * limit (or page and per_page), in the order it says, in the contract's envelope; a purchase it holds is
 * found by its id or reference; anything else is a 404.
 */
export async function pagedGateway(list: PagedList): Promise<PagedGateway> {
  const gateway = await misbehavingGateway(async (request) => {
    const url = new URL(request.path, 'http://gateway')
    // One purchase looked up by id or reference, as refund list --purchase and purchase get do.
    const one = /^\/v1\.0\/purchases\/(?:paged-|071-P-)(\d+)$/.exec(url.pathname)
    if (request.method === 'GET' && one && Number(one[1]) < list.hold) return {body: envelope(listedRecord(Number(one[1]), {pad: list.pad}))}
    const kind = url.pathname === '/v1.0/purchases' ? 'P' : url.pathname === '/v1.0/refunds' ? 'R' : undefined
    if (request.method !== 'GET' || !kind) return {status: 404, body: envelope(null, {successful: false, errors: ['Record not found']})}
    const limit = list.pageSize ?? Math.min(50, Number(url.searchParams.get('limit') ?? 10))
    const offset = Number(url.searchParams.get('offset') ?? 0)
    const page = offset / limit + 1
    const own = await list.before?.(request, page)
    if (own) return own
    const from = list.ignoresOffset ? 0 : offset
    const count = Math.max(0, Math.min(limit, list.hold - from))
    // The i-th listed: the (i+1)-th newest, or the i-th made.
    const made = (i: number) => (list.order === 'newest' ? list.hold - 1 - i : i)
    const records = Array.from({length: count}, (_, i) => listedRecord(made(from + i), {kind, pad: list.pad}))
    const total = list.total === undefined ? list.hold : list.total
    const paging = total === 'none' ? {current_page: page} : list.ignoresOffset ? {total_records: total} : {records: count, total_records: total, pages: Math.max(1, Math.ceil(total / limit)), current_page: page}
    return {body: {...envelope(records), ...paging}}
  })
  return {
    ...gateway,
    listRequests: () => gateway.received.filter((request) => request.method === 'GET' && /^\/v1\.0\/(purchases|refunds)\b/.test(request.path)),
  }
}
