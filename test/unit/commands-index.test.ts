import {readdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {COMMANDS} from '../../src/commands/index.js'

describe('COMMANDS (oclif explicit strategy)', () => {
  it('lists every command file under src/commands, by its topic:verb id', () => {
    const root = join(import.meta.dirname, '..', '..', 'src', 'commands')
    const ids = readdirSync(root, {recursive: true, encoding: 'utf8'})
      .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
      .map((file) => file.replace(/\.ts$/, '').split('/').join(':'))
      .sort()
    expect(Object.keys(COMMANDS).sort()).toEqual(ids)
  })

  it('gives every command a summary and at least two examples', () => {
    for (const [id, command] of Object.entries(COMMANDS)) {
      expect(command.summary, id).toBeTruthy()
      expect(command.description, id).toBeTruthy()
      expect((command.examples ?? []).length, id).toBeGreaterThanOrEqual(2)
    }
  })
})
