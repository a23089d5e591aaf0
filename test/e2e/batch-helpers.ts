import {type ChildProcess, spawn} from 'node:child_process'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll} from 'vitest'
import {type CountingProxy, countingProxy} from '../counting-proxy.js'
import {baseEnv, cardArgs, GW, type Sandbox, sharedSandbox} from './helpers.js'

/** A local gateway, a card token it issued, and a counting proxy in front of it: what a file of batch tests opens with. */
export interface ProxiedGateway {
  sandbox: Sandbox
  proxy: CountingProxy
  token: string
}

/**
 * A shared local gateway (sharedSandbox) with a card token it issued and a counting proxy in front
 * of it, handed to `started` before the first test of the file or describe block; the proxy is
 * closed after the last.
 */
export function proxiedGateway(started: (gateway: ProxiedGateway) => void): void {
  let proxy: CountingProxy | undefined
  sharedSandbox(async (sandbox) => {
    const token = ((await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])).json as {token: string}).token
    proxy = await countingProxy(sandbox.url)
    started({sandbox, proxy, token})
  })
  afterAll(async () => {
    await proxy?.close()
  })
}

/** A file of its own in a temporary directory. */
export function writeTemp(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'gw-batch-')), name)
  writeFileSync(path, text)
  return path
}

/** gw started without waiting for it, for tests that signal or kill it mid-batch. */
export function spawnGw(sandbox: Sandbox, args: string[], env: NodeJS.ProcessEnv = {}): {child: ChildProcess; done: Promise<{code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string}>} {
  const child = spawn(process.execPath, [GW, ...args], {env: baseEnv(sandbox.env(env)), stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const done = new Promise<{code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string}>((resolve) =>
    child.on('close', (code, signal) => resolve({code, signal, stdout, stderr})),
  )
  return {child, done}
}

/** A batch's lines by row: each is printed as its row finishes, and rows in flight together finish in any order. */
export function inRowOrder(records: unknown[]): unknown[] {
  return [...records].sort((a, b) => (a as {row: number}).row - (b as {row: number}).row)
}

/** The NDJSON lines a batch printed. */
export function rowsOf(stdout: string): {row: number; line: number; reference: string; status: string; exit_code: number; resumed?: boolean; record?: Record<string, unknown>; error?: {messages: string[]}}[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ReturnType<typeof rowsOf>[number])
}
