/** The global flags (GwCommand.baseFlags); --profile, --fields and --jq take a value. */
const GLOBAL_BOOLEANS = new Set(['--json', '--verbose', '--yes', '--no-input'])
const GLOBAL_VALUED = ['--profile', '--fields', '--jq']
export const GLOBAL_FLAGS = [...GLOBAL_BOOLEANS, ...GLOBAL_VALUED].map((flag) => flag.slice(2))

/**
 * `gw --json purchase get ID` → `gw purchase get ID --json`: global flags typed before or between
 * the command words move after them, so oclif finds the command id (it reads words up to the
 * first flag). Scanning stops at the first other flag or `--`; what follows is oclif's to parse.
 */
export function placeGlobalFlags(argv: string[]): string[] {
  const words: string[] = []
  const globals: string[] = []
  let i = 0
  for (; i < argv.length; i++) {
    const arg = argv[i]!
    if (GLOBAL_BOOLEANS.has(arg) || GLOBAL_VALUED.some((flag) => arg.startsWith(flag + '='))) globals.push(arg)
    else if (GLOBAL_VALUED.includes(arg) && i + 1 < argv.length) globals.push(arg, argv[++i]!)
    else if (arg.startsWith('-')) break
    else words.push(arg)
  }
  if (globals.length === 0) return argv
  return [...words, ...globals, ...argv.slice(i)]
}
