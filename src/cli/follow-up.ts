import {readIds} from '../batch/input.js'
import {type GwError, UsageError} from '../errors.js'
import type {GwRecord} from '../api/schemas/record.js'
import {type FollowedUp, type FollowUp, type FollowUpOptions, inFlightOf} from '../operations/follow-ups.js'
import {notYetNotice} from '../output/hints.js'
import {formatMoney} from '../output/money.js'
import type {Factory} from './factory.js'
import {SomeFailed} from './reporter.js'
import {toGwError} from './to-gw-error.js'

/**
 * A follow-up as a command reports it (a capture, a void, an increment, an extension): what a
 * person should hear besides the record on stderr (done before, so nothing changed now; or found
 * done after a lost answer), then the record as the result, or the failure it exits with.
 */
export function settleFollowUp(f: Pick<Factory, 'io'>, {followUp, outcome, failure}: FollowedUp): GwRecord {
  if (outcome.outcome === 'unchanged' && followUp.kind === 'increment') {
    const authorized = typeof outcome.record.currency === 'string' ? formatMoney(followUp.amount, outcome.record.currency) : String(followUp.amount)
    throw new UsageError(`--amount ${followUp.amount} is what ${followUp.id} is authorized for already (${authorized}): an increment raises it to a new total, and nothing was sent`, 'Give --amount the new total: the amount authorized now plus the increase.')
  }
  if (outcome.outcome === 'done' && outcome.source === 'earlier') f.io.err(`${cap(describe(followUp))} was done before: nothing changed now.\n`)
  if (outcome.outcome === 'done' && outcome.source === 'recovered') f.io.err(`No answer came back, but ${followUp.id} shows the ${WORD[followUp.kind]} done.\n`)
  if (failure) throw failure
  return (outcome as {record: GwRecord}).record
}

const WORD = {capture: 'capture', void: 'void', increment: 'increment', extend: 'extension'} as const

function describe(followUp: FollowUp): string {
  return `${WORD[followUp.kind]} of ${followUp.id}`
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * Said once when a lost answer's look-up begins to wait for the gateway (design.md §5), in the
 * words of the follow-up: its record is there, named by the id; the change is what is not yet.
 */
export function waitingSaid(f: Pick<Factory, 'io'>, followUp: FollowUp): FollowUpOptions {
  return {
    onWait: (waiting) => {
      if (waiting) f.io.err(`${notYetNotice(followUp.kind === 'void' ? followUp.noun : 'purchase', followUp.id, waiting.endsAt - waiting.since, inFlightOf(followUp).action)}\n`)
    },
  }
}

/**
 * One follow-up per id or reference, given as arguments, `-` (one a line on stdin) or --input FILE:
 * each resolved to its record's id once (operations/resolve.ts), then sent once, in the order
 * given. One renders as a record; several print a record each as it is done, a failure said on
 * stderr while the rest still run, and the exit code is the worst (design.md §4).
 */
export async function followUpIds(f: Factory, argv: string[], input: string | undefined, resource: 'purchases' | 'refunds', make: (id: string) => FollowUp): Promise<GwRecord | undefined> {
  const [{nounOf}, {keyResolver, onRecord}, {refuseWhenReadOnly}] = await Promise.all([import('../operations/resolve.js'), import('./resolve-key.js'), import('./live-safety.js')])
  const [{ids, batch}, {sendFollowUp}] = await Promise.all([readIds(argv, f.io, `${nounOf(resource)} id or reference`, input), import('../operations/follow-ups.js')])
  // Refused before a reference is looked up, as every write is before its first request.
  refuseWhenReadOnly(await f.target(), f.commandName)
  const deps = await f.deps()
  const resolving = await keyResolver(f, resource, deps)
  const followUp = (key: string) =>
    onRecord(resource, key, resolving, async ({id, record}) => {
      const followed = await sendFollowUp(make(id), deps, {...waitingSaid(f, make(id)), known: record})
      // A refund voided is kept so in gw's index of refunds, whose later reads take only newer pages: its purchase counts it for nothing.
      if (resource === 'refunds' && followed.outcome.outcome === 'done') await (await import('../lists/refunds-of-purchase.js')).refundBook(f, deps.client).keep(followed.outcome.record)
      return settleFollowUp(f, followed)
    })
  if (!batch && ids.length === 1) return followUp(ids[0]!)
  const {renderRecord, renderError} = await import('../output/render.js')
  let worst: GwError | undefined
  let failed = 0
  for (const id of ids) {
    try {
      await renderRecord(f.io, await followUp(id), f.columns, f.render)
    } catch (err) {
      const error = toGwError(err, {name: f.commandName, flags: []})
      if (error.kind === 'interrupted') throw err
      failed++
      renderError(f.io, error, {...f.render, subject: id})
      if (!worst || error.exitCode > worst.exitCode) worst = error
    }
  }
  if (worst) throw new SomeFailed(`${failed} of ${ids.length} failed`, worst)
  return undefined
}

/**
 * The capture of the authorization `key` names, an id or a reference (resolved once: its record,
 * when looked up, also gives the amount to capture in full); `amount` left out captures all of it.
 */
export async function captureOne(f: Factory, key: string, amount: number | undefined): Promise<GwRecord> {
  const [{captureAmount, sendFollowUp}, {keyResolver, onRecord}, {refuseWhenReadOnly}] = await Promise.all([
    import('../operations/follow-ups.js'),
    import('./resolve-key.js'),
    import('./live-safety.js'),
  ])
  // Refused before the authorization is looked up, as every write is before its first request.
  refuseWhenReadOnly(await f.target(), f.commandName)
  const deps = await f.deps()
  const {resolve, lookUp} = await keyResolver(f, 'purchases', deps)
  // Captured in full, the amount is looked up by the key whatever its shape, and the id it finds is the one captured.
  return onRecord('purchases', key, {resolve: amount === undefined ? lookUp : resolve, lookUp}, async ({id, record}) => {
    const capture = {kind: 'capture' as const, id, amount: amount ?? (await captureAmount(id, deps, record))}
    return settleFollowUp(f, await sendFollowUp(capture, deps, waitingSaid(f, capture)))
  })
}
