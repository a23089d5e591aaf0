/**
 * The local gateway's faults (POST /_sandbox/faults, gw sandbox fault add), one row an action:
 * what it does to the requests it matches, and the parameters it takes. Both sides read this
 * table: the gateway checks a fault by it and its HTTP edge has one behaviour per row, which the
 * compiler holds to it (sandbox/server/faults.ts); gw sandbox fault add makes its --action
 * choices, its flags, their checks and its help from it. No zod here: flags read it at start-up.
 */

/** A parameter an action takes, as the control API's body names it; gw sandbox fault add's flag for it. */
export interface FaultParameter {
  flag: string
  /** An integer is required by the actions that take it, unless `optional`; a boolean is false unless given. */
  kind: 'integer' | 'boolean'
  /** An integer the action does without: left out, the fault has none. */
  optional?: true
  /** A boolean that changes another parameter, which must then be given too (by its name). */
  needs?: string
  /** What it is, as the flag's help says it. */
  description: string
  /** An integer's range, both ends included, how a refusal names it, and a value to give as an example. */
  range?: {min: number; max: number; words: string; example: number}
  /** Its column in gw sandbox fault list. */
  column: string
}

export const FAULT_PARAMETERS = {
  status: {flag: 'status', kind: 'integer', description: 'the HTTP status to answer', range: {min: 200, max: 599, words: 'an HTTP status from 200 to 599', example: 503}, column: 'Status'},
  html: {flag: 'html', kind: 'boolean', description: 'answer an HTML page, not the envelope', column: 'HTML'},
  // Longer than any client waits (gateway-notes.md: 50-60 s); a larger number is a typo that would hold a socket for hours.
  delayMs: {flag: 'delay-ms', kind: 'integer', description: 'how long to wait before answering', range: {min: 0, max: 600_000, words: 'from 0 to 600000 milliseconds (10 minutes)', example: 65_000}, column: 'Delay ms'},
  // A day: a client asked to wait longer has been told to stop for today.
  retryAfter: {
    flag: 'retry-after',
    kind: 'integer',
    optional: true,
    description: 'the seconds Retry-After asks the client to wait; left out, none is sent, for its own backoff',
    range: {min: 0, max: 86_400, words: 'from 0 to 86400 seconds (a day)', example: 2},
    column: 'Retry after s',
  },
  httpDate: {flag: 'http-date', kind: 'boolean', description: 'send Retry-After as an HTTP date, not seconds', needs: 'retryAfter', column: 'As a date'},
  unavailable: {flag: 'unavailable', kind: 'boolean', description: 'answer 503 Service Unavailable, not 429', needs: 'retryAfter', column: '503'},
} as const satisfies Record<string, FaultParameter>

export type FaultParameterName = keyof typeof FAULT_PARAMETERS

interface FaultActionRow {
  /** What it does to a request it matches; `{name}` stands for a parameter, which gw sandbox fault add's help names by its flag. */
  does: string
  takes: readonly FaultParameterName[]
}

export const FAULT_ACTIONS = {
  'drop-before': {does: 'drops the connection before the request is read, so nothing is done', takes: []},
  'drop-after': {does: 'does the request, then drops the connection before the answer (an outcome the client must find out)', takes: []},
  status: {does: "answers {status} (with {html}, as an HTML page, as a gateway's proxy does)", takes: ['status', 'html']},
  delay: {does: 'answers after {delayMs}, the work done whether or not the client waited', takes: ['delayMs']},
  'rate-limit': {
    does: 'answers 429 Too Many Requests, nothing done, with Retry-After {retryAfter} (an HTTP date with {httpDate}; none when left out); with {unavailable}, 503 and its Retry-After',
    takes: ['retryAfter', 'httpDate', 'unavailable'],
  },
} as const satisfies Record<string, FaultActionRow>

export type FaultAction = keyof typeof FAULT_ACTIONS

/** The actions, in the table's order. */
export const FAULT_ACTION_NAMES = Object.keys(FAULT_ACTIONS) as [FaultAction, ...FaultAction[]]

type ValueOf<P extends FaultParameterName> = (typeof FAULT_PARAMETERS)[P] extends {kind: 'integer'} ? ((typeof FAULT_PARAMETERS)[P] extends {optional: true} ? number | undefined : number) : boolean

/** What a fault does, with the parameters of its action: `{action: 'status', status: 503, html: false}`; an optional integer left out is absent. */
export type FaultBehaviour = {[A in FaultAction]: {action: A} & {[P in (typeof FAULT_ACTIONS)[A]['takes'][number]]: ValueOf<P>}}[FaultAction]

/** The parameters an action takes, each with its row. */
export const parametersOf = (action: FaultAction): {name: FaultParameterName; parameter: FaultParameter}[] =>
  FAULT_ACTIONS[action].takes.map((name) => ({name, parameter: FAULT_PARAMETERS[name]}))

/** The action that takes a parameter (each is taken by one). */
export const actionTaking = (name: FaultParameterName): FaultAction => FAULT_ACTION_NAMES.find((action) => (FAULT_ACTIONS[action].takes as readonly string[]).includes(name))!
