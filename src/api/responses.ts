import {
  AuthError,
  GatewayError,
  type GwError,
  type GwErrorDetails,
  NotFoundError,
  PermissionError,
  RejectedError,
} from '../errors.js'
import {Envelope} from './schemas/common.js'

export interface RawResponse {
  status: number
  requestId?: string
  text: string
}

/** Reads the envelope out of a body; a body that is not one (an HTML 500, say) is an error here. */
export function parseEnvelope(raw: RawResponse): Envelope {
  let json: unknown
  try {
    json = JSON.parse(raw.text)
  } catch {
    throw unreadable(raw, 'a body that is not JSON')
  }
  const envelope = Envelope.safeParse(json)
  if (!envelope.success) throw unreadable(raw, 'JSON without the gateway envelope')
  return envelope.data
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
  const messages = envelope.errors.length > 0 ? envelope.errors : [`HTTP ${status} with no error message`]
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

