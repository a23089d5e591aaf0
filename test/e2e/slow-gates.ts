/**
 * The slow checks of a release and of a first install, which a newcomer's `npm test` leaves out so
 * that it ends within five minutes: each runs in CI, or where its variable is set
 * (`GW_TEST_RELEASE=1`, `GW_TEST_FIRST_INSTALL=1`). Left out, it says so once, naming the variable.
 */
export function runsInCiOr(variable: 'GW_TEST_RELEASE' | 'GW_TEST_FIRST_INSTALL', what: string): boolean {
  const runs = Boolean(process.env.CI || process.env[variable])
  if (!runs) console.warn(`Skipping ${what}: it runs only in CI or with ${variable}=1`)
  return runs
}
