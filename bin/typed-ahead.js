// What is typed before a secret's prompt draws: a recorded or shared terminal keeps what it echoed. A command that will ask for a card
// number, a CVV or an API token turns the terminal's echo off as gw starts, not when the prompt
// draws, about a second later: a card number typed meanwhile was echoed in clear, and stayed in
// the scrollback. CommonJS and node's own modules only, like bin/start.js.
/**
 * The commands that ask for a secret at a terminal, unless one of `unless` gives it (or takes the
 * rows from a file); `when`: only with one of these flags (a refund to a card names its holder).
 * test/unit/cli/startup/typed-ahead.test.ts holds it to the commands that read a card or a token.
 */
const ASKS_FOR_SECRETS = [
  {command: 'purchase create', unless: ['--card', '--card-token', '--card-number', '--input']},
  {command: 'refund create', when: ['--card-holder'], unless: ['--card', '--card-token', '--card-number', '--input']},
  {command: 'card tokenize', unless: ['--card', '--card-number']},
  {command: 'customer create', unless: ['--card', '--card-number']},
  {command: 'login', unless: ['--token-stdin']},
]

/** The global flags that take a value, which may come before the command's words (cli/startup/argv.ts). */
const GLOBAL_OPTIONS = ['--profile', '--fields', '--jq', '-q']

/**
 * Whether this command line may ask for a secret at a terminal: a command of ASKS_FOR_SECRETS
 * without a flag that gives it, and no --help or --no-input.
 */
function asksForSecret(argv) {
  // By hand, not through flagsGiven (src/cli/startup/argv.ts): echo goes off before the bundle that holds it is read.
  const end = argv.indexOf('--')
  const args = end === -1 ? argv : argv.slice(0, end)
  const has = (flag) => args.some((arg) => arg === flag || arg.startsWith(`${flag}=`))
  if (has('--help') || has('-h') || has('--no-input')) return false
  const words = []
  for (let i = 0; i < args.length && words.length < 2; i++) {
    if (!args[i].startsWith('-')) words.push(...args[i].split(':'))
    else if (GLOBAL_OPTIONS.includes(args[i])) i++
  }
  const named = ASKS_FOR_SECRETS.find(({command}) => command === words.slice(0, command.split(' ').length).join(' '))
  return named !== undefined && (named.when === undefined || named.when.some(has)) && !named.unless.some(has)
}

/** Ctrl-C, which the terminal no longer turns into SIGINT while its input is raw. */
const CTRL_C = 0x03

/** Where the hold is handed to the first prompt (src/output/prompt.ts). */
const RELEASE = Symbol.for('gw.typed-ahead')

/**
 * Where a secret may be asked (a terminal on stdin and stderr, as gw prompts, and no CI), stdin
 * is made raw at once: the terminal echoes nothing. What is typed until the first prompt draws is
 * read and dropped, as getpass does with TCSAFLUSH. Ctrl-C still stops gw, as SIGINT would.
 * The terminal is restored by the prompt, and at exit whatever ends gw (Node resets the terminal
 * after SIGINT and SIGTERM too). Windows consoles take raw mode as terminals do.
 */
function holdTypedAhead(argv, env = process.env) {
  if (env.CI || !asksForSecret(argv)) return
  const tty = require('node:tty')
  if (!tty.isatty(0) || !tty.isatty(2)) return
  const stdin = process.stdin
  // held until the first prompt, then released; or interrupted (Ctrl-C), and no prompt draws.
  let state = 'held'
  const end = (next) => {
    state = next
    stdin.off('data', drop)
    stdin.pause()
  }
  const drop = (chunk) => {
    if (!chunk.includes(CTRL_C)) return
    end('interrupted')
    stdin.setRawMode(false)
    // As the terminal would: gw's own handler where it has one (a command under way), else the end SIGINT brings.
    if (!process.emit('SIGINT', 'SIGINT')) process.exit(130)
  }
  stdin.setRawMode(true)
  stdin.on('data', drop)
  // Holding the terminal keeps no command running; a prompt reads it again.
  stdin.unref()
  process.once('exit', () => {
    if (stdin.isRaw) stdin.setRawMode(false)
  })
  globalThis[RELEASE] = async () => {
    // Two turns of the event loop, so that one polls the terminal: what it holds is read, and dropped.
    for (let turn = 0; turn < 2 && state === 'held'; turn++) await new Promise((resolve) => setImmediate(resolve))
    // Stopped by Ctrl-C: the command ends with the signal, and its prompt never draws.
    if (state === 'interrupted') return new Promise(() => {})
    if (state === 'released') return
    end('released')
    // Still raw: what comes from now on waits for the prompt, unechoed.
    stdin.ref()
  }
}

module.exports = {asksForSecret, holdTypedAhead, ASKS_FOR_SECRETS}
