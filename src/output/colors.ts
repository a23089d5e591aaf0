/** ANSI styles, applied only when the Io says colour is on. */
const codes = {bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], cyan: [36, 39]} as const

export type Style = keyof typeof codes

export function paint(enabled: boolean, style: Style, text: string): string {
  if (!enabled) return text
  const [open, close] = codes[style]
  return `\u001B[${open}m${text}\u001B[${close}m`
}
