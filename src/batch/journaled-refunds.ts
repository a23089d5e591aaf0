import {createReadStream} from 'node:fs'
import {appendFile, mkdir, readdir, readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {realPath} from '../file-lock.js'
import {type JournalTarget, parseEntry, parseJson, sameTarget} from './journal-identity.js'

/** The places of refund journals a batch was given (`--journal FILE`), one JSON string a line: read as the data directory's own are. */
const placesFile = (dataDir: string) => join(dataDir, 'journals', 'elsewhere.ndjson')

/**
 * Notes where a refund batch's own journal (`--journal FILE`) is, by its real path, so that
 * journaledRefunds finds it as it finds those in gw's data directory. Each place once; appended
 * whole in one write, so two gw noting theirs at once both keep it.
 */
export async function noteJournalPlace(dataDir: string, journalPath: string): Promise<void> {
  const path = realPath(journalPath)
  if ((await journalPlaces(dataDir)).includes(path)) return
  await mkdir(join(dataDir, 'journals'), {recursive: true, mode: 0o700})
  await appendFile(placesFile(dataDir), `${JSON.stringify(path)}\n`, {mode: 0o600})
}

/** The places noted (noteJournalPlace), each once; none when the note cannot be read. */
async function journalPlaces(dataDir: string): Promise<string[]> {
  const text = await readFile(placesFile(dataDir), 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? '' : Promise.reject(err)))
  const places = text.split('\n').map((line) => parseJson(line)).filter((place): place is string => typeof place === 'string')
  return [...new Set(places)]
}

/**
 * The refunds gw's batch journals say it sent for a purchase and had approved: their ids. Read
 * only, a line at a time, from the journals in gw's data directory and those a batch was given
 * with `--journal FILE` (noteJournalPlace), written for this gateway and merchant. Only the lines that name the purchase (its
 * id or reference, as a row's transaction_id) and their results are parsed, and only their
 * references and ids kept. A journal that cannot be read tells nothing: it is passed over.
 */
export async function journaledRefunds(dataDir: string, target: JournalTarget, purchase: {id?: unknown; reference?: unknown}): Promise<Set<string>> {
  const ids = new Set<string>()
  const keys = [purchase.id, purchase.reference].filter((key): key is string => typeof key === 'string' && key !== '')
  if (keys.length === 0) return ids
  const directory = join(dataDir, 'journals')
  const names = await readdir(directory).catch(() => [] as string[])
  const own = names.filter((file) => file.startsWith('refund-create-') && file.endsWith('.ndjson')).map((name) => join(directory, name))
  const given = await journalPlaces(dataDir).catch(() => [] as string[])
  // A journal is read once, however it was found: a place noted may be one of the directory's own.
  const paths = new Set<string>()
  for (const path of [...own, ...given]) {
    try {
      paths.add(realPath(path))
    } catch {
      // A place that no longer resolves (a folder gone) holds nothing to read.
    }
  }
  for (const path of paths) await readJournal(path, target, keys, ids).catch(() => undefined)
  return ids
}

async function readJournal(path: string, target: JournalTarget, keys: string[], ids: Set<string>): Promise<void> {
  // Looked for, rather than every line parsed (a journal of 100,000 rows is some 55 MB): the rows
  // sent for the purchase, then the results of those rows.
  const needles = keys.map((key) => `"transaction_id":${JSON.stringify(key)}`)
  const references = new Set<string>()
  const onLine = (line: string) => {
    const entry = parseEntry(line)
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
      const first = parseEntry(block.slice(0, block.indexOf('\n')))
      if (first?.command !== 'refund create' || !sameTarget(first.target, target)) return
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
