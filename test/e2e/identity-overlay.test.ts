import {spawn, spawnSync} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {rowsOf, spawnGw} from './batch-helpers.js'
import {expectOnePostEach, folder, purchaseBatch, startedInTest} from './identity-helpers.js'
import {baseEnv, describeOnce, GW, isolatedHome, runGw, runProgram, type Sandbox} from './helpers.js'
import {OVERLAY_SKIPPED, overlaysMountable} from '../overlay-mount.js'

// One writer through an overlay file system (design.md §5): a journal reached through an
// overlay's merged path and through its upper directory is one file, though the kernel's lock taken
// through one name is not seen through the other; gw locks it under both, by what the mount table
// says. Mounting an overlay needs root: CI runs as root; elsewhere these are skipped, as their names say.

/** Whether this process may also make a mount namespace of its own, as a container has. */
const canUnshare = overlaysMountable && spawnSync('unshare', ['--mount', 'true']).status === 0

type Started = ReturnType<typeof startedInTest>

/** A program started without waiting for it (spawnGw's shape), with the gateway's environment. */
function spawnWrapped(sandbox: Sandbox, command: string[], env: NodeJS.ProcessEnv): ReturnType<typeof spawnGw> {
  const child = spawn(command[0]!, command.slice(1), {env: baseEnv(sandbox.env(env)), stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return {child, done: new Promise((resolve) => child.on('close', (code, signal) => resolve({code, signal, stdout, stderr})))}
}

/** An overlay mounted in a folder of its own, `options` naming its folders (absolute, or as given relative to it); unmounted after the test. */
function overlay({cleanups}: Started, relative = false): {merged: string; upper: string; layers: string} {
  const dir = folder()
  const layers = join(dir, 'layers')
  for (const name of ['lower', 'upper', 'work']) mkdirSync(join(layers, name), {recursive: true})
  const merged = join(dir, 'merged')
  mkdirSync(merged)
  const at = (name: string) => (relative ? `layers/${name}` : join(layers, name))
  const mounted = spawnSync('mount', ['-t', 'overlay', 'overlay', '-o', `lowerdir=${at('lower')},upperdir=${at('upper')},workdir=${at('work')}`, merged], {cwd: dir, encoding: 'utf8'})
  expect(mounted.status, mounted.stderr).toBe(0)
  cleanups.push(() => spawnSync('umount', [merged]))
  return {merged, upper: join(layers, 'upper'), layers}
}

/**
 * A purchase batch held mid-way (its first POST at the gate) on `journal`; `second` runs the same
 * batch on the journal's other name meanwhile and must be refused, naming the first's pid. Let
 * through, the first sends every row once.
 */
async function whileHeld(
  started: Started,
  journal: string,
  second: (sandbox: Sandbox, file: string, env: NodeJS.ProcessEnv) => Promise<{code: number | null; stdout: string; stderr: string}>,
  wrap: string[] = [],
): Promise<void> {
  const {cleanups, gateway, counted, relayed} = started
  const sandbox = await gateway()
  const {file, references} = await purchaseBatch(sandbox, 6)
  const gate = await relayed(sandbox.url, {hold: (post) => post === 1})
  const proxy = await counted(gate.url)
  const env = {GW_BASE_URL: proxy.url}
  // `wrap`: what the first gw is started under (unshare, for one in a mount namespace of its own).
  const first = wrap.length === 0 ? spawnGw(sandbox, ['purchase', 'create', '--input', file, '--journal', journal, '--concurrency', '2'], env) : spawnWrapped(sandbox, [...wrap, process.execPath, GW, 'purchase', 'create', '--input', file, '--journal', journal, '--concurrency', '2'], env)
  cleanups.push(() => first.child.kill('SIGKILL'))
  await gate.held
  const refused = await second(sandbox, file, env)
  expect(refused.stderr).toContain(`Error: Another gw (pid ${first.child.pid}) is running the batch of journal `)
  expect(refused.stderr).toContain('nothing was sent')
  expect(refused.code).toBe(2)
  expect(refused.stdout).toBe('')
  await gate.release()
  const done = await first.done
  expect(done.code, done.stderr).toBe(0)
  expect(rowsOf(done.stdout).map((row) => row.status)).toEqual(references.map(() => 'approved'))
  expectOnePostEach(proxy, references)
}

describeOnce.concurrent('a journal on an overlay file system (a container’s own layer)', () => {
  it.skipIf(!overlaysMountable)(`run through the overlay, then through its upper directory while the first runs: refused (exit 2), every row POSTed once${OVERLAY_SKIPPED}`, async ({onTestFinished}) => {
    const started = startedInTest(onTestFinished)
    const {merged, upper} = overlay(started)
    await whileHeld(started, join(merged, 'j.sqlite'), (sandbox, file, env) => sandbox.gw(['purchase', 'create', '--input', file, '--journal', join(upper, 'j.sqlite')], {env}))
  })

  it.skipIf(!overlaysMountable)(`run through the upper directory, then through the overlay while the first runs: refused (exit 2), every row POSTed once${OVERLAY_SKIPPED}`, async ({onTestFinished}) => {
    const started = startedInTest(onTestFinished)
    const {merged, upper} = overlay(started)
    // The file is made through the overlay first, as a container makes its own.
    writeFileSync(join(merged, 'j.sqlite'), '')
    await whileHeld(started, join(upper, 'j.sqlite'), (sandbox, file, env) => sandbox.gw(['purchase', 'create', '--input', file, '--journal', join(merged, 'j.sqlite')], {env}))
  })

  it.skipIf(!canUnshare).for(['the host', 'the container'])(
    `one gw in a mount namespace of its own that sees the overlay but not its upper directory (as in a container), one on the upper directory (its host), %s first: the second is refused${canUnshare ? '' : OVERLAY_SKIPPED || ' (skipped: unshare --mount needs a kernel that allows it; CI runs it)'}`,
    async (firstOne, {onTestFinished}) => {
      const started = startedInTest(onTestFinished)
      const {merged, upper, layers} = overlay(started)
      writeFileSync(join(merged, 'j.sqlite'), '')
      // The container: the overlay's layers hidden under a tmpfs of its own.
      const container = ['unshare', '--mount', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs gw-hidden-layers "$1" && shift && exec "$@"', 'sh', layers]
      if (firstOne === 'the host') {
        await whileHeld(started, join(upper, 'j.sqlite'), (sandbox, file, env) =>
          runProgram(container[0]!, [...container.slice(1), process.execPath, GW, 'purchase', 'create', '--input', file, '--journal', join(merged, 'j.sqlite')], {env: sandbox.env(env)}),
        )
      } else {
        await whileHeld(started, join(merged, 'j.sqlite'), (sandbox, file, env) => sandbox.gw(['purchase', 'create', '--input', file, '--journal', join(upper, 'j.sqlite')], {env}), container)
      }
    },
  )

  it.skipIf(!overlaysMountable)(`on an overlay whose upper directory the mount table names only relatively (mounted from a folder no one can know now): refused, saying why (exit 2), nothing sent; a local gateway's --state there too${OVERLAY_SKIPPED}`, async ({onTestFinished}) => {
    const started = startedInTest(onTestFinished)
    const {merged} = overlay(started, true)
    const sandbox = await started.gateway()
    const {file} = await purchaseBatch(sandbox, 2)
    const proxy = await started.counted(sandbox.url)
    const journal = join(merged, 'j.sqlite')
    const refused = await sandbox.gw(['purchase', 'create', '--input', file, '--journal', journal], {env: {GW_BASE_URL: proxy.url}})
    expect(refused.stderr).toContain(
      `Error: The batch journal ${journal} is on an overlay file system, and the mount table names its upper directory only as it was given (layers/upper): a gw reaching the file through it would not meet this one's lock, so nothing was sent\nHint: Give --journal a file outside the overlay (on a volume, or another file system).\n`,
    )
    expect(refused.code).toBe(2)
    expect(proxy.seen.filter((request) => request.method === 'POST')).toEqual([])
    const state = join(merged, 'state.json')
    const gatewayThere = await runGw(['sandbox', 'start', '--port', '0', '--no-request-log', '--state', state], {env: isolatedHome()})
    expect(gatewayThere.stderr).toContain(`Error: ${state} is on an overlay file system, and the mount table names its upper directory only as it was given (layers/upper)`)
    expect(gatewayThere.code).toBe(2)
  })
})

describeOnce.concurrent('a local gateway’s state file on an overlay', () => {
  it.skipIf(!overlaysMountable)(`started through the overlay, then through its upper directory: the second is refused as in use (exit 2)${OVERLAY_SKIPPED}`, async ({onTestFinished}) => {
    const started = startedInTest(onTestFinished)
    const {merged, upper} = overlay(started)
    const first = await started.gatewayProcess(['--state', join(merged, 'state.json')])
    const other = join(upper, 'state.json')
    const second = await runGw(['sandbox', 'start', '--port', '0', '--no-request-log', '--state', other], {env: isolatedHome()})
    expect(second.stderr).toContain(`Error: ${other} is in use by another local gateway (pid ${first.process.pid})`)
    expect(second.code).toBe(2)
  })
})
