/**
 * The one bundled entry (scripts/bundle.js): oclif and every command in a single file, so a
 * call parses one file instead of resolving hundreds; heavy libraries are evaluated only when used.
 */
export {execute} from '@oclif/core'
export {COMMANDS} from 'gw:commands'
export {GwHelp} from './cli/help/asked-if-missing.js'
export {commandNotFound} from './cli/help/not-found.js'
export {placeGlobalFlags} from './cli/startup/argv.js'
