/**
 * The slow checks, which a newcomer's `npm test` leaves out to keep it short:
 * a release's and a first install's (`GW_TEST_RELEASE=1`, `GW_TEST_FIRST_INSTALL=1`), and the
 * exhaustive ones, every fault of a sweep and memory bounds measured on pages of 100,000 records
 * (`GW_TEST_SLOW=1`); and the benchmarks at their smallest (`GW_TEST_BENCH=1`). Each runs in CI, or where its variable is set. Left out, it says so once,
 * naming the variable.
 */
export function runsInCiOr(variable: 'GW_TEST_RELEASE' | 'GW_TEST_FIRST_INSTALL' | 'GW_TEST_SLOW' | 'GW_TEST_BENCH', what: string): boolean {
  const runs = Boolean(process.env.CI || process.env[variable])
  if (!runs) console.warn(`Skipping ${what}: it runs only in CI or with ${variable}=1`)
  return runs
}
