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

/**
 * A change the gateway could not save to its state file, taken back out of its store. `undone`: the
 * file is known to hold none of it (a synced write has covered what the failed one left); otherwise
 * it may, and a restart would read it. `earlier`: another request's change failed so, before this
 * request, of which nothing was tried.
 */
export class UnsavedChangeError extends Error {
  override name = 'UnsavedChangeError'

  constructor(
    readonly reason: string,
    readonly undone: boolean,
    readonly earlier = false,
  ) {
    super(`${earlier ? 'an earlier change' : 'the change'} could not be saved to the state file (${reason})`)
  }
}

/**
 * What a request whose change was not saved is answered: "nothing was done" only when the file is
 * known to hold none of it. Otherwise a client told so might charge again, and find both after a
 * restart; it is told that the change may have been made, and how to find out.
 */
export function unsavedAnswer(error: unknown): string[] {
  const unsaved = error instanceof UnsavedChangeError ? error : new UnsavedChangeError(reasonOf(error), false)
  if (unsaved.undone) return [`Internal sandbox error: ${unsaved.message}; nothing was done`]
  return [
    `Internal sandbox error: ${unsaved.message}, and the file may hold it all the same: ${unsaved.earlier ? 'nothing of this request was done' : 'it may have been made'}. ` +
      'This gateway answers nothing more until it is restarted; then look up what is in doubt by its reference, and send it again only if it is not found.',
  ]
}
