#!/usr/bin/env node
// CommonJS (bin/package.json says so): an ES module entry starts Node's ESM loader, ~6 ms of every command.
const {dirname, join} = require('node:path')
const fs = require('node:fs')

const root = join(__dirname, '..')
const argv = process.argv.slice(2)

// Answered here, without the bundle, oclif or its config: --version, and the root help once oclif has rendered it.
if (argv[0] === '--version' || argv[0] === '-v') printVersion()
else if (!(isRootHelp(argv) && printSavedRootHelp())) void run(argv)

/** The same line oclif prints, at node's own start-up cost. */
function printVersion() {
  const {version} = JSON.parse(fs.readFileSync(join(root, 'package.json'), 'utf8'))
  const arch = process.arch === 'ia32' ? 'x86' : process.arch
  process.stdout.write(`gw/${version} ${process.platform}-${arch} node-${process.version}\n`)
}

function isRootHelp(args) {
  return args.length === 0 || (args.length === 1 && ['--help', '-h', 'help'].includes(args[0]))
}

/**
 * The root help depends only on the build, Node's version (it shows it) and the width oclif wraps
 * at. Prints the text oclif rendered for that key before, if it did; else has this run save it.
 */
function printSavedRootHelp() {
  const width = Number.parseInt(process.env.OCLIF_COLUMNS, 10) || (process.stdout.isTTY ? Math.max(40, process.stdout.columns || 80) : 80)
  const saved = join(root, 'dist', `root-help-node${process.version}-${width}.txt`)
  try {
    process.stdout.write(fs.readFileSync(saved))
    return true
  } catch {
    const printed = []
    const write = process.stdout.write.bind(process.stdout)
    process.stdout.write = (chunk, ...rest) => (printed.push(String(chunk)), write(chunk, ...rest))
    process.once('exit', (code) => {
      if (code !== 0) return
      const staging = `${saved}.${process.pid}`
      try {
        fs.writeFileSync(staging, printed.join(''))
        fs.renameSync(staging, saved)
      } catch {
        fs.rmSync(staging, {force: true})
      }
    })
    return false
  }
}

async function run(args) {
  // undici parses HTTP with llhttp compiled to WebAssembly. V8's optimising tier compiles it on a
  // background thread and the process waits for that at exit: ~50 ms of every command that sends a request.
  require('node:v8').setFlagsFromString('--liftoff-only')
  // oclif checks its own package's engines with semver on every start (~5 ms); gw's engines field covers it.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  const {execute, placeGlobalFlags} = loadBundle(join(root, 'dist', 'gw.cjs'))
  await execute({dir: root, args: placeGlobalFlags(args)})
}

/**
 * The bundle as CommonJS compiled with vm.Script, with V8's code cache for it kept beside it
 * (dist/gw.cjs.cache): compiling the 2 MB bundle is ~30 ms of every start, reading the cache
 * ~2 ms. The first run writes the cache, as do later runs whenever V8 rejects it (another Node),
 * and silently not at all where gw's directory is read-only. It holds what the run that wrote it
 * compiled: trained by the command that is run, it saves ~10 ms more than trained by another.
 * oclif require()s the same file for its commands, so it goes into require's cache as that module.
 */
function loadBundle(filename) {
  const {Script} = require('node:vm')
  const {createRequire, Module} = require('node:module')
  const cacheFile = filename + '.cache'
  let cachedData
  try {
    cachedData = fs.readFileSync(cacheFile)
  } catch {
    cachedData = undefined
  }
  // The bundle is ASCII (scripts/bundle.js sees to it), and latin1 reads ASCII ~6x faster than utf8 does.
  const source = fs.readFileSync(filename, 'latin1')
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {filename, cachedData})
  if (!cachedData || script.cachedDataRejected) {
    const found = fs.statSync(cacheFile, {throwIfNoEntry: false})?.mtimeMs
    // At exit, so the cache also holds the functions this run compiled; a rename, so no reader sees
    // half of it; and not over a cache another run wrote meanwhile (a long-lived gw sandbox).
    process.once('exit', () => {
      if (fs.statSync(cacheFile, {throwIfNoEntry: false})?.mtimeMs !== found) return
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
