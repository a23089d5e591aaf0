import {createReadStream} from 'node:fs'
import {readdir} from 'node:fs/promises'
import {join} from 'node:path'
import {createInterface} from 'node:readline'
import type {JournalTarget} from './journal.js'

/** The gateway and merchant a batch's journal is written for, as its header names them. */
export function journalTarget({baseUrl, username}: {baseUrl: string; username: string}): JournalTarget {
  return {base_url: baseUrl.replace(/\/+$/, ''), username}
}

/**
 * The refunds gw's batch journals say it sent for a purchase and had approved: their ids. Read
 * only, a line at a time, from the journals in gw's data directory (a `--journal FILE` elsewhere
 * is not found) written for this gateway and merchant. Only the lines that name the purchase (its
 * id or reference, as a row's transaction_id) and their results are parsed, and only their
 * references and ids kept. A journal that cannot be read tells nothing: it is passed over.
 */
export async function journaledRefunds(dataDir: string, target: JournalTarget, purchase: {id?: unknown; reference?: unknown}): Promise<Set<string>> {
  const ids = new Set<string>()
  const keys = [purchase.id, purchase.reference].filter((key): key is string => typeof key === 'string' && key !== '')
  if (keys.length === 0) return ids
  const directory = join(dataDir, 'journals')
  const names = await readdir(directory).catch(() => [] as string[])
  for (const name of names.filter((file) => file.startsWith('refund-create-') && file.endsWith('.ndjson'))) {
    await readJournal(join(directory, name), target, keys, ids).catch(() => undefined)
  }
  return ids
}

async function readJournal(path: string, target: JournalTarget, keys: string[], ids: Set<string>): Promise<void> {
  const stream = createReadStream(path, {encoding: 'utf8'})
  const lines = createInterface({input: stream, crlfDelay: Infinity})
  const sentFor = keys.map((key) => `"transaction_id":${JSON.stringify(key)}`)
  // The references of this purchase's rows, as their results name them.
  const references = new Set<string>()
  let first = true
  try {
    for await (const line of lines) {
      if (first) {
        first = false
        const header = parse(line)
        const theirs = header?.target as Partial<JournalTarget> | undefined
        if (header?.command !== 'refund create' || theirs?.base_url !== target.base_url || theirs.username !== target.username) return
        continue
      }
      if (line.startsWith('{"intent":') && sentFor.some((text) => line.includes(text))) {
        const intent = parse(line)
        const request = intent?.request as Record<string, unknown> | undefined
        if (typeof intent?.intent === 'string' && keys.includes(String(request?.transaction_id))) references.add(intent.intent)
      } else if (line.startsWith('{"result":') && references.size > 0) {
        const result = parse(line)
        const record = result?.record as Record<string, unknown> | undefined
        if (references.has(String(result?.result)) && result?.status === 'approved' && typeof record?.id === 'string') ids.add(record.id)
      }
    }
  } finally {
    lines.close()
    stream.destroy()
  }
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line) as unknown
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
