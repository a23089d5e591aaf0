import {closeSync, openSync, readSync, statSync} from 'node:fs'

// A SQLite database cut short (a copy stopped part-way, a disk that lost its end) is told by its
// first bytes and its length, before any connection opens it: SQLite would take it for a database
// of fewer pages and write into it as it takes the lock.

/** The first bytes of every SQLite database. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0')

/**
 * Why the database at `file` (`size` bytes) is cut short, when it is: SQLite's first bytes, but
 * not a whole number of its pages (a copy stopped part-way, a disk that lost its end). SQLite would
 * take it for a database of fewer pages and write into it as it takes the lock; a database whose
 * undo record (`-journal`) is beside it is SQLite's to mend. Undefined for any other file.
 */
export function cutShort(file: string, size: number): string | undefined {
  if (size === 0 || (statSync(`${file}-journal`, {throwIfNoEntry: false})?.size ?? 0) > 0) return undefined
  const head = Buffer.alloc(PAGE_SIZE_AT + 2)
  const fd = openSync(file, 'r')
  let read: number
  try {
    read = readSync(fd, head, 0, head.length, 0)
  } finally {
    closeSync(fd)
  }
  const magic = Math.min(read, SQLITE_MAGIC.length)
  if (!head.subarray(0, magic).equals(SQLITE_MAGIC.subarray(0, magic))) return undefined
  if (read < head.length) return `cut short at ${size} bytes, inside its header`
  // The page size as its header writes it: 1 stands for 65536; anything else is SQLite's to refuse.
  const written = head.readUInt16BE(PAGE_SIZE_AT)
  const pageSize = written === 1 ? 65_536 : written
  if (!PAGE_SIZES.has(pageSize) || size % pageSize === 0) return undefined
  return `cut short at ${size} bytes, not a whole number of its ${pageSize}-byte pages`
}

/** Where a SQLite header writes its page size (two bytes, big-endian), and the sizes it may be. */
const PAGE_SIZE_AT = 16
const PAGE_SIZES = new Set([512, 1024, 2048, 4096, 8192, 16_384, 32_768, 65_536])
