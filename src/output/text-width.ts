/**
 * Widths of text as a terminal shows it: gw's own colour codes take no room, East Asian wide
 * characters and emoji take two columns, combining marks none. Used to fit tables to the
 * terminal; the text has been through sanitize, so the only escapes left are gw's own SGR codes.
 */
// eslint-disable-next-line no-control-regex
const SGR = /\u001B\[[\d;]*m/y

const WIDE: Array<[number, number]> = [
  [0x1100, 0x115f], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf],
  [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe30, 0xfe4f], [0xff00, 0xff60], [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f], [0x1f900, 0x1f9ff], [0x20000, 0x3fffd],
]

function charWidth(codePoint: number): number {
  if ((codePoint >= 0x300 && codePoint <= 0x36f) || codePoint === 0x200b || (codePoint >= 0xfe00 && codePoint <= 0xfe0f)) return 0
  for (const [from, to] of WIDE) if (codePoint >= from && codePoint <= to) return 2
  return 1
}

/** The text as pieces: a colour code (no width) or one character with its width. */
function* pieces(text: string): Generator<{text: string; width: number}> {
  let i = 0
  while (i < text.length) {
    SGR.lastIndex = i
    const code = SGR.exec(text)
    if (code) {
      yield {text: code[0], width: 0}
      i += code[0].length
      continue
    }
    const codePoint = text.codePointAt(i)!
    const char = String.fromCodePoint(codePoint)
    yield {text: char, width: charWidth(codePoint)}
    i += char.length
  }
}

export function displayWidth(text: string): number {
  let width = 0
  for (const piece of pieces(text)) width += piece.width
  return width
}

/** Cut to at most `width` columns, ending in `…` when something was cut; colour codes are kept whole. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  if (width <= 0) return ''
  let out = ''
  let used = 0
  let open = false
  for (const piece of pieces(text)) {
    if (piece.width === 0 && piece.text.startsWith('\u001B')) {
      out += piece.text
      open = !/\[(0|39|22)?m$/.test(piece.text)
      continue
    }
    if (used + piece.width > width - 1) break
    out += piece.text
    used += piece.width
  }
  return out + '…' + (open ? '\u001B[0m' : '')
}

/**
 * Broken into lines of at most `width` columns: at the last space that fits when there is one,
 * otherwise mid-word (ids and payloads have no spaces). Colour codes are not split.
 */
export function wrap(text: string, width: number): string[] {
  if (width <= 0) return [text]
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line: Array<{text: string; width: number}> = []
    let used = 0
    for (const piece of pieces(paragraph)) {
      if (used + piece.width > width) {
        if (piece.text === ' ') {
          lines.push(join(line))
          line = []
          used = 0
          continue
        }
        const space = findLastSpace(line)
        if (space > 0) {
          const rest = line.slice(space + 1)
          lines.push(join(line.slice(0, space)))
          line = rest
        } else {
          lines.push(join(line))
          line = []
        }
        used = line.reduce((sum, p) => sum + p.width, 0)
      }
      line.push(piece)
      used += piece.width
    }
    lines.push(join(line))
  }
  return lines
}

function findLastSpace(line: Array<{text: string}>): number {
  for (let i = line.length - 1; i >= 0; i--) if (line[i]!.text === ' ') return i
  return -1
}

function join(line: Array<{text: string}>): string {
  return line.map((p) => p.text).join('').trimEnd()
}
