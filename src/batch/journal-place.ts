import {WriteError} from '../errors.js'
import {hostPlatform, type Platform} from '../lib/platform.js'
import {journalFormat, journalHeaderLine} from './journal-file.js'

// A batch's journal is the file gw holds, not its name (design.md §5). Renamed over (a folder-sync
// tool putting its copy in place) or removed, it takes what gw writes on into a file no name
// reaches, which a rerun never reads; and its lock no longer keeps a second gw off the path. So
// the journal checks after each commit that its path still names the file it holds: a stat, a few
// microseconds beside a commit's sync. Windows refuses both while gw holds the file (SQLite opens it
// sharing no delete access); there only a network share's server could replace it underneath.

/** The journal at its path: the file it holds, by identity (Platform.fileAt). */
export class JournalPlace {
  private constructor(
    readonly path: string,
    /** The held file's identity; undefined where the system keeps none (only its removal then shows). */
    private readonly id: string | undefined,
    /** The journal's first entry: a copy of the journal begins with it too. */
    private readonly header: string,
    private readonly platform: Pick<Platform, 'fileAt'>,
  ) {}

  /** The journal at `path`, just opened under its lock, whose first entry is `header`. */
  static of(path: string, header: string, platform: Pick<Platform, 'fileAt'> = hostPlatform()): JournalPlace {
    const now = platform.fileAt(path)
    return new JournalPlace(path, now.exists ? now.id : undefined, header, platform)
  }

  /**
   * What is at the path now, when it is no longer the journal: nothing, or another file, said as
   * JournalReplacedError says it. Undefined while it is, and when the path cannot be looked at
   * (a folder's permissions changed): that says nothing of the file.
   */
  replacedBy(): string | undefined {
    let now: ReturnType<Platform['fileAt']>
    try {
      now = this.platform.fileAt(this.path)
    } catch {
      return undefined
    }
    if (!now.exists) return 'nothing'
    if (this.id === undefined || now.id === undefined || now.id === this.id) return undefined
    return whatIsAt(this.path, this.header)
  }
}

/** The file now at a journal's path, in words: what a rerun on it would find. */
export function whatIsAt(path: string, header: string): string {
  let format: ReturnType<typeof journalFormat>
  try {
    format = journalFormat(path)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    return code === 'EISDIR' ? 'a folder' : `a file gw cannot read (${code ?? String(err)})`
  }
  if (format === 'none') return 'an empty file'
  if (format === 'other') return 'a file that is no batch journal'
  const first = journalHeaderLine(path)
  if (first === undefined) return 'a database that is no batch journal'
  return first === header ? 'an earlier copy of this journal' : 'another journal'
}

/** What a rerun finds at the path, and finishes the batch from, as it is: nothing, a new journal, or this one as it was. */
const RESUMABLE = new Set(['nothing', 'an empty file', 'an earlier copy of this journal'])

/**
 * The journal is no longer the file at its path (JournalPlace): the batch starts no more rows, as
 * for a journal that cannot be written (exit 1). What the rows answered made is at the gateway,
 * which a rerun asks before it sends any row it has no answer for: nothing is made twice. Its
 * summary sums up no journal's rows: the file at the path holds another's, or none.
 */
export class JournalReplacedError extends WriteError {
  constructor(
    readonly path: string,
    /** What is at the path now (JournalPlace.replacedBy). */
    readonly now: string,
    /** How many rows the replaced file had recorded as answered. */
    answered: number,
  ) {
    const rerun = 'run the same command again to finish the batch: it looks each row up at the gateway before sending it, so none is made twice.'
    super(`The batch journal ${path} was replaced while the batch ran (${now} is at that path now): no more rows are sent`, undefined, {
      hint:
        `Its ${answered} answered row${answered === 1 ? '' : 's'}, and any answered since, are at the gateway; this run's output shows each row it reported. ` +
        (RESUMABLE.has(now) ? `${rerun[0]!.toUpperCase()}${rerun.slice(1)}` : `Move that file away (or give another --journal FILE), then ${rerun}`),
    })
  }
}
