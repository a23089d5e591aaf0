import {readdirSync} from 'node:fs'
import {join} from 'node:path'
import type {Command} from '@oclif/core'
import {describe, expect, it} from 'vitest'
// @ts-expect-error: a build script in plain JavaScript
import {commandFiles, commandsModule} from '../../scripts/commands-index.js'

const root = join(import.meta.dirname, '..', '..', 'src', 'commands')
const files = commandFiles(root) as {id: string; file: string}[]

describe('the command list (oclif explicit strategy), made from src/commands at build time', () => {
  it('has every command file under src/commands, by its topic:verb id', () => {
    const onDisk = readdirSync(root, {recursive: true, encoding: 'utf8'}).filter((file) => file.endsWith('.ts'))
    expect(files.map(({id}) => id)).toEqual(onDisk.map((file) => file.replace(/\.ts$/, '').split('/').join(':')).sort())
    expect(files.map(({id}) => id)).toContain('sandbox:clock:advance')
  })

  it('names each file by its id, and loads it only when oclif asks for that command', () => {
    const source: string = commandsModule(root)
    expect(source).not.toMatch(/^import /m)
    for (const {id, file} of files) {
      expect(source).toContain(`  get ${JSON.stringify(id)}() {\n    return require(${JSON.stringify(join(root, file))}).default\n  },`)
    }
  })

  it('gives every command a summary, a description and at least two examples', async () => {
    for (const {id, file} of files) {
      const command = ((await import(join(root, file))) as {default: Command.Class}).default
      expect(command.summary, id).toBeTruthy()
      expect(command.description, id).toBeTruthy()
      expect((command.examples ?? []).length, id).toBeGreaterThanOrEqual(2)
    }
  })
})
