import type {IncomingMessage} from 'node:http'
import {SandboxError, badRequest} from '../domain/errors.js'

/** What the HTTP edge (http.ts) reads of a request: its path, matched against a route's, and its JSON body. */

const MAX_BODY_BYTES = 1024 * 1024

/**
 * The path's segments, decoded. The contract's `.json` suffix and a trailing slash are
 * optional. Exactly one `.json` is cut from the last segment, before decoding: a client that
 * appends `.json` whenever the key holds a dot (`a.json` sent as `a.json.json`), or encodes the
 * dot (`a%2Ejson`), reaches any key whole.
 */
export function pathSegments(pathname: string): string[] {
  const raw = pathname.split('/')
  const last = raw.length - 1
  if (raw[last]?.endsWith('.json')) raw[last] = raw[last].slice(0, -'.json'.length)
  try {
    return raw.filter(Boolean).map(decodeURIComponent)
  } catch {
    throw badRequest([`Path ${pathname} is not correctly URL-encoded`])
  }
}

export function matchPath(pattern: string[], segments: string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined
  const params: Record<string, string> = {}
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index] as string
    if (part.startsWith(':')) params[part.slice(1)] = segment
    else if (part !== segment) return undefined
  }
  return params
}

export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  let size = 0
  // Read to the end even past the limit, so the client is not cut off mid-upload and sees the 413.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size <= MAX_BODY_BYTES) chunks.push(chunk)
  }
  if (size > MAX_BODY_BYTES) throw new SandboxError(413, [`Request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB)`])
  const text = Buffer.concat(chunks).toString('utf8')
  if (text.trim() === '') return {}
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    // The parser's own words may quote the body (`"cvv=642&ca"...`): only where it broke is said.
    const at = /at position (\d+)/.exec((error as Error).message)
    throw badRequest([`Request body is not valid JSON${at ? ` (it breaks at character ${at[1]})` : ''}`])
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(['Request body must be a JSON object'])
  return body as Record<string, unknown>
}
