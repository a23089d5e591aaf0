// Bundles src/index.ts into dist/gw.js with esbuild: oclif and the commands in one module, and
// every `await import()` (client, zod, undici, tables, sandbox) in a chunk loaded only when used.
// Measured: importing @oclif/core unbundled costs ~100 ms; the bundled entry loads in ~60 ms.
import {build} from 'esbuild'
import {renameSync, rmSync} from 'node:fs'

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
  logLevel: 'warning',
})
rmSync('dist', {recursive: true, force: true})
renameSync(staging, 'dist')
