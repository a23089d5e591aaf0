// Apart from persist.ts, which reads and writes the state file: a gateway started without one
// loads none of it (its schemas, SQLite, the locks), only what its errors are called.

/** A state file that cannot be read as one, or written: the start-up error names the file and the reason. */
export class StateFileError extends Error {
  override name = 'StateFileError'

  /** What to do about it, when picking another file is not the answer. */
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message)
  }
}

/** What went wrong, as SQLite or the system says it: "database or disk is full", ENOSPC. */
export function reasonOf(error: unknown): string {
  const {code, errstr, message} = error as {code?: unknown; errstr?: unknown; message?: unknown}
  if (typeof errstr === 'string') return errstr
  if (typeof code === 'string') return code
  return typeof message === 'string' ? message : String(error)
}
