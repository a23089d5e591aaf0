import type {GatewayClient} from '../api/client.js'
import type {Io} from '../output/io.js'
import type {Prompter} from '../output/prompt.js'

/**
 * What an operation may use (gh's `xRun(opts)`): the client for the profile in force, the Io for
 * notices on stderr, questions on the terminal, and today's date. Commands, batch rows and
 * `gw api` hand the same operations their own; unit tests hand fakes.
 */
export interface Deps {
  client: GatewayClient
  io: Io
  prompter: () => Promise<Prompter>
  clock: () => Date
}

export type GwRecord = Record<string, unknown>
