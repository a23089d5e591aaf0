/*
 * Text from the gateway or a user, made safe for a terminal: every control character except
 * newline and tab (C0, DEL, C1) becomes a visible escape (`\x1B`, `\r`, `\x9B`), so `ESC [2K`
 * cannot erase a line, an OSC cannot retitle the window or hide a link, and a CR cannot print
 * a fake "Approved" over the real outcome. What comes out holds no control character but
 * newline and tab, and no escape sequence but gw's own colours where kept, so sanitizing twice
 * changes nothing. JSON never goes through here: it escapes control characters itself (json.ts).
 */

export interface SanitizeOptions {
  /** Text that must stay on one line (a table cell, a `gw listen` line): newline and tab are made visible too. */
  oneLine?: boolean
  /**
   * Keep colour codes (SGR, `ESC [ 1;31 m`): for whole lines gw has already painted, on their way
   * to stderr. They can change a colour, never move the cursor, erase or retitle.
   */
  keepColors?: boolean
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g
// eslint-disable-next-line no-control-regex
const CONTROL_OR_LINE = /[\u0000-\u001F\u007F-\u009F]/g
// eslint-disable-next-line no-control-regex
const COLOR_OR_CONTROL = /\u001B\[[\d;]*m|[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g

export function sanitize(text: string, {oneLine = false, keepColors = false}: SanitizeOptions = {}): string {
  if (keepColors && !oneLine) return text.replace(COLOR_OR_CONTROL, (match) => (match.length > 1 ? match : visible(match)))
  return text.replace(oneLine ? CONTROL_OR_LINE : CONTROL, visible)
}

/** For one-line places: `sanitize(text, {oneLine: true})`. */
export function sanitizeLine(text: string): string {
  return sanitize(text, {oneLine: true})
}

const NAMED: Record<string, string> = {'\n': '\\n', '\t': '\\t', '\r': '\\r'}

function visible(char: string): string {
  return NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
}
