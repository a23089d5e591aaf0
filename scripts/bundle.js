// Bundles src/index.ts into dist/gw.cjs with esbuild: oclif, the commands and every `await import()`
// (client, zod, undici, tables, sandbox) in one CommonJS file, each import()ed module still evaluated
// only when used (esbuild wraps it). bin/run.js compiles it with vm.Script, as one function V8 parses
// lazily. Measured on Node 20 (issue 13), against the split ESM bundle this replaced: `gw purchase
// get` ~20 ms and `gw --help` ~10 ms faster; the same file through require() (compileFunction), or
// as one ESM module, is slower than the split bundle.
import {build} from 'esbuild'
import {readFile} from 'node:fs/promises'
import {readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {resolve} from 'node:path'
import {commandsModule} from './commands-index.js'

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

/** Replaces one exact piece of a dependency's source; the build fails when the piece is gone, so an upgrade gets a review. */
function patch(name, file, piece, replacement) {
  return {
    name,
    setup(build) {
      build.onLoad({filter: file}, async ({path}) => {
        const source = await readFile(path, 'utf8')
        if (!source.includes(piece)) throw new Error(`${path}: the dependency changed; review the ${name} patch in scripts/bundle.js`)
        return {contents: source.replace(piece, replacement), loader: 'js'}
      })
    },
  }
}

/**
 * undici's Client requires its HTTP/2 half at load, and that requires node:http2 and node:tls:
 * ~15 ms of every command that talks to a gateway, though gw never asks for HTTP/2 (allowH2 is
 * off, so client-h2 is only reached for a connection that negotiated h2). Deferred to that call.
 */
const deferUndiciHttp2 = patch(
  'defer-undici-http2',
  /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
  "const connectH2 = require('./client-h2.js')",
  "const connectH2 = (client, socket) => require('./client-h2.js')(client, socket)",
)

/**
 * oclif sorts the command list with localeCompare, and the first localeCompare of a process loads
 * ICU's collator: ~6 ms of every command. gw's command ids are lower-case ASCII, where code-unit
 * order is the same order.
 */
const oclifSortsWithoutIcu = patch(
  'oclif-sorts-without-icu',
  /@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/,
  '.sort((a, b) => a.id.localeCompare(b.id))',
  '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))',
)

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
 * The single executable (bin/sea.js) carries oclif's manifest inside it, not as a file: oclif
 * reads it with readJson, whose cache of file contents it fills first. Anywhere else the map is
 * absent and nothing changes.
 */
const oclifReadsEmbeddedFiles = patch(
  'oclif-reads-embedded-files',
  /@oclif[\\/]core[\\/]lib[\\/]util[\\/]fs\.js$/,
  'const cache = new ProdOnlyCache();',
  "const cache = new ProdOnlyCache(); for (const [path, text] of globalThis[Symbol.for('gw.embedded-files')] ?? []) Map.prototype.set.call(cache, path, text);",
)

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
  plugins: [commandList, deferUndiciHttp2, oclifSortsWithoutIcu, debugOnlyWhenAsked, oclifReadsEmbeddedFiles],
  logLevel: 'warning',
})
asciiOnly(`${staging}/gw.cjs`)
rmSync('dist', {recursive: true, force: true})
renameSync(staging, 'dist')

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
