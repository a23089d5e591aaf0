import sliceAnsi from 'slice-ansi'
import stringWidth from 'string-width'
import wrapAnsi from 'wrap-ansi'

/**
 * Widths of text as a terminal shows it, by Sindre Sorhus's string-width, slice-ansi and
 * wrap-ansi, which follow Unicode's East Asian Width and emoji data: gw's own colour codes take no
 * room, wide characters and emoji two columns, combining marks none. Used to fit tables to the
 * terminal; the text has been through sanitize, so the only escapes left are gw's own SGR codes.
 * Loaded with the table code, only when a terminal is shown one.
 */
export function displayWidth(text: string): number {
  return stringWidth(text)
}

/** Cut to at most `width` columns, ending in `…` when something was cut; colour codes are kept whole and closed. */
export function truncate(text: string, width: number): string {
  if (stringWidth(text) <= width) return text
  if (width <= 0) return ''
  // slice-ansi keeps a wide character that starts before the end: one column over, then cut before it.
  const cut = sliceAnsi(text, 0, width - 1)
  return (stringWidth(cut) < width ? cut : sliceAnsi(text, 0, width - 2)) + '…'
}

/**
 * Broken into lines of at most `width` columns: at the last space that fits when there is one,
 * otherwise mid-word (ids and payloads have no spaces). Colour codes are not split.
 */
export function wrap(text: string, width: number): string[] {
  if (width <= 0) return [text]
  return wrapAnsi(text, width, {hard: true}).split('\n')
}
