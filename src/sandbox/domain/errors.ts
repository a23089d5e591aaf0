/**
 * A request the gateway refuses. Domain code throws these; the HTTP edge turns each into an
 * envelope with top-level `successful: false`, the given status, errors and response.
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
    readonly response: unknown = null,
  ) {
    super(errors.join('; '))
    this.name = 'SandboxError'
  }
}

const NO_PERMISSION = 'You do not have permissions to access this record'

export const badRequest = (errors: string[], response?: unknown) => new SandboxError(400, errors, response)

/** Web hooks answer validation failures with 422 rather than 400 (gateway-notes.md). */
export const unprocessable = (errors: string[], response?: unknown) => new SandboxError(422, errors, response)

export const forbidden = () => new SandboxError(403, [NO_PERMISSION])

export const notFound = (message: string) => new SandboxError(404, [message])

/** Processed but refused: the real gateway answers some refusals with HTTP 200 and `successful: false`. */
export const refusedWith200 = (message: string, response?: unknown) => new SandboxError(200, [message], response)
