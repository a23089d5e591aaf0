import {UsageError} from '../errors.js'
import type {Io} from '../output/io.js'

/** Ids from argv, or one a line from stdin for `-`; blank lines and surrounding spaces are ignored. */
export async function readIds(argv: string[], io: Io, noun = 'id or reference'): Promise<{ids: string[]; batch: boolean}> {
  if (argv.length === 1 && argv[0] === '-') {
    if (io.isStdinTTY) throw new UsageError(`- reads one ${noun} a line from stdin, but stdin is a terminal`, 'Pipe them in, e.g. cut -f1 ids.txt | gw purchase get -')
    const ids = (await io.readStdin()).split(/\r?\n/).map((line) => line.trim()).filter(Boolean)
    if (ids.length === 0) throw new UsageError(`stdin held no ${noun}`)
    return {ids, batch: true}
  }
  const ids = argv.map((id) => id.trim())
  if (ids.length === 0) throw new UsageError(`give at least one ${noun}, or - to read them from stdin`)
  if (ids.some((id) => id === '')) throw new UsageError(`an ${noun} is blank`)
  if (ids.includes('-')) throw new UsageError('- must be the only argument')
  return {ids, batch: ids.length > 1}
}
