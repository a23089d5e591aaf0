import type {GwRecord} from '../api/schemas/record.js'
import {isMaskedAtRest} from '../safety/at-rest.js'
import type {Walked} from './refund-index-file.js'
import type {RefundIndexStore} from './refund-index-memory.js'

/** The index file failed (not the gateway): the command goes on with one in memory. */
export class IndexFailure extends Error {}

/** The store, each of whose failures is the index's (IndexFailure), told apart from the gateway's; `kept` told of each page it keeps. */
export function guarded(store: RefundIndexStore, kept?: (records: readonly GwRecord[]) => void): RefundIndexStore {
  const wrap =
    <A extends unknown[], R>(method: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return method.apply(store, args)
      } catch (err) {
        throw new IndexFailure(describeFailure(err))
      }
    }
  return {
    walked: wrap(store.walked),
    ranks: wrap(store.ranks),
    keep: wrap((records: readonly GwRecord[], walked?: Walked, rank?: number) => {
      store.keep(records, walked, rank)
      kept?.(records)
    }),
    cover: wrap(store.cover),
    onCard: wrap(store.onCard),
    byReference: wrap(store.byReference),
    heldReferences: wrap(store.heldReferences),
    namedPurchases: wrap(store.namedPurchases),
    keepNamedPurchases: wrap(store.keepNamedPurchases),
    close: wrap(store.close),
  }
}

/** A batch's references, in its rows' order (batch/rows.ts Scan): whether a reference is one, and each. */
export interface ExpectedReferences {
  has(reference: string): boolean
  keys(): Iterable<string>
}

/** References asked of the index at once: a query's text stays small (json_each of them). */
const REFERENCES_A_QUERY = 500

/** Which of the references the store holds a refund under, asked REFERENCES_A_QUERY at a time; one that holds a card number is kept masked, never asked. */
export function heldOf(store: RefundIndexStore, references: Iterable<string>): Set<string> {
  const held = new Set<string>()
  let asking: string[] = []
  const ask = () => {
    for (const reference of store.heldReferences(asking)) held.add(reference)
    asking = []
  }
  for (const reference of references) {
    if (isMaskedAtRest(reference)) continue
    asking.push(reference)
    if (asking.length === REFERENCES_A_QUERY) ask()
  }
  ask()
  return held
}

/** Why the index failed, in a word: the system's code, or SQLite's own words. */
export function describeFailure(err: unknown): string {
  const {code, errstr, message} = err as {code?: string; errstr?: string; message?: string}
  return code !== undefined && code !== 'ERR_SQLITE_ERROR' ? code : (errstr ?? message ?? String(err))
}
