/**
 * Whether gw may tell of a newer release, and look for one, as gh decides it: both stdout and
 * stderr at a terminal (never in a pipe or a file), not in CI (CI, BUILD_NUMBER, RUN_ID, as gh
 * reads them), and not with GW_NO_UPDATE_NOTIFIER set. Decided before anything of the notice is
 * loaded (cli/update-notice.ts), so that a command that may not show one pays for nothing.
 */
export function mayNotify(env: NodeJS.ProcessEnv, terminal: {stdout: boolean; stderr: boolean}): boolean {
  const set = (name: string) => Boolean(env[name])
  return terminal.stdout && terminal.stderr && !set('GW_NO_UPDATE_NOTIFIER') && !['CI', 'BUILD_NUMBER', 'RUN_ID'].some(set)
}
