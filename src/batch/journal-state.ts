import type {Intent, Result} from './journal-entries.js'

/**
 * Answers that stand, the gateway's word on the transaction itself: approved, declined, or
 * refused as asked (exit 7). Anything else (no answer, a 5xx, credentials refused) leaves the row
 * to be looked up and, if the gateway has none, sent by the next run.
 */
export function isFinal(result: Result): boolean {
  return [0, 3, 7].includes(result.exit_code)
}

/**
 * Where a journal has a row: answered for good (reported from the journal by the next run), in
 * doubt (sent, or journaled to be sent, with no final answer: looked up before anything is sent),
 * or not started (nothing of it journaled, or withdrawn: sent afresh).
 */
export type Standing = 'answered' | 'inDoubt' | 'notStarted'

/** The one rule for a row's standing, from its journal entries: a run, its dry run and the next run all go by it. */
export function standingOf(intent: Intent | undefined, result: Result | undefined): Standing {
  if (result && isFinal(result)) return 'answered'
  return intent ? 'inDoubt' : 'notStarted'
}

/** How many of a batch's rows stand where (standingOf). */
export interface JournalState {
  answered: number
  inDoubt: number
  notStarted: number
  /** Of those not started, rows this run reported failed before anything was sent (a full refund's purchase not found). */
  failedUnsent?: number
}

/** A journal's rows, as a run that opens it counts them: the same words as the run that stopped says them. */
export function journalState(journal: {intents: Map<string, Intent>; results: Map<string, Result>}, rows: number): JournalState {
  const state: Record<Standing, number> = {answered: 0, inDoubt: 0, notStarted: 0}
  for (const [reference, result] of journal.results) state[standingOf(journal.intents.get(reference), result)]++
  for (const [reference, intent] of journal.intents) if (!journal.results.has(reference)) state[standingOf(intent, undefined)]++
  // The rows the journal names nothing of are not started as well; an edited file may hold fewer rows than the journal names.
  return {answered: state.answered, inDoubt: state.inDoubt, notStarted: Math.max(0, rows - state.answered - state.inDoubt)}
}

/**
 * Sets aside an earlier run's entries of rows this input no longer has (`gone`: in a file edited
 * since, references derived for rows that give none, matched to no row now). None is counted or
 * reported as this input's; a row of them in doubt is named, with the command to check it.
 * Returns their intents: a row naming the same record another way may be one of them.
 */
export function setAside(journal: {intents: Map<string, Intent>; results: Map<string, Result>; inDoubtElsewhere: Intent[]}, gone: (reference: string) => boolean): Intent[] {
  const setAside: Intent[] = []
  for (const [reference, intent] of journal.intents) {
    if (!gone(reference)) continue
    if (standingOf(intent, journal.results.get(reference)) === 'inDoubt') journal.inDoubtElsewhere.push(intent)
    setAside.push(intent)
    journal.intents.delete(reference)
    journal.results.delete(reference)
  }
  return setAside
}
