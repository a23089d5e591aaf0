import {join} from 'node:path'
import {expect, it} from 'vitest'
import {runProgram} from './helpers.js'

const root = join(import.meta.dirname, '..', '..')

it('docs/commands is what npm run readme makes from the built gw: a changed command fails here until it is run', async () => {
  const result = await runProgram(process.execPath, [join(root, 'scripts', 'reference.js'), '--check'], {cwd: root, timeoutMs: 60_000})
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
})
