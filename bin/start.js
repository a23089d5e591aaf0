// What gw does before oclif, shared by bin/run.js (gw from npm or a clone) and bin/sea.js (the
// single executable, `npm run package`): the --version line, the saved root help, and the bundle
// compiled from V8's code cache. CommonJS, like bin/run.js, and only node's own modules.
const fs = require('node:fs')
const {dirname, join} = require('node:path')

/** The same line oclif prints, at node's own start-up cost; `node` is the version of the Node gw runs on. */
function printVersion(version, node = process.version) {
  const arch = process.arch === 'ia32' ? 'x86' : process.arch
  process.stdout.write(`gw/${version} ${process.platform}-${arch} node-${node}\n`)
}

/** --version, -v, or `gw version` alone (gh's): answered without the bundle, so read by hand, not through flagsGiven. */
function isVersion(args) {
  return args[0] === '--version' || args[0] === '-v' || (args.length === 1 && args[0] === 'version')
}

function isRootHelp(args) {
  return args.length === 0 || (args.length === 1 && ['--help', '-h', 'help'].includes(args[0]))
}

/** The width oclif wraps the help at. */
function helpWidth() {
  return Number.parseInt(process.env.OCLIF_COLUMNS, 10) || (process.stdout.isTTY ? Math.max(40, process.stdout.columns || 80) : 80)
}

/**
 * gw's own directory in the user's cache, as oclif's config.cacheDir finds it: GW_CACHE_DIR, else
 * ~/Library/Caches/gw on macOS, else $XDG_CACHE_HOME/gw, %LOCALAPPDATA%\gw on Windows, ~/.cache/gw.
 * What gw cannot keep beside itself (a read-only install, the single executable) is kept here.
 */
function userCacheDir() {
  const {env} = process
  if (env.GW_CACHE_DIR) return env.GW_CACHE_DIR
  const home = () => env.HOME || require('node:os').homedir()
  if (process.platform === 'darwin') return join(home(), 'Library', 'Caches', 'gw')
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' && env.LOCALAPPDATA) || join(home(), '.cache')
  return join(base, 'gw')
}

/**
 * gw's cache folder, where it is the user's alone (as lib/own-file.ts trusts a folder, here in a
 * few stats for the start): the user's or root's, and no one else can write it, or the folder it is
 * in (a sticky one, as /tmp is, aside). Not made yet, the nearest folder above it that is there is
 * checked so. Undefined for one another user made or can write (GW_CACHE_DIR under /tmp, made
 * first by someone else): its root help would be printed as gw's, and its code cache run as gw.
 * Windows: Node tells no owners there, and %LOCALAPPDATA% is the user's by its access list.
 */
function ownCacheDir(dir = userCacheDir(), uid = process.getuid?.()) {
  if (uid === undefined) return dir
  try {
    let folder = dir
    let stat = fs.statSync(folder, {throwIfNoEntry: false})
    while (!stat && dirname(folder) !== folder) stat = fs.statSync((folder = dirname(folder)), {throwIfNoEntry: false})
    const link = folder === dir ? fs.lstatSync(dir) : undefined
    const above = fs.statSync(dirname(folder))
    const trusted = (owner) => owner === uid || owner === 0
    const sticky = (mode) => (mode & 0o1000) !== 0
    if (!stat?.isDirectory() || !trusted(stat.uid) || (stat.mode & 0o022) !== 0) return undefined
    if (link && !trusted(link.uid)) return undefined
    if (!trusted(above.uid) || ((above.mode & 0o022) !== 0 && !sticky(above.mode))) return undefined
    return dir
  } catch {
    return undefined
  }
}

/** Where the saved root help holds the guides' place: each install has its own (guidesPlace). */
const GUIDES_HERE = '<gw-guides>'
/** The guides' place as bin/run.js or bin/sea.js found it, for the bundle's help and hints (src/lib/guides.ts). */
const GUIDES = Symbol.for('gw.guides')

/**
 * Where this install's guides are: `dir` (docs/ beside gw: an npm install, a clone, an unpacked
 * archive, Homebrew's and Scoop's folders) where it is there, else, for a gw copied without them,
 * their copy for this version at the repository package.json names (read only then:
 * `packageJson` gives it). Kept for the bundle too.
 */
function guidesPlace(dir, packageJson) {
  const place = fs.statSync(dir, {throwIfNoEntry: false})?.isDirectory() ? dir : onlineGuides(packageJson())
  globalThis[GUIDES] = place
  return place
}

/** This version's guides at the repository package.json names: a gw copied without its docs/ points there. */
function onlineGuides(pjson) {
  const repository = typeof pjson.repository === 'string' ? pjson.repository : pjson.repository?.url
  return `${String(repository ?? pjson.homepage ?? '').replace(/^git\+/, '').replace(/(\.git|#.*)$/, '')}/tree/v${pjson.version}/docs`
}

/**
 * Prints the root help oclif rendered before, found in the first of `files` that holds it, and
 * returns true; else returns false and has this run, if it ends well, save what it prints into
 * the first of `files` it can write. The text depends only on the build, Node's version (it shows
 * it) and the width, which every file name says, and on where the install's guides are (`guides`),
 * which is saved as a mark and put back as it is printed. An undefined file (in a cache folder not
 * the user's alone: ownCacheDir) is skipped.
 */
function printSavedRootHelp(given, guides) {
  const files = given.filter(Boolean)
  for (const file of files) {
    const text = readIfThere(file)
    if (!text) continue
    process.stdout.write(text.toString('utf8').replaceAll(GUIDES_HERE, guides))
    return true
  }
  const printed = []
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = (chunk, ...rest) => (printed.push(String(chunk)), write(chunk, ...rest))
  process.once('exit', (code) => {
    if (code === 0) files.some((file) => replaceFile(file, printed.join('').replaceAll(guides, GUIDES_HERE)))
  })
  return false
}

/**
 * The bundle, CommonJS compiled with vm.Script from V8's code cache: compiling the 2 MB bundle is
 * ~30 ms of every start, reading its cache ~2 ms. A cache holds what the run that wrote it
 * compiled: one trained by the command that is run saves ~10 ms more than one trained by another.
 * The build trains one with `gw purchase get` and ships it (scripts/train-start.js). `caches` are
 * tried in order, each `{data}` or `{file: () => path or undefined}`; where V8 accepts none
 * (another Node, other V8 flags, none there), this run writes one at exit into the first file it
 * can write. oclif require()s the bundle for its commands: `requireFor(module)` gives the bundle a
 * require that answers with this module.
 */
function loadBundle({filename, source, caches}, requireFor) {
  const {Script} = require('node:vm')
  const {Module} = require('node:module')
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`
  const files = []
  let script
  for (const cache of caches) {
    const file = cache.file?.()
    if (file) files.push(file)
    const cachedData = cache.data ?? (file && readIfThere(file))
    if (!cachedData) continue
    script = new Script(wrapped, {filename, cachedData})
    if (!script.cachedDataRejected) break
    script = undefined
  }
  if (!script) {
    script = new Script(wrapped, {filename})
    writeCacheAtExit(script, files)
  }
  const module = new Module(filename)
  module.filename = filename
  module.paths = Module._nodeModulePaths(dirname(filename))
  script.runInThisContext()(module.exports, requireFor(module), module, filename, dirname(filename))
  module.loaded = true
  return module.exports
}

/**
 * At exit, so the cache also holds the functions this run compiled; into the first file that can
 * be written; and not over a cache another run wrote meanwhile (a long-lived gw sandbox).
 */
function writeCacheAtExit(script, files) {
  const found = files.map((file) => fs.statSync(file, {throwIfNoEntry: false})?.mtimeMs)
  process.once('exit', () => {
    let data
    for (const [index, file] of files.entries()) {
      if (fs.statSync(file, {throwIfNoEntry: false})?.mtimeMs !== found[index]) return
      v8FlagsAsStarted()
      data ??= script.createCachedData()
      if (replaceFile(file, data)) return
    }
  })
}

/** Writes a file whole through a rename, so no reader sees half of it; false where it cannot be written. */
function replaceFile(file, data) {
  const staging = `${file}.${process.pid}`
  try {
    fs.mkdirSync(dirname(file), {recursive: true, mode: 0o700})
    fs.writeFileSync(staging, data)
    fs.renameSync(staging, file)
    return true
  } catch {
    fs.rmSync(staging, {force: true})
    return false
  }
}

/** A file's contents, or undefined where it is not there or cannot be read. */
function readIfThere(file) {
  try {
    return fs.readFileSync(file)
  } catch {
    return undefined
  }
}

/**
 * The name of a bundle's code cache for this Node: V8 rejects a cache another Node wrote, or one
 * written under other V8 flags (NODE_OPTIONS=--max-old-space-size=4096 is one), so node flags
 * given add a hash of them to the name, and each such cache is kept apart from the shipped one.
 */
function codeCacheName(bundleName) {
  const flags = nodeFlags()
  return `${bundleName}.${process.version}-${process.arch}${flags ? `-${fnv1a(flags)}` : ''}.cache`
}

/**
 * The node options the single executable starts with (scripts/package.js puts them in its
 * execArgv). A young generation of 8 MiB from the start: a command allocates ~12 MiB and keeps
 * most of it, which V8's default (1 MiB, grown as it goes) scavenged three times, copying what
 * lived each time: ~5% of the instructions of a `gw purchase get` (bench/README.md). V8 takes a
 * code cache under it, so a cache's name leaves it out. npm's gw is started by `node` through
 * the bin link's #! line, which takes no options portably, so only the executable has it.
 */
const EXECUTABLE_FLAGS = ['--min-semi-space-size=8']

/** The node options this process was given, on its command line or in NODE_OPTIONS ('' for none), but the executable's own. */
function nodeFlags() {
  return [...process.execArgv.filter((flag) => !EXECUTABLE_FLAGS.includes(flag)), process.env.NODE_OPTIONS ?? ''].join(' ').trim()
}

/** A short hash of a short string, without loading node:crypto. */
function fnv1a(text) {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, '0')
}

/**
 * The code cache's place in the user's cache directory, which every gw install and version
 * shares: V8 would accept a cache written for another source of the same length, so the name
 * carries the build's hash, which scripts/bundle.js writes on the bundle's last lines.
 */
function userCodeCacheFile(source) {
  return () => {
    const build = /\/\/# gw-build=(\w+)\n/.exec(source.slice(-200))?.[1]
    const dir = build && ownCacheDir()
    return dir && join(dir, codeCacheName(`gw.cjs-${build}`))
  }
}

/**
 * The V8 flag that has WebAssembly compiled by V8's baseline compiler (Liftoff) alone, and, by V8
 * version, the flags that set it and those it implies back to V8's defaults (Node 20's V8 11.3,
 * 22's 12.4, 24's 13.6, 26's 14.6; checked by test/unit/cli/startup/wasm-flags.test.ts on each).
 */
// Set at run time, --liftoff-only alone leaves V8 13 and 14 tiering hot functions up (the implications
// of a flag are drawn at start only): reading a 25 MB list body, V8 compiled undici's parser again
// with ~24 MiB of compile memory (test/unit/cli/startup/wasm-flags.test.ts).
const WASM_BASELINE_ONLY = '--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering'
const IMPLIED_TOO = '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering'
const V8_DEFAULTS_AFTER = {'11.3': IMPLIED_TOO, '12.4': IMPLIED_TOO, '13.6': IMPLIED_TOO, '14.6': IMPLIED_TOO}
let wasmBaselineOnly = false

/**
 * undici's HTTP parser is WebAssembly. V8's optimising tier compiles it again on a background
 * thread and the process waits for that at exit: ~50 ms of every command that sends a request.
 * So V8 is told to compile WebAssembly with its baseline compiler only, just before undici first
 * compiles it, and the flag stays: set back, V8 would hand the functions compiled afterwards (on
 * their first call) to the optimising tier (measured: 500M instructions more), and compiling every
 * function up front instead took ~2 ms more. It is not set at start, because V8 checks code caches
 * against a hash of its flags: every Node module required after it is compiled from source, not
 * from Node's own cache (~12% of a `gw purchase get`, when it was set at start). Where this V8's
 * flags are not known, it is set before the bundle loads, as it was.
 */
function setWasmBaselineOnly() {
  if (!wasmBaselineOnly) require('node:v8').setFlagsFromString(WASM_BASELINE_ONLY)
  wasmBaselineOnly = true
}

/**
 * V8 13 and later (Node 24, 26) grow the young generation to two 64 MiB semi-spaces on a machine
 * with memory to spare, where V8 11 (Node 20) stopped at 16 MiB: a walk of many pages, which
 * allocates fast and keeps little, then peaks ~80 MiB higher for garbage not yet collected
 * (measured: `gw purchase list --all` of 20,000 records, 124 MiB on Node 20, 200-230 on 24).
 * V8's --optimize-for-size kept it small (~120 MiB on 24), for ~0.4 s more CPU over those 20,000
 * records (it also makes V8's compilers and collector trade speed for size); a growth factor of 1
 * keeps the young generation where it starts and nothing else: 97-118 MiB on Node 22, 24 and 26
 * for a list of 20,000 printed as sent, with the CPU of no flag at all (bench/README.md, the list that prints records as sent).
 * It is set when a walk asks for its second page, not at start, for the reason setWasmBaselineOnly gives.
 */
function favourMemory() {
  if (!memoryFavoured) require('node:v8').setFlagsFromString('--semi-space-growth-factor=1')
  memoryFavoured = true
}
let memoryFavoured = false

/** V8's flags as this process started with them, so that a code cache written now is taken by the next start. */
function v8FlagsAsStarted() {
  if (wasmBaselineOnly) require('node:v8').setFlagsFromString(V8_DEFAULTS_AFTER[v8Version()])
  if (memoryFavoured) require('node:v8').setFlagsFromString('--semi-space-growth-factor=2')
  wasmBaselineOnly = false
  memoryFavoured = false
}

function v8Version() {
  return process.versions.v8.split('.').slice(0, 2).join('.')
}

/** Before gw's bundle loads. */
function prepareRun() {
  if (V8_DEFAULTS_AFTER[v8Version()]) globalThis[Symbol.for('gw.wasm-baseline-only')] = setWasmBaselineOnly
  else require('node:v8').setFlagsFromString(WASM_BASELINE_ONLY)
  globalThis[Symbol.for('gw.favour-memory')] = favourMemory
  // oclif checks its own package's engines with semver on every start (~5 ms); gw's engines field covers it.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
}

module.exports = {EXECUTABLE_FLAGS, printVersion, isVersion, isRootHelp, helpWidth, userCacheDir, ownCacheDir, guidesPlace, printSavedRootHelp, loadBundle, codeCacheName, nodeFlags, userCodeCacheFile, prepareRun, WASM_BASELINE_ONLY, V8_DEFAULTS_AFTER}
