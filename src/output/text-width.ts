import sliceAnsi from 'slice-ansi'
import stringWidth from 'string-width'
import wrapAnsi from 'wrap-ansi'

/**
 * Printable ASCII, and the `…` gw puts before a card's last four digits: one column a character.
 * string-width would make an Intl.Segmenter for the `…`, and the first a process makes loads
 * ICU's break rules (~9 ms of a table at a terminal).
 */
const ONE_COLUMN_EACH = /^[\x20-\x7E…]*$/

/**
 * Widths of text as a terminal shows it, by Sindre Sorhus's string-width, slice-ansi and
 * wrap-ansi, which follow Unicode's East Asian Width and emoji data: gw's own colour codes take no
 * room, wide characters and emoji two columns, combining marks none. Used to fit tables to the
 * terminal; the text has been through sanitize, so the only escapes left are gw's own SGR codes.
 * Loaded with the table code, only when a terminal is shown one.
 */
export function displayWidth(text: string): number {
  return ONE_COLUMN_EACH.test(text) ? text.length : stringWidth(text)
}

/** Cut to at most `width` columns, ending in `…` when something was cut; colour codes are kept whole and closed. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  if (width <= 0) return ''
  // slice-ansi keeps a wide character that starts before the end: one column over, then cut before it.
  const cut = sliceAnsi(text, 0, width - 1)
  return (displayWidth(cut) < width ? cut : sliceAnsi(text, 0, width - 2)) + '…'
}

/**
 * Broken into lines of at most `width` columns: at the last space that fits when there is one,
 * otherwise mid-word (ids and payloads have no spaces). Colour codes are not split.
 */
export function wrap(text: string, width: number): string[] {
  if (width <= 0) return [text]
  return wrapAnsi(text, width, {hard: true}).split('\n')
}
