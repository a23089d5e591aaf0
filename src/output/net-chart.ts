/**
 * gw report's chart at a terminal: each day's net as a bar of Unicode block characters, scaled to
 * the largest net of its currency in the window (amounts in two currencies are never compared).
 */

/** Cells the longest bar takes. */
export const BAR_CELLS = 12

/** A cell filled by eighths, from one eighth to seven: the bar's last cell. */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉']

/**
 * A bar for `share` of the largest net (-1 to 1): whole blocks, then the eighths left, and at least
 * one eighth for any net that is not 0, so a small day still shows. A loss starts with `-`, so it
 * reads as one without colour.
 */
export function netBar(share: number, cells = BAR_CELLS): string {
  if (!Number.isFinite(share) || share === 0) return ''
  const eighths = Math.max(1, Math.round(Math.min(1, Math.abs(share)) * cells * 8))
  const bar = '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]!
  return share < 0 ? `-${bar}` : bar
}

/**
 * Each row's net as a share of the largest net, by its size, of the rows in its currency: what
 * netBar draws. A currency whose every net is 0 draws none.
 */
export function netShares(rows: readonly {currency: unknown; net: unknown}[]): number[] {
  const largest = new Map<unknown, number>()
  for (const {currency, net} of rows) if (typeof net === 'number') largest.set(currency, Math.max(largest.get(currency) ?? 0, Math.abs(net)))
  return rows.map(({currency, net}) => {
    const most = largest.get(currency) ?? 0
    return typeof net === 'number' && most > 0 ? net / most : 0
  })
}
