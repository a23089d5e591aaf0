/**
 * bin/start.js's favourMemory, where gw was started by it: V8 keeps its young generation small
 * from here on, so that a long run that allocates fast and keeps little (a walk of many pages, a
 * batch's rows) does not peak ~80 MiB higher on Node 22 and later for garbage not yet collected.
 * Absent where gw was not started by bin/ (a test's own process).
 */
export function favourMemory(): void {
  ;(globalThis as {[key: symbol]: (() => void) | undefined})[Symbol.for('gw.favour-memory')]?.()
}
