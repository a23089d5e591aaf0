import {
  AuthError,
  GatewayError,
  type GwError,
  type GwErrorDetails,
  NotFoundError,
  PermissionError,
  RejectedError,
} from '../errors.js'
import type {z} from 'zod'
import type {Endpoint} from './endpoints.js'
import type {Envelope} from './schemas/common.js'
import {maskCardTokensIn} from '../safety/redact.js'
import {parseKeepingNumbers} from '../lib/json-as-written.js'

export interface RawResponse {
  status: number
  requestId?: string
  text: string
  /** The environment the gateway says it answered from (X-Service-Mode, `test`), when it says. */
  mode?: 'sandbox' | 'live'
  /** The body parsed as JSON once, where it was read (undefined: parse `text` when needed). */
  json?: ParsedBody
  /** A list's records still to come, read from the body as they are asked for (list-text.ts readListBody): `json` holds the first ones. */
  more?: AsyncGenerator<Record<string, unknown>[]>
}

/** A body as JSON, or not JSON at all. */
export type ParsedBody = {ok: true; value: unknown} | {ok: false}

export function parseBody(text: string): ParsedBody {
  try {
    return {ok: true, value: parseKeepingNumbers(text)}
  } catch {
    return {ok: false}
  }
}

/** A record read out of its envelope, which a list's paging fields sit beside. */
export interface Answer<Res extends z.ZodType> {
  record: z.infer<Res> & Record<string, unknown>
  envelope: Envelope
  raw: RawResponse
}

/**
 * The record of an answer, checked against its endpoint's schema. Whatever the body holds, the
 * only errors are typed: the gateway's refusal, or `unreadable` for what is not a whole answer.
 */
export function readRecord<Res extends z.ZodType>(endpoint: Pick<Endpoint<Res>, 'method' | 'path' | 'response' | 'bare'>, raw: RawResponse): Answer<Res> {
  const envelope = endpoint.bare ? bareEnvelope(raw) : parseEnvelope(raw)
  const error = errorFromResponse(raw, envelope)
  if (error) throw error
  const parsed = endpoint.response.safeParse(envelope.response, once(envelope.response))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new GatewayError('unreadable', `The gateway's ${endpoint.method} ${endpoint.path} answer could not be read: ${issue?.path.join('.') || 'response'}: ${issue?.message}`, {
      status: raw.status,
      requestId: raw.requestId,
    })
  }
  // The gateway's own object, not zod's copy: --json must show every field in the order it came.
  return {record: envelope.response as Answer<Res>['record'], envelope, raw}
}

/**
 * zod checks an object schema fastest with a function it writes for it (new Function) the first
 * time, which V8 compiles then and there: worth it for a page of records, not for one record,
 * where it is most of the check's cost. Such a check is made without it.
 */
const ONCE = {jitless: true}
const once = (value: unknown) => (Array.isArray(value) ? undefined : ONCE)

/** The mode an answer reports: X-Service-Mode (Live or Sandbox) or the envelope's `test`; either saying live is live. */
export function reportedMode(serviceMode: string | undefined, body: ParsedBody): 'sandbox' | 'live' | undefined {
  const test = body.ok ? (body.value as {test?: unknown} | null)?.test : undefined
  const header = serviceMode?.trim().toLowerCase()
  if (header === 'live' || test === false) return 'live'
  if (header === 'sandbox' || header === 'test' || test === true) return 'sandbox'
  return undefined
}

/** A bare body (`/ping`) as the envelope of a success holding it; a failure's status says what it is. */
function bareEnvelope(raw: RawResponse): Envelope {
  const body = raw.json ?? parseBody(raw.text)
  if (!body.ok) throw unreadable(raw, 'a body that is not JSON')
  // A refusal may still come in the envelope (a 401 from the gateway's guard).
  const envelope = envelopeOf(body.value)
  if (raw.status >= 400) return envelope ?? {successful: false, response: null, errors: []}
  return {successful: true, response: body.value, errors: []}
}

/** Reads the envelope out of a body; a body that is not one (an HTML 500, say) is an error here. */
export function parseEnvelope(raw: RawResponse): Envelope {
  const body = raw.json ?? parseBody(raw.text)
  if (!body.ok) throw unreadable(raw, 'a body that is not JSON')
  const envelope = envelopeOf(body.value)
  if (!envelope) throw unreadable(raw, 'JSON without the gateway envelope')
  return envelope
}

/**
 * The envelope as its schema (Envelope, schemas/common.ts) reads it, checked by hand: every answer
 * is one, and zod's check and copy of it cost as much as the rest of a list page's reading (bench/README.md).
 */
export function envelopeOf(value: unknown): Envelope | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const {successful, errors, test} = value as Record<string, unknown>
  if (typeof successful !== 'boolean' || (test !== undefined && typeof test !== 'boolean')) return undefined
  if (errors === undefined) return {...(value as Envelope), errors: []}
  return Array.isArray(errors) && errors.every((error) => typeof error === 'string') ? (value as Envelope) : undefined
}

function unreadable(raw: RawResponse, what: string): GwError {
  const details = {status: raw.status, requestId: raw.requestId}
  if (raw.status >= 500) return new GatewayError('gateway', `The gateway failed (HTTP ${raw.status}) and sent ${what}`, details)
  return new GatewayError('unreadable', `The gateway answered HTTP ${raw.status} with ${what}`, details)
}

/**
 * The envelope's `successful` and `errors` are the truth, whatever the HTTP status
 * (gateway-notes.md): errors arrive as 200 too, and 422 stands for 400 in places.
 * Returns undefined for a success.
 */
export function errorFromResponse(raw: RawResponse, envelope: Envelope): GwError | undefined {
  const {status} = raw
  if (envelope.successful && status < 400) return undefined
  // A stored card's token is never repeated (an unknown one comes back in `Card <token> could not be found`).
  const messages = envelope.errors.length > 0 ? envelope.errors.map(maskCardTokensIn) : [`HTTP ${status} with no error message`]
  const details: GwErrorDetails = {status, requestId: raw.requestId, messages}
  const message = messages.join('; ')
  switch (status) {
    case 401:
      return new AuthError(message, details)
    case 403:
      return new PermissionError(message, details)
    case 404:
      return new NotFoundError(message, details)
    default:
      if (status >= 500 && status !== 501) return new GatewayError('gateway', message, details)
      return new RejectedError(message, details)
  }
}

