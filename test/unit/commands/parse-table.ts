import {describe, expect, it} from 'vitest'
import type {Target} from '../../../src/auth/resolve.js'
import {testIo} from '../../test-io.js'
import {type CommandClass, parseCommand} from './run-command.js'

/**
 * The input as oclif's parse makes it: a boolean flag left out is undefined, though oclif's types
 * say boolean (and so do the inputs' types built on them).
 */
type AsParsed<T> = T extends boolean ? T | undefined : T extends Date | readonly unknown[] ? T : T extends object ? {[K in keyof T]: AsParsed<T[K]>} : T

/** One row of a command's table: its arguments, and the input its operation gets or the message of the usage error it exits 2 with. */
export type ParseRow<I> = {
  argv: string[]
  /** What stdin holds (--card -, --auth -, ids on -). */
  stdin?: string
  /** The profile in force, when the parse reads it (a live one refuses a card in argv). */
  target?: Target & {token?: string}
} & ({input: AsParsed<I>} | {usage: string})

/**
 * A command's parse as a table (gh's `Test_NewCmdX` through runF): each row runs the parse alone,
 * in this process, and the input its operation would get is compared whole; a row that fails
 * names the usage error's exact message, exit 2, and no operation run.
 */
export function parsesAs<I>(name: string, command: CommandClass<I>, rows: ParseRow<I>[]): void {
  describe(`gw ${name}: argv to the input its operation gets`, () => {
    it.each(rows.map((row) => [row.argv.join(' ') || '(no arguments)', row] as const))('%s', async (_, row) => {
      const parsed = await parseCommand(command, row.argv, {name, io: testIo({stdin: row.stdin ?? ''}), target: row.target})
      if ('usage' in row) {
        // The message is what stands between `Error: ` and the hint's line.
        const message = /^Error: ([^]*?)\n(Hint: |$)/.exec(parsed.stderr)?.[1]
        expect({code: parsed.code, message, input: parsed.input}).toEqual({code: 2, message: row.usage, input: undefined})
      } else {
        expect({code: parsed.code, stderr: parsed.stderr, input: parsed.input}).toEqual({code: 0, stderr: '', input: row.input})
      }
    })
  })
}
