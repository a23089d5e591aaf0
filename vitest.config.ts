import {availableParallelism} from 'node:os'
import {configDefaults, defineConfig} from 'vitest/config'

/**
 * The suites that read lists, money outcomes and recoveries, and batches: run once against each
 * dialect of the local gateway (test/e2e/helpers.ts DIALECT), the contract's and the live
 * gateway's, so that an assumption about one gateway is caught by the other. A file whose blocks
 * differ runs in the live dialect only the blocks that opt in (helpers.ts describeInBothDialects).
 */
const BOTH_DIALECTS = [
  'test/e2e/finding-records.test.ts',
  'test/e2e/refunds-of.test.ts',
  'test/e2e/money-safety.test.ts',
  'test/e2e/processing-window.test.ts',
  'test/e2e/unprinted-approval.test.ts',
  'test/e2e/answers-gone-wrong.test.ts',
  'test/e2e/batch.test.ts',
  'test/e2e/card-reference.test.ts',
  'test/e2e/batch-faults.test.ts',
  'test/e2e/money-decisions.test.ts',
  'test/e2e/identity.test.ts',
  'test/e2e/identity-names.test.ts',
  'test/e2e/refund.test.ts',
  'test/e2e/purchase.test.ts',
  'test/e2e/jq-runaway.test.ts',
  'test/e2e/decline-hint.test.ts',
  'test/e2e/payment-plan.test.ts',
  'test/e2e/direct-debit.test.ts',
  'test/e2e/seed-recurring.test.ts',
  'test/e2e/authorizations.test.ts',
  'test/e2e/beyond-commands.test.ts',
  'test/e2e/capture-batch.test.ts',
  'test/e2e/settlement-report.test.ts',
  'test/e2e/terminal-follow-ups.test.ts',
  'test/e2e/terminal-type-back.test.ts',
  'test/e2e/gh-habits.test.ts',
  'test/e2e/webhook-order.test.ts',
  'test/e2e/by-reference.test.ts',
  'test/e2e/money-one-way.test.ts',
  'test/e2e/status.test.ts',
  'test/e2e/recurring-batch.test.ts',
  'test/e2e/gateway-clock.test.ts',
  'test/e2e/recorded-differences.test.ts',
  'test/e2e/what-a-refund-is.test.ts',
  'test/e2e/piped-stdin.test.ts',
  'test/e2e/batch-true-words.test.ts',
  'test/e2e/batch-copies.test.ts',
  'test/e2e/identity-overlay.test.ts',
  'test/e2e/true-miss-words.test.ts',
  'test/e2e/history-costs.test.ts',
  'test/e2e/sandbox-manners.test.ts',
  'test/e2e/rate-limits.test.ts',
  'test/e2e/state-file-faults.test.ts',
  'test/e2e/journal-replaced.test.ts',
  'test/e2e/at-a-glance.test.ts',
]

/**
 * The files that replace a module for their tests (vi.mock), each run in a process of its own: the
 * replacement would stay for the files after it. The others share their worker's process, each
 * module loaded once (~0.1 s of CPU a file less); what a helper opens for a test is undone by
 * test/setup.ts. test/unit/test-processes.test.ts finds every vi.mock in this list.
 */
export const OWN_PROCESS = [
  'test/unit/batch/journal-same-rows-faults.test.ts',
  'test/unit/batch/journal-sync.test.ts',
  'test/unit/batch/same-batch-lock.test.ts',
]

/** Loaded before each test file: what a helper opens for a test undone (setup.ts), and each file's CPU-seconds counted. */
export const SETUP_FILES = {always: 'test/setup.ts', cpuLog: 'test/cpu-per-file.ts'}

/** The unit tests (test/unit) and the local gateway's own (test/sandbox): they run the TypeScript source, and need no build. */
const UNIT = ['test/unit/**/*.test.ts', 'test/sandbox/**/*.test.ts']

export default defineConfig({
  test: {
    // Files spend much of their time waiting (a gateway's answer, gw's backoff, a processing
    // window), so three files more than there are cores keep the cores busy. On two cores, 5 workers
    // left the cores idle 14 core-seconds of a run, where 4 left 23 to 28 (CONTRIBUTING.md, "What it costs").
    maxWorkers: availableParallelism() + 3,
    // Outer bounds only: a test waits for the event it needs (test/until.ts, a gw's exit), and a
    // machine loaded ten times over by other work (seen: a load of 30 on two cores) must not trip them.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Once a run, whichever projects it runs: what the tests write in the temporary folder goes into a folder of this run's.
    globalSetup: ['test/run-folder.ts'],
    // GW_CPU_LOG=FILE: each file's CPU-seconds appended to FILE (test/cpu-per-file.ts, CONTRIBUTING "What it costs").
    setupFiles: [SETUP_FILES.always, ...(process.env.GW_CPU_LOG ? [SETUP_FILES.cpuLog] : [])],
    isolate: false,
    // The end-to-end projects alone rebuild the bundle they run, where a source file is newer
    // (test/global-setup.ts): `npx vitest run test/unit/x.test.ts` builds nothing.
    // GitHub's workflow parser imports its JSON schemas without import attributes, as a bundler
    // reads them: vite's transform loads them (test/unit/release/workflows.test.ts).
    server: {deps: {inline: ['@actions/workflow-parser']}},
    projects: [
      {extends: true, test: {name: 'unit', include: UNIT, exclude: [...configDefaults.exclude, ...OWN_PROCESS]}},
      {extends: true, test: {name: 'unit, a process a file', include: OWN_PROCESS, isolate: true}},
      {extends: true, test: {name: 'e2e, contract dialect', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/global-setup.ts']}},
      {extends: true, test: {name: 'e2e, live dialect', include: BOTH_DIALECTS, globalSetup: ['test/global-setup.ts'], env: {GW_TEST_DIALECT: 'live'}}},
    ],
  },
})
