#!/usr/bin/env node
const argv = process.argv.slice(2)

// Answered here, without the bundle, oclif or its config: --version, and the root help once oclif has rendered it.
if (argv[0] === '--version' || argv[0] === '-v') await printVersion()
else if (!(isRootHelp(argv) && (await printSavedRootHelp()))) await run(argv)

/** The same line oclif prints, at node's own start-up cost. */
async function printVersion() {
  const {readFileSync} = await import('node:fs')
  const {version} = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
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
async function printSavedRootHelp() {
  const [{readFileSync, renameSync, rmSync, writeFileSync}, {fileURLToPath}] = await Promise.all([import('node:fs'), import('node:url')])
  const width = Number.parseInt(process.env.OCLIF_COLUMNS, 10) || (process.stdout.isTTY ? Math.max(40, process.stdout.columns || 80) : 80)
  const saved = new URL(`../dist/root-help-node${process.version}-${width}.txt`, import.meta.url)
  try {
    process.stdout.write(readFileSync(saved))
    return true
  } catch {
    const printed = []
    const write = process.stdout.write.bind(process.stdout)
    process.stdout.write = (chunk, ...rest) => (printed.push(String(chunk)), write(chunk, ...rest))
    process.once('exit', (code) => {
      if (code !== 0) return
      const staging = `${fileURLToPath(saved)}.${process.pid}`
      try {
        writeFileSync(staging, printed.join(''))
        renameSync(staging, saved)
      } catch {
        rmSync(staging, {force: true})
      }
    })
    return false
  }
}

async function run(args) {
  // undici parses HTTP with llhttp compiled to WebAssembly. V8's optimising tier compiles it on a
  // background thread and the process waits for that at exit: ~50 ms of every command that sends a request.
  const {setFlagsFromString} = await import('node:v8')
  setFlagsFromString('--liftoff-only')
  // oclif checks its own package's engines with semver on every start (~5 ms); gw's engines field covers it.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  const {execute, placeGlobalFlags} = await loadBundle(new URL('../dist/gw.cjs', import.meta.url))
  await execute({dir: import.meta.url, args: placeGlobalFlags(args)})
}

/**
 * The bundle as CommonJS compiled with vm.Script, with V8's code cache for it kept beside it
 * (dist/gw.cjs.cache): compiling the 2 MB bundle is ~30 ms of every start, reading the cache
 * ~2 ms. The first run writes the cache, as do later runs whenever V8 rejects it (another Node),
 * and silently not at all where gw's directory is read-only. It holds what the run that wrote it
 * compiled: trained by the command that is run, it saves ~10 ms more than trained by another.
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
