// npm's preinstall. gw installed (npm install --global, a tarball) on a Node below its floor stops,
// saying which Node it needs. A clone goes on: its npm ci installs the Node it pins. In a clone npm
// runs this after every dependency is in place (npm ci and npm install run the root's scripts
// last), so it also says, in one line, when keytar, the optional module gw reaches the OS keychain
// with, is missing or does not load: npm leaves a failed optional dependency out without a word,
// and the user would learn it at gw login. Left out on purpose (--omit=optional), nothing is said.
const fs = require('node:fs')
const {join} = require('node:path')
const relaunch = require('./relaunch.js')

const root = join(__dirname, '..')
const clone = fs.existsSync(join(root, 'src'))

if (!clone) {
  if (relaunch.belowFloor()) relaunch.needsNewerNode()
} else if (!omitted('optional')) {
  const why = keytarProblem()
  if (why) process.stderr.write(keychainNote(why))
}

/** Whether npm was told to leave out a kind of dependency (npm passes its settings to scripts as npm_config_*). */
function omitted(kind) {
  return (process.env.npm_config_omit ?? '').split(/[\s,]+/).includes(kind)
}

/** Why keytar cannot be used here, or undefined where it loads. */
function keytarProblem() {
  try {
    require(require.resolve('keytar', {paths: [root]}))
    return undefined
  } catch (err) {
    if (err?.code === 'MODULE_NOT_FOUND' && /'keytar'/.test(err.message)) return 'keytar could not be built'
    return `keytar does not load (${String(err?.message ?? err).split('\n')[0]})`
  }
}

/** The one line an install without the keychain prints. */
function keychainNote(why) {
  const need = process.platform === 'linux' ? ' (on Linux it needs libsecret-1-dev, then npm ci again)' : ''
  return `gw: no OS keychain: ${why}${need}. gw works without it: gw login then needs --insecure-storage (the token in a file only you can read), or give GW_TOKEN in the environment (docs/install.md).\n`
}
