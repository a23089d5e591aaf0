import type {Change} from '../domain/change-log.js'
import {Store, type StoreState} from '../domain/store.js'
import {JournalLine, LegacyStateFile, SnapshotLine, misfit} from './state-schema.js'

// The state files an older gw wrote, read once to be migrated (persist.ts): a journal of JSON
// lines, a snapshot of the whole state and then the changes of each group commit (version 2), or
// before that one JSON document (version 1).

/**
 * The state an older gw's file holds: its snapshot with every complete journal line replayed. A
 * last line cut short by a crash is ignored (it was never acknowledged); anything else that does
 * not fit the schemas is refused whole, naming the first bad path, rather than half-loaded.
 */
export function readOlderStateFile(text: string): {store: Store} | {problem: string} {
  if (text.trim() === '') return {store: new Store()}
  const lines = text.split('\n')
  const head = parseJson(lines[0] as string)
  if (head === undefined || (head as {version?: unknown} | null)?.version !== 2) return legacyState(text)
  const snapshotProblem = misfit(SnapshotLine, head, 'line 1')
  if (snapshotProblem) return {problem: snapshotProblem}
  const store = new Store((head as {snapshot: StoreState}).snapshot)
  const last = lines.length - 1
  for (let index = 1; index <= last; index++) {
    const line = lines[index] as string
    if (line === '') continue
    const parsed = parseJson(line)
    // A torn last line: the write of a group commit that never finished, and never answered.
    if (parsed === undefined && index === last) break
    if (parsed === undefined) return {problem: `line ${index + 1} is not JSON`}
    const problem = misfit(JournalLine, parsed, `line ${index + 1}`)
    if (problem) return {problem}
    store.replay((parsed as {changes: Change[]}).changes)
  }
  return {store}
}

/** A file from before the journal: one document with `version: 1`. */
function legacyState(text: string): {store: Store} | {problem: string} {
  const parsed = parseJson(text)
  if (parsed === undefined) return {problem: 'neither a SQLite database nor JSON'}
  const version = (parsed as {version?: unknown} | null)?.version
  if (version !== 1 && version !== 2) return {problem: 'no version 2 snapshot'}
  const problem = misfit(LegacyStateFile, parsed, 'the file')
  if (problem) return {problem}
  const {version: _version, ...state} = parsed as StoreState & {version: 1}
  return {store: new Store(state)}
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
