/**
 * Edit distance (insertions, deletions, substitutions, adjacent swaps): `purchse` is 1 from
 * `purchase`. Not fastest-levenshtein's: it counts a swap (`gte` for `get`) as two edits, over the
 * limit `closest` allows a three-letter word, so that typo would get no suggestion.
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({length: a.length + 1}, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = best
    }
  }
  return rows[a.length]![b.length]!
}

/**
 * The candidate closest to what was typed, or undefined when none is close enough to be a typo:
 * the only one that starts with it, or one where at most a third of the longer word differs, so
 * `gw xyz` suggests nothing rather than nonsense.
 */
export function closest(typed: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates]
  // A word cut short (`--token` for `--token-stdin`) is far by edit distance but plainly meant.
  const extended = typed.length >= 3 ? list.filter((candidate) => candidate.startsWith(typed)) : []
  if (extended.length === 1) return extended[0]
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of list) {
    const distance = editDistance(typed, candidate)
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance]
  }
  if (best === undefined) return undefined
  return bestDistance <= Math.max(1, Math.floor(Math.max(typed.length, best.length) / 3)) ? best : undefined
}
