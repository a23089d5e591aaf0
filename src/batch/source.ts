import {createHash} from 'node:crypto'
import {createReadStream, createWriteStream} from 'node:fs'
import {access, mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {pipeline} from 'node:stream/promises'
import {UsageError} from '../errors.js'
import {realPath} from '../lib/file-identity.js'
import type {Io} from '../output/io.js'

/** A batch's input as a file that can be read more than once, and what its journal knows it by. */
export interface BatchSource {
  path: string
  /** What to call it in messages: the file as given, or stdin. */
  name: string
  hash: string
  /** The file's real path (symlinks resolved), by which its journal is found however it is edited since; undefined for stdin. */
  realPath?: string
  /** Removes what reading stdin left behind. */
  dispose(): Promise<void>
}

/**
 * `--input FILE`, or `-` for stdin (refused with `whenATerminal` when stdin is one). Read as a
 * stream, never whole: stdin is kept in a private temporary file, since a batch reads its rows
 * twice (checked, then sent).
 */
export async function batchSource(input: string, io: Io, whenATerminal: UsageError): Promise<BatchSource> {
  if (input === '-') {
    if (io.isStdinTTY) throw whenATerminal
    const folder = await mkdtemp(join(tmpdir(), 'gw-batch-'))
    const path = join(folder, 'stdin')
    const hash = createHash('sha256')
    try {
      await pipeline(io.stdinChunks(), async function* (chunks: AsyncIterable<Buffer | string>) {
        for await (const chunk of chunks) {
          hash.update(chunk)
          yield chunk
        }
      }, createWriteStream(path, {mode: 0o600}))
    } catch (err) {
      await rm(folder, {recursive: true, force: true})
      throw new UsageError(`--input - could not be kept while it is read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, `Give the batch as a file with --input FILE instead.`)
    }
    return {path, name: 'stdin', hash: hash.digest('hex'), dispose: () => rm(folder, {recursive: true, force: true})}
  }
  try {
    await access(input)
    const hash = createHash('sha256')
    for await (const chunk of createReadStream(input)) hash.update(chunk as Buffer)
    return {path: input, name: input, hash: hash.digest('hex'), realPath: realPath(input), dispose: async () => {}}
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message
    throw new UsageError(`--input ${input} cannot be read: ${why}`, 'Give a CSV file with a header row, an NDJSON file, or - for stdin.')
  }
}
