import {closeSync, constants, mkdirSync, openSync} from 'node:fs'
import {dirname} from 'node:path'
import type {DatabaseSync} from 'node:sqlite'
import {nodeSqlite} from './locked-database.js'

/**
 * A node:sqlite database readable by its owner alone, in a folder of the owner's alone: made so
 * when there is none (SQLite would make it with the process's umask). `timeoutMs`: how long a
 * statement waits for another process's transaction to end.
 */
export function openPrivateDatabase(path: string, timeoutMs: number): DatabaseSync {
  mkdirSync(dirname(path), {recursive: true, mode: 0o700})
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const {DatabaseSync} = nodeSqlite()
  return new DatabaseSync(path, {timeout: timeoutMs})
}
