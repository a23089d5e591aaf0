import {GwError, InterruptedError, ModeMismatchError} from '../errors.js'
import {asGwError} from '../lib/as-gw-error.js'
import {inOrder} from '../lib/in-order.js'
import {lookUp, type LookUpResource} from '../operations/look-up.js'
import type {Deps} from '../operations/deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import type {Column} from '../output/columns.js'
import {recordStream, renderError, type RenderOptions} from '../output/render.js'
import {maskCardToken} from '../safety/redact.js'

export interface LookUpsDone {
  failed: number
  /** The failure with the highest exit code, which the command exits with (design.md §4). */
  worst?: GwError
}

/**
 * Several records looked up `concurrency` at a time and printed in the order given, each as it
 * and those before it are in; a failed one is reported where it stands while the rest still run.
 * `look`: how one is looked up (the command's, wording a miss), by default the look-up alone.
 */
export async function lookUpEach(
  resource: LookUpResource,
  ids: string[],
  {deps, columns, render, concurrency, add, look: lookOne = (id) => lookUp(resource, id, deps)}: {deps: Deps; columns: Column[]; render: RenderOptions; concurrency: number; add?: (record: GwRecord) => Promise<GwRecord>; look?: (id: string) => Promise<GwRecord>},
): Promise<LookUpsDone> {
  const {io} = deps
  const stream = recordStream(io, columns, render)
  const done: LookUpsDone = {failed: 0}
  // Fields of gw's own (a purchase's refunds) are added as each record comes, in the same slot.
  const look = (id: string) => lookOne(id).then(async (record) => (add ? add(record) : record)).then(
    (record): [string, GwRecord | GwError] => [id, record],
    (err: unknown): [string, GwRecord | GwError] => [id, asGwError(err)],
  )
  // The first goes alone, so a gateway in the other environment is found before the rest are sent.
  const first = inOrder(ids.slice(0, 1)[Symbol.iterator](), 1, look)
  const rest = inOrder(ids.slice(1)[Symbol.iterator](), concurrency, look)
  for (const outcomes of [first, rest]) {
    for await (const [id, found] of outcomes) {
      if (!(found instanceof GwError)) {
        await stream.write([found])
        continue
      }
      // Stopped, or talking to another gateway than the profile says: the rest are not looked up.
      if (found instanceof InterruptedError || found instanceof ModeMismatchError) throw found
      // A stored card's token is named by its last four only (tokens are never echoed).
      renderError(io, found, {json: render.json, subject: resource === 'cards' ? maskCardToken(id) : id})
      done.failed++
      if (!done.worst || found.exitCode > done.worst.exitCode) done.worst = found
    }
  }
  await stream.end()
  return done
}
