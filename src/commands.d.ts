/** Every command by its oclif id, generated from the files under src/commands by scripts/bundle.js. */
declare module 'gw:commands' {
  import type {Command} from '@oclif/core'

  export const COMMANDS: Record<string, Command.Class>
}
