import {isUtf8} from 'node:buffer'

/**
 * What a byte that is not UTF-8 becomes once decoded: Node decodes argv (and a terminal's input,
 * and text read as 'utf8') with U+FFFD in place of each bad sequence, and gives a real U+FFFD the
 * same way. On Windows argv arrives as UTF-16, and a lone surrogate becomes U+FFFD too. So text
 * holding one is refused: it was not what was typed or saved.
 */
export const REPLACEMENT = '\uFFFD'

/** The words for a value holding U+FFFD, after its name: `--reference holds ...`. */
export const NOT_UTF8 = `holds ${REPLACEMENT} (U+FFFD), the mark of bytes that are not UTF-8`

export const holdsReplacement = (text: string): boolean => text.includes(REPLACEMENT)

/** Bytes as UTF-8 text, or the first line (from 1) holding a byte that is not UTF-8; a BOM is kept. */
export function decodeUtf8(bytes: Uint8Array): {text: string} | {line: number} {
  if (isUtf8(bytes)) return {text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')}
  let line = 1
  for (let start = 0; start <= bytes.length; line++) {
    const end = bytes.indexOf(0x0a, start)
    const stop = end === -1 ? bytes.length : end
    if (!isUtf8(bytes.subarray(start, stop))) return {line}
    if (end === -1) break
    start = end + 1
  }
  // Every line is UTF-8 on its own, so the file is too: unreachable, kept for the types.
  return {line}
}
