import {spawnSync} from 'node:child_process'
import {mkdtempSync, realpathSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, expect, type TestContext} from 'vitest'
import {type Counted, countingProxy, type CountingProxy} from '../counting-proxy.js'
import {cardArgs, isolatedHome, type ProcessSandbox, purchasedAtGateway, ref, type Sandbox, startSandbox, startSandboxProcess} from './helpers.js'

// What the tests of identity, not names (design.md §5) share: a counting proxy that can hold POSTs,
// batches to send through it, and bind mounts.

/**
 * A counting proxy that holds the POSTs `hold` picks (by their count, 1 for the first, and path)
 * until released, as a gateway still processing them would.
 */
export interface Relay extends CountingProxy {
  /** Resolves once the first POST to hold has arrived. */
  held: Promise<void>
  /** Passes the held POSTs on (and every later one); resolves once the gateway answered them. */
  release(): Promise<void>
}

export async function relay(target: string, options: {hold?: (post: number, path: string) => boolean; strip?: string[]} = {}): Promise<Relay> {
  let posts = 0
  let open = () => {}
  const opened = new Promise<void>((resolve) => (open = resolve))
  let heldNow = () => {}
  const held = new Promise<void>((resolve) => (heldNow = resolve))
  const parked: Counted[] = []
  const proxy = await countingProxy(target, {
    strip: options.strip,
    hold: (request) => {
      // Once released, a POST picked waits on a promise already kept: it passes at once.
      if (request.method !== 'POST' || !options.hold?.(++posts, request.path)) return undefined
      parked.push(request)
      heldNow()
      return opened
    },
  })
  return Object.assign(proxy, {
    held,
    async release() {
      open()
      await Promise.all(parked.map((request) => proxy.answered((answered) => answered === request)))
    },
  })
}

/**
 * What each test of a file starts, undone after it, the last started first: local gateways,
 * counting proxies and relays, and whatever else a test pushes onto `cleanups` (a process, a mount).
 */
export function startedPerTest() {
  const cleanups: (() => Promise<unknown> | unknown)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return starters(cleanups)
}

/**
 * The same for one test of tests that run at once (`describe.concurrent`): what it starts is
 * undone when it finishes, by its own `onTestFinished` (from its context), whatever the others do.
 */
export function startedInTest(onTestFinished: TestContext['onTestFinished']) {
  const cleanups: (() => Promise<unknown> | unknown)[] = []
  onTestFinished(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return starters(cleanups)
}

function starters(cleanups: (() => Promise<unknown> | unknown)[]) {
  const kept = <T>(started: T, undo: (started: T) => unknown): T => {
    cleanups.push(() => undo(started))
    return started
  }
  return {
    cleanups,
    gateway: async (args: string[] = [], home = isolatedHome()): Promise<Sandbox> => kept(await startSandbox(args, home), (started) => started.stop()),
    /** A gateway as a process: a test of the lock on its state file, which is its process's, names its pid. */
    gatewayProcess: async (args: string[] = [], home = isolatedHome()): Promise<ProcessSandbox> => kept(await startSandboxProcess(args, home), (started) => started.stop()),
    counted: async (upstream: string): Promise<CountingProxy> => kept(await countingProxy(upstream), (proxy) => proxy.close()),
    relayed: async (target: string, options: Parameters<typeof relay>[1] = {}): Promise<Relay> => kept(await relay(target, options), (started) => started.close()),
  }
}

/** A folder of its own, by its real path. */
export const folder = () => realpathSync(mkdtempSync(join(tmpdir(), 'gw-identity-')))

/** `count` purchases of 10.00 AUD made at the gateway through its API (what follows them is tested): their references. */
export async function purchasedAt(sandbox: Sandbox, count: number): Promise<string[]> {
  const prefix = ref('id')
  const made = await Promise.all(Array.from({length: count}, (_, i) => purchasedAtGateway(sandbox, {amount: 1000, reference: `${prefix}-${i + 1}`})))
  return made.map((purchase) => purchase.reference)
}

/** A purchase batch of `count` rows charging a card tokenized at `sandbox`: its file and references. */
export async function purchaseBatch(sandbox: Sandbox, count: number): Promise<{file: string; references: string[]; dir: string}> {
  const card = await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])
  expect(card.code, card.stderr).toBe(0)
  const token = (card.json as {token: string}).token
  const prefix = ref('id')
  const references = Array.from({length: count}, (_, i) => `${prefix}-${i + 1}`)
  const dir = folder()
  const file = join(dir, 'purchases.csv')
  writeFileSync(file, ['card_token,amount,reference', ...references.map((reference) => `${token},1000,${reference}`)].join('\n') + '\n')
  return {file, references, dir}
}

/** Every reference POSTed exactly once, counted at the proxy (whatever gw believes). */
export function expectOnePostEach(proxy: CountingProxy, references: string[], what?: string): void {
  expect(proxy.repeats(), what).toEqual({})
  expect(references.map((reference) => proxy.posts(reference)), what).toEqual(references.map(() => 1))
}

// A bind mount gives one file a second name that no path or symlink leads to: only its device and
// inode tell. Mounting needs root: CI runs as root; elsewhere these are skipped, as their names say.
export const root = process.getuid?.() === 0
export const NEEDS_ROOT = root ? '' : ' (skipped: mount --bind needs root; CI runs it)'

/** `source` mounted over `target` (both files); returns what unmounts it, for the test's clean-up. */
export function bindMount(source: string, target: string): () => void {
  writeFileSync(target, '')
  const mounted = spawnSync('mount', ['--bind', source, target], {encoding: 'utf8'})
  expect(mounted.status, mounted.stderr).toBe(0)
  return () => spawnSync('umount', [target])
}

