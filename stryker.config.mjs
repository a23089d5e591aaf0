// npm run mutate: how strong the money path's tests are, measured with StrykerJS. Not
// part of npm test. Reports go to reports/mutation/ (git-ignored); bench/mutation.md has the scores.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: {configFile: 'vitest.mutate.config.ts'},
  coverageAnalysis: 'perTest',
  mutate: [
    'src/money/**/*.ts',
    'src/batch/journal.ts',
    'src/batch/runner.ts',
    // Split out of the journal and the runner: the same money path, measured as theirs was.
    'src/batch/journal-identity.ts',
    'src/batch/journal-state.ts',
    'src/batch/journal-entries.ts',
    'src/batch/gateway-slots.ts',
    'src/batch/run-end.ts',
    'src/batch/in-doubt.ts',
    'src/batch/row-reports.ts',
    'src/batch/instance.ts',
    'src/api/recovery.ts',
    // A batch's payment plan or direct debit sent once, and its lost answer looked up by reference.
    'src/operations/made-once.ts',
    'src/api/retry.ts',
    'src/safety/redact.ts',
    // The masker's one table, its rules over text and bytes, and what is kept on disk by them.
    'src/safety/card-digits.ts',
    'src/safety/card-text.ts',
    'src/safety/card-bytes.ts',
    'src/safety/at-rest.ts',
    // A batch journal's lines: card numbers masked, references found again by their keyed hash.
    'src/batch/journal-names.ts',
    // Whether a record prints as the gateway sent it: a card number let through here is printed whole.
    'src/safety/prints-as-sent.ts',
    // The journal's file: a SQLite database under the kernel's lock.
    'src/batch/journal-file.ts',
    // The journal's file opened on a thread of its own, and that thread.
    'src/batch/journal-thread.ts',
    'src/batch/journal-worker.ts',
    // Whether the journal is still the file at its path, and what a replaced one's batch is told.
    'src/batch/journal-place.ts',
    // Which file a path names.
    'src/lib/file-identity.ts',
    // One writer by the kernel's lock on the file itself: journals and the local gateway's state file.
    'src/lib/locked-database.ts',
    // The gateway has the last word: a batch's name at the gateway, and the references its blank-reference rows are sent under.
    'src/batch/batch-name.ts',
    'src/batch/derived-references.ts',
    // Which of an earlier run's references a row that gives none is, in the same file or one edited since.
    'src/batch/journaled-references.ts',
    // A batch from its file to its summary: each row checked, journaled and sent through the above, and its outcome worded.
    'src/batch/run-batch.ts',
    // What a batch's --dry-run says it would send, found as the run would find it.
    'src/batch/dry-run.ts',
    // One writer through an overlay (its upper directory's name), and a database cut short refused before SQLite writes into it.
    'src/lib/overlay-names.ts',
    'src/lib/database-cut.ts',
    // The one matcher of refunds to purchases: what purchase get says was refunded, and what a refund offers.
    'src/lists/refund-match.ts',
    // What a refund may take of its purchase before it is sent: one command's, and a batch's rows on one card and purchase.
    'src/lists/refund-room.ts',
    'src/lists/batch-refunds.ts',
    // A refund batch's rows: each held to what is left of its purchase, and let go once its refund is decided.
    'src/batch/refund-kind.ts',
    'src/lists/card-ledger.ts',
    'src/lists/refund-index.ts',
    'src/api/rate-limiting.ts',
    // The one way out for every request: what is sent, when, and how many at once, once the gateway has limited gw.
    'src/api/gate.ts',
    // The one code that writes stdout and stderr: a result lost to a closed pipe or a full disk is told, never reported done.
    'src/output/io.ts',
  ],
  // Two cores, shared: one test process per core.
  concurrency: 2,
  // On top of each test's own time; generous, since the machine is shared.
  timeoutMS: 10_000,
  // The first run of all the unit tests, each measured for what it covers: over the default 5 minutes on two shared cores.
  dryRunTimeoutMinutes: 30,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  // The score table per file, and each survivor; not the tests each one ran.
  clearTextReporter: {allowColor: false, reportTests: false, logTests: false},
  htmlReporter: {fileName: 'reports/mutation/index.html'},
  jsonReporter: {fileName: 'reports/mutation/mutation.json'},
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
}
