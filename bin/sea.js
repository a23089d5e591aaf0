// The main script of gw's single executable (scripts/package.js): Node's single executable
// application runs it, bundled with bin/start.js, from inside a copy of node that also carries
// gw's bundle, its code cache (where the builder's platform is its own), package.json and oclif's manifest as assets. No file of gw is read
// from disk but keytar.node, found beside the executable when the build had one.
const fs = require('node:fs')
const {createRequire, Module} = require('node:module')
const {dirname, join} = require('node:path')
const sea = require('node:sea')
const start = require('./start.js')

const argv = process.argv.slice(2)
// Before anything slow: a card number typed while gw starts must not be echoed.
require('./typed-ahead.js').holdTypedAhead(argv)
const pjson = JSON.parse(sea.getAsset('package.json', 'utf8'))
// The bundle as oclif knows it: package.json's targets name ./dist/gw.cjs under gw's root, and
// this root is a place no file is read from (the manifest comes from the assets too).
const root = join(dirname(process.execPath), 'gw-embedded')
const filename = join(root, 'dist', 'gw.cjs')

if (start.isVersion(argv)) start.printVersion(pjson.version)
else if (!(start.isRootHelp(argv) && start.printSavedRootHelp([rootHelpFile()], guides()))) void run(argv)

/** The guides: docs/ beside the executable, as its archive (and Homebrew's and Scoop's folders) hold them. */
function guides() {
  return start.guidesPlace(join(dirname(process.execPath), 'docs'), () => pjson)
}

/** The root help is kept in the user's cache (where it is the user's alone), under a name that tells this build from another. */
function rootHelpFile() {
  const build = `${pjson.version}-${sea.getRawAsset('gw.cjs').byteLength}`
  const cache = start.ownCacheDir()
  return cache && join(cache, `root-help-${build}-node${process.version}-${start.helpWidth()}.txt`)
}

async function run(args) {
  start.prepareRun()
  guides()
  const source = Buffer.from(sea.getRawAsset('gw.cjs')).latin1Slice()
  globalThis[Symbol.for('gw.embedded-files')] = new Map([[join(root, 'oclif.manifest.json'), sea.getAsset('oclif.manifest.json', 'utf8')]])
  // The cache inside was written with no node options; V8 would reject it under some (NODE_OPTIONS),
  // so with any the cache is one of the user's cache, written by the first such run. An executable
  // built for another platform than the builder's has none (scripts/package.js): the first run writes one there too.
  const embedded = start.nodeFlags() ? [] : embeddedCache()
  const caches = [...embedded, {file: start.userCodeCacheFile(source)}]
  const {execute, placeGlobalFlags, checkForUpdate, UPDATE_CHECK} = start.loadBundle({filename, source, caches}, bundleRequire)
  // The update notice's check, which a gw at a terminal starts in the background (src/cli/update-notice.ts).
  if (args[0] === UPDATE_CHECK) return checkForUpdate(args.slice(1))
  // No user plugins: gw takes none, and oclif would read (and warn of) a package.json in gw's data directory on every start.
  await execute({loadOptions: {root, pjson, userPlugins: false}, args: await placeGlobalFlags(args)})
}

/** The code cache inside, where there is one (Node 22 has no sea.getAssetKeys to ask first). */
function embeddedCache() {
  try {
    return [{data: Buffer.from(sea.getRawAsset('gw.cjs.cache'))}]
  } catch {
    return []
  }
}

/**
 * The require the bundle gets: oclif's require() of the bundle answers with the bundle itself,
 * a dependency bundled apart (./inquirer.cjs) is that asset, keytar is keytar.node beside the
 * executable, the rest node's modules.
 */
function bundleRequire(module) {
  const fromDisk = createRequire(process.execPath)
  const require = (id) => (id === filename ? module.exports : id === 'keytar' ? keytarBeside(fromDisk) : /^\.\/[\w-]+\.cjs$/.test(id) ? bundledApart(id.slice(2)) : fromDisk(id))
  require.resolve = (id, options) => (id === filename ? filename : fromDisk.resolve(id, options))
  require.cache = fromDisk.cache
  return require
}

const apart = new Map()

/** A dependency bundled apart (scripts/bundle.js), from its asset, compiled when first required. */
function bundledApart(name) {
  if (!apart.has(name)) {
    const file = join(root, 'dist', name)
    const loaded = new Module(file)
    loaded.filename = file
    loaded._compile(sea.getAsset(name, 'utf8'), file)
    apart.set(name, loaded.exports)
  }
  return apart.get(name)
}

/**
 * keytar's native module, copied beside the executable by the build where keytar had built. Its
 * exports are the functions keytar's own JavaScript wraps (adding only checks that the service
 * and account are not empty, which gw's never are). Where it is not there, the keychain is not
 * available, as in an npm install without keytar (src/auth/keychain.ts says why).
 */
function keytarBeside(fromDisk) {
  const file = join(dirname(process.execPath), 'keytar.node')
  if (!fs.existsSync(file)) {
    throw Object.assign(new Error(`Cannot find module 'keytar': there is no ${file}`), {code: 'ERR_GW_KEYTAR_NOT_BESIDE', path: file})
  }
  return fromDisk(file)
}
