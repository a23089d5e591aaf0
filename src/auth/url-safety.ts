import {UsageError} from '../errors.js'
import {isLoopbackHost} from '../lib/loopback.js'

// Where a token may go, and where it may not sit (design.md §6: never in the config file, never in
// argv): not in a base URL, which config.json keeps and gw status, --verbose and errors print; and
// over plain http:// only to this machine, where no one on the way can read it.

/**
 * A base URL as it may be shown: credentials in it (`user:token@`) replaced by `***@`, with a scheme
 * or without one (`u:sekrit@host`, which a URL parser takes for the scheme `u:` and a path).
 */
export function shownUrl(url: string): string {
  const text = url.trim()
  const masked = text.replace(/^([a-z][a-z\d+.-]*:\/\/)?[^@/?#]*@/i, (_, scheme: string | undefined) => `${scheme ?? ''}***@`)
  return masked === text ? url : masked
}

/**
 * Why a base URL cannot be used, its value masked (shownUrl), or undefined: it must be an http://
 * or https:// address of a host, with no credentials in it.
 */
export function baseUrlProblem(url: string): string | undefined {
  const shown = shownUrl(url)
  if (holdsCredentials(url) || shown !== url) return 'must not hold credentials (user:token@): gw keeps the token in the token store'
  if (!URL.canParse(url.trim())) return `must be a URL such as https://gateway.example.com, got "${shown}"`
  const {protocol, hostname} = new URL(url.trim())
  if (protocol !== 'http:' && protocol !== 'https:') return `must be an http:// or https:// URL such as https://gateway.example.com, got "${shown}"`
  if (hostname === '') return `must name a host, as https://gateway.example.com does, got "${shown}"`
  return undefined
}

/** Refuses a base URL baseUrlProblem finds wrong, naming where it was given (`GW_BASE_URL`, `--base-url`) and `fix` for credentials in it. */
export function checkBaseUrl(url: string, where: string, fix: string): void {
  refuseCredentialsInUrl(url, where, fix)
  const problem = baseUrlProblem(url)
  if (problem) throw new UsageError(`${where} ${problem}`, `For example ${where === '--base-url' ? '--base-url' : `${where}=`}https://gateway.example.com (http:// only for a gateway on this machine).`)
}

/** Whether a base URL carries credentials (`https://user:token@host`). */
export function holdsCredentials(url: string): boolean {
  if (!URL.canParse(url.trim())) return false
  const parsed = new URL(url.trim())
  return parsed.username !== '' || parsed.password !== ''
}

/**
 * Refuses a base URL that carries credentials, naming where it was given (`--base-url`,
 * `GW_BASE_URL`, a profile) without them, and `fix`: the token goes in the token store.
 */
export function refuseCredentialsInUrl(url: string, where: string, fix: string): void {
  if (!holdsCredentials(url) && shownUrl(url) === url) return
  throw new UsageError(`${where} ${shownUrl(url)} holds credentials (user:token@): gw would keep them in plain text and print them (gw status, --verbose, errors)`, fix)
}

/**
 * Refuses to send a live token over plain http:// to another machine: anyone on the way could read
 * it, and use it on real money. https://, or http:// to this machine (a local gateway), is fine.
 */
export function refusePlainHttpToken(target: {baseUrl: string; environment: string; profileName?: string}): void {
  if (target.environment !== 'live' || !URL.canParse(target.baseUrl)) return
  const url = new URL(target.baseUrl)
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return
  const whose = target.profileName ? `profile ${target.profileName}` : 'the credentials in GW_USERNAME and GW_TOKEN'
  const fix = target.profileName
    ? `Give the gateway's https:// address: gw login --profile ${target.profileName} --base-url https://${url.host}`
    : `Give GW_BASE_URL the gateway's https:// address (https://${url.host}); GW_ENVIRONMENT=sandbox only for a test gateway.`
  throw new UsageError(`${target.baseUrl} is plain http: the live token of ${whose} would cross the network readable by anyone on the way, so gw does not send it`, fix)
}
