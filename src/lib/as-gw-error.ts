import {GwError, UsageError} from '../errors.js'
import {redactFlagMessage} from '../safety/redact.js'
import {NotYoursError} from './own-file.js'

/**
 * Any failure as a GwError, for what reports each failure as it comes (a seed's steps, a batch of
 * look-ups): a GwError as it is, a usage error with no flag's value or card data in its words, and
 * anything else a bug (exit 1). cli/to-gw-error.ts adds what oclif's parse errors need.
 */
export function asGwError(err: unknown): GwError {
  if (err instanceof UsageError) return new UsageError(redactFlagMessage(err.message), err.hint)
  if (err instanceof GwError) return err
  // A file or folder of another user's (lib/own-file.ts) is the user's to mend: usage, naming it and the fix.
  if (err instanceof NotYoursError) return new UsageError(err.message, err.hint)
  // A machine's trouble with a file, where none of gw's own words caught it: exit 1, not a bug's "Unexpected failure".
  const onDisk = fileTrouble(err)
  if (onDisk) return new GwError('io', 1, onDisk.message, {hint: onDisk.hint})
  const message = err instanceof Error ? err.message : String(err)
  return new GwError('unexpected', 1, `Unexpected failure: ${message}`, {hint: 'Run again with --verbose for details.'})
}

/** What the machine said of a file gw could not make, read or write, in words a person acts on. */
const FILE_TROUBLE: Record<string, string> = {
  ENOTDIR: 'part of that path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'the path has too many symbolic links, or a loop of them',
}

/** What gw was doing, by the system call that failed. */
const SYSCALL_WORDS: Record<string, string> = {mkdir: 'make the folder', open: 'open', write: 'write', rename: 'rename', unlink: 'remove', scandir: 'read the folder', rmdir: 'remove the folder', copyfile: 'copy'}

/**
 * A file system error naming a path, in words: the path and what stood in the way (a data folder
 * that is a file, a read-only disk), and where gw's folders are set. Undefined for anything else.
 */
function fileTrouble(err: unknown): {message: string; hint: string} | undefined {
  const {code, path, syscall} = (err ?? {}) as NodeJS.ErrnoException
  if (!(err instanceof Error) || typeof path !== 'string' || code === undefined || !(code in FILE_TROUBLE)) return undefined
  const doing = SYSCALL_WORDS[syscall ?? ''] ?? syscall ?? 'use'
  return {
    message: `gw could not ${doing} ${path}: ${FILE_TROUBLE[code]} (${code})`,
    hint: "Where it is one of gw's folders, gw help environment says which variable sets it. Point that at a folder of yours, or give a flag that takes the file (--journal) a path of yours.",
  }
}
