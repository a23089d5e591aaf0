#!/usr/bin/env node
import {setFlagsFromString} from 'node:v8'

// undici parses HTTP with llhttp compiled to WebAssembly. V8's optimising tier compiles it on a
// background thread and the process waits for that at exit: ~100 ms on every one-shot command.
setFlagsFromString('--liftoff-only')
// oclif checks its own package's engines with semver on every start (~5 ms); gw's engines field covers it.
process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'

const {execute} = await import('../dist/gw.js')
await execute({dir: import.meta.url})
