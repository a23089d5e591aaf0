// oclif's explicit command strategy wants every command by its id. The list is made from the files
// under src/commands at build time (scripts/bundle.js serves it as the module `gw:commands`), so a
// new command file is a new command with nothing else to keep in step.
import {readdirSync} from 'node:fs'
import {join} from 'node:path'

/** `purchase/create.ts` → `purchase:create`, for every command file under root, sorted. */
export function commandFiles(root) {
  return readdirSync(root, {recursive: true, encoding: 'utf8'})
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => file.split(/[\\/]/).join('/'))
    .sort()
    .map((file) => ({id: file.replace(/\.ts$/, '').replaceAll('/', ':'), file}))
}

/**
 * The source of `gw:commands`: COMMANDS by id, each command's module evaluated when oclif first
 * asks for its class (a getter that require()s it, which esbuild turns into a lazy init), so a
 * run evaluates the one command it runs, not all of them; oclif's manifest lists the others.
 */
export function commandsModule(root) {
  const entries = commandFiles(root).map(({id, file}) => `  get ${JSON.stringify(id)}() {\n    return require(${JSON.stringify(join(root, file))}).default\n  },`)
  return `export const COMMANDS = {\n${entries.join('\n')}\n}\n`
}
