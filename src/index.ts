/**
 * The one bundled entry (scripts/bundle.js): oclif and every command in a single file, so a
 * call parses one file instead of resolving hundreds; heavy libraries are evaluated only when used.
 */
import {COMMANDS} from 'gw:commands'
import {readCommandLine} from './cli/startup/argv.js'

export {execute} from '@oclif/core'
export {COMMANDS}
export {GwHelp} from './cli/help/asked-if-missing.js'
export {commandNotFound} from './cli/help/not-found.js'
export {checkForUpdate, UPDATE_CHECK} from './cli/update-notice.js'

/** argv as oclif is to get it, read once with every command's flags (bin/run.js, bin/sea.js). */
export async function placeGlobalFlags(argv: string[]): Promise<string[]> {
  return (await readCommandLine(argv, COMMANDS)).argv
}
