import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect, it} from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')

/** Every command as people type it, from its file: commands/sandbox/clock/advance.ts is `sandbox clock advance`. */
const commands = readdirSync(join(root, 'src', 'commands'), {recursive: true, encoding: 'utf8'})
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.replace(/\.ts$/, '').split(/[/\\]/).join(' '))
  .sort()

/** The commands a table of this folder parses (parse-table.ts parsesAs). */
const tabled = readdirSync(import.meta.dirname)
  .filter((file) => file.endsWith('.test.ts'))
  .flatMap((file) => [...readFileSync(join(import.meta.dirname, file), 'utf8').matchAll(/parsesAs\('([^']+)'/g)].map((match) => match[1]!))
  .sort()

it('every command has a table of its parse: argv to the input its operation gets, or the usage error', () => {
  expect(tabled).toEqual(commands)
})
