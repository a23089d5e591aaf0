/** What a route is: the HTTP edge (http.ts) matches and calls these; handlers never see req or res. */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface RouteRequest {
  input: Record<string, unknown>
  params: Record<string, string>
  query: Record<string, string>
  /** A control asked beyond loopback with a merchant's credentials, not the control token (guard.ts): that merchant, whose records alone it may touch. */
  scope?: string
}

export interface MerchantRequest extends RouteRequest {
  merchant: string
}

/** `response` goes into the envelope of a successful answer. */
export interface RouteResult {
  status: number
  response: unknown
  /** Envelope fields beside `response`: a list's `records`, `total_records`, `pages`, `current_page`. */
  fields?: Record<string, unknown>
  /** `response` is the whole body, with no envelope (`/ping`). */
  bare?: boolean
}

/** `path` segments starting with `:` are parameters: `/v1.0/purchases/:id`. */
export type Route<Ctx> = {method: Method; path: string} & (
  | {auth: 'merchant'; handle(request: MerchantRequest, ctx: Ctx): RouteResult}
  | {auth: 'none'; handle(request: RouteRequest, ctx: Ctx): RouteResult}
)

/** A path parameter that the route's pattern guarantees. */
export function pathParam(request: RouteRequest, name: string): string {
  const value = request.params[name]
  if (value === undefined) throw new Error(`the route has no :${name} parameter`)
  return value
}
