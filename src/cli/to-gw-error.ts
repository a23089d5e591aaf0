import {Errors} from '@oclif/core'
import {GwError, UsageError} from '../errors.js'
import {asGwError} from '../lib/as-gw-error.js'
import {closest} from './help/suggest.js'
import {redactFlagMessage} from '../safety/redact.js'

/** oclif's parse errors are usage errors (exit 2); anything that is not a GwError is a bug (exit 1). */
export function toGwError(err: unknown, command?: {name: string; flags: string[]}): GwError {
  // oclif decorates errors thrown by a flag's parse; the message already names the flag. Whatever
  // it says about flags names them and never their values (a CVV, a token, a card number).
  if (err instanceof UsageError) return new UsageError(redactFlagMessage(withoutOclifDecoration(err.message)), err.hint ?? (command && helpHint(command)))
  if (err instanceof GwError) {
    err.message = withoutOclifDecoration(err.message)
    return err
  }
  if (err instanceof Errors.CLIError) return usageErrorFromOclif(err, command)
  return asGwError(err)
}

/**
 * A parse error names the command as typed (`See gw purchase get --help`); an unknown flag is named
 * without any value glued to it (it may be a card number) and with the closest real flag.
 */
function usageErrorFromOclif(err: Errors.CLIError, command?: {name: string; flags: string[]}): UsageError {
  const help = helpHint(command ?? {name: 'gw COMMAND'})
  const unknown = (err as {flags?: unknown}).flags
  if (Array.isArray(unknown) && unknown.length > 0) {
    const names = unknown.map((flag) => String(flag).replace(/=.*/s, ''))
    const suggestion = command && closest(names[0]!.replace(/^-+/, ''), command.flags)
    const message = `unknown flag${names.length === 1 ? '' : 's'}: ${names.join(', ')}`
    return new UsageError(redactFlagMessage(message), suggestion ? `Did you mean --${suggestion}? ${help}` : help)
  }
  return new UsageError(redactFlagMessage(withoutOclifDecoration(err.message, {nameFlag: true})), help)
}

/** Where to read what a command takes, for a usage error that has no better hint. */
function helpHint(command: {name: string}): string {
  return `See ${command.name} --help for the flags and examples.`
}

/** oclif's message without its wrapping; where it is oclif's own words, still naming the flag (`--limit: Expected an integer ...`). */
function withoutOclifDecoration(message: string, {nameFlag = false} = {}): string {
  const parsing = /^Parsing (--[\w-]+) \n\t/.exec(message)
  let text = message.replace(/^Parsing --[\w-]+ \n\t/, '').replace(/\nSee more help with --help$/, '')
  const listed = /^The following errors? occurred:\n/.exec(text)
  if (listed) text = text.slice(listed[0].length).replace(/^ {2}/gm, '')
  return nameFlag && parsing && !text.includes(parsing[1]!) ? `${parsing[1]}: ${text}` : text
}
