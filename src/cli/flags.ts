import {Args, Flags} from '@oclif/core'
import {FREQUENCIES, type Frequency} from '../api/schemas/recurring-rules.js'
import type {BatchFlags} from '../batch/batch-deps.js'
import {UsageError} from '../errors.js'
import {DEFAULT_CONCURRENCY} from '../operations/deps.js'
import {SANDBOX_NAME} from '../sandbox/server/names.js'
import * as validate from './validate.js'

export {DEFAULT_CONCURRENCY} from '../operations/deps.js'
export type {BatchFlags} from '../batch/batch-deps.js'

/**
 * Flags shared by commands, named after the API fields in kebab case (design.md §2). Validation
 * lives in each flag's parse, so every command that takes --amount checks it the same way.
 */
export const amount = Flags.custom<number>({
  description: 'amount in the minor currency unit (1000 is 10.00 AUD)',
  parse: async (input) => validate.amount('amount', input),
})

export const reference = Flags.custom<string>({
  description: 'your reference, unique per transaction; used to look it up',
  parse: async (input) => validate.notBlank('reference', input),
})

export const cardHolder = Flags.custom<string>({
  description: 'name on the card',
  parse: async (input) => validate.notBlank('card-holder', input),
})

export const cardNumber = Flags.custom<string>({
  description: 'card number (only ever shown masked)',
  parse: async (input) => validate.cardNumber('card-number', input),
})

export const cardToken = Flags.custom<string>({
  description: 'token or alias of a stored card, instead of card details',
  parse: async (input) => validate.cardToken('card-token', input),
})

export const cardExpiry = Flags.custom<string>({
  description: 'card expiry as MM/YY or MM/YYYY (sent as MM/YYYY)',
  parse: async (input) => validate.cardExpiry('card-expiry', input),
})

export const cvv = Flags.custom<string>({
  description: 'card verification value (sent once, never stored or shown)',
  parse: async (input) => validate.cvv('cvv', input),
})

export const currency = Flags.custom<string>({
  description: 'ISO 4217 currency code',
  parse: async (input) => validate.currency('currency', input),
})

export const card = Flags.custom<string>({
  description: 'read the card as JSON from stdin (-): {"card_holder","card_number","card_expiry","cvv"}; keeps the number and CVV out of argv',
  options: ['-'],
  exclusive: ['card-number', 'card-holder', 'card-expiry', 'cvv'],
})

export const frequency = Flags.custom<Frequency>({
  description: `how often to bill: ${FREQUENCIES.join(', ')} (any case)`,
  parse: async (input) => validate.frequency('frequency', input),
})

/** Fixed values of flags that take any case: offered as a list when the flag is asked for on a terminal, and by shell completion. */
export const choices: Record<string, readonly string[]> = {frequency: FREQUENCIES}

export const date = Flags.custom<string>({
  description: 'date as YYYY-MM-DD',
  parse: async (input, _context, options) => validate.date(options.name ?? 'date', input),
})

export const email = Flags.custom<string>({
  description: 'email address',
  parse: async (input) => validate.email('email', input),
})

/** An optional text field (an address line, an IP address), trimmed. */
export const text = Flags.custom<string>({
  parse: async (input) => input.trim(),
})

/**
 * A text field the gateway refuses blank (names, references, descriptions: design.md §2's one
 * rule): trimmed, and a blank one refused here with exit 2 rather than sent to be refused.
 */
export const requiredText = Flags.custom<string>({
  parse: async (input, _context, options) => validate.notBlank(options.name ?? 'value', input),
})

/** A card given in full, as flags or as JSON on stdin (--card -); GwCommand.card reads them. */
export const cardDetails = {
  'card-holder': cardHolder(),
  'card-number': cardNumber(),
  'card-expiry': cardExpiry(),
  cvv: cvv(),
  card: card(),
}

/** The one id a command acts on (update, delete): required, trimmed, never blank. */
export function id(description: string) {
  return Args.string({description, required: true, parse: async (input) => validate.notBlankArg('ID', input)})
}

/** An id a command acts on unless --input gives its rows instead: trimmed, never blank. */
export function idOptional(description: string) {
  return Args.string({description, parse: async (input) => validate.notBlankArg('ID', input)})
}

/**
 * The ids a `get` command looks up: one or more as arguments, or `-` to read them from stdin, one
 * a line (or none, with --input FILE). The command sets `strict = false` so that every argument
 * after the first is taken too.
 */
export function ids(name: string, what: string) {
  // ignoreStdin: oclif would otherwise take a missing argument from piped stdin, which --input - reads.
  return {[name]: Args.string({description: `${what}; - reads them from stdin`, ignoreStdin: true})}
}

/** --concurrency: how many requests a batch or a list of look-ups keeps in flight, over one keep-alive pool. */
export const concurrency = (options: {dependsOn?: string[]; helpGroup?: string} = {}) =>
  Flags.integer({description: `requests in flight at once, 1 to 32; default ${DEFAULT_CONCURRENCY}`, min: 1, max: 32, ...options})

/** --max-pages: a list, a report or gw api --paginate reads no more pages than this before it gives the list up as one that does not end. */
export const maxPages = (options: {dependsOn?: string[]} = {}) =>
  Flags.integer({description: 'pages to read at most before giving up on a list that does not end; default enough for 1,000,000 records', min: 1, helpGroup: 'PAGES', ...options})

/**
 * A batch of rows from a file instead of one from flags (design.md §3 and §5: a line per row, a
 * journal): `rows` names the columns. The one-row flags are then refused (refuseRowFlagsInBatch).
 */
export function batch(rows: string) {
  return {
    input: Flags.string({description: `a batch from a CSV file with a header (${rows}) or NDJSON; - reads stdin`, helpGroup: 'BATCH'}),
    concurrency: concurrency({dependsOn: ['input'], helpGroup: 'BATCH'}),
    'skip-invalid': Flags.boolean({description: 'send the valid rows and report the invalid ones, instead of sending nothing', dependsOn: ['input'], helpGroup: 'BATCH'}),
    'dry-run': Flags.boolean({description: 'check every row and show what would be sent; send nothing', dependsOn: ['input'], helpGroup: 'BATCH'}),
    journal: Flags.string({description: "the batch's journal file (default: one in gw's data directory, $XDG_DATA_HOME/gw/journals, named from the input file and the gateway)", dependsOn: ['input'], helpGroup: 'BATCH'}),
    verify: Flags.boolean({description: "on a rerun, look up each row the journal has done and report any the gateway lacks (for a gateway that names no run of its data, as the live one)", dependsOn: ['input'], helpGroup: 'BATCH'}),
  }
}

/**
 * --new-batch, for a batch whose rows may give no reference (refunds: gw derives one): whether the
 * rows were made is the gateway's to say (design.md §5), so rows an earlier batch had are made again
 * only when the user says they are a new batch, begun in a journal of its own.
 */
export const newBatch = () => ({
  'new-batch': Flags.boolean({
    description: "these rows are a new batch, though an earlier one had the same: refund them again, under references of their own (begun in the --journal given; run the same command again to finish it)",
    dependsOn: ['journal'],
    helpGroup: 'BATCH',
  }),
})

/** The batch's flags of those parsed, the one-row flags left out. */
export function batchFlags(flags: BatchFlags): BatchFlags {
  return {input: flags.input, concurrency: flags.concurrency, 'skip-invalid': flags['skip-invalid'], 'dry-run': flags['dry-run'], journal: flags.journal, verify: flags.verify, 'new-batch': flags['new-batch']}
}

/**
 * With --input the rows come from the file: any of the command's one-row flags (every flag it
 * defines but the batch's) beside it is a mistake. Without --input, oclif has already required
 * what one row needs: GwCommand.parse relaxes `required` only when --input is given.
 */
export function refuseRowFlagsInBatch(flags: Record<string, unknown>, definitions: Record<string, unknown>): void {
  if (flags.input === undefined) return
  const batchFlags = {...batch(''), ...newBatch()}
  const given = Object.keys(definitions).filter((name) => !(name in batchFlags) && flags[name] !== undefined)
  if (given.length > 0) throw new UsageError(`--input takes each row's fields from the file: leave out ${given.map((name) => `--${name}`).join(', ')}`)
}

/** --input and --concurrency of the get commands: many ids from a file, looked up several at a time; `what` in the plural (card tokens or aliases). */
export function lookUps(what: string) {
  return {
    input: Flags.string({description: `a file of ${what}: one a line, a CSV with an id or reference column, or NDJSON; - reads stdin`}),
    concurrency: concurrency(),
  }
}

/** --from or --to: one end of a window of time, as lists/window.ts reads it. */
export function windowEdge(edge: 'from' | 'to', what: string) {
  return Flags.string({
    description: `${what} ${edge === 'from' ? 'from' : 'up to'} then: a date (2026-11-17), a date-time (2026-11-17T09:30, +11:00 or Z for another zone), today, yesterday, a weekday (monday), this-week, last-week, this-month, last-month, or an age (7d, 24h, 2w). A date is a whole day in this machine's time zone; a weekday the latest, today if it is one; a week Monday to Sunday`,
    helpGroup: 'WHEN',
  })
}

/** One day (or one named span) alone, as `--from DAY --to DAY` gives it: a window's ends in one word. */
export function windowOn(what: string) {
  return Flags.string({
    description: `${what} on that day alone: a date (2026-11-17), today, yesterday, a weekday (tuesday: the latest, today if it is one); or this-week, last-week, this-month, last-month`,
    helpGroup: 'WHEN',
  })
}

/** The records a list shows by default, as gh does: --limit for another number, --all for every one. */
export const DEFAULT_LIST_LIMIT = 30

/**
 * The flags every list command takes (design.md §3: newest first, --limit N or --all): the window,
 * how many and in which order, and how many pages to fetch ahead. `withTime` is false for records without a time (cards);
 * `timed` says which time the window holds them to, when it is not when they were made (a debit's day at the bank).
 */
export function listing(noun: string, {withTime = true, timed = `${noun}s made`} = {}) {
  return {
    ...(withTime ? {from: windowEdge('from', timed), to: windowEdge('to', timed), on: windowOn(timed)} : {}),
    limit: Flags.integer({char: 'L', description: `${noun}s to show at most; default ${DEFAULT_LIST_LIMIT}`, min: 1, exclusive: ['all']}),
    all: Flags.boolean({description: `every ${noun}, page after page, printed as they come`}),
    'oldest-first': Flags.boolean({description: 'oldest first (newest first without it, as the gateway pages them)'}),
    concurrency: concurrency({helpGroup: 'PAGES'}),
    'max-pages': maxPages(),
  }
}

/** --reference of a list: the one record with this reference. */
export const referenceFilter = (noun: string) => Flags.string({description: `only the ${noun} with this reference, exactly`, helpGroup: 'FILTERS'})

/** What support staff know of a purchase or refund, each applied to the records as they come. */
export const moneyFilters = {
  reference: referenceFilter('one'),
  status: Flags.string({description: 'only approved, only declined or only voided ones (a voided one is neither approved nor declined)', options: ['approved', 'declined', 'voided'], helpGroup: 'FILTERS'}),
  card: Flags.string({description: "only on this card: its last four digits (4242), its masked number, or a stored card's token or alias", helpGroup: 'FILTERS'}),
  amount: amount({description: 'only of this amount, in the minor unit (1051 is 10.51)', helpGroup: 'FILTERS'}),
  currency: currency({description: 'only in this currency', helpGroup: 'FILTERS'}),
  holder: Flags.string({description: "only where the card holder's name has this in it, in any case", helpGroup: 'FILTERS'}),
}

/** --name of every gw sandbox command: which local gateway, each with its own port, files and profile. */
export function sandboxName(description: string, options: {exclusive?: string[]} = {}) {
  return Flags.string({
    description,
    ...options,
    parse: async (input) => {
      if (SANDBOX_NAME.test(input)) return input
      throw new UsageError(`--name must be a letter or digit, then letters, digits, _ or - (40 at most), got "${input}"`, 'For example --name rehearsal.')
    },
  })
}

/**
 * --name of the gw sandbox commands that talk to a local gateway (logs, seed, trigger, ...): the one
 * gw sandbox start --name started, through the profile it made; the profile in force without it.
 */
export const localGatewayName = () =>
  sandboxName('the local gateway started with this --name (local for the one started without); the profile in force when not given', {exclusive: ['profile']})

/** --allow-host of gw sandbox start and gw listen: a name besides loopback's that browser-guard.ts lets requests use. */
export const allowHost = Flags.custom<string>({
  description: 'another name clients reach it by, as their Host header says it (a Docker service); .example.com takes every name under it (repeatable)',
  multiple: true,
  parse: async (input) => {
    const {hostName} = await import('../lib/browser-guard.js')
    const subdomains = input.startsWith('.')
    const name = hostName(subdomains ? input.slice(1) : input)
    if (name === undefined || name === '') throw new UsageError(`--allow-host must be a host name, got "${input}"`, 'For example --allow-host sandbox, or --allow-host .internal.example for every name under it.')
    return subdomains ? `.${name}` : name
  },
})

/** --allow-origin of gw sandbox start and gw listen: a web page that browser-guard.ts lets in, by its origin. */
export const allowOrigin = Flags.custom<string>({
  description: 'a web page let in, by its origin (http://localhost:3000); any other request with an Origin header is refused (repeatable)',
  multiple: true,
  parse: async (input) => {
    const {originOf} = await import('../lib/browser-guard.js')
    const origin = originOf(input.trim())
    if (origin === undefined) throw new UsageError(`--allow-origin must be an http:// or https:// origin, got "${input}"`, 'For example --allow-origin http://localhost:3000.')
    return origin
  },
})

/** --metadata KEY=VALUE, repeatable: the merchant's own keys, echoed in the record (gateway-beyond.md §14.8). */
export const metadata = () => Flags.string({description: 'KEY=VALUE of your own, kept with the record; repeat for more', multiple: true})

/** The --metadata pairs as the request's `metadata`; a pair without `=` or a blank key is refused (exit 2). */
export function metadataOf(pairs: string[] | undefined): Record<string, string> | undefined {
  if (pairs === undefined || pairs.length === 0) return undefined
  const metadata: Record<string, string> = {}
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    const key = at < 0 ? '' : pair.slice(0, at).trim()
    if (key === '') throw new UsageError(`--metadata ${JSON.stringify(pair)} is not KEY=VALUE`, 'Give each as --metadata KEY=VALUE, e.g. --metadata order=1001.')
    metadata[key] = pair.slice(at + 1)
  }
  return metadata
}
