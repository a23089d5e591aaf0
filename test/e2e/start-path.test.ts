import {spawnSync} from 'node:child_process'
import {closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {ref, runProgram, type Sandbox, sharedSandbox} from './helpers.js'

// What the built gw loads to look a purchase up (bench/README.md, "Keeping gw purchase
// get fast"). A Node module no get needs, or the prompts bundled apart, loaded on that path costs
// every get; the benchmark would show it as a ratio, this names it. gw runs from a copy of the
// build, since the module list is recorded with a preload (--require), and node options make gw
// write a code cache of its own beside the bundle.
const root = join(import.meta.dirname, '..', '..')

/** Node's modules a `gw purchase get` has no use for (undici speaks HTTP on node:net): other protocols, prompts, processes, crypto, compression, timing. */
const NOT_FOR_A_GET = ['http', 'http2', 'https', 'tls', 'crypto', 'zlib', 'readline', 'child_process', 'worker_threads', 'assert', 'perf_hooks', 'fs/promises', 'inspector']

let sandbox: Sandbox
let copy: string

sharedSandbox((started) => void (sandbox = started))
beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'gw-start-path-'))
  for (const dir of ['bin', 'dist']) mkdirSync(join(copy, dir))
  for (const file of ['bin/run.js', 'bin/relaunch.js', 'bin/start.js', 'bin/typed-ahead.js', 'bin/package.json', 'dist/gw.cjs', 'dist/inquirer.cjs', 'package.json', 'oclif.manifest.json']) {
    copyFileSync(join(root, file), join(copy, file))
  }
  writeFileSync(
    join(copy, 'loaded.cjs'),
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.GW_TEST_LOADED, JSON.stringify({builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)), files: Object.keys(require.cache)})))\n",
  )
})

/** Runs the copy of gw, and what its process loaded: Node's modules, and the files it required. */
async function loadedBy(args: string[]): Promise<{code: number | null; stdout: string; builtins: string[]; files: string[]}> {
  const record = join(copy, `loaded-${ref()}.json`)
  const result = await runProgram(process.execPath, ['--require', join(copy, 'loaded.cjs'), join(copy, 'bin', 'run.js'), ...args], {env: sandbox.env({GW_TEST_LOADED: record})})
  expect(result.stderr).toBe('')
  return {code: result.code, stdout: result.stdout, ...(JSON.parse(readFileSync(record, 'utf8')) as {builtins: string[]; files: string[]})}
}

describe('gw purchase get, as built', () => {
  it('loads none of the Node modules a get has no use for, nor the prompts bundled apart', async () => {
    const created = (await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card-holder', 'Start Path', '--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123', '--json'])).json as {id: string}
    const got = await loadedBy(['purchase', 'get', created.id, '--json'])
    expect(got.code).toBe(0)
    expect(JSON.parse(got.stdout)).toMatchObject({id: created.id})
    // The check can see what it forbids: a get loads net to reach the gateway.
    expect(got.builtins).toContain('net')
    expect(got.builtins.filter((module) => NOT_FOR_A_GET.includes(module))).toEqual([])
    expect(got.files.filter((file) => file.endsWith('.cjs') && !file.endsWith('gw.cjs') && !file.endsWith('loaded.cjs'))).toEqual([])
  })
})

describe('gw purchase get with stdin from a file (< /dev/null, as cron and CI run it)', () => {
  // Node makes process.stdin on first read, for a file an fs.ReadStream with its streams, promises
  // and readline: a get, which neither prompts nor reads stdin, does not ask it (src/output/io.ts).
  it("does not make process.stdin: none of the fs streams' modules", async () => {
    const created = (await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card-holder', 'Start Path', '--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123', '--json'])).json as {id: string}
    const record = join(copy, `loaded-${ref()}.json`)
    const devNull = openSync('/dev/null', 'r')
    try {
      const result = spawnSync(process.execPath, ['--require', join(copy, 'loaded.cjs'), join(copy, 'bin', 'run.js'), 'purchase', 'get', created.id, '--json'], {
        env: sandbox.env({GW_TEST_LOADED: record}),
        stdio: [devNull, 'pipe', 'pipe'],
        encoding: 'utf8',
      })
      expect(result.stderr).toBe('')
      expect(JSON.parse(result.stdout)).toMatchObject({id: created.id})
    } finally {
      closeSync(devNull)
    }
    const {builtins} = JSON.parse(readFileSync(record, 'utf8')) as {builtins: string[]}
    expect(builtins).toContain('net')
    expect(builtins.filter((module) => ['internal/fs/streams', 'internal/fs/promises', 'internal/readline/interface'].includes(module))).toEqual([])
  })
})

describe('a table at a terminal, as built', () => {
  // string-width compiles an expression of every emoji at load (~12 ms), and the first
  // Intl.Segmenter loads ICU's break rules (~9 ms): scripts/bundle.js has them made when first used.
  // A table of printable ASCII and the '…' of a card's last digits needs neither (src/output/text-width.ts).
  const made = `const counts = {segmenters: 0, emoji: 0}
const {Segmenter} = Intl
Intl.Segmenter = class extends Segmenter { constructor(...args) { super(...args); counts.segmenters++ } }
const RealRegExp = RegExp
globalThis.RegExp = new Proxy(RealRegExp, {construct(target, args) { if (String(args[0]).includes('RGI_Emoji')) counts.emoji++; return Reflect.construct(target, args) }})
process.on('exit', () => require('node:fs').writeFileSync(process.env.GW_TEST_MADE, JSON.stringify(counts)))
`

  async function listedAtTerminal(holder: string): Promise<{segmenters: number; emoji: number}> {
    writeFileSync(join(copy, 'made.cjs'), made)
    const reference = ref('table')
    await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, '--card-holder', holder, '--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123'])
    const record = join(copy, `made-${ref()}.json`)
    const result = await runProgram(process.execPath, ['--require', join(copy, 'made.cjs'), join(copy, 'bin', 'run.js'), 'purchase', 'list', '--reference', reference, '--fields', 'reference,card_holder,card_number'], {
      env: sandbox.env({GW_TEST_MADE: record, GW_FORCE_TTY: '120'}),
    })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(holder)
    return JSON.parse(readFileSync(record, 'utf8')) as {segmenters: number; emoji: number}
  }

  it('makes neither a Segmenter nor the emoji expression where its cells are ASCII and a card\'s …4242', async () => {
    expect(await listedAtTerminal('Jane Citizen')).toEqual({segmenters: 0, emoji: 0})
  })

  it('makes both once a cell holds an emoji, so the check above can fail', async () => {
    expect(await listedAtTerminal('Jane 👩‍💻 Citizen')).toEqual({segmenters: 1, emoji: 1})
  })
})
