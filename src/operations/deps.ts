import type {GatewayClient} from '../api/client.js'
import type {Io} from '../output/io.js'

/**
 * What an operation may use (gh's `xRun(opts)`): the client for the profile in force. Operations
 * never print: they return records and decided outcomes, which commands and batch rows render with
 * the Io that travels beside the client. Commands, batch rows and `gw api` hand the same operations
 * their own; unit tests hand fakes.
 */
export interface Deps {
  client: GatewayClient
  io: Io
}

/**
 * Requests an operation keeps in flight at once over the one client's keep-alive pool when it
 * reads many (a list's pages, a batch's rows, look-ups) and is told no other number (--concurrency).
 */
export const DEFAULT_CONCURRENCY = 4

/** A card given in full, as a card write sends it: the CVV only where the write takes one. */
export interface CardDetails {
  card_holder: string
  card_number: string
  card_expiry: string
  cvv?: string
}
