import {createHash, randomBytes} from 'node:crypto'
import type {GwRecord} from '../api/schemas/record.js'

/**
 * What a batch's refund carries at the gateway to say which batch and row made it (design.md §5:
 * the gateway has the last word): two keys of `metadata`, which the gateway keeps with the refund
 * and shows in its record. Only a reference gw derives needs them (`order-1001-R1`, the first
 * free): a reference a row gives names the row's work by itself.
 */
export const MADE_BY = {batch: 'gw_batch', row: 'gw_row'} as const

/** Letters only: a name with no run of digits, which a card-number masker could take for one. */
const LETTERS = 'abcdefghijklmnop'

function asLetters(bytes: Buffer): string {
  return [...bytes].map((byte) => LETTERS[byte >> 4]! + LETTERS[byte & 15]!).join('')
}

/**
 * A batch's name: its command and its rows (rows-key.ts), so that it is the same from every copy
 * of its journal, and from none (another data directory, another machine).
 */
export function batchName(command: string, rowsKey: string): string {
  return asLetters(createHash('sha256').update(`gw batch\n${command}\n${rowsKey}`).digest().subarray(0, 8))
}

/** The name of a batch its user begins anew (`--new-batch`): rows an earlier batch had, made again as refunds of their own. */
export function newBatchName(): string {
  return asLetters(randomBytes(8))
}

/** The metadata a row's refund is sent with: the batch and the row (its place among the batch's rows). */
export function madeByMark(batch: string, row: number): Record<string, string> {
  return {[MADE_BY.batch]: batch, [MADE_BY.row]: String(row)}
}

/**
 * Who made a refund the gateway holds, as its metadata says: this row of this batch, someone else
 * (another batch, another row, a person: no mark of this row), or untold (a record with no
 * metadata at all, from a gateway that keeps none for refunds).
 */
export function madeBy(record: GwRecord, batch: string, row: number): 'this row' | 'other' | 'untold' {
  const metadata = record.metadata
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return 'untold'
  const mark = metadata as Record<string, unknown>
  return mark[MADE_BY.batch] === batch && mark[MADE_BY.row] === String(row) ? 'this row' : 'other'
}
