// Builds --jq's worker thread (src/output/jq-worker.ts, jq-wasm inside it) into one CommonJS
// text: scripts/bundle.js writes it into dist/jq.cjs, and src/output/jq-worker-source.ts builds
// it for the tests and bin/dev.js, which run gw from src. The main thread starts the worker from
// the text itself (new Worker(source, {eval: true})), so it needs no file of its own on disk: the
// single executable carries it as it carries the other dependencies bundled apart.
import {build} from 'esbuild'
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {CJS_FOR_NODE} from './esbuild-options.js'

const root = join(import.meta.dirname, '..')

/**
 * jq-wasm collects jq's stdout and stderr in buffers it hands back once jq is done: an expression
 * that prints for ever grows them until memory runs out, and prints nothing meanwhile.
 * Each byte goes instead to the worker's hooks (globalThis[Symbol.for('gw.jq-output')]) while it
 * has them set, so output streams out as jq prints it; the buffers serve when it has none.
 */
export const JQ_PATCHES = [
  {
    name: 'jq-output-hooks',
    piece: 'const stdoutSink = createByteSink(1024);',
    replacement: "const stdoutSink = createByteSink(1024); const gwOutput = globalThis[Symbol.for('gw.jq-output')] ?? {};",
  },
  {
    name: 'jq-stdout-hook',
    piece: 'if (byte != null) stdoutSink.push(byte);',
    replacement: 'if (byte != null) gwOutput.stdout ? gwOutput.stdout(byte) : stdoutSink.push(byte);',
  },
  {
    name: 'jq-stderr-hook',
    piece: 'if (byte != null) stderrSink.push(byte);',
    replacement: 'if (byte != null) gwOutput.stderr ? gwOutput.stderr(byte) : stderrSink.push(byte);',
  },
]

const patchJq = {
  name: 'patch-jq',
  setup(build) {
    build.onLoad({filter: /[\\/]jq-wasm[\\/]dist[\\/]inline\.m?js$/}, async ({path}) => {
      let source = await readFile(path, 'utf8')
      for (const {name, piece, replacement} of JQ_PATCHES) {
        if (!source.includes(piece)) throw new Error(`${path}: jq-wasm changed; review the ${name} patch in scripts/jq-worker.js`)
        source = source.replace(piece, replacement)
      }
      return {contents: source, loader: 'js'}
    })
  },
}

/** The worker's source: one CommonJS script, jq-wasm (its WebAssembly inline) patched and bundled in. */
export async function jqWorkerSource() {
  const result = await build({
    ...CJS_FOR_NODE,
    entryPoints: [join(root, 'src', 'output', 'jq-worker.ts')],
    write: false,
    plugins: [patchJq],
  })
  return result.outputFiles[0].text
}
