import {TEST_CARDS, outcomeForCode, type Outcome} from '../../api/schemas/test-outcomes.js'

/**
 * The help topics that are not commands (`gw help exit-codes`), in the order `gw help` lists them:
 * what each holds, for its HELP TOPICS (gh's shape), and the text it prints on stdout. The one
 * place a topic is named: the help command, its completion and the reference pages read it here.
 */
export const HELP_TOPICS = {
  'exit-codes': {summary: 'what each exit status means, for scripts', text: exitCodes},
  environment: {summary: 'every environment variable gw reads, GW_FORCE_TTY and GW_PAGER among them', text: environment},
  'test-cards': {summary: "the local gateway's approving and declining cards and amounts", text: testCards},
  formatting: {summary: 'what records look like: tables at a terminal, NDJSON in a pipe, --json, --fields, --jq', text: formatting},
} as const satisfies Record<string, {summary: string; text: () => string}>

export type HelpTopic = keyof typeof HELP_TOPICS

export const HELP_TOPIC_NAMES = Object.keys(HELP_TOPICS) as HelpTopic[]

/** Whether a word names a help topic, not a command. */
export function isHelpTopic(word: string): word is HelpTopic {
  return Object.hasOwn(HELP_TOPICS, word)
}

/** Two aligned columns, indented like oclif's help. */
function columns(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([left]) => left.length))
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd()).join('\n')
}

function exitCodes(): string {
  return `EXIT CODES (stable; scripts rely on them)
${columns([
  ['0', 'done; for purchase create and refund create: approved'],
  ['1', 'unexpected failure: network, gateway 5xx, a response gw cannot read, a file or stdout gw cannot write'],
  ['2', 'usage: bad or missing flags, an unknown command, input that fails local validation'],
  ['3', 'declined by the card issuer (the request itself was processed)'],
  ['4', 'authentication: no credentials, or the gateway answered 401'],
  ['5', 'not found (404)'],
  ['6', 'permission denied (403), or the profile is read-only'],
  ['7', 'rejected by the gateway: 400, 422, 501, or successful: false with any status'],
  ['8', 'outcome unknown: a purchase or refund was sent and no answer came back; check before resending'],
  ['9', 'rate limited: the gateway kept answering 429 (or 503 with Retry-After) past the minute gw waits; nothing was made; run it again later'],
  ['130', 'interrupted (Ctrl-C; 143 SIGTERM, 129 SIGHUP)'],
  ['141', "stdout's reader went away before all was printed (| head); a batch started no more rows"],
])}

Several ids, or a batch (--input), exit with the highest code any of them had, and 0 only when
every one succeeded or was skipped.
`
}

function environment(): string {
  return `ENVIRONMENT VARIABLES
Order of precedence: --profile, then GW_PROFILE, then GW_USERNAME/GW_TOKEN, then the active profile.
${columns([
  ['GW_PROFILE', 'profile to use when --profile is not given'],
  ['GW_USERNAME, GW_TOKEN', 'credentials with no profile at all (CI); both or neither'],
  ['GW_BASE_URL', 'their gateway; default http://127.0.0.1:8787, the local gateway'],
  ['GW_ENVIRONMENT', 'sandbox or live, for GW_USERNAME/GW_TOKEN; unset, they count as live unless GW_BASE_URL is on this machine'],
  ['GW_CONNECT_TIMEOUT_MS', 'milliseconds to wait for a connection to the gateway'],
  ['GW_RESPONSE_TIMEOUT_MS', "milliseconds to wait for the gateway's answer"],
  ['HTTPS_PROXY, HTTP_PROXY', 'proxy for https:// and http:// gateways (either case)'],
  ['NO_PROXY', 'hosts reached directly, comma-separated (either case)'],
  ['NODE_EXTRA_CA_CERTS', 'PEM file of extra certificate authorities to trust'],
  ['NO_COLOR', 'set and not empty: no colour, even on a terminal'],
  ['GW_FORCE_TTY', 'set and not empty: print for a terminal (tables, colour) even in a pipe; a width of 20 or more (120) or a percentage (50%) sets the width'],
  ['GW_PAGER, PAGER', 'the pager a table longer than the terminal goes through, GW_PAGER first; default less -FRX (LESS=FRX when LESS is unset); cat or empty: none. Never in a pipe'],
  ['CI', 'set: no progress or success notes on stderr, no prompts, and no update notice'],
  ['GW_NO_UPDATE_NOTIFIER', 'set and not empty: never say that a newer gw is out, nor ask npm once a day (only ever asked at a terminal)'],
  ['npm_config_registry', 'the npm registry the daily check of a newer gw asks; default https://registry.npmjs.org/'],
  ['GW_CONFIG_DIR, GW_DATA_DIR', "gw's config and data folders themselves, in place of those below"],
  ['GW_CACHE_DIR', "gw's cache folder itself"],
  ['XDG_CONFIG_HOME, XDG_DATA_HOME', 'where gw/ of config and of data go, on every system'],
  ['XDG_CACHE_HOME', 'where gw/ of cache goes, but on macOS'],
  ['LOCALAPPDATA', 'Windows: where gw\\ holds all three, when no XDG_ variable says otherwise'],
])}

${folders()}`
}

/**
 * gw's folders on each system, as oclif's Config finds them (lib/platform.ts gwFolders keeps the
 * same rule, and test/unit/lib/platform.test.ts checks it against oclif on each system).
 */
function folders(): string {
  const rows = [
    ['', 'Linux', 'macOS', 'Windows'],
    ['config', '$XDG_CONFIG_HOME/gw (~/.config/gw)', '$XDG_CONFIG_HOME/gw (~/.config/gw)', '%LOCALAPPDATA%\\gw'],
    ['data', '$XDG_DATA_HOME/gw (~/.local/share/gw)', '$XDG_DATA_HOME/gw (~/.local/share/gw)', '%LOCALAPPDATA%\\gw'],
    ['cache', '$XDG_CACHE_HOME/gw (~/.cache/gw)', '~/Library/Caches/gw', '%LOCALAPPDATA%\\gw'],
  ]
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  const table = rows.map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd()).join('\n')
  return `FOLDERS (as oclif finds them; the variables above first)
${table}
  config: profiles (config.json), the token file of gw login --insecure-storage, gw listen's signing secret.
  data: each local gateway's runtime file (its control token: 0600, in a 0700 folder), log and request log;
        batch journals (journals/); the record of refunds gw made; the update check (update-check.json).
  cache: V8's code cache of gw under another Node, the saved help.
`
}

function formatting(): string {
  return `FORMATTING: what gw prints, and where (docs/output.md has the whole of it)
Results go to stdout, and nothing else; prompts, progress, notes and errors go to stderr.

AT A TERMINAL
  One record prints as a field/value list, several as one table with a row each, fitted to the
  terminal's width (COLUMNS); money as 10.00 AUD, outcomes in colour (not with NO_COLOR). A
  table longer than the screen goes through the pager (GW_PAGER, PAGER, less -FRX).

IN A PIPE (or a file)
  Every record prints as one compact JSON line (NDJSON), one record or many, lists too, with or
  without --json: gw purchase get ID | jq .message just works. jq -s makes an array.

FIELDS
  The JSON is the gateway's record, every field it sent in its order, with a card number masked
  and a CVV left out. A table shows the fields a person reads; gw help COMMAND names them.
${columns([
  ['--json', 'the JSON stream at a terminal too, each record pretty-printed'],
  ['--fields id,amount', 'only these fields of each record, in this order: tables and JSON alike'],
  ['--jq EXPR', "each record through a jq expression (as gh's --jq), strings printed raw; implies --json"],
  ['GW_FORCE_TTY=1', 'print for a terminal (tables, colour) even in a pipe'],
])}

  gw purchase list -L 3 --fields reference,amount,message
  gw purchase list --jq 'select(.successful) | .reference'
  gw purchase get order-1001 --json | jq -r .message
`
}

function testCards(): string {
  const rows: [string, string][] = []
  for (let code = 0; code < 100; code++) {
    const outcome = outcomeForCode(String(code).padStart(2, '0'))
    if (!outcome.approved && outcome.message === 'Declined') continue
    rows.push([`${String(code).padStart(2, '0')}  e.g. --amount ${10000 + code}`, outcome.approved ? 'Approved (exit 0)' : `${outcome.message} (declined, exit 3)`])
  }
  rows.push(['any other code', 'Declined (exit 3)'])
  return `TEST CARDS (the local gateway, gw sandbox start, as the gateway's own sandbox; both dialects)
${columns(TEST_CARDS.map(({number, scheme, outcome}): [string, string] => [number, `${scheme}, ${outcome ? setAnswer(outcome) : 'by the amount rule below'}`]))}
  Any other number that passes the Luhn check follows the amount rule; gw refuses one that
  fails it, or an expiry in the past, before sending (exit 2). Any 3 or 4 digit CVV is taken.

AMOUNTS (every card but those always approved or declined): the cents are the bank's response code
${columns(rows)}

  gw purchase create --amount 10051 --card-number 4242424242424242 ... declines with
  Insufficient Funds; --amount 1000 approves.
`
}

/** A test card's answer whatever the amount, as recorded (test-outcomes.ts). */
function setAnswer({approved, responseCode, message}: Outcome): string {
  return approved ? `always approved: ${responseCode} ${message}, whatever the amount` : `always declined: ${responseCode} ${message} (exit 3)`
}
