import {badRequest} from '../domain/errors.js'
import {readFields} from '../domain/input.js'

/**
 * Failures switched on through `POST /_sandbox/faults`, so tests can see how the client copes
 * with a gateway that drops, stalls or breaks; the next `times` matching requests get the fault.
 */
export type Fault = {method: string; path: string; times: number} & Behaviour

type Behaviour =
  | {action: 'drop-before'}
  | {action: 'drop-after'}
  | {action: 'status'; status: number; html: boolean}
  | {action: 'delay'; delayMs: number}

const MAX_DELAY_MS = 10 * 60 * 1000

const ACTIONS = ['drop-after', 'drop-before', 'status', 'delay'] as const

const FAULT_FIELDS = {
  method: 'string',
  path: 'string',
  action: 'string',
  status: 'integer',
  html: 'boolean',
  delayMs: 'integer',
  times: 'integer',
} as const

/** A control request is written by a developer at a keyboard: the first problem is reason enough to refuse it. */
export function parseFault(input: Record<string, unknown>): Fault {
  const {method, path, action, status, html = false, delayMs, times = 1} = readFields(input, FAULT_FIELDS)
  if (!method) throw badRequest(["Method can't be blank"])
  if (!path?.startsWith('/')) throw badRequest(['Path must start with /'])
  if (times < 1) throw badRequest(['Times must be at least 1'])
  return {method: method.toUpperCase(), path, times, ...behaviour(action, status, html, delayMs)}
}

function behaviour(action: string | undefined, status: number | undefined, html: boolean, delayMs: number | undefined): Behaviour {
  switch (action) {
    case 'drop-before':
    case 'drop-after':
      return {action}
    case 'status':
      if (status === undefined || status < 200 || status > 599) {
        throw badRequest(['Status must be an HTTP status from 200 to 599'])
      }
      return {action, status, html}
    case 'delay':
      if (delayMs === undefined || delayMs < 0) throw badRequest(['DelayMs must be 0 or more milliseconds'])
      // Longer than any client waits (gateway-notes.md: 50-60 s); a larger number is a typo that would hold a socket for hours.
      if (delayMs > MAX_DELAY_MS) throw badRequest([`DelayMs must be at most ${MAX_DELAY_MS} (10 minutes)`])
      return {action, delayMs}
    default:
      throw badRequest([`Action must be one of ${ACTIONS.join(', ')}`])
  }
}

export class FaultList {
  private faults: Fault[] = []

  add(fault: Fault): void {
    this.faults.push(fault)
  }

  clear(): void {
    this.faults = []
  }

  list(): Fault[] {
    return this.faults.map((fault) => ({...fault}))
  }

  /**
   * The first fault for this request, used up by one. `path` matches as a prefix of the request's
   * path, or with a `?` in it of its path and query (`/v1.0/purchases?offset=50`: one page of a list).
   */
  take(method: string, target: string): Fault | undefined {
    const path = target.split('?', 1)[0]!
    const fault = this.faults.find((candidate) => candidate.method === method && (candidate.path.includes('?') ? target : path).startsWith(candidate.path))
    if (!fault) return undefined
    fault.times--
    if (fault.times === 0) this.faults = this.faults.filter((candidate) => candidate !== fault)
    return {...fault}
  }
}
