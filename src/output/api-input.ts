/**
 * `gw api METHOD PATH --query K=V --data JSON`: its arguments and flags read as a request, each
 * refusal worded for the command line (the operation, operations/api.ts, sends what these read).
 */
import type {HttpMethod} from '../api/endpoints.js'
import {UsageError} from '../errors.js'
import type {Io} from './io.js'

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE']

/** A METHOD argument in any case, as one the gateway's interface uses. */
export function readMethod(input: string): HttpMethod {
  const method = input.trim().toUpperCase() as HttpMethod
  if (!METHODS.includes(method)) throw new UsageError(`METHOD must be one of ${METHODS.join(', ')}, got "${input}"`, 'For example gw api GET /v1.0/plans.json.')
  return method
}

/** A path from the base URL on; the base URL is the profile's, so a full URL is refused rather than sent elsewhere. */
export function readPath(input: string): string {
  const path = input.trim()
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(path)) {
    throw new UsageError(`PATH must be a path such as /v1.0/plans.json, not a URL: the gateway is the profile's (${path})`, 'Use --profile NAME to send it to another gateway.')
  }
  if (path === '' || /\s/.test(path)) throw new UsageError(`PATH must be a path such as /v1.0/plans.json, got "${input}"`)
  return path.startsWith('/') ? path : '/' + path
}

/** `--query k=v`: the key is everything before the first `=`. */
export function readQueryPair(input: string): [string, string] {
  const separator = input.indexOf('=')
  if (separator < 1) throw new UsageError(`--query must be KEY=VALUE, got "${input}"`, 'For example --query limit=5.')
  return [input.slice(0, separator), input.slice(separator + 1)]
}

/** `--data`: JSON given inline, `@file` read from a file, `-` read from stdin; checked as JSON before anything is sent. */
export async function readData(data: string, method: HttpMethod, io: Io): Promise<unknown> {
  if (method === 'GET') throw new UsageError('--data is a request body, and a GET has none', 'Give the values with --query KEY=VALUE, or use POST or PUT.')
  let text = data
  let source = '--data'
  if (data === '-') {
    if (io.isStdinTTY) throw new UsageError('--data - reads the JSON body from stdin, but stdin is a terminal', "Pipe it in, e.g. echo '{\"name\":\"x\"}' | gw api POST /v1.0/plans --data -")
    text = await io.readStdin()
    source = '--data - (stdin)'
  } else if (data.startsWith('@')) {
    const file = data.slice(1)
    const {readFile} = await import('node:fs/promises')
    try {
      text = await readFile(file, 'utf8')
    } catch (err) {
      throw new UsageError(`--data ${data}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)
    }
    source = `--data ${data}`
  }
  try {
    return JSON.parse(text)
  } catch {
    // JSON.parse's message quotes the text, which may hold a card number: it is not repeated.
    throw new UsageError(`${source} is not JSON`, `For example --data '{"name":"Gold","amount":2500,"reference":"gold","description":"Gold tier"}'.`)
  }
}

/** The body -f and -F make, and what of it came from the command line itself (a live profile refuses a card there). */
export interface Fields {
  body: Record<string, unknown>
  inline: Record<string, unknown>
}

/**
 * gh api's fields: `-f key=value` a string as typed; `-F key=value` typed, as gh reads it (true,
 * false, null, a whole number; `@FILE` the file's text, `@-` stdin's), anything else a string.
 */
export async function readFields(raw: readonly string[], typed: readonly string[], io: Io): Promise<Fields> {
  const fields: Fields = {body: {}, inline: {}}
  for (const pair of raw) {
    const [key, value] = fieldPair('-f', pair)
    fields.body[key] = value
    fields.inline[key] = value
  }
  for (const pair of typed) {
    const [key, text] = fieldPair('-F', pair)
    if (text.startsWith('@')) {
      fields.body[key] = await fieldFile(key, text.slice(1), io)
      continue
    }
    const value = text === 'true' ? true : text === 'false' ? false : text === 'null' ? null : /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text
    fields.body[key] = value
    fields.inline[key] = value
  }
  return fields
}

function fieldPair(flag: string, input: string): [string, string] {
  const separator = input.indexOf('=')
  if (separator < 1) throw new UsageError(`${flag} must be KEY=VALUE, got "${input.includes('=') ? input : input.slice(0, 40)}"`, `For example ${flag} name=Gold${flag === '-F' ? ' or -F amount=2500' : ''}.`)
  return [input.slice(0, separator), input.slice(separator + 1)]
}

async function fieldFile(key: string, file: string, io: Io): Promise<string> {
  if (file === '-') {
    if (io.isStdinTTY) throw new UsageError(`-F ${key}=@- reads the value from stdin, but stdin is a terminal`, 'Pipe it in.')
    return (await io.readStdin()).replace(/\n$/, '')
  }
  const {readFile} = await import('node:fs/promises')
  try {
    return (await readFile(file, 'utf8')).replace(/\n$/, '')
  } catch (err) {
    throw new UsageError(`-F ${key}=@${file}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)
  }
}
