/**
 * `gw api METHOD PATH --query K=V --data JSON`: its arguments and flags read as a request, each
 * refusal worded for the command line (the operation, operations/api.ts, sends what these read).
 */
import type {HttpMethod} from '../api/endpoints.js'
import {UsageError} from '../errors.js'
import {whyUnreadable} from '../lib/file-error-words.js'
import {decodeUtf8} from '../lib/utf8.js'
import type {Io} from './io.js'

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE']

/** A METHOD argument in any case, as one the gateway's interface uses. */
export function readMethod(input: string): HttpMethod {
  const method = input.trim().toUpperCase() as HttpMethod
  if (!METHODS.includes(method)) throw new UsageError(`METHOD must be one of ${METHODS.join(', ')}, got "${input}"`, 'For example gw api GET /v1.0/plans.json.')
  return method
}

/** Whether a word is a METHOD (any case), not a PATH. */
export function isMethod(word: string): boolean {
  return METHODS.includes(word.trim().toUpperCase() as HttpMethod)
}

/**
 * `gw api PATH WORD`: a word after the PATH. Most likely a field after --json (`--json id`), as
 * other commands take it: gw api prints the gateway's whole answer, and --jq picks from it.
 */
export function wordAfterPath(path: string, word: string, json: boolean): UsageError {
  const field = /^[a-z_][a-z0-9_]*$/i.test(word) ? word : 'id'
  const hint = json ? `--json takes no fields with gw api, which prints its JSON as it is; pick from it with --jq: --jq .response.${field} from an answer, --jq .${field} from each record of --paginate.` : `For example gw api GET ${path}.`
  return new UsageError(`${path} is the PATH, so ${word} is one word too many`, hint)
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

/**
 * `--data`: JSON given inline, `@file` read from a file, `-` read from stdin; checked as JSON before
 * anything is sent. A body that is empty (nothing piped, an empty file) is refused as missing.
 */
export async function readData(data: string, method: HttpMethod, io: Io): Promise<unknown> {
  if (method === 'GET') throw new UsageError('--data is a request body, and a GET has none', 'Give the values with --query KEY=VALUE, or use POST or PUT.')
  const {text, source, empty} = await dataText(data, io)
  if (text.trim() === '') throw new UsageError(`${empty}: the request body is missing, and nothing was sent`, `Give the JSON body, e.g. gw api ${method} PATH --data @body.json, or pipe it in with --data -.`)
  try {
    return JSON.parse(text)
  } catch {
    // JSON.parse's message quotes the text, which may hold a card number: it is not repeated.
    throw new UsageError(`${source} is not JSON`, `For example --data '{"name":"Gold","amount":2500,"reference":"gold","description":"Gold tier"}'.`)
  }
}

/**
 * The most a body from a file or stdin may hold. The local gateway refuses a larger one (413); the
 * live gateway's limit is not published, and no endpoint takes a body near it. A larger file is
 * refused before it is read, so gw never holds it.
 */
export const MAX_BODY_BYTES = 1024 * 1024

/** --data's text, what to call it, and how to say it held nothing. */
async function dataText(data: string, io: Io): Promise<{text: string; source: string; empty: string}> {
  if (data === '-') {
    if (io.isStdinTTY) throw new UsageError('--data - reads the JSON body from stdin, but stdin is a terminal', "Pipe it in, e.g. echo '{\"name\":\"x\"}' | gw api POST /v1.0/plans --data -")
    return {text: utf8Text(await bounded(io.stdinChunks(), '--data -'), '--data - (stdin)'), source: '--data - (stdin)', empty: '--data - read nothing from stdin'}
  }
  if (!data.startsWith('@')) return {text: data, source: '--data', empty: '--data is empty'}
  const file = data.slice(1)
  return {text: utf8Text(await boundedFile(file, `--data ${data}`), `--data ${data}`), source: `--data ${data}`, empty: `--data ${data}: ${file} is empty`}
}

/** A file's bytes, refused unread when over MAX_BODY_BYTES (a pipe given as the file is read up to it). */
async function boundedFile(file: string, flag: string): Promise<Buffer> {
  const hint = flag.startsWith('--data') ? 'Give a file holding the JSON body: --data @body.json.' : undefined
  const {open} = await import('node:fs/promises')
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(file, 'r')
  } catch (err) {
    throw new UsageError(`${flag}: ${file} cannot be read: ${whyUnreadable(err)}`, hint)
  }
  try {
    const stat = await handle.stat()
    if (stat.isDirectory()) throw new UsageError(`${flag}: ${file} cannot be read: it is a directory`, hint)
    if (stat.isFile() && stat.size > MAX_BODY_BYTES) throw tooLarge(flag, `${file} is ${mebibytes(stat.size)}`)
    return await bounded(chunksOf(handle), flag)
  } finally {
    await handle.close()
  }
}

async function* chunksOf(handle: {read(buffer: Buffer, offset: number, length: number): Promise<{bytesRead: number}>}): AsyncGenerator<Buffer> {
  for (;;) {
    const buffer = Buffer.alloc(64 * 1024)
    const {bytesRead} = await handle.read(buffer, 0, buffer.length)
    if (bytesRead === 0) return
    yield buffer.subarray(0, bytesRead)
  }
}

/** Chunks read until they end, or refused once they pass MAX_BODY_BYTES (nothing more is read). */
async function bounded(chunks: AsyncIterable<Uint8Array | string>, flag: string): Promise<Buffer> {
  const kept: Buffer[] = []
  let size = 0
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    size += bytes.length
    if (size > MAX_BODY_BYTES) throw tooLarge(flag, `it holds over ${mebibytes(MAX_BODY_BYTES)}`)
    kept.push(bytes)
  }
  return Buffer.concat(kept)
}

const mebibytes = (bytes: number) => `${bytes % (1024 * 1024) === 0 ? bytes / 1024 / 1024 : (bytes / 1024 / 1024).toFixed(1)} MiB`

function tooLarge(flag: string, what: string): UsageError {
  return new UsageError(`${flag}: ${what}, and a request body is at most ${mebibytes(MAX_BODY_BYTES)}: nothing was sent`, 'No gateway endpoint takes a body that large: give the JSON body of one request.')
}

/** Bytes as text, refused (naming the line) where they are not UTF-8: never sent with U+FFFD in their place. */
function utf8Text(bytes: Buffer, source: string): string {
  const decoded = decodeUtf8(bytes)
  if ('line' in decoded) throw new UsageError(`${source} line ${decoded.line} holds bytes that are not UTF-8, and nothing was sent`, 'Save the file as UTF-8 and run it again.')
  return decoded.text
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
  const flag = `-F ${key}=@${file}`
  if (file === '-') {
    if (io.isStdinTTY) throw new UsageError(`-F ${key}=@- reads the value from stdin, but stdin is a terminal`, 'Pipe it in.')
    return utf8Text(await bounded(io.stdinChunks(), flag), `${flag} (stdin)`).replace(/\n$/, '')
  }
  return utf8Text(await boundedFile(file, flag), flag).replace(/\n$/, '')
}
