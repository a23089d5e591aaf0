import type {HistoryMade, HistoryRequest} from '../api/schemas/sandbox-control.js'
import {NotFoundError, RejectedError, UsageError} from '../errors.js'
import type {Deps} from './deps.js'

/**
 * A quick history made by the local gateway, in one request (POST /_sandbox/history): what it made.
 * Any other gateway has no such control, and answers 404: that is said as what it is.
 */
export async function seedHistory(request: HistoryRequest, {client}: Pick<Deps, 'client'>): Promise<HistoryMade> {
  try {
    return await client.sandbox.history(request)
  } catch (err) {
    // Its references are taken: a history with this prefix was made already.
    if (err instanceof RejectedError) {
      const {status, messages, requestId} = err
      throw new RejectedError(err.message, {status, messages, requestId, hint: 'Give another --reference-prefix, or seed a local gateway started afresh.'})
    }
    if (!(err instanceof NotFoundError)) throw err
    throw new UsageError('A quick history is made by the local gateway only, and this gateway has no such control: nothing was made', 'Start one with gw sandbox start --detach, and seed it with gw sandbox seed --purchases N.')
  }
}
