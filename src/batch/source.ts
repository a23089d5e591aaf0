import {createReadStream, type Stats} from 'node:fs'
import {access, constants, stat as fsStat} from 'node:fs/promises'
import {UsageError} from '../errors.js'
import {realPath} from '../lib/file-identity.js'
import {keepPrivateCopy} from '../lib/private-copy.js'
import type {Io} from '../output/io.js'
import {whyUnreadable} from '../lib/file-error-words.js'

/** A batch's input as a file that can be read more than once (its journal knows it by its rows, rows-key.ts, and by its real path). */
export interface BatchSource {
  path: string
  /** What to call it in messages: the file as given, or stdin. */
  name: string
  /** The file's real path (symlinks resolved), by which its journal is found however it is edited since; undefined for stdin or a pipe. */
  realPath?: string
  /** Removes what keeping stdin or a pipe left behind. */
  dispose(): Promise<void>
}

/**
 * `--input FILE`, or `-` for stdin (refused with `whenATerminal` when stdin is one). Read as a
 * stream, never whole: stdin (or a pipe given as the file) is kept in a private temporary file,
 * since a batch reads its rows twice (checked, then sent).
 */
export async function batchSource(input: string, io: Io, whenATerminal: UsageError): Promise<BatchSource> {
  if (input === '-') {
    if (io.isStdinTTY) throw whenATerminal
    return kept(io.stdinChunks(), 'stdin', '--input -')
  }
  let stat: Stats
  try {
    stat = await fsStat(input)
    if (stat.isDirectory()) throw Object.assign(new Error('it is a directory'), {code: 'EISDIR'})
    await access(input, constants.R_OK)
  } catch (err) {
    const why = whyUnreadable(err)
    throw new UsageError(`--input ${input} cannot be read: ${why}`, 'Give a CSV file with a header row, an NDJSON file, or - for stdin.')
  }
  // A pipe (`--input <(cmd)`) can be read once only: kept as stdin is.
  if (!stat.isFile()) return kept(createReadStream(input), input, `--input ${input}`)
  return {path: input, name: input, realPath: realPath(input), dispose: async () => {}}
}

/** What can be read once only, kept in a private temporary file for the batch to read twice, and gone however gw ends (lib/private-copy.ts). */
async function kept(chunks: AsyncIterable<Buffer | string>, name: string, flag: string): Promise<BatchSource> {
  try {
    const {path, dispose} = await keepPrivateCopy(chunks)
    return {path, name, dispose}
  } catch (err) {
    throw new UsageError(`${flag} could not be kept while it is read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, `Give the batch as a file with --input FILE instead.`)
  }
}
