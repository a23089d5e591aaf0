import {GwError, UsageError} from '../errors.js'
import type {Deps} from '../operations/deps.js'
import type {Journal, JournalTarget} from './journal.js'

/**
 * A journal never reports rows from another run of the local gateway's data (design.md §5): when
 * the rows of this input it has answered were answered by a gateway that named its data
 * (X-Sandbox-Instance: its run and how many changes it had had), the gateway is asked, with one
 * harmless read, whether it still holds what it held then, before anything is reported or sent.
 * A gateway restarted without its --state file, reset, or restarted on a copy of the file taken
 * before the rows were answered holds none of those rows, so the batch is refused (exit 2). A
 * journal whose answers named no run (the live gateway's) is not asked about: --verify looks its
 * rows up.
 */
export async function refuseAnotherInstance(journal: Pick<Journal, 'path' | 'results'>, target: JournalTarget, {client}: Pick<Deps, 'client'>): Promise<void> {
  const answeredBy = new Map<string, number>()
  for (const result of journal.results.values()) {
    if (result.gateway_instance !== undefined) answeredBy.set(result.gateway_instance, (answeredBy.get(result.gateway_instance) ?? 0) + 1)
  }
  if (answeredBy.size === 0) return
  const {held, now} = await instanceHolder(client)
  const lacking = [...answeredBy.keys()].filter((name) => !held(name))
  if (lacking.length === 0) return
  const rows = lacking.reduce((sum, instance) => sum + answeredBy.get(instance)!, 0)
  const runs = [...new Set(lacking.map(runOf))].join(', ')
  throw new UsageError(
    `${rows} row${rows === 1 ? '' : 's'} of journal ${journal.path} ${rows === 1 ? 'was' : 'were'} answered by a run of the local gateway's data at ${target.base_url} (instance ${runs}) that the gateway there now does not hold (${now === undefined ? 'it names no run of its data' : `instance ${now}`}): its data does not hold the rows the journal says were done, so none is reported as done, and nothing was sent`,
    'The gateway was restarted without its --state file, reset, or restarted on a copy of the file from before these rows. Start it again on the --state file it had, then run this again to finish the batch; or, to send every row to this gateway afresh, give the batch a journal of its own (--journal FILE).',
  )
}

/** A name's run and count: `<run>.<changes>`; a gateway that counted no changes named its run alone. */
function parts(instance: string): {run: string; changes: number} {
  const dot = instance.lastIndexOf('.')
  return dot === -1 ? {run: instance, changes: 0} : {run: instance.slice(0, dot), changes: Number(instance.slice(dot + 1))}
}

/** The run a name is of (`<run>.<changes>`): what a local gateway's data stays while it only grows. */
export const runOf = (instance: string) => parts(instance).run

/**
 * Whether the local gateway still holds what it answered as a name, and what it is now: a name is
 * held while its run is one the gateway holds, up to the count of changes it holds of it. A
 * gateway without GET /_sandbox/instance (a gw before it) is asked for its name by that read, and
 * holds only the names that are its own.
 */
export async function instanceHolder(client: Deps['client']): Promise<{held: (name: string) => boolean; now: string | undefined}> {
  try {
    const {instance, runs} = await client.sandbox.instance()
    const until = new Map(runs.map((run) => [run.id, run.until]))
    const held = (name: string) => {
      const {run, changes} = parts(name)
      return changes <= (until.get(run) ?? -1)
    }
    return {held, now: instance ?? undefined}
  } catch (err) {
    // Any answer names the run; no answer (or credentials refused) is this run's failure to report.
    if (!(err instanceof GwError) || err.status === undefined || err.exitCode === 4) throw err
  }
  const now = client.gatewayInstance
  return {held: (name) => name === now, now}
}
