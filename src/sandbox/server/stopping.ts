import {setTimeout as sleep} from 'node:timers/promises'
import type {Platform} from '../../lib/platform.js'
import {askGateway, holderOf, pidIn} from './gateway-process.js'
import type {RuntimeInfo} from './runtime-file.js'

/** How `gw sandbox stop` ended a gateway, or why it left the process alone. */
export type StopOutcome =
  /** asked: on its control API, it closed as on SIGTERM; signalled: by SIGTERM; killed: forced, once asking was over or impossible. */
  | {result: 'stopped'; how: 'asked' | 'signalled' | 'killed'}
  /** Its process had gone already; or its pid is another program's now (`now`), left alone. */
  | {result: 'stale'; now?: string}
  /** Another user's: gw may not stop it. */
  | {result: 'theirs'}
  /** Its pid runs, but whether it is the gateway cannot be told: it is left alone. */
  | {result: 'unknown'}

export interface StopOptions {
  /** How long the gateway gets to close once asked, before it is forced. */
  graceMs?: number
  /** How long to wait for a forced end to take effect. */
  killWaitMs?: number
}

const POLL_MS = 50

/**
 * Stops only what gw started. The gateway is asked first, on its own control API with the token
 * only its runtime file holds, and closes as on SIGTERM (its closing line in its log, its request
 * log and deliveries flushed): on every system, and on Windows, which has no SIGTERM to send, the
 * only way to ask. A gateway that does not answer (a hung one) is signalled only once
 * its pid is shown to be it still (gateway-process.ts holderOf): SIGTERM, then SIGKILL after the
 * grace period; on Windows it is ended at once.
 */
export async function stopSandbox(info: RuntimeInfo, platform: Platform, {graceMs = 5000, killWaitMs = 2000}: StopOptions = {}): Promise<StopOutcome> {
  const answer = await askGateway(info, 'POST', '/_sandbox/stop')
  if (answer?.status === 200 && pidIn(answer.body) === info.pid) {
    if (await exited(info.pid, graceMs, platform)) return {result: 'stopped', how: 'asked'}
    // It answered with its pid and token: it is the gateway, stuck in its close.
    return force(info.pid, platform, killWaitMs)
  }
  const holder = await holderOf(info, platform)
  if (holder === 'gone') return {result: 'stale'}
  if (typeof holder === 'object') return {result: 'stale', now: holder.other}
  if (holder !== 'gateway') return {result: holder}
  if (!platform.asksBySignal) return force(info.pid, platform, killWaitMs)
  const sent = signal(info.pid, 'SIGTERM')
  if (sent !== 'sent') return sent === 'gone' ? {result: 'stale'} : {result: 'theirs'}
  if (await exited(info.pid, graceMs, platform)) return {result: 'stopped', how: 'signalled'}
  return force(info.pid, platform, killWaitMs)
}

/** SIGKILL; on Windows TerminateProcess, whatever the signal's name. */
async function force(pid: number, platform: Platform, killWaitMs: number): Promise<StopOutcome> {
  const sent = signal(pid, 'SIGKILL')
  if (sent === 'theirs') return {result: 'theirs'}
  if (await exited(pid, killWaitMs, platform)) return {result: 'stopped', how: 'killed'}
  throw new Error(`Process ${pid} is still running after it was killed`)
}

function signal(pid: number, name: NodeJS.Signals): 'sent' | 'gone' | 'theirs' {
  try {
    process.kill(pid, name)
    return 'sent'
  } catch (error) {
    const {code} = error as NodeJS.ErrnoException
    if (code === 'ESRCH') return 'gone'
    if (code === 'EPERM') return 'theirs'
    throw error
  }
}

async function exited(pid: number, withinMs: number, platform: Platform): Promise<boolean> {
  const deadline = Date.now() + withinMs
  while (platform.isRunning(pid)) {
    if (Date.now() > deadline) return false
    await sleep(POLL_MS)
  }
  return true
}
