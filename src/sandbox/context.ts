import type {VirtualClock} from './domain/clock.js'
import type {Deliveries} from './server/delivery.js'
import type {FaultList} from './server/faults.js'
import type {RecordType} from './domain/ids.js'
import type {Mode} from './domain/mode.js'
import type {RequestLog} from './server/request-log.js'
import type {Store} from './domain/store.js'
import type {WebHookOrder} from './domain/web-hook-order.js'

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
  /** The most it takes to process a request, faults aside (gw sandbox start --processing-window-ms): what GET /_sandbox/clock says. */
  processingWindowMs: number
  /** How long each API answer waits once its request is done, give or take a quarter (gw sandbox start --latency); 0 for none. */
  latencyMs: number
  /** The order its lists of web hooks come in (gw sandbox start --web-hook-order). */
  webHookOrder: WebHookOrder
  /** This run's control token, kept in its runtime file: GET /_sandbox/clock proves with it (never sending it) that it is the gateway gw started. */
  controlToken: string
  /** The base URL, known once the server listens. */
  url: string
  /** The process it runs in, and how it is asked to close as on SIGTERM (POST /_sandbox/stop). */
  process: {pid: number; requestStop(): void}
  newId(merchant: string, type: RecordType): string
}
