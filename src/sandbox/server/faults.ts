import {STATUS_CODES, type IncomingMessage, type ServerResponse} from 'node:http'
import {FAULT_ACTION_NAMES, FAULT_ACTIONS, parametersOf, type FaultAction, type FaultBehaviour} from '../../api/schemas/fault-actions.js'
import {badRequest} from '../domain/errors.js'
import {readFields} from '../domain/input.js'
import {type Refusal, retryAfterValue} from './manners.js'

/**
 * Failures switched on through `POST /_sandbox/faults`, so tests can see how the client copes
 * with a gateway that drops, stalls or breaks; the next `times` matching requests get the fault.
 * The actions and their parameters are one table, api/schemas/fault-actions.ts; AT_THE_EDGE below
 * is what each does here.
 */
export type Fault = {method: string; path: string; times: number} & FaultBehaviour

/** What a fault did to a request, for the request log: the status answered (null: none, the connection dropped) and in words. */
interface Done {
  status: number | null
  told: string
}

/** What the HTTP edge (http.ts) does with a request a fault of this action matched; one of the four, or none of them. */
interface Edge<F extends Fault> {
  /** Instead of serving it: answers or drops it, before its body is read. */
  instead?(fault: F, req: IncomingMessage, res: ServerResponse, envelope: (errors: string[]) => unknown): Done
  /** Instead of serving it: refuses it as the rate limit does, its status's words in the envelope its dialect writes. */
  refuses?(fault: F): Refusal
  /** Serves it this long after its body is read. */
  holdMs?(fault: F): number
  /** Serves it, then drops the connection instead of answering. */
  dropsAnswer?: true
}

type Of<A extends FaultAction> = Extract<Fault, {action: A}>

/** One row an action of FAULT_ACTIONS: the compiler refuses a table that misses one. */
const AT_THE_EDGE: {[A in FaultAction]: Edge<Of<A>>} = {
  'drop-before': {
    instead: (_fault, req) => {
      req.socket.destroy()
      return {status: null, told: 'the connection was dropped before the request was read (fault drop-before)'}
    },
  },
  'drop-after': {dropsAnswer: true},
  status: {instead: (fault, _req, res, envelope) => (writeFault(res, fault, envelope), {status: fault.status, told: `answered ${fault.status} by a fault`})},
  delay: {holdMs: (fault) => fault.delayMs},
  'rate-limit': {
    refuses: (fault) => {
      const status = fault.unavailable ? 503 : 429
      const now = Date.now()
      const retryAfter = fault.retryAfter === undefined ? undefined : retryAfterValue(fault.retryAfter, fault.httpDate, now)
      const told = `answered ${status} by a fault (fault rate-limit, ${retryAfter === undefined ? 'no Retry-After' : `Retry-After ${retryAfter}`}), nothing done`
      // An HTTP date counts from the answer's Date: Node's own is cached, and lags by a second or more when the loop is busy.
      const headers: Record<string, string> = retryAfter === undefined ? {} : {'Retry-After': retryAfter}
      if (retryAfter !== undefined && fault.httpDate) headers.Date = new Date(now).toUTCString()
      return {status, headers, told}
    },
  },
}

/** The edge's row for a fault's action. */
export const edgeOf = (fault: Fault): Edge<Fault> => AT_THE_EDGE[fault.action] as Edge<Fault>

/** A control request is written by a developer at a keyboard: the first problem is reason enough to refuse it. */
export function parseFault(input: Record<string, unknown>): Fault {
  const {method, path, action, times = 1} = readFields(input, {method: 'string', path: 'string', action: 'string', times: 'integer'})
  if (!method) throw badRequest(["Method can't be blank"])
  if (!path?.startsWith('/')) throw badRequest(['Path must start with /'])
  if (times < 1) throw badRequest(['Times must be at least 1'])
  if (action === undefined || !Object.hasOwn(FAULT_ACTIONS, action)) throw badRequest([`Action must be one of ${FAULT_ACTION_NAMES.join(', ')}`])
  return {method: method.toUpperCase(), path, times, ...behaviour(action as FaultAction, input)}
}

/** The action with its parameters, each read and checked as the table says. */
function behaviour(action: FaultAction, input: Record<string, unknown>): FaultBehaviour {
  const parameters = parametersOf(action)
  const given = readFields(input, Object.fromEntries(parameters.map(({name, parameter}) => [name, parameter.kind])))
  const values: Record<string, unknown> = {action}
  for (const {name, parameter} of parameters) {
    const value = given[name]
    const range = parameter.range
    if (!range) values[name] = value ?? false
    else if (value === undefined && parameter.optional) continue
    else if (typeof value !== 'number' || value < range.min || value > range.max) throw badRequest([`${label(name)} must be ${range.words}`])
    else values[name] = value
  }
  const lacking = parameters.find(({name, parameter}) => values[name] === true && parameter.needs !== undefined && values[parameter.needs] === undefined)
  if (lacking) throw badRequest([`${label(lacking.name)} needs ${lacking.parameter.needs}`])
  return values as FaultBehaviour
}

const label = (name: string) => name.charAt(0).toUpperCase() + name.slice(1)

/** The envelope of a failure with this status, or, with `html`, the HTML page a gateway's proxy sends (gateway-notes.md). */
function writeFault(res: ServerResponse, fault: Of<'status'>, envelope: (errors: string[]) => unknown): void {
  const reason = STATUS_CODES[fault.status] ?? 'Error'
  const body = fault.html ? `<!DOCTYPE html>\n<html><head><title>${fault.status} ${reason}</title></head><body><h1>${reason}</h1></body></html>\n` : JSON.stringify(envelope([reason]))
  res.writeHead(fault.status, {'Content-Type': fault.html ? 'text/html' : 'application/json', 'Content-Length': String(Buffer.byteLength(body))})
  res.end(body)
}

export class FaultList {
  private faults: Fault[] = []
  /** The holds of requests being delayed now, each its length. */
  private readonly holding = new Set<{ms: number}>()

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

  /** Counts a request held `ms` by a fault until the function returned is called. */
  hold(ms: number): () => void {
    const held = {ms}
    this.holding.add(held)
    return () => this.holding.delete(held)
  }

  /** The longest a fault holds a request, of those waiting and those holding one now: what it adds to the processing window. */
  longestHoldMs(): number {
    const waiting = this.faults.map((fault) => edgeOf(fault).holdMs?.(fault) ?? 0)
    return Math.max(0, ...waiting, ...[...this.holding].map((held) => held.ms))
  }
}
