import {defineConfig} from 'vitest/config'

// The masker's files measured on their own (bench/mutation.md, issue 60, fourth session): the unit
// tests of src/safety and those that import it by name. Fewer tests than vitest.mutate.config.ts runs
// can only kill fewer mutants: a score measured with this config is a lower bound of the whole run's.
export default defineConfig({
  test: {
    include: [
      'test/unit/safety/**/*.test.ts',
      'test/unit/money/decide.test.ts',
      'test/unit/sandbox/imports.test.ts',
      'test/unit/sandbox/ids.test.ts',
      'test/unit/api/lazy-record.test.ts',
      'test/unit/output/money-mask.test.ts',
      'test/unit/lib/json-as-written.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ['test/setup.ts'],
  },
})
