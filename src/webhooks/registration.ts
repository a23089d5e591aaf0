import {connect} from 'node:net'
import {hostPlatform} from '../lib/platform.js'

/**
 * How `gw listen` names the web hook it registers: its address and its process, so that a later
 * gw listen can tell a registration left by one that was killed (`kill -9`, a closed terminal)
 * from one still running.
 */
export function listenHookName(address: string, pid: number = process.pid): string {
  return `gw listen ${address} (pid ${pid})`
}

const LISTEN_HOOK = /^gw listen (\S+) \(pid (\d+)\)$/

/**
 * Whether a web hook was registered by a gw listen on this machine that is no longer running:
 * named by listenHookName, its process gone, and nothing taking connections at its address but
 * this gw listen, which holds `ownAddress` now. Both, so that a gw listen whose pid this machine
 * cannot see (another container on the same loopback) keeps its registration. A hook anyone else
 * registered is never one.
 */
export async function isAbandonedListen(hook: Record<string, unknown>, ownAddress: string): Promise<boolean> {
  const match = LISTEN_HOOK.exec(typeof hook.name === 'string' ? hook.name : '')
  if (!match || match[1] !== hook.address) return false
  if (hostPlatform().isRunning(Number(match[2]))) return false
  return match[1] === ownAddress || !(await takesConnections(match[1]!))
}

/** A connection to the address's host and port is accepted; a refusal is the only "no" (a time-out may be a busy listener). */
function takesConnections(address: string, timeoutMs = 2000): Promise<boolean> {
  let url: URL
  try {
    url = new URL(address)
  } catch {
    return Promise.resolve(false)
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  return new Promise((resolve) => {
    const socket = connect({host: url.hostname.replace(/^\[|\]$/g, ''), port, timeout: timeoutMs})
    const done = (accepted: boolean) => {
      socket.destroy()
      resolve(accepted)
    }
    socket.once('connect', () => done(true))
    socket.once('timeout', () => done(true))
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code !== 'ECONNREFUSED'))
  })
}
