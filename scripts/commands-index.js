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

/** The source of `gw:commands`: each command file imported, and COMMANDS by id. */
export function commandsModule(root) {
  const files = commandFiles(root)
  const imports = files.map(({file}, i) => `import command${i} from ${JSON.stringify(join(root, file))}`)
  const entries = files.map(({id}, i) => `  ${JSON.stringify(id)}: command${i},`)
  return `${imports.join('\n')}\n\nexport const COMMANDS = {\n${entries.join('\n')}\n}\n`
}
