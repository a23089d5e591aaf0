import type {VirtualClock} from './clock.js'
import type {Deliveries} from './delivery.js'
import type {FaultList} from './faults.js'
import type {RecordType} from './ids.js'
import type {Mode} from './mode.js'
import type {RequestLog} from './request-log.js'
import type {Store} from './store.js'

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
  newId(merchant: string, type: RecordType): string
}
