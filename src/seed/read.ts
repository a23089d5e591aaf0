import {decodeUtf8} from '../lib/utf8.js'

/**
 * A fixtures file is read as it streams in, and what is kept of it is bounded by its structure,
 * not by the length of its strings: a string longer than any field the gateway takes (a 100 MB
 * description) is counted, not kept, and stands in the text as a placeholder naming its length,
 * which the length rule then refuses (rules.ts tooLong), naming the step and field (oversizedLength). Only a file
 * whose kept text is itself too large (many steps) is refused whole.
 */

/** Longer strings are not kept: far past the longest field the gateway takes (rules.ts), so every kept one is judged by its rule. */
export const LONGEST_KEPT = 4096
/** The most of a fixtures file kept to parse: about 100,000 steps. */
export const MAX_KEPT_BYTES = 64 * 1024 * 1024

const PLACEHOLDER = '\u0000gw:too-long:'
const QUOTE_OR_BACKSLASH = /["\\]/g

/** The length of the string a placeholder stands for; undefined for any other text. */
export function oversizedLength(text: string): number | undefined {
  return text.startsWith(PLACEHOLDER) ? Number(text.slice(PLACEHOLDER.length)) : undefined
}

export class TooLargeError extends Error {}

/** Bytes that are not UTF-8 at `line`: never read as U+FFFD, which the gateway would keep. */
export class NotUtf8Error extends Error {
  constructor(readonly line: number) {
    super(`line ${line} holds bytes that are not UTF-8`)
  }
}

/**
 * The JSON text as it streams in, strings longer than LONGEST_KEPT replaced by placeholders. Only
 * strings are looked into: the text outside them is kept as it is, for JSON.parse to judge.
 */
export async function keptText(chunks: AsyncIterable<Buffer | string>): Promise<string> {
  const decoder = new TextDecoder('utf-8', {fatal: true})
  let lines = 1
  const decoded = (chunk: Buffer): string => {
    try {
      const text = decoder.decode(chunk, {stream: true})
      for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++
      return text
    } catch {
      // The line within the chunk, where the chunk alone says; else the line being read.
      const within = decodeUtf8(chunk)
      throw new NotUtf8Error(lines + ('line' in within ? within.line - 1 : 0))
    }
  }
  const kept: string[] = []
  let keptBytes = 0
  const keep = (text: string) => {
    keptBytes += text.length
    if (keptBytes > MAX_KEPT_BYTES) throw new TooLargeError()
    kept.push(text)
  }
  let inString = false
  /** Characters of an escape still to come: 1 after a backslash, the four hex digits of \u. */
  let escaping = 0
  let length = 0
  let pieces: string[] = []
  let dropped = false
  const scan = (text: string) => {
    let at = 0
    while (at < text.length) {
      if (!inString) {
        const quote = text.indexOf('"', at)
        if (quote < 0) return keep(text.slice(at))
        keep(text.slice(at, quote))
        inString = true
        length = 0
        pieces = []
        dropped = false
        at = quote + 1
        continue
      }
      const start = at
      while (at < text.length) {
        if (escaping > 0) {
          // `\uXXXX` and `\n` are one character each.
          if (escaping === 1 && text[at] === 'u') escaping = 5
          escaping--
          if (escaping === 0) length++
          at++
          continue
        }
        QUOTE_OR_BACKSLASH.lastIndex = at
        const stop = QUOTE_OR_BACKSLASH.exec(text)?.index ?? text.length
        length += stop - at
        at = stop
        if (at === text.length || text[at] === '"') break
        escaping = 1
        at++
      }
      if (!dropped) pieces.push(text.slice(start, at))
      if (!dropped && length > LONGEST_KEPT) {
        dropped = true
        pieces = []
      }
      if (at < text.length) {
        keep(dropped ? JSON.stringify(`${PLACEHOLDER}${length}`) : `"${pieces.join('')}"`)
        inString = false
        at++
      }
    }
  }
  for await (const chunk of chunks) scan(typeof chunk === 'string' ? chunk : decoded(chunk))
  try {
    scan(decoder.decode())
  } catch {
    throw new NotUtf8Error(lines)
  }
  // An unclosed string: kept as it came (shortened), for JSON.parse to say where.
  if (inString) keep(`"${dropped ? PLACEHOLDER : pieces.join('')}`)
  return kept.join('')
}
