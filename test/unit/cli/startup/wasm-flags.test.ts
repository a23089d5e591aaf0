import {spawnSync} from 'node:child_process'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {hostTarget, pinFor} from '../../../../scripts/registry-node.js'

// bin/start.js has undici's WebAssembly compiled by V8's baseline compiler only, and sets V8's
// flags back before it writes a code cache. V8 takes a code cache only under the flags it was written with: Node's cache of its own
// modules, and gw's bundle's. Flags are per process: each case runs a Node of its own.
const start = join(import.meta.dirname, '..', '..', '..', '..', 'bin', 'start.js')
const {WASM_BASELINE_ONLY, V8_DEFAULTS_AFTER} = createRequire(import.meta.url)(start) as {WASM_BASELINE_ONLY: string; V8_DEFAULTS_AFTER: Record<string, string>}
const v8 = process.versions.v8.split('.').slice(0, 2).join('.')

function node(script: string, env: Record<string, string> = {}): string {
  const result = spawnSync(process.execPath, ['-e', script], {encoding: 'utf8', env: {...process.env, ...env}})
  expect(result.stderr).toBe('')
  return result.stdout
}

/** A code cache written under Node's own flags. */
const cache = node("process.stdout.write(new (require('node:vm').Script)('(() => 1)()').createCachedData().toString('base64'))")

/** Whether V8 takes that cache after each of `flags` was set in turn. */
function cacheAfter(...flags: string[]): string {
  return node(
    `const v8 = require('node:v8')
     for (const flags of JSON.parse(process.env.FLAGS)) v8.setFlagsFromString(flags)
     const script = new (require('node:vm').Script)('(() => 1)()', {cachedData: Buffer.from(process.env.CACHE, 'base64')})
     process.stdout.write(script.cachedDataRejected ? 'rejected' : 'taken')`,
    {FLAGS: JSON.stringify(flags), CACHE: cache},
  )
}

describe.skipIf(!V8_DEFAULTS_AFTER[v8])(`V8's flags around undici's WebAssembly (V8 ${v8}${V8_DEFAULTS_AFTER[v8] ? '' : ', which bin/start.js does not know: it sets --liftoff-only for the whole run'})`, () => {
  it('V8 refuses a cache while the baseline-only flags are set', () => {
    expect(cacheAfter()).toBe('taken')
    expect(cacheAfter(WASM_BASELINE_ONLY)).toBe('rejected')
  })

  it('keeps WebAssembly on the baseline compiler when set at run time, as bin/start.js sets them: a hot function is never tiered up', () => {
    // V8 draws a flag's implications at start only: set at run time, --liftoff-only alone left V8 13
    // tiering undici's parser up while it read a long body (~24 MiB of compile memory). Tiering made
    // synchronous, after a small budget, so that a function that would tier up does so at once.
    const tiered = (flags: string) =>
      node(
        `const v8 = require('node:v8')
         v8.setFlagsFromString('--allow-natives-syntax --wasm-sync-tier-up --wasm-tiering-budget=1000')
         if (process.env.FLAGS) v8.setFlagsFromString(process.env.FLAGS)
         // (func (export "f") (param i32) (result i32) local.get 0 i32.const 1 i32.add)
         const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,6,1,96,1,127,1,127,3,2,1,0,7,5,1,1,102,0,0,10,9,1,7,0,32,0,65,1,106,11])
         const {f} = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports
         let x = 0
         for (let i = 0; i < 100000; i++) x = f(x)
         process.stdout.write(new Function('f', 'return %IsTurboFanFunction(f)')(f) ? 'optimised' : 'baseline')`,
        {FLAGS: flags},
      )
    expect(tiered('')).toBe('optimised')
    expect(tiered(WASM_BASELINE_ONLY)).toBe('baseline')
  })

  it('and takes it again once bin/start.js has set them back (before it writes a cache), the flags they imply included', () => {
    expect(cacheAfter(WASM_BASELINE_ONLY, V8_DEFAULTS_AFTER[v8]!)).toBe('taken')
    // Where the flag implies others (V8 before 13), setting it back alone is not enough.
    if (V8_DEFAULTS_AFTER[v8] !== '--no-liftoff-only') expect(cacheAfter(WASM_BASELINE_ONLY, '--no-liftoff-only')).toBe('rejected')
  })
})

// The single executable starts with node options of its own (bin/start.js EXECUTABLE_FLAGS, put in
// its execArgv by scripts/package.js) and loads the code cache the build wrote without them.
// Only the Node the executable embeds (scripts/embedded-node) ever starts with them: an older V8 counts them in its flags' hash.
const embedded = `v${pinFor(hostTarget())!.version}`
describe.runIf(process.version === embedded)("the single executable's node options", () => {
  const {EXECUTABLE_FLAGS} = createRequire(import.meta.url)(start) as {EXECUTABLE_FLAGS: string[]}

  it('leave V8 taking a code cache written without them', () => {
    const script = `const script = new (require('node:vm').Script)('(() => 1)()', {cachedData: Buffer.from(process.env.CACHE, 'base64')})
      process.stdout.write(script.cachedDataRejected ? 'rejected' : 'taken')`
    const result = spawnSync(process.execPath, [...EXECUTABLE_FLAGS, '-e', script], {encoding: 'utf8', env: {...process.env, CACHE: cache}})
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe('taken')
  })
})

it.runIf(process.version !== embedded)(`skipped: the single executable's node options are checked on the Node it embeds (${embedded}), not ${process.version}`, () => {})
