import {UsageError} from '../errors.js'
import {whyUnreadable} from '../lib/file-error-words.js'
import {NotYoursError, readOwnFile} from '../lib/own-file.js'

/**
 * The text of a file of secrets the user gives gw to read (`--auth-file FILE`, `--merchant @FILE`),
 * refused as a token file is when it is not the user's alone: another user's file may hold their
 * credentials, and a secret others can read is known. `given` names it as typed; `example` is a
 * command that makes one right.
 */
export function readGivenSecret(given: string, file: string, example: string): string {
  let text: string | undefined
  try {
    text = readOwnFile(file, {secret: true, given: true})
  } catch (err) {
    if (err instanceof NotYoursError) throw new UsageError(`${given} cannot be used: ${err.message}`, err.hint)
    throw new UsageError(`${given} cannot be read: ${whyUnreadable(err)}`, `Give a file you can read, made with: ${example}`)
  }
  if (text === undefined) throw new UsageError(`${given} cannot be read: no such file`, `Give a file, made with: ${example}`)
  return text
}
