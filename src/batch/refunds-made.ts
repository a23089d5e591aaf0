import {mkdir, open} from 'node:fs/promises'
import {join} from 'node:path'
import {WriteError} from '../errors.js'
import type {MadeFor} from '../lists/refund-match.js'
import {maskCardNumbersIn} from '../safety/redact.js'
import {type JournalTarget, parseEntry, sameTarget} from './journal-identity.js'
import {eachLine, journaledRefunds} from './journaled-refunds.js'

type GwRecord = Record<string, unknown>

/**
 * gw's record of each refund a single `gw refund create` made (a batch's rows are in its journal),
 * so that `refund list --purchase` and `purchase get` know which purchase it was made for: one JSON
 * line a refund, in gw's data directory. Ids, references and amounts only, card numbers in them
 * masked: never a card or a CVV.
 */
export const refundsMadeFile = (dataDir: string) => join(dataDir, 'refunds-made.ndjson')

interface RefundLine {
  refund: string
  reference?: string
  transaction_id: string
  purchase_id?: string
  purchase_reference?: string
  target: JournalTarget
  /** The run of the local gateway's data that answered (X-Sandbox-Instance); none from a gateway that names none. */
  gateway_instance?: string
  at: string
}

/** What a single refund create learned: the refund the gateway answered, and the purchase it was sent for, as given and as looked up. */
export interface RefundMade {
  refund: GwRecord
  transactionId: string
  purchase?: GwRecord
  gatewayInstance?: string
}

/** The disk's write, so that a test can fail it as a full disk does. */
export type WriteBytes = (handle: {write(data: Buffer): Promise<{bytesWritten: number}>}, data: Buffer) => Promise<number>

const writeAll: WriteBytes = async (handle, data) => (await handle.write(data)).bytesWritten

/**
 * Records a refund gw made, synced before it returns. Two gw at once each keep theirs: the line
 * goes in one append (O_APPEND places each write whole at the end), and it begins with a line
 * break, so a line a full disk or a crash tore ends there and spoils no other. Throws WriteError
 * naming the file when the line could not be written whole.
 */
export async function recordRefundMade(dataDir: string, target: JournalTarget, made: RefundMade, {now = new Date(), write = writeAll}: {now?: Date; write?: WriteBytes} = {}): Promise<void> {
  const {refund, purchase} = made
  if (typeof refund.id !== 'string') return
  const masked = (value: unknown) => (typeof value === 'string' ? maskCardNumbersIn(value) : undefined)
  const line: RefundLine = {
    refund: refund.id,
    reference: masked(refund.reference),
    transaction_id: maskCardNumbersIn(made.transactionId),
    purchase_id: masked(purchase?.id),
    purchase_reference: masked(purchase?.reference),
    target,
    gateway_instance: made.gatewayInstance,
    at: now.toISOString(),
  }
  const path = refundsMadeFile(dataDir)
  const data = Buffer.from(`\n${JSON.stringify(line)}\n`)
  try {
    await mkdir(dataDir, {recursive: true, mode: 0o700})
    const handle = await open(path, 'a', 0o600)
    try {
      const wrote = await write(handle, data)
      if (wrote !== data.length) throw Object.assign(new Error(`${wrote} of ${data.length} bytes written`), {code: 'ENOSPC'})
      await handle.datasync()
    } finally {
      await handle.close()
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message
    throw new WriteError(`${path} cannot be written (${code})`, err)
  }
}

/** What gw's records of single refund creates say of these refunds (by id), for this gateway and merchant; a file that cannot be read tells nothing. */
async function recordedRefunds(dataDir: string, target: JournalTarget, refundIds: ReadonlySet<string>, holds: ((instance: string) => boolean) | undefined): Promise<Map<string, MadeFor>> {
  const made = new Map<string, MadeFor>()
  if (refundIds.size === 0) return made
  const needles = [...refundIds].map((id) => `{"refund":${JSON.stringify(id)},`)
  await eachLine(refundsMadeFile(dataDir), (text) => {
    if (!needles.some((needle) => text.startsWith(needle))) return
    const line = parseEntry(text) as Partial<RefundLine> | undefined
    if (typeof line?.refund !== 'string' || typeof line.transaction_id !== 'string' || !sameTarget(line.target, target)) return
    // Another run of the local gateway's data (reset, or restarted without its state) holds other refunds under these ids.
    if (line.gateway_instance !== undefined && holds !== undefined && !holds(line.gateway_instance)) return
    made.set(line.refund, {
      transactionId: line.transaction_id,
      ...(typeof line.purchase_id === 'string' ? {purchaseId: line.purchase_id} : {}),
      ...(typeof line.purchase_reference === 'string' ? {purchaseReference: line.purchase_reference} : {}),
      by: 'refund_create',
    })
  }).catch(() => undefined)
  return made
}

/**
 * Which purchase gw recorded making each of these refunds (by id) for, for this gateway and
 * merchant: its batch journals' rows and its single refund creates.
 */
export async function refundsMade(dataDir: string, target: JournalTarget, refundIds: ReadonlySet<string>, holds?: (instance: string) => boolean): Promise<Map<string, MadeFor>> {
  const [journaled, recorded] = await Promise.all([journaledRefunds(dataDir, target, refundIds), recordedRefunds(dataDir, target, refundIds, holds)])
  return new Map([...journaled, ...recorded])
}
