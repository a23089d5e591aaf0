#!/usr/bin/env node
import {setFlagsFromString} from 'node:v8'

const argv = process.argv.slice(2)

// --version needs no command, no config and no bundle: the same line oclif prints, at node's own start-up cost.
if (argv[0] === '--version' || argv[0] === '-v') {
  const {readFileSync} = await import('node:fs')
  const {version} = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  const arch = process.arch === 'ia32' ? 'x86' : process.arch
  process.stdout.write(`gw/${version} ${process.platform}-${arch} node-${process.version}\n`)
  process.exit(0)
}

// undici parses HTTP with llhttp compiled to WebAssembly. V8's optimising tier compiles it on a
// background thread and the process waits for that at exit: ~100 ms on every one-shot command.
setFlagsFromString('--liftoff-only')
// oclif checks its own package's engines with semver on every start (~5 ms); gw's engines field covers it.
process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'

const {execute, placeGlobalFlags} = await import('../dist/gw.js')
await execute({dir: import.meta.url, args: placeGlobalFlags(argv)})
