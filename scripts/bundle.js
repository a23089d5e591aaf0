// Bundles src/index.ts into dist/gw.js with esbuild: oclif and the commands in one module, and
// every `await import()` (client, zod, undici, tables, sandbox) in a chunk loaded only when used.
// Measured: importing @oclif/core unbundled costs ~100 ms; the bundled entry loads in ~60 ms.
import {build} from 'esbuild'
import {readFile} from 'node:fs/promises'
import {renameSync, rmSync} from 'node:fs'

/**
 * undici's Client requires its HTTP/2 half at load, and that requires node:http2 and node:tls:
 * ~15 ms of every command that talks to a gateway, though gw never asks for HTTP/2 (allowH2 is
 * off, so client-h2 is only reached for a connection that negotiated h2). Deferred to that call.
 */
const deferUndiciHttp2 = {
  name: 'defer-undici-http2',
  setup(build) {
    build.onLoad({filter: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/}, async ({path}) => {
      const source = await readFile(path, 'utf8')
      const eager = "const connectH2 = require('./client-h2.js')"
      if (!source.includes(eager)) throw new Error(`${path}: undici changed; review the defer-undici-http2 plugin`)
      return {contents: source.replace(eager, "const connectH2 = (client, socket) => require('./client-h2.js')(client, socket)"), loader: 'js'}
    })
  },
}

// Built aside and swapped in, so a gw running meanwhile (a test, a detached sandbox) never sees half a build.
const staging = `dist.${process.pid}.tmp`
await build({
  entryPoints: {gw: 'src/index.ts'},
  outdir: staging,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // oclif and some dependencies are CommonJS and require() Node's modules at run time.
  banner: {js: "import {createRequire as __gwCreateRequire} from 'node:module'; const require = __gwCreateRequire(import.meta.url);"},
  // keytar is a native optional dependency; typescript and ts-node are only for oclif's dev mode.
  external: ['keytar', 'typescript', 'ts-node'],
  plugins: [deferUndiciHttp2],
  logLevel: 'warning',
})
rmSync('dist', {recursive: true, force: true})
renameSync(staging, 'dist')
