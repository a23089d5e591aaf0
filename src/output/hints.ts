import {type GwError, InterruptedError, ModeMismatchError, type MoneyInFlight, NoAnswerError, OutcomeUnknownError, PagingError, RateLimitedError, ReferenceTakenError, type StopSignal, type Unreached, UnreachableError} from '../errors.js'
import {spanOf} from '../api/retry.js'
import type {RecoveryEvent} from '../api/client.js'
import {sanitizeLine} from '../safety/sanitize.js'
import {decidingRule} from '../api/schemas/test-outcomes.js'

/**
 * What to tell a person about an error, in gw's own terms: the command that checks a purchase in
 * doubt, the profile to fix. The client and the operations throw typed errors; this words them.
 */
export function hintFor(error: GwError): string | undefined {
  if (error.hint) return error.hint
  if (error instanceof OutcomeUnknownError) return `Do not resend it until you have checked what the gateway has: ${checkCommand(error)}`
  if (error instanceof InterruptedError && error.inFlight) {
    return `The ${inFlightName(error.inFlight)} may have reached the gateway. Do not resend it until you have checked: ${checkCommand(error.inFlight)}`
  }
  if (error instanceof ModeMismatchError) return modeMismatchHint(error)
  if (error instanceof ReferenceTakenError) return `Give this ${error.noun} a reference of its own, or check the earlier one: ${checkCommand(error)}`
  if (error instanceof UnreachableError) return `Nothing was sent. ${unreachedAdvice(error.unreached)}`
  if (error instanceof NoAnswerError) return 'The request may have reached the gateway; check before repeating it.'
  if (error instanceof RateLimitedError) return rateLimitedHint(error)
  if (error instanceof PagingError) {
    return error.reason === 'endless' ? 'If the list is really that long, raise --max-pages, or ask for fewer days of it.' : 'Read its pages one at a time with gw api PATH --query offset=N --query limit=50.'
  }
  if (error.kind === 'auth' && error.status === 401) {
    return 'Check the username and token of the profile in force (gw sandbox start sets up TEST/TEST for the local gateway).'
  }
  return undefined
}

/** Past gw's wait for a rate limit: nothing was made, so the same command is run again, after the wait the gateway asked when it said one. */
function rateLimitedHint({retryAfterMs, notMade}: RateLimitedError): string {
  const later = retryAfterMs === undefined ? 'later' : `later (the gateway asked for ${spanOf(retryAfterMs)})`
  return notMade ? `Nothing was made: run the same command again ${later}; it sends the ${notMade.action ?? notMade.noun} once.` : `Run the same command again ${later}.`
}

function modeMismatchHint(error: ModeMismatchError): string {
  const fix =
    error.reported === 'live'
      ? 'If it is meant to be the live gateway, log in again with gw login --environment live (or set GW_ENVIRONMENT=live for credentials from the environment), and live protections apply.'
      : 'If it is meant to be a sandbox, log in again with gw login --environment sandbox (or set GW_ENVIRONMENT=sandbox).'
  // A purchase answered from the other gateway happened there; if its record could not be shown, it must be checked.
  const sent = error.inFlight && !error.record ? `The ${inFlightName(error.inFlight)} was sent: do not resend it until you have checked it with the right profile: ${checkCommand(error.inFlight)}. ` : ''
  return `${sent}Check the base URL of the profile in force (gw status). ${fix}`
}

/** What to check when a request never reached the gateway: the proxy's refusal, TLS trust, or the address. */
function unreachedAdvice({baseUrl, proxy, refusedWith, certificate}: Unreached): string {
  if (proxy && refusedWith !== undefined) {
    if (refusedWith === 407) return `It wants credentials: give them in the proxy's URL, ${proxy.variable}=http://USER:PASSWORD@HOST:PORT.`
    if (refusedWith === 403) return `It does not allow ${new URL(baseUrl).host}; ask whoever runs it, or name the host in NO_PROXY if it can be reached directly.`
    return 'Check that the proxy can reach the gateway.'
  }
  if (certificate) {
    return `${proxy ? "The gateway's or the proxy's" : "The gateway's"} certificate is not trusted here. If your network inspects TLS with a certificate authority of its own, add that CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.`
  }
  if (proxy) return `Check that the proxy in ${proxy.variable} is right and up, or name the gateway's host in NO_PROXY to go direct.`
  return 'Check the base URL of the profile in force and that the gateway is up (gw sandbox status for the local one).'
}

/**
 * Why the local gateway declined a purchase, by the rule it decides with (test-outcomes.ts, which
 * gw help test-cards prints): said only when the rule gives the record's own answer, so a decline
 * it was made to give (a trigger's sample, a subscription's expired card) is not explained wrongly.
 */
export function localDeclineHint(record: Record<string, unknown>): string | undefined {
  const {amount, card_number: card, response_code: code, message} = record
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0 || typeof card !== 'string') return undefined
  const rule = decidingRule(card, amount)
  const {outcome} = rule
  if (outcome.approved || (code !== undefined && code !== outcome.responseCode) || (message !== undefined && message !== outcome.message)) return undefined
  const decided = rule.by === 'cents' ? `cents ${rule.cents} → ${outcome.message} (cents 00 approve)` : `card ${rule.card} → ${outcome.message}, whatever the amount`
  return `The local gateway's rule: ${decided}; gw help test-cards`
}

/**
 * What a message calls money in flight: `purchase with reference order-1001`; a follow-up, which
 * names its record by id, `capture of purchase 071-P-...`.
 */
export function inFlightName(inFlight: MoneyInFlight): string {
  const name = sanitizeLine(inFlight.reference)
  return inFlight.action ? `${inFlight.action} of ${inFlight.noun} ${name}` : `${inFlight.noun} with reference ${name}`
}

/**
 * The command that shows what the gateway has under a reference (or, for a follow-up, its id). A
 * direct debit is found in the list: the gateway's look-up of a debit is recorded by its id only
 * (gateway-beyond.md §10).
 */
export function checkCommand(inFlight: MoneyInFlight): string {
  if (inFlight.noun === 'direct debit') return `gw direct-debit list --reference ${shellQuote(inFlight.reference)} --all`
  return `gw ${inFlight.noun.replace(' ', '-')} get ${shellQuote(inFlight.reference)}`
}

/** A first Ctrl-C (SIGTERM, SIGHUP) with money in flight: nothing that left is stopped, its answer is waited for. */
export function waitingNotice(signal: StopSignal, inFlight: MoneyInFlight): string {
  const name = signal === 'SIGINT' ? 'Ctrl-C' : signal
  return `\n${name}: the ${inFlightName(inFlight)} has been sent; waiting for its answer to show what became of it (${name} again to stop at once, leaving it unknown).\n`
}

/** A step of a recovery, as a notice on stderr. */
export function recoveryNotice(event: RecoveryEvent): string | undefined {
  switch (event.step) {
    case 'looking_up':
      return `No answer to the ${event.noun} that could be read (${sanitizeLine(event.why)}); looking reference ${sanitizeLine(event.reference)} up at the gateway.`
    case 'waiting':
      return notYetNotice(event.noun, event.reference, event.endsAt - event.since)
    case 'waited':
      return undefined
    case 'found':
      return `Found the ${event.noun} by its reference: the gateway processed it once.`
  }
}

/**
 * A 404 inside the processing window (design.md §5), said once when the wait begins: where stderr
 * is no terminal this line is all there is, so it says how long the wait may last.
 */
export function notYetNotice(noun: MoneyInFlight['noun'], reference: string, leftMs: number, action?: MoneyInFlight['action']): string {
  const looking = `looking again for up to ${Math.max(0, Math.ceil(leftMs / 1000))} s.`
  // A follow-up's record is there all along (named by its id): what is not there yet is the change.
  if (action) return `${noun === 'refund' ? 'Refund' : 'Purchase'} ${sanitizeLine(reference)} shows no ${action} yet, and the gateway may still be processing it: ${looking}`
  return `The gateway has no ${noun} with reference ${sanitizeLine(reference)} yet, and may still be processing it: ${looking}`
}

/** The foot line of a terminal while the gateway's rate limit is waited out; `within` a progress line, without its capital. */
export function rateLimitStatus(seconds: number, {within = false}: {within?: boolean} = {}): string {
  return `${within ? 'r' : 'R'}ate limited by the gateway: trying again in ${seconds} s`
}

/** The foot line of a terminal while the gateway is waited for. */
export function waitingStatus(noun: string, count: number, seconds: number): string {
  return `Waiting for the gateway to process ${count === 1 ? `the ${noun}` : `${count} ${noun}s`} in doubt: ${seconds} s left`
}

/**
 * Quoted for a POSIX shell only when it has to be, so the usual reference reads as typed. A value
 * holding control characters is written as bash/zsh `$'...'` with `\xHH` (`\uHHHH`) escapes: it survives
 * sanitize unchanged and still names the same reference when pasted.
 */
export function shellQuote(value: string): string {
  if (/^[\w.:@/-]+$/.test(value)) return value
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u001F\u007F-\u009F]/.test(value)) return `'${value.replace(/'/g, `'\\''`)}'`
  const escaped = value
    .replace(/[\\']/g, (char) => `\\${char}`)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001F\u007F-\u009F]/g, (char) =>
      // Each byte of its UTF-8 as \xHH: a C1 character is two. bash's \uHHHH would be left as it is where the locale is not UTF-8 (LANG=C).
      [...Buffer.from(char, 'utf8')].map((byte) => `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    )
  return `$'${escaped}'`
}
