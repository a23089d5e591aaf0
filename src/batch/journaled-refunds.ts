import {createReadStream} from 'node:fs'
import {readdir} from 'node:fs/promises'
import {join} from 'node:path'
import {gatewayAddress} from '../loopback.js'
import type {JournalTarget} from './journal.js'

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
  // Looked for, rather than every line parsed (a journal of 100,000 rows is some 55 MB): the rows
  // sent for the purchase, then the results of those rows.
  const needles = keys.map((key) => `"transaction_id":${JSON.stringify(key)}`)
  const references = new Set<string>()
  const onLine = (line: string) => {
    const entry = parse(line)
    const request = entry?.request as Record<string, unknown> | undefined
    if (typeof entry?.intent === 'string' && keys.includes(String(request?.transaction_id)) && !references.has(entry.intent)) {
      references.add(entry.intent)
      needles.push(`{"result":${JSON.stringify(entry.intent)},`)
    }
    const record = entry?.record as Record<string, unknown> | undefined
    if (references.has(String(entry?.result)) && entry?.status === 'approved' && typeof record?.id === 'string') ids.add(record.id)
  }
  let carried = ''
  let header = true
  for await (const chunk of createReadStream(path, {encoding: 'utf8', highWaterMark: 1 << 20})) {
    const text = carried + (chunk as string)
    const end = text.lastIndexOf('\n') + 1
    carried = text.slice(end)
    let block = text.slice(0, end)
    if (header && end > 0) {
      header = false
      const first = parse(block.slice(0, block.indexOf('\n')))
      const theirs = first?.target as Partial<JournalTarget> | undefined
      if (first?.command !== 'refund create' || !sameAddress(theirs?.base_url, target.base_url) || theirs?.username !== target.username) return
      block = block.slice(block.indexOf('\n') + 1)
    }
    // The lines that hold a needle, each once; the needles a row's intent adds (its result) are
    // looked for in the same block next.
    const read = new Set<number>()
    for (let searched = 0; searched < needles.length; ) {
      const starts: number[] = []
      for (; searched < needles.length; searched++) {
        const needle = needles[searched]!
        for (let at = block.indexOf(needle); at >= 0; at = block.indexOf(needle, at + needle.length)) starts.push(block.lastIndexOf('\n', at) + 1)
      }
      for (const start of starts.sort((a, b) => a - b)) {
        if (read.has(start)) continue
        read.add(start)
        onLine(block.slice(start, block.indexOf('\n', start)))
      }
    }
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

/** A header's gateway, however an earlier gw spelled it, against the target's (journalTarget's one spelling). */
function sameAddress(written: unknown, address: string): boolean {
  return typeof written === 'string' && URL.canParse(written) && gatewayAddress(written) === address
}
