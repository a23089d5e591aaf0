import {formatDateTime} from '../clock.js'
import type {SandboxContext} from '../context.js'
import {parseFault} from '../faults.js'
import type {RouteRequest, RouteResult} from '../http.js'

/** The `/_sandbox/` endpoints: no credentials, for tests and for people trying gw out. */

export function describeSandbox(_request: RouteRequest, ctx: SandboxContext): RouteResult {
  const {mode, merchants, url} = ctx
  return {status: 200, response: {mode, merchants, url, clock: formatDateTime(ctx.clock.now())}}
}

export function resetSandbox(_request: RouteRequest, ctx: SandboxContext): RouteResult {
  ctx.store.reset()
  return {status: 200, response: {}}
}

export function addFault({input}: RouteRequest, ctx: SandboxContext): RouteResult {
  const fault = parseFault(input)
  ctx.faults.add(fault)
  return {status: 200, response: fault}
}

export function listFaults(_request: RouteRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: ctx.faults.list()}
}

export function clearFaults(_request: RouteRequest, ctx: SandboxContext): RouteResult {
  ctx.faults.clear()
  return {status: 200, response: []}
}
