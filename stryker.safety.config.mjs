// The masker's files (src/safety) measured against the unit tests that reach them by name
// (vitest.mutate-safety.config.ts): a lower bound of the score npm run mutate gives, in seconds a
// static mutant instead of a minute (bench/mutation.md, issue 60, fourth session).
import base from './stryker.config.mjs'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {...base, vitest: {configFile: 'vitest.mutate-safety.config.ts'}}
