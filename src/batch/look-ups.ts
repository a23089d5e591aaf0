import {type GwError, InterruptedError, ModeMismatchError} from '../errors.js'
import {lookUp, type LookUpResource} from '../operations/look-up.js'
import type {Deps, GwRecord} from '../operations/deps.js'
import type {Column} from '../output/columns.js'
import {recordStream, renderError, type RenderOptions} from '../output/render.js'
import {toGwError} from '../to-gw-error.js'
import {inOrder, type Outcome} from './in-order.js'

export interface LookUpsDone {
  failed: number
  /** The failure with the highest exit code, which the command exits with (design.md §4). */
  worst?: GwError
}

/**
 * Several records looked up `concurrency` at a time and printed in the order given, each as it
 * and those before it are in; a failed one is reported where it stands while the rest still run.
 */
export async function lookUpEach(
  resource: LookUpResource,
  ids: string[],
  {deps, columns, render, concurrency}: {deps: Deps; columns: Column[]; render: RenderOptions; concurrency: number},
): Promise<LookUpsDone> {
  const {io} = deps
  const stream = recordStream(io, columns, render)
  const done: LookUpsDone = {failed: 0}
  const emit = async (id: string, outcome: Outcome<GwRecord>) => {
    if (outcome.ok) return stream.write(outcome.value)
    const error = toGwError(outcome.error)
    // Stopped, or talking to another gateway than the profile says: the rest are not looked up.
    if (error instanceof InterruptedError || error instanceof ModeMismatchError) throw error
    renderError(io, error, {json: render.json, subject: id})
    done.failed++
    if (!done.worst || error.exitCode > done.worst.exitCode) done.worst = error
  }
  const look = (id: string) => lookUp(resource, id, deps)
  // The first goes alone, so a gateway in the other environment is found before the rest are sent.
  await inOrder(ids.slice(0, 1), 1, look, emit)
  await inOrder(ids.slice(1), concurrency, look, emit)
  await stream.end()
  return done
}
