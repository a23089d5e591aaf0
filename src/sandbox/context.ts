import type {VirtualClock} from './domain/clock.js'
import type {Deliveries} from './server/delivery.js'
import type {FaultList} from './server/faults.js'
import type {RecordType} from './domain/ids.js'
import type {Mode} from './domain/mode.js'
import type {RequestLog} from './server/request-log.js'
import type {Store} from './domain/store.js'

/** What route handlers may use: state and time, never the request or the socket. */
export interface SandboxContext {
  store: Store
  clock: VirtualClock
  faults: FaultList
  deliveries: Deliveries
  mode: Mode
  /** Usernames of the merchants that can sign in. */
  merchants: string[]
  /** The requests answered, for GET /_sandbox/requests; none when the log is off. */
  requests?: RequestLog
  /** The base URL, known once the server listens. */
  url: string
  /** The process it runs in, and how it is asked to close as on SIGTERM (POST /_sandbox/stop). */
  process: {pid: number; requestStop(): void}
  newId(merchant: string, type: RecordType): string
}
