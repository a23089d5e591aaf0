import {ownerWords} from '../lib/not-yours.js'
import {GwError, PermissionError} from '../errors.js'
import type {Platform} from '../lib/platform.js'
import type {Io} from '../output/io.js'
import {renderError} from '../output/render.js'
import {sanitizeLine} from '../safety/sanitize.js'
import {knownSandboxes, sandboxStatus, type SandboxStatus} from '../sandbox/server/gateway-process.js'
import {DEFAULT_SANDBOX} from '../sandbox/server/names.js'
import {nameKey, removeRuntimeFile, type RuntimeInfo, sandboxFiles} from '../sandbox/server/runtime-file.js'
import {stopSandbox, type StopOutcome} from '../sandbox/server/stopping.js'

export interface StopContext {
  io: Io
  dataDir: string
  platform: Platform
}

/**
 * `gw sandbox stop`: each gateway named (every one gw knows of with `all`), stopped only once it
 * is shown to be that gateway (sandbox/server/stopping.ts), each outcome said on stderr. A runtime
 * file left by a gateway gone, or whose pid another program has now, is removed, and said so.
 * Resolves with the exit status: 0, or the worst of gateways left running (another user's, 6;
 * one gw cannot tell, 1); one gateway asked for by name throws its error instead.
 */
export async function stopSandboxes(which: {all: true} | {name: string}, ctx: StopContext): Promise<number> {
  const {io, dataDir, platform} = ctx
  const gateways =
    'all' in which
      ? await knownSandboxes(dataDir, platform)
      : [await (async () => {
          const {runtime} = sandboxFiles(dataDir, which.name)
          return {name: which.name, runtime, status: await sandboxStatus(runtime, platform)}
        })()]
  if (gateways.length === 0) io.err('No local gateway is running.\n')
  let worst = 0
  for (const {name, runtime, status} of gateways) {
    const left = await stopOne(name, runtime, status, ctx)
    if (left === undefined) continue
    if (!('all' in which)) throw left
    renderError(io, left, {json: false})
    worst = Math.max(worst, left.exitCode)
  }
  return worst
}

/** Stops one gateway and says so; the error of one left running. */
async function stopOne(name: string, runtime: string, status: SandboxStatus, {io, platform}: StopContext): Promise<GwError | undefined> {
  const called = calledOf(name, status.state === 'stopped' ? undefined : status.info)
  if (status.state === 'stopped') {
    io.err(`${called} is not running.\n`)
    return undefined
  }
  if (status.state === 'theirs') return theirs(called, status.owner, status.info, runtime)
  if (status.state === 'stale') return void io.err(removeStale(name, runtime, status.info, status.now))
  const outcome: StopOutcome = await stopSandbox(status.info, platform)
  const {info} = status
  if (outcome.result === 'stale') return void io.err(staleWords(called, info, outcome.now, removed(runtime, info)))
  if (outcome.result === 'theirs') return theirs(called, platform.processOwner(info.pid) ?? 'another user', info, runtime)
  if (outcome.result === 'unknown') {
    return new GwError('unexpected', 1, `pid ${info.pid} runs, but gw cannot tell whether it is ${called.replace('The', 'the')} at ${info.url}: it was left alone`, {
      hint: `See what it is (${platform.hints.show(info.pid)}); if it is the gateway, stop it (${platform.hints.stop(info.pid)}) and remove ${runtime}.`,
    })
  }
  removeRuntimeFile(runtime, info.pid)
  // Without a state file its records went with it: said, as gw sandbox start said they would.
  const lost = info.stateFile ? '' : '; its records are gone with it (it had no --state file)'
  io.err(`Stopped ${called.replace('The', 'the')} at ${info.url}${outcome.how === 'killed' ? ' (it had to be killed)' : ''}${lost}.\n`)
  return undefined
}

/**
 * Removes the runtime file of a gateway gone, or whose pid another program has now (unless a newer
 * gateway wrote it meanwhile), and says so: gw sandbox stop and status alike.
 */
export function removeStale(name: string, runtime: string, info: RuntimeInfo, now: string | undefined): string {
  return staleWords(calledOf(name, info), info, now, removed(runtime, info))
}

/** `The local gateway`, or `The local gateway Shop` as it was started. */
function calledOf(name: string, info: RuntimeInfo | undefined): string {
  return nameKey(name) === DEFAULT_SANDBOX ? 'The local gateway' : `The local gateway ${info?.name ?? name}`
}

/** Removes a stale runtime file (unless a newer gateway wrote it meanwhile), for the words that name it. */
function removed(runtime: string, info: RuntimeInfo): string {
  removeRuntimeFile(runtime, info.pid)
  return runtime
}

/** A stale runtime file's gateway: gone, or its pid another program's now (its command line, shortened), which was left alone. */
function staleWords(called: string, info: RuntimeInfo, now: string | undefined, file: string): string {
  if (now === undefined) return `${called} at ${info.url} had already stopped (pid ${info.pid} is gone); removed its runtime file ${file}.\n`
  const command = sanitizeLine(now.length > 80 ? `${now.slice(0, 77)}...` : now)
  return `${called} at ${info.url} had already stopped: pid ${info.pid} is another program now (${command}), left alone; removed the gateway's runtime file ${file}.\n`
}

function theirs(called: string, owner: string, info: RuntimeInfo | undefined, runtime: string): GwError {
  const where = info ? ` at ${info.url} (pid ${info.pid})` : ` of ${runtime}`
  const user = ownerWords(owner)
  return new PermissionError(`${called}${where} belongs to ${user}: gw stops only a gateway of your own`, {hint: `${user.charAt(0).toUpperCase()}${user.slice(1)} can stop it with gw sandbox stop, or an administrator can.`})
}
