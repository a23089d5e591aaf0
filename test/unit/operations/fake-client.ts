import {expect} from 'vitest'
import type {GatewayClient} from '../../../src/api/client.js'
import type {Deps} from '../../../src/operations/deps.js'
import {testIo} from '../../test-io.js'

type Call = {method: string; args: unknown[]}

/** The client answers a purchase or refund with the whole answer, not only its record. */
const ANSWERED = new Set(['purchases.create', 'refunds.create'])

/**
 * A client whose methods are the stubs given (`'purchases.create': (body) => record`), recording
 * each call; verify() fails a test that left a stub unused (gh's Registry.Verify).
 */
export function fakeClient(stubs: Record<string, (...args: never[]) => unknown>): {client: GatewayClient; calls: Call[]; verify: () => void} {
  const calls: Call[] = []
  const used = new Set<string>()
  const groups: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {}
  for (const [name, stub] of Object.entries(stubs)) {
    const [group, method] = name.split('.') as [string, string]
    groups[group] ??= {}
    groups[group][method] = async (...args: unknown[]) => {
      calls.push({method: name, args})
      used.add(name)
      const result = await (stub as (...args: unknown[]) => unknown)(...args)
      return ANSWERED.has(name) ? {record: result, raw: {status: 200}} : result
    }
  }
  // What a client is besides its resources: nothing in flight, connections to close (a command's finally closes them), no local gateway's run of data.
  const own: Record<string, unknown> = {close: async () => {}, inFlight: undefined, then: undefined, watchRetries: () => () => {}, watchRateLimits: () => () => {}, gatewayInstance: undefined, processingWindow: async () => 60_000}
  const client = new Proxy(groups, {
    get: (target, group: string) =>
      Object.hasOwn(own, group) ? own[group] : (target[group] ?? new Proxy({}, {get: (_, method: string) => () => Promise.reject(new Error(`unexpected call ${group}.${method}`))})),
  }) as unknown as GatewayClient
  return {client, calls, verify: () => expect([...used].sort()).toEqual(Object.keys(stubs).sort())}
}

export function fakeDeps(client: GatewayClient, {tty = false} = {}): Deps & {io: ReturnType<typeof testIo>} {
  return {client, io: testIo({tty})}
}
