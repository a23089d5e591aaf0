import {readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {describe, expect, it} from 'vitest'
import config, {OWN_PROCESS, SETUP_FILES} from '../../vitest.config.js'
import mutateConfig from '../../vitest.mutate.config.js'

// Test files share their worker's process (vitest.config.ts), so what one file leaves behind
// meets the next: a module it replaced, or a helper's hook that only the first file got.
const root = join(import.meta.dirname, '..', '..')

function filesUnder(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true, recursive: true})
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort()
}

const testFiles = filesUnder(join(root, 'test'))
const source = (file: string) => readFileSync(join(root, file), 'utf8')

describe('test files that share a process', () => {
  it('leave no module replaced: every file with vi.mock runs in a process of its own, and no other does', () => {
    const mocking = testFiles.filter((file) => file.endsWith('.test.ts') && /\bvi\.(mock|doMock)\(/.test(source(file)))
    expect(mocking).toEqual([...OWN_PROCESS].sort())
  })

  it('find each helper\'s cleanup in place: no helper module registers a hook when it loads (it loads once a process)', () => {
    // The setup files are loaded before each test file (vitest.config.ts setupFiles): their hooks are each file's.
    const setupFiles: string[] = Object.values(SETUP_FILES)
    const helpers = testFiles.filter((file) => !file.endsWith('.test.ts') && !setupFiles.includes(file))
    const hooked = helpers.filter((file) => /^(afterEach|afterAll|beforeEach|beforeAll)\(/m.test(source(file)))
    expect(hooked).toEqual([])
    // Whichever runs them: npm test, and StrykerJS's runs of the unit tests.
    for (const {test} of [config, mutateConfig]) expect(test?.setupFiles).toContain(SETUP_FILES.always)
  })
})

describe('the files run in both dialects', () => {
  it('name each top-level block run once or in both, where any is run once', () => {
    const choosing = testFiles.filter((file) => file.startsWith('test/e2e/') && /\bdescribeOnce\(/.test(source(file)))
    expect(choosing.length).toBeGreaterThan(0)
    for (const file of choosing) expect(source(file).match(/^(describe|it|test)\b.*$/gm) ?? [], file).toEqual([])
  })
})
