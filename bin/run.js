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

const {execute, placeGlobalFlags} = await loadBundle(new URL('../dist/gw.cjs', import.meta.url))
await execute({dir: import.meta.url, args: placeGlobalFlags(argv)})

/**
 * The bundle as CommonJS compiled with vm.Script, with V8's code cache for it kept beside it
 * (dist/gw.cjs.cache): compiling the 2 MB bundle is ~30 ms of every start, reading the cache
 * ~2 ms. The first run writes the cache, as do later runs whenever V8 rejects it (another Node,
 * a rebuilt bundle), atomically, and silently not at all where gw's directory is read-only.
 * oclif require()s the same file for its commands, so it goes into require's cache as that module.
 */
async function loadBundle(url) {
  const [fs, {Script}, {createRequire, Module}, {fileURLToPath}, {dirname}] = await Promise.all([
    import('node:fs'),
    import('node:vm'),
    import('node:module'),
    import('node:url'),
    import('node:path'),
  ])
  const filename = fileURLToPath(url)
  const cacheFile = filename + '.cache'
  let cachedData
  try {
    cachedData = fs.readFileSync(cacheFile)
  } catch {
    cachedData = undefined
  }
  const source = fs.readFileSync(filename, 'utf8')
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {filename, cachedData})
  if (!cachedData || script.cachedDataRejected) {
    // At exit, so the cache also holds the functions this run compiled; a rename, so no reader sees half of it.
    process.once('exit', () => {
      const staging = `${cacheFile}.${process.pid}`
      try {
        fs.writeFileSync(staging, script.createCachedData())
        fs.renameSync(staging, cacheFile)
      } catch {
        fs.rmSync(staging, {force: true})
      }
    })
  }
  const module = new Module(filename)
  module.filename = filename
  module.paths = Module._nodeModulePaths(dirname(filename))
  script.runInThisContext()(module.exports, createRequire(filename), module, filename, dirname(filename))
  module.loaded = true
  createRequire(filename).cache[filename] = module
  return module.exports
}
