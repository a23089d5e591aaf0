import {closeSync, fsyncSync, openSync} from 'node:fs'

/**
 * Syncs a directory, so that a name made or renamed in it survives a crash as the file's own
 * syncs do. Some systems cannot sync one (Windows, some network file systems): then the file's
 * own syncs stand alone.
 */
export function syncDirectory(directory: string): void {
  let fd: number | undefined
  try {
    fd = openSync(directory, 'r')
    fsyncSync(fd)
  } catch {
    // Refused by the system: nothing more to do.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
