/** The flags a list command may have been given (cli/flags.ts listing, moneyFilters, and its own). */
export interface ListFlags {
  from?: string
  to?: string
  on?: string
  limit?: number
  all?: boolean
  'oldest-first'?: boolean
  concurrency?: number
  'max-pages'?: number
  reference?: string
  status?: string
  card?: string
  amount?: number
  currency?: string
  holder?: string
  email?: string
  /** Subscriptions: the active ones, or with `inactive` the stopped ones. */
  active?: boolean
  inactive?: boolean
  /** Refunds: of this purchase (its id or reference). */
  purchase?: string
  /** Subscriptions: of this customer, of this plan (an id or a reference). */
  customer?: string
  plan?: string
  /** Purchases: likely duplicate charges, in groups, each charge within `within` ms of the one before (cli/run-duplicates.ts). */
  duplicates?: boolean
  within?: number
}
