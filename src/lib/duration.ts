/** Seconds, minutes and hours in milliseconds, as a duration's unit names them. */
const UNIT_MS = {s: 1000, m: 60_000, h: 3_600_000} as const

/**
 * A span of time as people type one, `90s`, `10m`, `2h` (or `1h30m`, each unit once, largest
 * first), in milliseconds; undefined for any other text.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text.trim().toLowerCase())
  if (!match || match.slice(1).every((part) => part === undefined)) return undefined
  const [hours = '0', minutes = '0', seconds = '0'] = match.slice(1)
  return Number(hours) * UNIT_MS.h + Number(minutes) * UNIT_MS.m + Number(seconds) * UNIT_MS.s
}

/** A duration as parseDuration reads it, in its largest whole units: `10m`, `1h30m`, `90s` stays `1m30s`. */
export function durationText(ms: number): string {
  const seconds = Math.round(ms / 1000)
  const parts: [number, string][] = [[Math.floor(seconds / 3600), 'h'], [Math.floor((seconds % 3600) / 60), 'm'], [seconds % 60, 's']]
  const text = parts.filter(([count]) => count > 0).map(([count, unit]) => `${count}${unit}`).join('')
  return text === '' ? '0s' : text
}
