import {derivedFrom} from '../lists/refund-match.js'
import {askedAbout, type ValidRow} from './rows.js'

/**
 * A row whose reference is made when it is sent takes the one an earlier run journaled for it,
 * while it is that row still. Then a row in doubt is looked up under it, one answered is reported
 * from the journal, and one edited is refused as changed, never given a second reference and sent again.
 * - Where the input holds the journal's rows (rows-key.ts: a copy with other line ends or blank
 *   lines is those rows on other lines), a row is the one at its place among the rows.
 * - In a file edited since, the rows of one purchase (`asked`: the same purchase refunded) take the
 *   references the journal derived for it, in order (inOrder): a row removed, added or moved above
 *   them moves no row onto another's reference. A reference a row of the file gives is that row's.
 * A row of a purchase the journal has no reference left for (next month's file at the same path)
 * is another row, with a reference of its own.
 */
export async function* withJournaledReferences<Input>(rows: AsyncIterable<ValidRow<Input>>, journaled: JournaledReferences<Input>): AsyncGenerator<ValidRow<Input>> {
  for await (const row of rows) {
    const earlier = journaled.of(row)
    if (earlier !== undefined) (row.input as {reference?: string}).reference = earlier
    yield row
  }
}

/**
 * How an earlier run's intent is found for a row (withJournaledReferences): by its place among the
 * journal's rows, or, in a file edited since, among the rows of its purchase (`given`: the
 * references the file's rows give, which no other row takes).
 */
export type RowPlace = {by: 'row'} | {by: 'order'; given: {has(reference: string): boolean}}

type JournaledIntent = {row: number; line: number; request: Record<string, unknown>; asked?: Record<string, unknown>}
/** What a row asks for, as its journal entry keeps it: the operation's request before it is sent. */
type AskedOf<Input> = (input: Input) => Record<string, unknown>

/**
 * The reference an earlier run journaled for a row whose reference is made when sent, while it is
 * that row still (withJournaledReferences). In a file edited since, its rows are read once first
 * (`rows`), so that a row asking for the same is matched before an edited one takes its reference.
 */
export async function journaledReferences<Input>(
  intents: ReadonlyMap<string, JournaledIntent>,
  asked: AskedOf<Input>,
  place: RowPlace,
  rows: () => Promise<AsyncIterable<ValidRow<Input>>>,
): Promise<JournaledReferences<Input>> {
  // The same rows: each asks for what it asked then, and a row that gives a reference has its own there.
  const found = place.by === 'row' ? new Map([...intents].map(([reference, intent]) => [intent.row, reference])) : await inOrder(derivedByPurchase(intents, place.given), asked, rows)
  const claimed = new Set(found.values())
  return {of: (row) => found.get(row.row), claims: (reference) => claimed.has(reference)}
}

/** An earlier run's references for this input's rows: a row's (undefined: none), and whether a row of this input claims a reference. */
export interface JournaledReferences<Input> {
  of(row: ValidRow<Input>): string | undefined
  claims(reference: string): boolean
}

type Left = {reference: string; line: number; wanted: string}

/**
 * The reference of each row that gives none, by row. Rows asking for the same as one sent take its
 * reference first (the one sent from their line, else the first); then rows edited since take one
 * left of their purchase (the one sent from their line, else the first). A row added or removed
 * above moves no row onto another's reference, and the rows left over are new.
 */
async function inOrder<Input>(left: Map<string, Left[]>, asked: AskedOf<Input>, rows: () => Promise<AsyncIterable<ValidRow<Input>>>): Promise<Map<number, string>> {
  const found = new Map<number, string>()
  if (left.size === 0) return found
  const edited: {row: number; line: number; candidates: Left[]}[] = []
  for await (const row of await rows()) {
    if (row.reference !== '') continue
    const now = asked(row.input)
    const candidates = left.get(askedAbout(now))
    if (candidates === undefined) continue
    const wanted = askedFor(now)
    const atLine = candidates.findIndex((each) => each.line === row.line && each.wanted === wanted)
    const at = atLine >= 0 ? atLine : candidates.findIndex((each) => each.wanted === wanted)
    if (at < 0) edited.push({row: row.row, line: row.line, candidates})
    else found.set(row.row, candidates.splice(at, 1)[0]!.reference)
  }
  for (const {row, line, candidates} of edited) {
    const at = candidates.findIndex((each) => each.line === line)
    const [taken] = candidates.splice(Math.max(at, 0), 1)
    if (taken) found.set(row, taken.reference)
  }
  return found
}

/** The references the journal derived for rows without one (their shape, `order-7-R2`, none a row gives), by what each row asked about, in the order of their rows. */
function derivedByPurchase(intents: ReadonlyMap<string, JournaledIntent>, given: {has(reference: string): boolean}): Map<string, Left[]> {
  const byAbout = new Map<string, Left[]>()
  const derived = [...intents].filter(([reference]) => derivedFrom(reference) !== undefined && !given.has(reference)).sort(([, a], [, b]) => a.row - b.row)
  for (const [reference, intent] of derived) {
    const then = intent.asked ?? intent.request
    const about = askedAbout(then)
    let rows = byAbout.get(about)
    if (rows === undefined) byAbout.set(about, (rows = []))
    rows.push({reference, line: intent.line, wanted: askedFor(then)})
  }
  return byAbout
}

/** What a row asks for, its reference aside: the same for a row and its copy on another line, another for its edit. */
function askedFor(asked: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(asked).filter(([field, value]) => field !== 'reference' && value !== undefined))
}
