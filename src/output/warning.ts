import {paint} from './colors.js'
import type {Io} from './io.js'
import {sanitize} from '../safety/sanitize.js'

/** A warning on stderr: what could not be done and what that costs, then its fix when one is known. */
export function renderWarning(io: Pick<Io, 'err' | 'errColor'>, message: string, hint?: string): void {
  io.err(`${paint(io.errColor, 'yellow', 'Warning:')} ${sanitize(message)}\n${hintLine(io, hint)}`)
}

/** The line of a hint under an error or a warning; none without one. Its words may repeat what a user or the gateway sent. */
export const hintLine = (io: Pick<Io, 'errColor'>, hint: string | undefined) => (hint ? `${paint(io.errColor, 'dim', 'Hint:')} ${sanitize(hint)}\n` : '')
