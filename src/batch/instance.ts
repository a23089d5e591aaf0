import {GwError, UsageError} from '../errors.js'
import type {Deps} from '../operations/deps.js'
import type {Journal, JournalTarget} from './journal.js'

/**
 * A journal never reports rows from another run of the local gateway's data (design.md §5): when
 * the rows of this input it has answered were answered by a gateway that named its run
 * (X-Sandbox-Instance), the gateway is asked which run it is now, with one harmless read, before
 * anything is reported or sent. A gateway restarted without its --state file, or reset, is
 * another run: its data holds none of those rows, so the batch is refused (exit 2). A journal
 * whose answers named no run (the live gateway's) is not asked about: --verify looks its rows up.
 */
export async function refuseAnotherInstance(journal: Pick<Journal, 'path' | 'results'>, target: JournalTarget, {client}: Pick<Deps, 'client'>): Promise<void> {
  const answeredBy = new Map<string, number>()
  for (const result of journal.results.values()) {
    if (result.gateway_instance !== undefined) answeredBy.set(result.gateway_instance, (answeredBy.get(result.gateway_instance) ?? 0) + 1)
  }
  if (answeredBy.size === 0) return
  try {
    await client.purchases.list({offset: 0, limit: 1})
  } catch (err) {
    // Any answer names the run; no answer (or credentials refused) is this run's failure to report.
    if (!(err instanceof GwError) || err.status === undefined || err.exitCode === 4) throw err
  }
  const now = client.gatewayInstance
  const others = [...answeredBy].filter(([instance]) => instance !== now)
  if (others.length === 0) return
  const rows = others.reduce((sum, [, count]) => sum + count, 0)
  const then = others.map(([instance]) => instance).join(', ')
  throw new UsageError(
    `${rows} row${rows === 1 ? '' : 's'} of journal ${journal.path} ${rows === 1 ? 'was' : 'were'} answered by another run of the local gateway at ${target.base_url} (instance ${then}), and the gateway there now is ${now === undefined ? 'one that names no run of its data' : `instance ${now}`}: its data does not hold the rows the journal says were done, so none is reported as done, and nothing was sent`,
    'The gateway was restarted without its --state file, or reset. Start it again on the --state file it had, then run this again to finish the batch; or, to send every row to this gateway afresh, give the batch a journal of its own (--journal FILE).',
  )
}
