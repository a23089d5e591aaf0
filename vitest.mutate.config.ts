import {defineConfig} from 'vitest/config'

// The tests StrykerJS runs against each mutant (npm run mutate): the unit tests, which run the
// TypeScript source. The end-to-end tests run the built CLI (no build here), and the local
// gateway's own (test/sandbox) test no file mutated but through it, at length.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    // StrykerJS runs tests in worker threads, where setting process.env.TZ does not change the
    // zone Date uses: these two fix a zone of their own, and test no file mutated.
    // layout.test.ts and wording-layout.test.ts read src/ as files (their length, imports and words),
    // which StrykerJS's copy changes (a \`// @ts-nocheck\` line on top, its mutants' code), and test no code a mutant changes.
    exclude: ['test/unit/lists/window.test.ts', 'test/unit/lists/report.test.ts', 'test/unit/layout.test.ts', 'test/unit/wording-layout.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // What the helpers open for a test is undone after it (test/after-each-test.ts).
    setupFiles: ['test/setup.ts'],
    // What the tests write in the temporary folder, a folder a test and mutant, removed at the end.
    globalSetup: ['test/run-folder.ts'],
    // As vitest.config.ts: GitHub's workflow parser imports its JSON schemas without import attributes (test/unit/release/workflows.test.ts).
    server: {deps: {inline: ['@actions/workflow-parser']}},
  },
})
