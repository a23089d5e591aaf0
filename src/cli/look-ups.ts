import {readIds} from '../batch/input.js'
import {lookUpEach} from '../batch/look-ups.js'
import {lookUp, type LookUpResource} from '../operations/look-up.js'
import {DEFAULT_CONCURRENCY} from '../operations/deps.js'
import type {GwRecord} from '../api/schemas/record.js'
import type {Factory} from './factory.js'
import {SomeFailed} from './reporter.js'
import {NotFoundError} from '../errors.js'

/**
 * Records looked up by the ids given as arguments (or `-`, one a line on stdin, or --input FILE),
 * each with what `add` adds of gw's own. One id renders as a record; several are looked up `concurrency` at a time and print in the
 * order given, a failed one reported while the rest still run (batch/look-ups.ts). The exit code is the worst any
 * id had (design.md §4).
 */
export async function lookUpIds(
  resource: LookUpResource,
  argv: string[],
  f: Factory,
  {noun, input, concurrency = DEFAULT_CONCURRENCY, add}: {noun?: string; input?: string; concurrency?: number; add?: (record: GwRecord) => Promise<GwRecord>},
): Promise<GwRecord | undefined> {
  const {ids, batch} = await readIds(argv, f.io, noun, input)
  const deps = await f.deps()
  // A miss says what the key was tried as, and the list that finds the record (cli/resolve-key.ts).
  const look = async (key: string) => {
    try {
      return await lookUp(resource, key, deps)
    } catch (err) {
      if (!(err instanceof NotFoundError) || noun === undefined) throw err
      throw await (await import('./resolve-key.js')).missedLookUp(resource, key, noun, err)
    }
  }
  if (!batch && ids.length === 1) {
    const record = await look(ids[0]!)
    return add ? add(record) : record
  }
  const {failed, worst} = await lookUpEach(resource, ids, {deps, columns: f.columns, render: f.render, concurrency, add, look})
  if (worst) throw new SomeFailed(`${failed} of ${ids.length} look-ups failed`, worst)
  return undefined
}
