import {Flags} from '@oclif/core'
import {UsageError} from '../errors.js'
import {parseDuration} from '../lib/duration.js'

/** How close together two charges are grouped by --duplicates without --within, and the most --within takes: a day apart is no double click. */
export const DEFAULT_WITHIN_MS = 10 * 60_000
export const MOST_WITHIN_MS = 24 * 3_600_000

/** gw purchase list --duplicates: likely duplicate charges (lists/duplicates.ts), and how close together --within. */
export const duplicateCharges = {
  duplicates: Flags.boolean({description: 'only likely duplicate charges, in groups: approved purchases on the same card, of the same amount and currency, each within --within of the one before', helpGroup: 'DUPLICATES'}),
  within: Flags.custom<number>({
    description: 'how close together charges are grouped by --duplicates: 90s, 10m, 2h or 1h30m, up to 24h; default 10m',
    helpGroup: 'DUPLICATES',
    parse: async (input) => {
      const ms = parseDuration(input)
      if (ms !== undefined && ms >= 1000 && ms <= MOST_WITHIN_MS) return ms
      throw new UsageError(`--within must be a span of time from 1s to 24h, as 90s, 10m, 2h or 1h30m; got "${input}"`, 'For example --duplicates --within 30m.')
    },
  })(),
}
