// Bundles src/index.ts into dist/gw.cjs with esbuild: oclif, the commands and every `await import()`
// (client, zod, undici, tables, sandbox) in one CommonJS file, each import()ed module still evaluated
// only when used (esbuild wraps it). bin/run.js compiles it with vm.Script, as one function V8 parses
// lazily. Measured on Node 20, against the split ESM bundle this replaced: `gw purchase
// get` ~20 ms and `gw --help` ~10 ms faster; the same file through require() (compileFunction), or
// as one ESM module, is slower than the split bundle.
import {build} from 'esbuild'
import {createHash} from 'node:crypto'
import {readFile} from 'node:fs/promises'
import {readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {commandsModule} from './commands-index.js'
import {CJS_FOR_NODE} from './esbuild-options.js'
import {jqWorkerSource} from './jq-worker.js'

const require = createRequire(import.meta.url)

/** `gw:commands`, the command list src/index.ts hands oclif, made from the files under src/commands. */
const commandList = {
  name: 'gw-commands',
  setup(build) {
    build.onResolve({filter: /^gw:commands$/}, () => ({path: 'gw:commands', namespace: 'gw-commands'}))
    build.onLoad({filter: /.*/, namespace: 'gw-commands'}, () => {
      const root = resolve('src/commands')
      return {contents: commandsModule(root), loader: 'ts', resolveDir: root}
    })
  },
}

/**
 * Exact pieces of dependencies' sources replaced, each with why. The build fails when a piece is
 * gone, so an upgrade gets a review.
 */
const PATCHES = [
  {
    /**
     * undici's Client requires its HTTP/2 half at load, and that requires node:http2 and node:tls:
     * ~15 ms of every command that talks to a gateway, though gw never asks for HTTP/2 (allowH2 is
     * off, so client-h2 is only reached for a connection that negotiated h2). Deferred to that call.
     */
    name: 'defer-undici-http2',
    file: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    piece: "const connectH2 = require('./client-h2.js')",
    replacement: "const connectH2 = (client, socket) => require('./client-h2.js')(client, socket)",
  },
  {
    /**
     * oclif sorts the command list with localeCompare, and the first localeCompare of a process loads
     * ICU's collator: ~6 ms of every command. gw's command ids are lower-case ASCII, where code-unit
     * order is the same order.
     */
    name: 'oclif-sorts-without-icu',
    file: /@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/,
    piece: '.sort((a, b) => a.id.localeCompare(b.id))',
    replacement: '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))',
  },
  {
    /**
     * The single executable (bin/sea.js) carries oclif's manifest inside it, not as a file: oclif
     * reads it with readJson, whose cache of file contents it fills first. Anywhere else the map is
     * absent and nothing changes.
     */
    name: 'oclif-reads-embedded-files',
    file: /@oclif[\\/]core[\\/]lib[\\/]util[\\/]fs\.js$/,
    piece: 'const cache = new ProdOnlyCache();',
    replacement: "const cache = new ProdOnlyCache(); for (const [path, text] of globalThis[Symbol.for('gw.embedded-files')] ?? []) Map.prototype.set.call(cache, path, text);",
  },
  {
    /**
     * undici compiles llhttp, its HTTP parser, to WebAssembly on its first connection. gw's start
     * (bin/start.js, setWasmBaselineOnly) has it compiled by V8's baseline compiler alone: V8's optimising
     * tier would compile it again on a background thread, and the process waits for that at exit
     * (~50 ms of every command that sends a request). Where gw's start did not set that up (a test
     * importing the commands), undici compiles it as it always does.
     */
    name: 'undici-llhttp-baseline-only',
    file: /undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/,
    piece: 'function lazyllhttp () {',
    replacement: "function lazyllhttp () { globalThis[Symbol.for('gw.wasm-baseline-only')]?.();",
  },
  {
    /**
     * undici 8 times a keep-alive socket's idleness with the global performance.now(), whose first
     * use loads Node's perf_hooks (eleven modules, ~2 ms) on every command that sends a request.
     * The module only subtracts two readings: process.hrtime is the same monotonic clock.
     */
    name: 'undici-idle-clock-without-perf-hooks',
    file: /undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/,
    piece: 'function isIdleSocketExpired (socket) {',
    replacement: 'const performance = {now: () => Number(process.hrtime.bigint()) / 1e6}\nfunction isIdleSocketExpired (socket) {',
  },
  {
    /**
     * oclif reads JSON files (package.json, the manifest, a theme, user plugins) with fs/promises:
     * each read is a round trip through libuv's thread pool, and the first one starts the pool's
     * four threads, which a `gw purchase get` otherwise never needs (~10% of it, more on a loaded
     * machine). Read at once instead: a few small local files.
     */
    name: 'oclif-reads-json-at-once',
    file: /@oclif[\\/]core[\\/]lib[\\/]util[\\/]fs\.js$/,
    piece: "const contents = await (0, promises_1.readFile)(path, 'utf8');",
    replacement: "const contents = (0, node_fs_1.readFileSync)(path, 'utf8');",
  },
  // undici requires node:http (its five modules) to check, when destroying a stream, whether it is
  // node:http's message, and to read http.maxHeaderSize, the --max-http-header-size option, as the
  // default for each Client: ~1.5% of a `gw purchase get`. A stream can only be such a message
  // where node:http is loaded already; and without that option given, the size is Node's default.
  {
    name: 'undici-http-incoming-message-when-one',
    file: /undici[\\/]lib[\\/]core[\\/]util\.js$/,
    piece: "const { IncomingMessage } = require('node:http')",
    replacement: "const isIncomingMessage = (stream) => stream.constructor?.name === 'IncomingMessage' && Object.getPrototypeOf(stream).constructor === require('node:http').IncomingMessage",
  },
  {
    name: 'undici-http-incoming-message-check',
    file: /undici[\\/]lib[\\/]core[\\/]util\.js$/,
    piece: 'if (Object.getPrototypeOf(stream).constructor === IncomingMessage) {',
    replacement: 'if (isIncomingMessage(stream)) {',
  },
  {
    name: 'undici-http-max-header-size-when-set',
    file: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    piece: "const http = require('node:http')",
    replacement:
      "const http = {get maxHeaderSize() { return /--max-http-header-size/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`) ? require('node:http').maxHeaderSize : 16 * 1024 }}",
  },
  // Node's modules that no gw command needs to start, each compiled from Node's own source when
  // first required: required where used instead of at load. oclif asks
  // node:child_process for the shell only on Windows, node:readline only to read stdin,
  // node:perf_hooks only with OCLIF_PERFORMANCE; and it asks wsl-utils, which requires
  // node:child_process at load, whether this is WSL, which is-wsl (wsl-utils' own answer) says alone.
  {
    name: 'oclif-asks-is-wsl',
    file: /@oclif[\\/]core[\\/]lib[\\/]util[\\/]os\.js$/,
    piece: "return (await import('wsl-utils')).isWsl ? 'wsl'",
    replacement: "return (await import('is-wsl')).default ? 'wsl'",
  },
  {
    /**
     * undici builds a search tree of ~100 well-known header names at load (~1,000 nodes), to give
     * a response's header names back as the same interned lower-case strings. Without it each name
     * is lower-cased as it comes (undici's own answer for a name not in the tree): the same string,
     * for the handful of headers a gateway sends, and no tree built on every start.
     */
    name: 'undici-header-names-without-tree',
    file: /undici[\\/]lib[\\/]core[\\/]util\.js$/,
    piece: "const { tree } = require('./tree')",
    replacement: 'const tree = {lookup: () => null}',
  },
  {
    name: 'oclif-child-process-on-windows',
    file: /@oclif[\\/]core[\\/]lib[\\/]util[\\/]os\.js$/,
    piece: 'const node_child_process_1 = require("node:child_process");',
    replacement: lazily('node_child_process_1', 'node:child_process', ['execSync']),
  },
  {
    name: 'oclif-readline-for-stdin',
    file: /@oclif[\\/]core[\\/]lib[\\/]parser[\\/]parse\.js$/,
    piece: 'const node_readline_1 = require("node:readline");',
    replacement: lazily('node_readline_1', 'node:readline', ['createInterface']),
  },
  {
    name: 'oclif-perf-hooks-when-measuring',
    file: /@oclif[\\/]core[\\/]lib[\\/]performance\.js$/,
    piece: 'const node_perf_hooks_1 = require("node:perf_hooks");',
    replacement: lazily('node_perf_hooks_1', 'node:perf_hooks', ['performance', 'PerformanceObserver']),
  },
  // string-width, wrap-ansi and slice-ansi, which gw measures and cuts text with at a terminal
  // (tables, prompts), each make an Intl.Segmenter at load, and string-width compiles its
  // emoji expression: ~9 ms for the first Segmenter (ICU's break rules) and ~12 ms for the
  // expression, on every command that renders a table. Each is made when first used: printable
  // ASCII, most of what gw shows, needs neither.
  {
    name: 'string-width-segmenter-when-used',
    file: ownDependency('string-width', 'index.js'),
    piece: 'const segmenter = new Intl.Segmenter();',
    replacement: segmenterWhenUsed('segmenter', ''),
  },
  {
    name: 'string-width-emoji-expression-when-used',
    file: ownDependency('string-width', 'index.js'),
    piece: String.raw`const emojiPrefixRegex = /^(?:\p{RGI_Emoji}|\p{Regional_Indicator}{1,2}|[\d#*]\u{FE0F})/v;`,
    replacement: String.raw`let madeEmojiPrefix; const emojiPrefix = () => (madeEmojiPrefix ??= /^(?:\p{RGI_Emoji}|\p{Regional_Indicator}{1,2}|[\d#*]\u{FE0F})/v); const emojiPrefixRegex = {test: (text) => emojiPrefix().test(text), exec: (text) => emojiPrefix().exec(text)};`,
  },
  {
    name: 'wrap-ansi-segmenter-when-used',
    file: ownDependency('wrap-ansi', 'index.js'),
    piece: 'const segmenter = new Intl.Segmenter();',
    replacement: segmenterWhenUsed('segmenter', ''),
  },
  {
    name: 'slice-ansi-segmenter-when-used',
    file: ownDependency('slice-ansi', 'tokenize-ansi.js'),
    piece: "const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});",
    replacement: segmenterWhenUsed('GRAPHEME_SEGMENTER', "undefined, {granularity: 'grapheme'}"),
  },
]

/**
 * A file of the package gw itself depends on, by its whole path: older majors of the same package
 * (oclif's and cli-table3's string-width 4) are bundled too, and are left as they are.
 */
function ownDependency(specifier, file) {
  const path = join(dirname(fileURLToPath(import.meta.resolve(specifier))), file)
  return new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
}

/** `const name = new Intl.Segmenter(args)` as an object whose segment() makes the Segmenter when first called. */
function segmenterWhenUsed(name, args) {
  return `const ${name} = {made: undefined, segment: (text) => (${name}.made ??= new Intl.Segmenter(${args})).segment(text)};`
}

/** `const name = require(id)` as an object whose properties require the module when first read. */
function lazily(name, id, properties) {
  const getters = properties.map((property) => `get ${property}() { return require(${JSON.stringify(id)}).${property} }`)
  return `const ${name} = {${getters.join(', ')}};`
}

/** oclif's compiled modules: each one's requires made lazy (lazyRequires). */
const OCLIF_LIB = /@oclif[\\/]core[\\/]lib[\\/].*\.js$/

const patchDependencies = {
  name: 'patch-dependencies',
  setup(build) {
    build.onLoad({filter: new RegExp([...PATCHES.map(({file}) => file.source), OCLIF_LIB.source].join('|'))}, async ({path}) => {
      let source = await readFile(path, 'utf8')
      for (const {name, piece, replacement} of PATCHES.filter(({file}) => file.test(path))) {
        if (!source.includes(piece)) throw new Error(`${path}: the dependency changed; review the ${name} patch in scripts/bundle.js`)
        source = source.replace(piece, replacement)
      }
      return {contents: OCLIF_LIB.test(path) ? lazyRequires(source) : source, loader: 'js'}
    })
  },
}

/**
 * oclif's modules (TypeScript compiled to CommonJS) require every module they use at their top,
 * so loading oclif to run one command evaluates all of it: help rendering, templates, globbing,
 * themes, the ux helpers and the Node modules those need. Each top-level `const x_1 = require(..)`
 * (and `exports.X = require(..)`) becomes a stand-in that requires the module when first used,
 * as `x_1.name` or a call, so a module nobody uses is never evaluated, nor compiled.
 */
function lazyRequires(source) {
  const required = /^(const|var|let) (\w+) = (?:(__importDefault|__importStar)\()?require\((["'][^"']+["'])\)\)?;$/gm
  const exported = /^exports\.(\w+) = (?:(__importDefault|__importStar)\()?require\((["'][^"']+["'])\)\)?;$/gm
  const made = source
    .replace(required, (_, kind, name, wrap, id) => `${kind} ${name} = __gwLazy(() => ${wrap ?? ''}(require(${id})));`)
    .replace(exported, (_, name, wrap, id) => `Object.defineProperty(exports, ${JSON.stringify(name)}, {enumerable: true, configurable: true, get: () => ${wrap ?? ''}(require(${id}))});`)
  return made === source ? source : `${made}\n${LAZY_MODULE}`
}

/** A module's stand-in: a function (some modules are), whose every use is passed to the module, required on the first. */
const LAZY_MODULE = `function __gwLazy(load) {
  let module
  const real = () => (module ??= {exports: load()}).exports
  return new Proxy(() => {}, {
    get: (_, key) => real()[key],
    set: (_, key, value) => ((real()[key] = value), true),
    has: (_, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key)
      return descriptor && {...descriptor, configurable: true}
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    apply: (_, self, args) => Reflect.apply(real(), self, args),
  })
}`

/**
 * oclif asks is-wsl (and through it is-inside-container and is-docker) whether this is WSL on every
 * start. Each imports Node's fs, os or process as a default import, which esbuild gives an ES module
 * as a copy of the module object, a getter for each of its properties (__toESM: process has ~100,
 * fs ~100, and each importing module makes its own copy). Required as they are, they are Node's own
 * objects, read the same way.
 */
const NODE_DEFAULT_IMPORT = /^import (\w+) from '(node:\w+)';$/gm
const builtinsAsRequired = {
  name: 'builtins-as-required',
  setup(build) {
    build.onLoad({filter: /[\\/]node_modules[\\/](is-wsl|is-inside-container|is-docker)[\\/]index\.js$/}, async ({path}) => {
      const source = await readFile(path, 'utf8')
      const made = source.replace(NODE_DEFAULT_IMPORT, 'const $1 = require("$2");')
      if (made === source) throw new Error(`${path}: the dependency changed; review builtinsAsRequired in scripts/bundle.js`)
      return {contents: made, loader: 'js'}
    })
  },
}

/**
 * undici checks its own invariants with node:assert, as assert(condition) only: loading Node's
 * assert module (its AssertionError, colours and call tracker with it) is ~1% of a `gw purchase
 * get` for checks that hold. undici gets a check that loads node:assert only to fail with it, the
 * same error as before.
 */
const assertOnlyWhenFailing = {
  name: 'assert-only-when-failing',
  setup(build) {
    build.onResolve({filter: /^node:assert$/}, ({importer}) => (/[\\/]undici[\\/]/.test(importer) ? {path: 'node:assert', namespace: 'assert-only-when-failing'} : undefined))
    build.onLoad({filter: /.*/, namespace: 'assert-only-when-failing'}, () => ({
      contents: "module.exports = function assert(value, message) { if (!value) require('node:assert')(value, message) }",
      loader: 'js',
    }))
  },
}

/**
 * oclif logs through the debug package, which with supports-color loads node:os and node:tty and
 * reads the terminal at start (~4 ms of every command), to print nothing unless DEBUG is set. With
 * DEBUG unset oclif gets loggers that do nothing; with it set, the real package, as before.
 */
const debugOnlyWhenAsked = {
  name: 'debug-only-when-asked',
  setup(build) {
    build.onResolve({filter: /^debug$/}, ({importer, resolveDir}) =>
      /[\\/]@oclif[\\/]core[\\/]/.test(importer) ? {path: 'debug', namespace: 'debug-only-when-asked', pluginData: {resolveDir}} : undefined,
    )
    build.onLoad({filter: /.*/, namespace: 'debug-only-when-asked'}, ({pluginData}) => ({
      contents: `
        const off = Object.assign(() => false, {enabled: false, extend: () => off, log: () => {}, namespace: ''})
        const silent = Object.assign(() => off, {enable() {}, disable: () => '', enabled: () => false, names: [], skips: []})
        module.exports = process.env.DEBUG ? require(${JSON.stringify(require.resolve('debug', {paths: [pluginData.resolveDir]}))}) : silent
      `,
      loader: 'js',
      resolveDir: pluginData.resolveDir,
    }))
  },
}

/**
 * Dependencies gw needs for a few commands only, bundled into files of their own beside gw.cjs
 * (dist/<name>.cjs), which gw.cjs require()s when first used: every module of gw.cjs is defined,
 * read and kept in its code cache on every start, and inquirer with rxjs and iconv-lite is 450
 * of its 950 modules and 1 MB of its 2.6 MB, for the questions gw asks now and then. Such a
 * dependency shares no state with gw's own modules (a copy of a small helper it shares is fine).
 */
const APART = {
  inquirer: 'inquirer',
}

/**
 * --jq's worker thread (scripts/jq-worker.js), as the text the main thread starts it from: the
 * module src/output/jq-worker-source.ts builds it from src, and gw.cjs require()s dist/jq.cjs in
 * its place. jq-wasm is 1.4 MB, most of it its WebAssembly as base64: in gw.cjs every start would
 * read and compile past it (~2.3 ms of CPU, measured on Node 20); apart it costs only --jq.
 */
const JQ_WORKER = {file: 'jq.cjs'}

const apart = {
  name: 'apart',
  setup(build) {
    build.onResolve({filter: new RegExp(`^(${Object.keys(APART).map((id) => id.replace('/', '\\/')).join('|')})$`)}, ({path}) => ({path: `./${APART[path]}.cjs`, external: true}))
    build.onResolve({filter: /^\.\/jq-worker-source\.js$/}, () => ({path: `./${JQ_WORKER.file}`, external: true}))
  },
}

// Built aside and swapped in, so a gw running meanwhile (a test, a detached sandbox) never sees half a build.
const staging = `dist.${process.pid}.tmp`
await build({
  entryPoints: {gw: 'src/index.ts'},
  outdir: staging,
  outExtension: {'.js': '.cjs'},
  bundle: true,
  format: 'cjs',
  // import() inside a vm.Script needs an experimental flag on Node 20: keytar is require()d instead.
  supported: {'dynamic-import': false},
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  // keytar is a native optional dependency; typescript and ts-node are only for oclif's dev mode.
  external: ['keytar', 'typescript', 'ts-node'],
  plugins: [commandList, patchDependencies, builtinsAsRequired, debugOnlyWhenAsked, assertOnlyWhenFailing, apart],
  logLevel: 'warning',
})
for (const [id, name] of Object.entries(APART)) {
  await build({
    ...CJS_FOR_NODE,
    stdin: {contents: `module.exports = require(${JSON.stringify(id)})`, resolveDir: '.', loader: 'js'},
    outfile: `${staging}/${name}.cjs`,
  })
  asciiOnly(`${staging}/${name}.cjs`)
  sameShapedWrappers(`${staging}/${name}.cjs`)
}
writeFileSync(`${staging}/${JQ_WORKER.file}`, `module.exports = {source: ${JSON.stringify(await jqWorkerSource())}}\n`)
asciiOnly(`${staging}/${JQ_WORKER.file}`)
asciiOnly(`${staging}/gw.cjs`)
sameShapedWrappers(`${staging}/gw.cjs`)
markBuild(`${staging}/gw.cjs`)
rmSync('dist', {recursive: true, force: true})
renameSync(staging, 'dist')

/**
 * A line naming this build by a hash of the bundle, before the source map's line so no mapping
 * moves: gw names the code cache it keeps in the user's cache after it (bin/start.js), without
 * hashing 2.4 MB at start.
 */
function markBuild(file) {
  const source = readFileSync(file, 'latin1')
  const at = source.lastIndexOf('//# sourceMappingURL=')
  const build = createHash('sha256').update(source).digest('hex').slice(0, 16)
  writeFileSync(file, `${source.slice(0, at)}//# gw-build=${build}\n${source.slice(at)}`, 'latin1')
}

/**
 * esbuild wraps each module in an object literal whose one method is named after the module's
 * path (`__commonJS({"node_modules/x/index.js"(exports, module) {...}})`), for its helpers to
 * call. Each distinct name gives V8 an object shape of its own to make at every start: for the
 * 500 modules of gw.cjs, 7M instructions (~2% of a `gw purchase get`). Every wrapper's method is
 * named `m` instead (the helpers call a wrapper's one method whatever its name), padded to the
 * same length so that the source map still holds.
 */
function sameShapedWrappers(file) {
  const source = readFileSync(file, 'latin1')
  const wrapper = /(__commonJS|__esm)\(\{"((?:[^"\\]|\\.)*)"\(/g
  const made = source.replace(wrapper, (_, helper, path) => `${helper}({m${' '.repeat(path.length + 1)}(`)
  if (made === source || made.length !== source.length) throw new Error(`${file}: esbuild's module wrappers changed; review sameShapedWrappers in scripts/bundle.js`)
  writeFileSync(file, made, 'latin1')
}

/**
 * esbuild escapes non-ASCII in strings but leaves it in regexp literals and legal comments (three
 * characters in all). One is enough to make Node decode the 2.4 MB file as UTF-8 into a two-byte
 * string: 6 ms of every start, against 0.5 ms for ASCII, and twice the memory. Each is written as
 * its \u escape, which means the same in a regexp and nothing in a comment.
 */
function asciiOnly(file) {
  const source = readFileSync(file, 'utf8')
  // eslint-disable-next-line no-control-regex
  writeFileSync(file, source.replace(/[^\u0000-\u007F]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`))
}
