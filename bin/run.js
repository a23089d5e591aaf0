#!/usr/bin/env node
// CommonJS (bin/package.json says so): an ES module entry starts Node's ESM loader, ~6 ms of every command.
const fs = require('node:fs')
const {createRequire} = require('node:module')
const {join} = require('node:path')
const relaunch = require('./relaunch.js')
const start = require('./start.js')

const root = join(__dirname, '..')
const argv = process.argv.slice(2)

// Below gw's floor (package.json's engines), a clone runs again with the Node it pins; --version
// names that Node without starting it.
if (relaunch.belowFloor()) {
  const node = relaunch.pinnedNode(root)
  const pinned = node && start.isVersion(argv) && relaunch.pinnedVersion(root)
  if (pinned && !relaunch.belowFloor(pinned.slice(1))) start.printVersion(packageVersion(), pinned)
  else if (node) relaunch.relaunch(node, __filename)
  else relaunch.needsNewerNode(root)
  return
}
relaunch.stopWithLauncher()
// Before anything slow: a card number typed while gw starts must not be echoed.
require('./typed-ahead.js').holdTypedAhead(argv)

const dist = join(root, 'dist')

// Answered here, without the bundle, oclif or its config: --version (gw version), and the root help once oclif has rendered it.
if (start.isVersion(argv)) start.printVersion(packageVersion())
else if (!(start.isRootHelp(argv) && start.printSavedRootHelp(rootHelpFiles(), guides()))) void run(argv)

function packageJson() {
  return JSON.parse(fs.readFileSync(join(root, 'package.json'), 'utf8'))
}

function packageVersion() {
  return packageJson().version
}

/** The guides: docs/ in the package (npm's files) or the clone. */
function guides() {
  return start.guidesPlace(join(root, 'docs'), packageJson)
}

/**
 * The saved root help: beside the bundle (the build saves it for a width of 80), else, where gw's
 * directory is read-only, in the user's cache (where it is the user's alone) under a name that
 * tells this build from another.
 */
function rootHelpFiles() {
  const width = start.helpWidth()
  const build = `${packageVersion()}-${fs.statSync(join(dist, 'gw.cjs')).size}`
  const cache = start.ownCacheDir()
  return [join(dist, `root-help-node${process.version}-${width}.txt`), cache && join(cache, `root-help-${build}-node${process.version}-${width}.txt`)]
}

async function run(args) {
  start.prepareRun()
  guides()
  const filename = join(dist, 'gw.cjs')
  // The bundle is ASCII (scripts/bundle.js sees to it), and latin1 reads ASCII ~6x faster than utf8 does.
  const source = fs.readFileSync(filename, 'latin1')
  // The cache the build made beside the bundle, else one in the user's cache (gw's directory read-only, another Node).
  const caches = [{file: () => join(dist, start.codeCacheName('gw.cjs'))}, {file: start.userCodeCacheFile(source)}]
  const {execute, placeGlobalFlags, checkForUpdate, UPDATE_CHECK} = start.loadBundle({filename, source, caches}, (module) => {
    // oclif require()s the bundle for its commands: this module, from require's cache.
    const require = createRequire(filename)
    require.cache[filename] = module
    return require
  })
  // The update notice's check, which a gw at a terminal starts in the background (src/cli/update-notice.ts).
  if (args[0] === UPDATE_CHECK) return checkForUpdate(args.slice(1))
  // No user plugins: gw takes none, and oclif would read (and warn of) a package.json in gw's data directory on every start.
  await execute({loadOptions: {root, userPlugins: false}, args: await placeGlobalFlags(args)})
}
